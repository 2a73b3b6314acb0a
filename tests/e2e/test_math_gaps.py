"""The rest of C99 math.h and of Fortran 2008's elemental intrinsics that OpenCL C has (issue
15): C's INFINITY, HUGE_VAL, HUGE_VALF and NAN, the comparison macros isgreater ...
isunordered (also on NaN), and the f/l forms of refused functions refused with their reason;
Fortran's iand, ior, ieor, not, btest, ibset, ibclr, merge_bits, bge, bgt, ble, blt, logical,
nearest and the two-argument atan of Fortran 2008 (integer(4) and (8), real(4) and (8)).
Translated and run on the CPU OpenCL device against the original program; these operations
are exact, so the outputs must be identical (the Fortran atan, a library function, to 1e-15).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import UnsupportedConstructError
from translator.driver import translate_text

C_PROGRAM = """#include <math.h>
#include <stdio.h>
#define N 40
static double x[N], y[N], r[N];
static float f[N], g[N];
static int k[N];
void compute(int n)
{
#pragma translate kernel
#pragma translate split_iname("i", 8, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    double v = x[i] > 0.9 ? NAN : x[i];
    double lim = i % 7 == 0 ? HUGE_VAL : (i % 5 == 0 ? -INFINITY : 0.5);
    r[i] = fmin(v, lim) + (x[i] > 0.9 ? HUGE_VALF : 0.0f);
    k[i] = isgreater(v, y[i]) + 2 * isgreaterequal(v, y[i]) + 4 * isless(v, y[i])
         + 8 * islessequal(v, y[i]) + 16 * islessgreater(v, y[i]) + 32 * isunordered(v, y[i])
         + 64 * isless(f[i], g[i]) + 128 * isunordered(f[i], NAN) + 256 * isinf(lim);
  }
#pragma translate end kernel
}
int main(void)
{
  for (int i = 0; i < N; i++) {
    x[i] = (i % 11) * 0.1;
    y[i] = i % 3 == 0 ? 0.5 : (i % 3 == 1 ? x[i] : NAN);
    f[i] = (float)(i % 4); g[i] = i % 6 == 0 ? NAN : 1.5f;
  }
  compute(N);
  for (int i = 0; i < N; i++) printf("%d %g %d\\n", i, r[i], k[i]);
  return 0;
}
"""

FORTRAN_PROGRAM = """! translate-test: rtol=1e-15
! (atan of the OpenCL library may differ from glibc in the last bit)
subroutine compute(n, k, l, x, s, kb, lb, xn, sn, tb)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: k(n)
  integer(8), intent(in) :: l(n)
  real(8), intent(in) :: x(n)
  real, intent(in) :: s(n)
  integer, intent(out) :: kb(n)
  integer(8), intent(out) :: lb(n)
  real(8), intent(out) :: xn(n)
  real, intent(out) :: sn(n)
  logical, intent(out) :: tb(n)
  integer :: i
  !$translate kernel
  !$translate split_iname("i", 8, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     kb(i) = iand(k(i), 365) + ior(k(i), 12) - ieor(k(i), -7) + not(k(i)) &
           + ibset(k(i), mod(i, 31)) - ibclr(k(i), mod(i, 5))
     lb(i) = ieor(l(i), 123456789012_8) + ibset(l(i), 62) + ibclr(l(i), mod(i, 63)) &
           + not(iand(l(i), -2_8))
     tb(i) = (btest(k(i), mod(i, 32)) .neqv. btest(l(i), 63)) .or. &
             (bge(k(i), l(i)) .and. .not. blt(k(i), -5)) .or. &
             (bgt(l(i), 7_8) .eqv. ble(k(i), k(n + 1 - i))) .and. logical(k(i) > 0, 1)
     kb(i) = kb(i) + merge_bits(k(i), not(k(i)), 16711935)
     ! one unit in the last place (exact), scaled by 2**60 so that the angle does not hide it
     xn(i) = (nearest(x(i), -x(i) - 1d0) - x(i)) * 2d0**60 + atan(x(i), -1.5d0)
     sn(i) = nearest(s(i), -2.0) - s(i)
  end do
  !$translate end kernel
end subroutine compute

program main
  implicit none
  integer, parameter :: n = 40
  integer :: k(n), kb(n), i
  integer(8) :: l(n), lb(n)
  real(8) :: x(n), xn(n)
  real :: s(n), sn(n)
  logical :: tb(n)
  do i = 1, n
     k(i) = (i - 20) * 104729
     l(i) = (i - 17) * 9876543210_8
     x(i) = (i - 20) * 0.375d0
     s(i) = (i - 11) * 1.25 + 0.5   ! never 0: float subnormals may be flushed
  end do
  call compute(n, k, l, x, s, kb, lb, xn, sn, tb)
  do i = 1, n
     print '(i3, 2i22, l2, es26.17e3, es16.8e2)', i, kb(i), lb(i), tb(i), xn(i), sn(i)
  end do
end program main
"""


@pytest.mark.parametrize("name, text", [("gaps.c", C_PROGRAM), ("gaps.f90", FORTRAN_PROGRAM)])
def test_math_gaps_run_like_the_original(tmp_path: Path, name: str, text: str):
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)


C_REGION = """#include <math.h>
void f(int n, double *restrict a, float *restrict b)
{
  int e;
#pragma translate kernel
  for (int i = 0; i < n; i++)
    a[i] = CALL;
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("call, why", [
    ("remquof(b[i], 1.0f, &e)", "it returns a result through a pointer"),
    ("modfl(a[i], a)", "long double is not supported on the device"),
    ("nanf(\"\")", "it takes a string (write NAN)"),
    ("j0f(b[i])", "OpenCL C has no Bessel functions"),
    ("nexttowardf(b[i], 1.0)", "it takes a long double"),
    ("HUGE_VALL", "long double is not supported on the device"),
])
def test_c_float_and_long_forms_are_refused_with_the_reason(call: str, why: str):
    """The float and long double forms of a refused function give its reason (they were
    "call to function 'frexpf' ... only math.h functions may be called")."""
    with pytest.raises(UnsupportedConstructError) as err:
        translate_text("m.c", C_REGION.replace("CALL", call))
    assert err.value.message.endswith(f"cannot be translated: {why}")
    assert (err.value.span.line, err.value.span.col) == (7, 12)


FORTRAN_REGION = """subroutine f(n, a, k)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer, intent(inout) :: k(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     k(i) = 1 + CALL
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("call, message", [
    ("ishftc(k(i), 2)", "intrinsic function 'ishftc' cannot be translated: a shift by the "
                        "whole bit size gives 0 in Fortran, but OpenCL C takes the count modulo "
                        "the bit size; compute it before the region, or give the device your "
                        "own with a register_function pragma"),
    ("leadz(k(i))", "intrinsic function 'leadz' cannot be translated: the translator does "
                    "not emit OpenCL's clz built-in; compute it before the region, or give the "
                    "device your own with a register_function pragma"),
    ("maskl(3)", "intrinsic function 'maskl' cannot be translated: a mask of the whole bit "
                 "size needs a shift by it, which OpenCL C takes modulo the bit size; compute "
                 "it before the region, or give the device your own with a register_function "
                 "pragma"),
    ("logical(k(i))", "intrinsic logical: argument k(i) is integer, not logical"),
    ("ibset(k(i), 32)", "intrinsic ibset: pos 32 is outside 0 to 31 (the bits of integer(4))"),
    ("iand(a(i), 3)", "intrinsic iand: argument a(i) is real, not integer"),
    ("int(nearest(a(i), 0d0))", "intrinsic nearest: s must not be zero"),
])
def test_fortran_bit_intrinsics_refused_by_name(call: str, message: str):
    with pytest.raises(UnsupportedConstructError if "cannot be" in message else Exception) \
            as err:
        translate_text("m.f90", FORTRAN_REGION.replace("CALL", call))
    assert err.value.message == message
    assert err.value.span.line == 8


def test_two_argument_atan_outside_a_region_parses():
    """Fortran 2008's atan(y, x) anywhere in a file made the whole file a syntax error
    (fparser checks Fortran 2003's arities); gfortran accepts it."""
    text = FORTRAN_REGION.replace("  !$translate kernel", "  a(1) = atan(a(2), a(3))\n"
                                  "  !$translate kernel").replace("CALL", "0")
    translate_text("m.f90", text)
    with pytest.raises(Exception) as err:
        translate_text("m.f90", text.replace("atan(a(2), a(3))", "atan(a(2), a(3), a(4))"))
    assert "Intrinsic 'ATAN' expects between 1 and 2 args but found 3" in str(err.value)
