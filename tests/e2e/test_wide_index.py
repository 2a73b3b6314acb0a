"""64-bit address arithmetic (issue 28 item 4): a flat index whose extent product may pass
2**31 (symbolic extents, or constant ones that large) is computed in long; constant layouts
proven small and single axes keep int.  Structural tests on the kernel text, and programs of
moderate size run on the CPU OpenCL device against the original (a real 2**31-element run
needs more than PoCL's 2 GiB allocation limit here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.driver import translate_text

FORTRAN = """subroutine fill(n, m, l, b, c, d, e)
  integer, intent(in) :: n, m, l
  integer(1), intent(inout) :: b(n, m)
  real(8), intent(inout) :: c(0:n, -1:m, 2:l)
  real(8), intent(inout) :: d(100, 200)
  integer(1), intent(inout) :: e(50000, 50000)
  integer :: i, j, k
  !$translate kernel fill_k
  do k = 2, l
     do j = 1, m
        do i = 1, n
           b(i, j) = int(mod(i + 3 * j + k, 100), 1)
           c(i, j, k) = c(i - 1, j - 2, k) + i * j
           d(i, j) = i + j
           e(i, j + k) = 1
        end do
     end do
  end do
  !$translate end kernel
end subroutine
"""


def _statement(cl: str, array: str) -> str:
    return next(line.strip() for line in cl.splitlines() if line.strip().startswith(array + "["))


def test_extent_products_are_64_bit_where_they_may_pass_2_31():
    cl = translate_text("w.f90", FORTRAN).outputs["w.cl"]
    b, c = _statement(cl, "b"), _statement(cl, "c")
    assert b.split("=")[0].endswith(" + (long) (j - 1) * n] ")
    # every partial product of c's strides is a long (C multiplies left to right)
    assert "(long) (k - 2) * (n + 1) * (m + 2)" in c
    assert "(long) (j + 1) * (n + 1)" in c
    # d(100, 200) indexed to j = m: its last extent follows the footprint, max(200, m), so
    # the product is no longer a small constant
    assert _statement(cl, "d").split("=")[0].endswith(" - 1 + (long) (j - 1) * 100] ")
    assert _statement(cl, "e").split("=")[0].endswith(" + (long) (j + k - 1) * 50000] ")


def test_host_sizes_fold_constants_instead_of_overflowing_int():
    """The glue passed e's size as ``50000 * 50000``, an int product that overflows.  e is
    indexed to j + k = m + l, so its last extent follows the footprint: ``tr_max`` is a
    ``long long``, so the product is too."""
    host = translate_text("w.f90", FORTRAN).outputs["w.host.c"]
    assert "50000 * 50000" not in host
    assert ("tr_arg_array(&_tr_call, 3, e, 50000 * tr_max(50000, _tr_i_m + _tr_i_l), "
            "sizeof(cl_char), TR_IN | TR_OUT);") in host
    whole = translate_text("w.f90", FORTRAN.replace("e(i, j + k) = 1", "e(1, 1) = 1")).outputs
    assert "2500000000L" in whole["w.host.c"]


PROGRAM_F = FORTRAN.replace("e(i, j + k) = 1", "d(i, j) = d(i, j) + e(i, j + k)").replace(
    "e(50000, 50000)", "e(50000, 64)") + """
program main
  integer, parameter :: n = 37, m = 23, l = 4
  integer(1) :: b(n, m)
  real(8) :: c(0:n, -1:m, 2:l), d(100, 200)
  integer(1), allocatable :: e(:, :)
  integer :: k
  allocate(e(50000, 64))
  e = 3
  b = 0
  c = reshape([(real(k, 8), k = 1, size(c))], shape(c))
  d = 0
  call fill(n, m, l, b, c, d, e)
  print *, sum(int(b, 8)), sum(c), sum(d)
  print *, b(n, m), c(n, m, l), d(n, m)
end program
"""

PROGRAM_C = """#include <stdio.h>
void fill(int n, int m, signed char b[n][m], double c[3][n][m])
{
#pragma translate kernel fill_c
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) {
        b[i][j] = (signed char)((i + 3 * j) % 100);
        c[k][i][j] = c[k][i][j] * 2 + k;
      }
#pragma translate end kernel
}
int main(void)
{
  static signed char b[41][29];
  static double c[3][41][29];
  for (int k = 0; k < 3 * 41 * 29; k++) (&c[0][0][0])[k] = k % 17;
  fill(41, 29, b, c);
  long s = 0; double t = 0;
  for (int i = 0; i < 41; i++) for (int j = 0; j < 29; j++) s += b[i][j];
  for (int k = 0; k < 3 * 41 * 29; k++) t += (&c[0][0][0])[k];
  printf("%ld %.17g %d %.17g\\n", s, t, b[40][28], c[2][40][28]);
  return 0;
}
"""


def test_c_row_major_extent_products_are_64_bit():
    cl = translate_text("w.c", PROGRAM_C).outputs["w.cl"]
    assert "b[(long) (i_inner + i_outer * 8) * m + j_inner + j_outer * 32]" in cl
    assert "c[(long) k * m * n + (long) (i_inner + i_outer * 8) * m + " in cl


@pytest.mark.parametrize("name, text", [("wide.f90", PROGRAM_F), ("wide.c", PROGRAM_C)])
def test_64_bit_indices_run_like_the_original(tmp_path: Path, name: str, text: str):
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
