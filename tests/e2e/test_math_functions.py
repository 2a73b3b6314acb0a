"""Every C99 math.h function OpenCL C has, and the Fortran 2008 elemental intrinsics it has,
translated and run on the CPU OpenCL device against the original program; the others are
refused by name at their file:line:col.

Tolerance: OpenCL C allows its erf, tgamma, lgamma, cbrt, hypot, ... a few ulp (up to 16),
and PoCL's library is not glibc's; double results are compared to 1e-12 relative, float
results are printed to 6 digits.  The exactly rounded ones (fma, remainder, ldexp, nextafter,
fdim, rint) need no tolerance, but share the printed sums.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import UnsupportedConstructError
from translator.driver import translate_text

C_PROGRAM = """/* translate-test: rtol=1e-12 */
#include <math.h>
#include <stdio.h>
#define N 64
static double x[N], y[N];
static float f[N];
static int k[N];
void compute(int n)
{
#pragma translate kernel
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    double v = x[i];
    y[i] = erf(v) + erfc(v) + tgamma(v + 3.0) + lgamma(v + 3.0) + cbrt(v) + hypot(v, 2.0)
         + log1p(v + 1.0) + expm1(v) + fma(v, 2.0, 1.0) + remainder(v, 0.7) + ldexp(v, i % 5)
         + nextafter(v, 0.0) + exp2(v) + log2(v + 3.0) + asinh(v) + acosh(v * v + 1.0)
         + atanh(v / 4.0) + fdim(v, 0.5) + rint(v * 3.0) + nearbyint(v * 1.5) + logb(v + 4.0)
         + scalbn(v, 2);
    f[i] = erff((float)v) + cbrtf((float)v) + hypotf((float)v, 1.0f) + fmaf((float)v, 2.0f, 1.0f)
         + ldexpf((float)v, 3) + tgammaf((float)v + 3.0f);
    k[i] = ilogb(v + 5.0) + isnan(v) + 2 * isinf(v / 0.0) + 4 * isfinite(v) + 8 * isnormal(v);
  }
#pragma translate end kernel
}
int main(void)
{
  for (int i = 0; i < N; i++) x[i] = (i - 20) * 0.0625;
  compute(N);
  double s = 0; double sf = 0; long sk = 0;
  for (int i = 0; i < N; i++) { s += y[i]; sf += f[i]; sk += k[i] * (i + 1); }
  printf("%.17g %.6g %ld\\n", s, sf, sk);
  printf("%.17g %.17g %.6g\\n", y[3], y[40], f[10]);
  return 0;
}
"""

FORTRAN_PROGRAM = """! translate-test: rtol=1e-12
subroutine compute(n, x, y, f)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real, intent(out) :: f(n)
  integer :: i
  !$translate kernel
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     y(i) = erf(x(i)) + erfc(x(i)) + gamma(x(i) + 3d0) + log_gamma(x(i) + 3d0) &
          + hypot(x(i), 2d0) + asinh(x(i)) + acosh(x(i)**2 + 1d0) + atanh(x(i) / 4d0) &
          + scale(x(i), mod(i, 5))
     f(i) = erf(real(x(i))) + gamma(real(x(i)) + 3.0) + hypot(real(x(i)), 1.0)
  end do
  !$translate end kernel
end subroutine compute

program main
  implicit none
  integer, parameter :: n = 64
  real(8) :: x(n), y(n)
  real :: f(n)
  integer :: i
  do i = 1, n
     x(i) = (i - 20) * 0.0625d0
  end do
  call compute(n, x, y, f)
  print '(es25.17, es16.6)', sum(y), sum(f)
  print '(2es25.17, es16.6)', y(3), y(40), f(10)
end program main
"""


@pytest.mark.parametrize("name, text", [("math.c", C_PROGRAM), ("math.f90", FORTRAN_PROGRAM)])
def test_math_functions_run_like_the_original(tmp_path: Path, name: str, text: str):
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)


C_REGION = """#include <math.h>
void f(int n, double *restrict a, float *restrict b)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    a[i] = CALL;
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("call, message", [
    ("remquo(a[i], 2.0, &n)", "math function 'remquo' cannot be translated: it returns a "
                              "result through a pointer"),
    ("frexpl(a[i], &n)", "math function 'frexpl' cannot be translated: long double is not "
                         "supported on the device"),
    ("sinl(a[i])", "math function 'sinl' cannot be translated: long double is not supported "
                   "on the device"),
    ("j0(a[i])", "math function 'j0' cannot be translated: OpenCL C has no Bessel functions"),
    ("nan(\"\")", "math function 'nan' cannot be translated: it takes a string (write NAN)"),
    ("scalbln(a[i], 2L)", "math function 'scalbln' cannot be translated: OpenCL C has no "
                          "such function (write ldexp(x, n) with an int n)"),
])
def test_c_math_functions_opencl_lacks_are_refused_by_name(call: str, message: str):
    with pytest.raises(UnsupportedConstructError) as err:
        translate_text("m.c", C_REGION.replace("CALL", call))
    assert err.value.message == message
    # a macro (signbit) is located where its expansion starts
    col = 11 if call.startswith("signbit") else 12
    assert (err.value.span.file, err.value.span.line, err.value.span.col) == ("m.c", 6, col)


FORTRAN_REGION = """subroutine f(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     a(i) = 1 + CALL
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("call, reason", [
    ("bessel_j0(a(i))", "OpenCL C has no Bessel functions"),
    ("bessel_yn(2, a(i))", "OpenCL C has no Bessel functions"),
    ("erfc_scaled(a(i))", "OpenCL C has no erfc_scaled (exp(x**2)*erfc(x) overflows where "
                          "it does not)"),
    ("rrspacing(a(i))", "OpenCL C has no direct counterpart of this model function"),
])
def test_fortran_intrinsics_opencl_lacks_are_refused_by_name(call: str, reason: str):
    with pytest.raises(UnsupportedConstructError) as err:
        translate_text("m.f90", FORTRAN_REGION.replace("CALL", call))
    name = call.split("(")[0]
    assert err.value.message == (
        f"intrinsic function {name!r} cannot be translated: {reason}; compute it before the "
        "region, or give the device your own with a register_function pragma")
    assert (err.value.span.line, err.value.span.col) == (7, 17)
