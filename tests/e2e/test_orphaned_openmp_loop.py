"""An orphaned OpenMP worksharing loop (h62 differential hunt: ``!$omp do`` in a subroutine
that a caller's ``!$omp parallel`` calls, as codes split their parallel regions over
procedures).  The loop is offloaded in its subroutine, but every thread of the caller's team
reached the call: built with ``-fopenmp``, four threads ran the region at once (the runtime
is not made for that): "clEnqueueReadBuffer failed: CL_INVALID_MEM_OBJECT", or the program
hung.  Now the call of such a region is in ``!$omp single`` ... ``!$omp end single``: one
thread runs it, the others wait at its end as at the end of the loop."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import (build_original, build_translated, compare_outputs, run,
                               sample_options)

PROGRAM = """\
! translate-test: translate=--directives=openmp cppflags=-fopenmp rtol=1e-13
module kern
  implicit none
contains
  subroutine relax(n, u, f, r)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n), f(n)
    real(8), intent(out) :: r(n)
    integer :: i
    !$omp do
    do i = 2, n - 1
      r(i) = f(i) - (2.0d0 * u(i) - u(i - 1) - u(i + 1))
    end do
    !$omp end do
  end subroutine relax
end module kern

program orphan
  use kern
  implicit none
  integer, parameter :: n = 5000
  real(8) :: a(n), b(n), c(n)
  integer :: i, it
  do i = 1, n
    a(i) = sin(dble(i) * 0.3d0)
    b(i) = cos(dble(i) * 0.7d0)
    c(i) = 0.0d0
  end do
  do it = 1, 20
    !$omp parallel
    call relax(n, a, b, c)
    !$omp end parallel
    a(2:n - 1) = a(2:n - 1) + 1.0d-3 * c(2:n - 1)
  end do
  write(*, '(4ES24.16)') c(2), c(n / 2), c(n - 1), sum(c)
end program orphan
"""


def test_an_orphaned_loop_runs_once_per_team(tmp_path: Path) -> None:
    src = tmp_path / "orphan.f90"
    src.write_text(PROGRAM)
    opts = sample_options(src)
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    threads = {"OMP_NUM_THREADS": "4"}
    expected = run([str(original)], tmp_path, env=threads)
    assert "omp single" in (tmp_path / "out" / "orphan.f90").read_text()
    for _ in range(3):
        got = run([str(translated)], tmp_path, env={**threads, "TRANSLATE_DEVICE": "cpu"},
                  timeout=120)
        compare_outputs(expected, got, opts.rtol)
