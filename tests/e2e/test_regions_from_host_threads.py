"""A region called from several host threads at once (h62 differential hunt: an OpenMP
``parallel do`` left as written on the host, here for a PRINT in its body, calls a procedure
that holds a translated region).  The runtime's state is one per process and was not guarded:
built with ``-fopenmp`` and four threads, runs printed **28000 instead of 32000 (exit 0)**,
failed ("launching kernel 'work_0' ... failed: CL_INVALID_KERNEL_ARGS") or crashed
(segmentation fault).  Now the calls of regions run one after another (a process-wide lock
from ``tr_region_begin`` to ``tr_region_end``)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import build_original, build_translated, run, sample_options

PROGRAM = """\
! translate-test: translate=--directives=openmp,translate cppflags=-fopenmp
module kk
contains
  subroutine work(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n)
    integer :: i
    !$translate kernel
    do i = 1, n
      y(i) = x(i) * 2.0d0 + dble(i)
    end do
    !$translate end kernel
  end subroutine work
end module kk

program threads
  use kk
  implicit none
  integer, parameter :: n = 1000, m = 32
  real(8) :: x(n, m), y(n, m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      x(i, j) = dble(j)
    end do
  end do
  !$omp parallel do
  do j = 1, m
    call work(n, x(:, j), y(:, j))
    if (j < 0) print *, j
  end do
  print '(ES24.16)', sum(y)
end program threads
"""


def test_regions_called_from_host_threads_match(tmp_path: Path) -> None:
    src = tmp_path / "threads.f90"
    src.write_text(PROGRAM)
    opts = sample_options(src)
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    env = {"OMP_NUM_THREADS": "4"}
    expected = run([str(original)], tmp_path, env=env)
    for _ in range(4):
        got = run([str(translated)], tmp_path, env={**env, "TRANSLATE_DEVICE": "cpu"},
                  timeout=120)
        assert got == expected
