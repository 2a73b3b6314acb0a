"""OpenMP/OpenACC loops over module allocatable arrays and allocatable components of a derived
type (h57 differential hunt: the shape of CloverLeaf/NEMO-like codes, arrays allocated
``(x_min-2:x_max+2, ...)`` in a module and used by the kernels without being passed).  Their
lower bounds and extents are known only at run time; the claim's proof took them for free
values, found that a row could then reach into the next one and refused every such loop:
"'!$omp parallel do': the loop over j is declared parallel, but mapping j to g.0 may race
(v[i - _tr_lb_v_1, ...] reaches index -1 ...)" (exit 1) on a conforming program.  Now the proof
takes the subscripts inside their extents under the condition the pipeline adds and the glue
checks at each call (as for a ``!$translate kernel`` region): the loops are proven, mapped in
parallel, and the output matches the original."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

FORTRAN = """\
! translate-test: translate=--directives=openmp,openacc
module fields
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type chunk_type
    real(dp), allocatable :: density(:, :), energy(:, :)
  end type chunk_type
  type(chunk_type) :: chunk
  real(dp), allocatable :: pressure(:, :), work(:, :)
  integer :: x_min, x_max, y_min, y_max
end module fields

module kernels
  use fields
  implicit none
contains
  subroutine eos()
    integer :: j, k
    !$omp parallel do private(j)
    do k = y_min, y_max
      do j = x_min, x_max
        pressure(j, k) = 0.4_dp * chunk%density(j, k) * chunk%energy(j, k)
      end do
    end do
    !$omp end parallel do
  end subroutine eos

  subroutine smooth()
    integer :: j, k
    !$acc parallel loop gang vector collapse(2)
    do k = y_min, y_max
      do j = x_min, x_max
        work(j, k) = 0.25_dp * (pressure(j - 1, k) + pressure(j + 1, k) &
                                + pressure(j, k - 1) + pressure(j, k + 1))
      end do
    end do
  end subroutine smooth
end module kernels

program main
  use fields
  use kernels
  implicit none
  integer :: j, k
  x_min = 1; x_max = 41; y_min = 1; y_max = 19
  allocate(chunk%density(x_min - 2:x_max + 2, y_min - 2:y_max + 2))
  allocate(chunk%energy(x_min - 2:x_max + 2, y_min - 2:y_max + 2))
  allocate(pressure(x_min - 2:x_max + 2, y_min - 2:y_max + 2))
  allocate(work(x_min:x_max, y_min:y_max))
  do k = y_min - 2, y_max + 2
    do j = x_min - 2, x_max + 2
      chunk%density(j, k) = 1 + 0.01_dp * j * k
      chunk%energy(j, k) = 2 - 0.003_dp * (j - k) ** 2
    end do
  end do
  pressure = 0
  call eos()
  call smooth()
  print '(3es24.16)', sum(pressure), sum(work), work(x_min, y_max) - work(x_max, y_min)
end program main
"""


def test_loops_over_module_allocatables_are_proven_and_match(tmp_path: Path) -> None:
    src = tmp_path / "modalloc.f90"
    src.write_text(FORTRAN)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "checked"), "--directives", "openmp,openacc",
                           f"--report={tmp_path / 'report.txt'}"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.txt").read_text()
    assert "'!$omp parallel do' at line 19: proven: loops k parallel" in report
    assert "'!$acc parallel loop' at line 30: proven: loops k, j parallel" in report
    check_sample(src, tmp_path)
