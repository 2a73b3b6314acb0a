"""Scratch arrays of COMMON blocks in OpenMP loops (h62 differential hunt: NPB-style codes
keep per-thread work arrays in a ``!$omp threadprivate(/blk/)`` COMMON block, or name a COMMON
array in ``private``).  Before, the loop was refused: "the loop over k is declared parallel,
but mapping k to g.0 races: ... writes flux[0]" (-Werror=directive-race, exit 1), since only
procedure-local arrays were made private and THREADPRIVATE was not read (its ``(/wrk/)``
form was even "unknown OpenMP directive").  Now the members of a THREADPRIVATE common block
(and variables named in it) that the loop writes are private to each iteration as under
``private``, and an array named in ``private`` is private wherever it lives."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

THREADPRIVATE = """\
c translate-test: translate=--directives=openmp
      program tpriv
      implicit none
      integer nx, ny
      parameter (nx=20, ny=18)
      double precision rhs(5,nx,ny), flux(5), q(3)
      integer i, j, m
      common /wrk/ flux
      common /wrk2/ q
!$omp threadprivate(/wrk/)
      do j = 1, ny
         do i = 1, nx
            do m = 1, 5
               rhs(m,i,j) = dble(m) + dble(i)*0.01d0 + dble(j)*1.0d-3
            end do
         end do
      end do
!$omp parallel do private(i,m)
      do j = 2, ny-1
         do i = 2, nx-1
            do m = 1, 5
               flux(m) = rhs(m,i,j) * 0.5d0
            end do
            do m = 1, 5
               rhs(m,i,j) = rhs(m,i,j) + flux(m) * dble(m)
            end do
         end do
      end do
!$omp parallel do private(i,m,q)
      do j = 2, ny-1
         do i = 2, nx-1
            q(1) = rhs(1,i,j)
            q(2) = rhs(2,i,j) - q(1)
            q(3) = q(2) * q(1)
            rhs(5,i,j) = q(3) + q(2)
         end do
      end do
      write(*,'(3ES24.16)') rhs(3,5,6), rhs(5,7,8), rhs(1,2,2)
      end
"""


def test_threadprivate_and_private_common_arrays_match(tmp_path: Path) -> None:
    src = tmp_path / "tpriv.f"
    src.write_text(THREADPRIVATE)
    check_sample(src, tmp_path, ("-Werror",))
