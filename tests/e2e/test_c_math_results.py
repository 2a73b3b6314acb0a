"""C frexp, modf (a second result through a pointer), lround, lrint, llround, llrint and
signbit, in double and float forms (issue 28), on edge values: zeros of both signs, halves,
subnormals, huge values, infinities and NaNs.  Translated and run on the CPU OpenCL device
against the original program (gcc, glibc): the outputs must be identical.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import UnsupportedConstructError
from translator.driver import translate_text

PROGRAM = """#include <math.h>
#include <stdio.h>
#define N 24
static double x[N], fr[N], ip[N], md[N];
static float xf[N], frf[N], ipf[N];
static int e[N], ef[N], sb[N];
static long lr[N];
static long long ll[N];
void compute(int n)
{
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    fr[i] = frexp(x[i], &e[i]);
    frf[i] = frexpf(xf[i], &ef[i]);
    md[i] = modf(x[i], &ip[i]);
    float part;
    ipf[i] = modff(xf[i], &part) + part * 1000.0f;
    sb[i] = signbit(x[i]) + 2 * (signbit(xf[i]) != 0) + 4 * signbit(-x[i]);
    lr[i] = lround(x[i] * 3.0) + lrint(x[i] * 2.0) + lroundf(xf[i]);
    ll[i] = llround(x[i] * 0.5) - llrintf(xf[i] * 2.0f);
  }
#pragma translate end kernel
}
int main(void)
{
  double v[N] = {0.0, -0.0, 1.0, -3.5, 2.5, -2.5, 0.5, -0.5, 1e300, -7e-300, 4.9e-324,
                 -4.9e-322, 12345.678, -0.75, 1.5, 3.0, -3.0, 1e15 + 0.5, 7.0 / 3.0,
                 INFINITY, -INFINITY, NAN, -NAN, 1e-310};
  for (int i = 0; i < N; i++) {
    x[i] = v[i];
    xf[i] = fabs(v[i]) < 1e30 && (v[i] == 0 || fabs(v[i]) > 1e-30) ? (float)v[i] : 0.25f;
  }
  x[23] = 1e-310;
  compute(N);
  for (int i = 0; i < N; i++)
    printf("%2d %.17g %d %.9g %d %.17g %.17g %.9g %d %ld %lld\\n", i, fr[i], e[i], frf[i], ef[i],
           md[i], ip[i], ipf[i], sb[i], fabs(x[i]) < 1e16 ? lr[i] : 0L,
           fabs(x[i]) < 1e16 ? ll[i] : 0LL);
  return 0;
}
"""


def test_c_math_functions_run_like_the_original(tmp_path: Path) -> None:
    """Each was refused ("it returns a result through a pointer", "OpenCL C has no such
    function", "the value C's signbit returns is not specified")."""
    src = tmp_path / "cmath.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)


def test_frexp_stores_before_the_statement_that_uses_its_value() -> None:
    ir = translate_text("c.c", PROGRAM).ir
    lines = [ln.strip() for ln in ir.splitlines()]
    e_at = next(k for k, ln in enumerate(lines) if ln.startswith("e["))
    fr_at = next(k for k, ln in enumerate(lines) if ln.startswith("fr["))
    assert e_at < fr_at


def test_frexp_needs_an_address() -> None:
    text = PROGRAM.replace("frexp(x[i], &e[i])", "frexp(x[i], e + i)")
    with pytest.raises(UnsupportedConstructError) as err:
        translate_text("c.c", text)
    assert err.value.message == ("frexp: the second argument must be the address of a "
                                 "variable or an array element (&e, &e[i])")
    assert (err.value.span.line, err.value.span.col) == (13, 13)
