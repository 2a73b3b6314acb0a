"""A parallel sum over a 2-D nest whose body holds a sequential inner loop (h57 differential
hunt: ``!$acc parallel loop collapse(2) private(acc) reduction(+:vsum)`` with ``acc = 0; !$acc
loop seq; do l = -1, 1; acc = acc + u(i+l, j) * v(i, j+l)``, the shape of stencil norms).
Before, the reduction's unrolled accumulators were split off the group loop around the inner
loop, and the scheduler refused it: "statement 's1' reads acc written by 's0' in the same
iteration of loop j_acc, but they cannot share one loop over j_acc: loop l encloses ... (include
l in the writer's loops, e.g. add_prefetch(...))" (exit 1).  Now such a body keeps one
accumulator per work item, and the sum matches the original."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

OPENACC = """\
! translate-test: translate=--directives=openacc rtol=1e-13
subroutine norm(nx, ny, u, v, vsum)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: u(0:nx + 1, 0:ny + 1), v(0:nx + 1, 0:ny + 1)
  real(8), intent(out) :: vsum
  real(8) :: acc
  integer :: i, j, l
  vsum = 0
  !$acc parallel loop gang vector collapse(2) private(acc) reduction(+:vsum)
  do j = 1, ny
    do i = 1, nx
      acc = 0
      !$acc loop seq
      do l = -1, 1
        acc = acc + u(i + l, j) * v(i, j + l)
      end do
      vsum = vsum + acc * 0.5d0
    end do
  end do
end subroutine norm

program inner_loop_sum
  implicit none
  integer, parameter :: nx = 45, ny = 33
  real(8) :: u(0:nx + 1, 0:ny + 1), v(0:nx + 1, 0:ny + 1), vsum
  integer :: i, j
  do j = 0, ny + 1
    do i = 0, nx + 1
      u(i, j) = 3 * sin(0.2d0 * i) * cos(0.1d0 * j)
      v(i, j) = -2 * cos(0.15d0 * i * j)
    end do
  end do
  call norm(nx, ny, u, v, vsum)
  print '(es24.16)', vsum
end program inner_loop_sum
"""

TRANSLATE = """\
! translate-test: rtol=1e-13
subroutine peak(nx, ny, u, best)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: u(nx, ny)
  real(8), intent(out) :: best
  real(8) :: t
  integer :: i, j, l
  best = -1d30
  !$translate kernel
  !$translate set_options(reassociate=True)
  do j = 1, ny
    do i = 1, nx
      t = 0
      do l = 1, 4
        t = t + u(i, j) ** l / l
      end do
      best = max(best, t)
    end do
  end do
  !$translate end kernel
end subroutine peak

program inner_loop_max
  implicit none
  integer, parameter :: nx = 70, ny = 40
  real(8) :: u(nx, ny), best
  integer :: i, j
  do j = 1, ny
    do i = 1, nx
      u(i, j) = sin(0.37d0 * i * j) + 0.01d0 * i
    end do
  end do
  call peak(nx, ny, u, best)
  print '(es24.16)', best
end program inner_loop_max
"""


@pytest.mark.parametrize("name, text", [("inner_sum.f90", OPENACC), ("inner_max.f90", TRANSLATE)])
def test_reduction_with_inner_loop_matches(name: str, text: str, tmp_path: Path) -> None:
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
