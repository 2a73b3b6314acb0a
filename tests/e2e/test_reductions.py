"""End to end: programs with reductions, original vs translated, on the CPU OpenCL device.

The samples `samples/*/reductions.*` run in `test_samples.py`; these are further programs:
other mappings, sizes that are not multiples of the work-group size, Fortran's intrinsic
reductions with and without a parallel mapping, and the error for a reduction that cannot
cross work groups.
"""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

FORTRAN_INTRINSICS = """\
! translate-test: rtol={rtol}
subroutine stats(n, x, y, total, prod, d, big, small, c, c8, some, every, none)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y(n)
  real(8), intent(out) :: total, prod, d, big, small
  integer, intent(out) :: c
  integer(8), intent(out) :: c8
  logical, intent(out) :: some, every, none
  !$translate kernel stats_k
{pragmas}
  total = sum(x(1:n:2))
  prod = product(1 + x / 64)
  d = dot_product(x(2:n), y(1:n-1))
  big = maxval(abs(x))
  small = minval(y(3:n-2))
  c = count(x > y)
  c8 = count(abs(y) < 0.5d0, kind=8)
  some = any(x(10:n) > 1.05d0)
  every = all(x > -2.0d0)
  none = all(y(::7) > 0)
  !$translate end kernel
end subroutine stats

program main
  implicit none
  integer, parameter :: n = {n}
  real(8) :: x(n), y(n), total, prod, d, big, small
  integer :: c, i
  integer(8) :: c8
  logical :: some, every, none
  do i = 1, n
     x(i) = sin(0.37d0 * i) + 0.1d0 * cos(2.1d0 * i)
     y(i) = cos(0.11d0 * i) - 0.25d0
  end do
  call stats(n, x, y, total, prod, d, big, small, c, c8, some, every, none)
  print '(5(1x, es23.15e3))', total, prod, d, big, small
  print '(2i8, 3l3)', c, c8, some, every, none
end program main
"""

#: Generated inames of the ten array intrinsics above, in source order.
INTRINSIC_INAMES = ["_tr_i"] + [f"_tr_i_{k}" for k in range(9)]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    src = tmp_path / name
    src.write_text(textwrap.dedent(text))
    return src


def test_fortran_intrinsics_without_mapping_are_bit_identical(tmp_path):
    """One work item, the loops in source order: the same bits as gfortran."""
    src = _write(tmp_path, "intrinsics.f90", FORTRAN_INTRINSICS.format(rtol=0, pragmas="",
                                                                        n=301))
    out = check_sample(src, tmp_path)
    assert out.split()[-3:] == ["T", "T", "F"]      # any, all, and an all that fails


@pytest.mark.parametrize("n", [301, 1000])
def test_fortran_intrinsics_on_a_local_axis(tmp_path, n):
    pragmas = "\n".join(f'  !$translate split_iname("{i}", 32, inner_tag="l.0")'
                        for i in INTRINSIC_INAMES)
    src = _write(tmp_path, "intrinsics.f90", FORTRAN_INTRINSICS.format(
        rtol="1e-12", pragmas=pragmas, n=n))
    check_sample(src, tmp_path)


FORTRAN_LOOPS = """\
! translate-test: rtol=1e-12
subroutine loops(n, x, s, big, cnt, colmax)
  implicit none
  integer, intent(in) :: n
  real(4), intent(in) :: x(n)
  real(8), intent(inout) :: s, big
  integer, intent(inout) :: cnt
  real(4), intent(inout) :: colmax(3)
  integer :: i, k
  !$translate kernel loops_k
  !$translate tag_inames("i:g.0")
  do i = 1, n
     s = s + dble(x(i))
     if (abs(x(i)) > big) big = abs(x(i))
     if (x(i) < 0.0) cnt = cnt + 2
     do k = 1, 3
        colmax(k) = max(colmax(k), x(i) * k)
     end do
  end do
  !$translate end kernel
end subroutine loops

program main
  implicit none
  integer, parameter :: n = 777
  real(4) :: x(n), colmax(3)
  real(8) :: s, big
  integer :: cnt, i
  do i = 1, n
     x(i) = real(sin(0.37d0 * i), 4)
  end do
  s = 1.0d0
  big = 0.0d0
  cnt = 0
  colmax = -1.0e30
  call loops(n, x, s, big, cnt, colmax)
  print '(2(1x, es23.15e3), i8)', s, big, cnt
  print '(3(1x, es15.7e3))', colmax
end program main
"""


def test_fortran_loops_on_group_axis_only(tmp_path):
    """Every group is one work item: the reductions are atomic updates, no tree."""
    check_sample(_write(tmp_path, "loops.f90", FORTRAN_LOOPS), tmp_path)


C_PROGRAM = """\
/* translate-test: rtol=1e-5 */
#include <stdio.h>
#include <math.h>

void kern(int n, const float *restrict x, float *restrict s, int *restrict odd,
          double *restrict lo)
{{
#pragma translate kernel c_k
#pragma translate split_iname("i", {size}, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {{
    *s += x[i] * x[i];
    if (i % 2 == 1)
      *odd += 1;
    if (x[i] < *lo)
      *lo = x[i];
  }}
#pragma translate end kernel
}}

int main(void)
{{
  static float x[{n}];
  float s = 0.5f;
  int odd = 0;
  double lo = 10.0;
  for (int i = 0; i < {n}; i++)
    x[i] = (float) sin(0.37 * i);
  kern({n}, x, &s, &odd, &lo);
  printf("%.6e %d %.9e\\n", s, odd, lo);
  return 0;
}}
"""


@pytest.mark.parametrize("size, n", [(64, 1000), (48, 100), (256, 7)])
def test_c_float_reductions_across_groups(tmp_path, size, n):
    check_sample(_write(tmp_path, "kern.c", C_PROGRAM.format(size=size, n=n)), tmp_path)


def test_initialisation_before_group_reduction_is_its_own_kernel(tmp_path):
    """`s = 0` then a reduction across work groups: in one kernel the groups could not wait
    for the initialisation; the region becomes two kernels launched in order (the values are
    integers, so the parallel sum is exact and matches the original)."""
    src = _write(tmp_path, "init.f90", """\
        subroutine f(n, a, s)
          integer, intent(in) :: n
          real(8), intent(in) :: a(n)
          real(8), intent(out) :: s
          integer :: i
          !$translate kernel k
          !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
          s = 0
          do i = 1, n
            s = s + a(i)
          end do
          !$translate end kernel
        end subroutine

        program main
          integer, parameter :: n = 1000
          real(8) :: a(n), s
          integer :: i
          do i = 1, n
            a(i) = mod(i * 7, 13) - 6
          end do
          call f(n, a, s)
          print *, s
        end program
        """)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    glue = (tmp_path / "out" / "init.host.c").read_text()
    assert 'TR_REGION_KERNELS("k", ' in glue and '{"k_k0", ' in glue and '{"k_k1", ' in glue
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)


FORTRAN_MASKED = """\
! translate-test: rtol=0
subroutine masked(n, x, total, prod)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: total, prod
  !$translate kernel masked_k
  total = sum(x, mask=x > 0.25d0)
  prod = product(1 + x / 64, mask=x < 0)
  !$translate end kernel
end subroutine masked

program main
  implicit none
  integer, parameter :: n = 203
  real(8) :: x(n), total, prod
  integer :: i
  do i = 1, n
     x(i) = sin(0.37d0 * i)
  end do
  call masked(n, x, total, prod)
  print '(2(1x, es23.15e3))', total, prod
end program main
"""


def test_fortran_masked_sum_and_product_start_from_their_neutral_elements(tmp_path):
    """``sum(x, mask=)`` adds 0 and ``product(x, mask=)`` multiplies by 1 where the mask is
    false (the neutral elements of `translator.ir.reduction_ops`)."""
    src = _write(tmp_path, "masked.f90", FORTRAN_MASKED)
    check_sample(src, tmp_path)
