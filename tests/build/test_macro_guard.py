"""The macros a translation used (C, preprocessed Fortran) are checked again when the
rewritten source compiles.

Translated without ``-DN=...`` and compiled with it, the kernels (made for the N of the
translation) ran on arrays of the compiled N: wrong results and exit 0.  The rewritten source
now ends with an ``#if``/``#error`` per macro it used, so that build stops with the macro's name.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from frontends.macros import guard, integer_value, split_probes, with_probes
from tests.build.helpers import must, run, translate, write

SOURCE = """\
#include <stdio.h>
#ifndef N
#define N 40
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef USE_FLOAT
typedef float real;
#else
typedef double real;
#endif
#define HALF (N / 2)
static real a[N + 2], b[N + 2];
int main(void)
{
    for (int i = 0; i < N + 2; i++) a[i] = (real)(i % 7) * 0.5f;
#pragma translate kernel smooth
    for (int i = 1; i <= N; i++)
        b[i] = a[i - 1] + a[i + 1] + (i < HALF ? a[i] : 0);
#pragma translate end kernel
    double s = 0;
    for (int i = 0; i < N + 2; i++) s += b[i] * i;
    printf("%.17g\\n", s);
    return 0;
}
"""


FORTRAN = """\
program p
  implicit none
#ifndef N
#define N 40
#endif
#ifdef SP
  integer, parameter :: wp = 4
#else
  integer, parameter :: wp = 8
#endif
  real(wp) :: a(0:N+1), b(0:N+1)
  integer :: i
  do i = 0, N + 1
    a(i) = mod(i, 7) * 0.5_wp
  end do
  b = 0
  !$translate kernel smooth
  do i = 1, N
    b(i) = a(i-1) + a(i+1)
  end do
  !$translate end kernel
  print '(f20.6)', sum(b * [(i, i = 0, N + 1)])
end program p
"""


def _runtime(tmp: Path) -> Path:
    return Path(must(translate("--runtime-dir", cwd=tmp)).strip())


def _build(tmp: Path, out: str, flags: list[str], exe: str) -> subprocess.CompletedProcess:
    rt = _runtime(tmp)
    return run(["gcc", "-O1", "-std=c99", *flags, f"-I{rt}", f"{out}/m.c", f"{out}/m.host.c",
                str(rt / "translate_rt.c"), "-lOpenCL", "-lm", "-o", exe], cwd=tmp)


def _original(tmp: Path, flags: list[str]) -> str:
    must(run(["gcc", "-O1", "-std=c99", *flags, "m.c", "-o", "orig"], cwd=tmp))
    return must(run(["./orig"], cwd=tmp))


def test_compiling_with_other_macro_values_stops_the_build(tmp_path):
    write(tmp_path, "m.c", SOURCE)
    must(translate("m.c", "-o", "out", cwd=tmp_path))
    must(_build(tmp_path, "out", [], "same"))
    assert must(run(["./same"], cwd=tmp_path)) == _original(tmp_path, [])
    for flags, name in ((["-DN=100"], "N is not what it was when m.c was translated (40)"),
                        (["-DUSE_FLOAT"], "USE_FLOAT was not defined when m.c was translated")):
        proc = _build(tmp_path, "out", flags, "other")
        assert proc.returncode != 0, "built with other macro values"
        assert f"translate: {name}: translate it again with the -D and -I flags" in proc.stderr
    # HALF depends on N: its own check fails too, and the reserved _OPENMP is not checked
    text = (tmp_path / "out" / "m.c").read_text()
    assert "(HALF) != 20" in text and "_OPENMP" not in text.split("/* translate: the macros")[1]
    must(_build(tmp_path, "out", ["-fopenmp"], "omp"))


def test_translated_with_the_compilations_flags_matches(tmp_path):
    write(tmp_path, "m.c", SOURCE)
    must(translate("m.c", "-o", "big", "-DN=100", "-DUSE_FLOAT", cwd=tmp_path))
    must(_build(tmp_path, "big", ["-DN=100", "-DUSE_FLOAT"], "big_exe"))
    assert (must(run(["./big_exe"], cwd=tmp_path))
            == _original(tmp_path, ["-DN=100", "-DUSE_FLOAT"]))
    assert "(N) != 100" in (tmp_path / "big" / "m.c").read_text()


@pytest.mark.parametrize("text, value", [
    ("64", 64), ("(8192 + 2)", 8194), ("0x10", 16), ("010", 8), ("10UL", 10), ("1u << 4", 16),
    ("-7 / 2", -3), ("-7 % 2", -1), ("7 / -2", -3), ("~0", -1), ("(2 * (3 + 4)) - 1", 13),
    ("3.5", None), ("(double)3", None), ("N", None), ("1 < 2", None), ("1 / 0", None), ("", None),
])
def test_integer_value_as_c_computes_it(text, value):
    assert integer_value(text) == value


def test_probes_read_back_from_the_preprocessor(tmp_path):
    names = ["N", "HALF", "USE_FLOAT", "a", "F"]
    text = "#define N 8\n#define HALF (N/2)\n#define F(x) x\nint a;\n"
    out = subprocess.run(["gcc", "-E", "-x", "c", "-"], input=with_probes(text, names),
                         capture_output=True, text=True, check=True).stdout
    body, values = split_probes(out, names)
    assert "__translate" not in body and "int a;" in body
    assert values["HALF"].integer == 4 and values["N"].integer == 8
    assert not values["USE_FLOAT"].is_macro and not values["a"].is_macro
    assert values["F"].is_macro and values["F"].integer is None   # function-like
    # F is tested by a conditional: it must stay defined; a is no macro: nothing to check
    lines = guard("t.c", text + "#ifdef F\n#endif\n", [(0, len(text))], values)
    assert "#ifndef F\n" in lines and "(N) != 8" in lines and "(a)" not in lines


def test_preprocessed_fortran_checks_its_macros_too(tmp_path):
    write(tmp_path, "f.F90", FORTRAN)
    must(translate("f.F90", "-o", "out", cwd=tmp_path))
    rt = _runtime(tmp_path)
    must(run(["gcc", "-c", f"-I{rt}", "out/f.host.c", str(rt / "translate_rt.c")], cwd=tmp_path))

    def build(flags: list[str], exe: str) -> subprocess.CompletedProcess:
        return run(["gfortran", *flags, "out/f.F90", "f.host.o", "translate_rt.o", "-lOpenCL",
                    "-o", exe], cwd=tmp_path)

    must(build([], "same"))
    must(run(["gfortran", "f.F90", "-o", "orig"], cwd=tmp_path))
    assert must(run(["./same"], cwd=tmp_path)) == must(run(["./orig"], cwd=tmp_path))
    proc = build(["-DN=100"], "other")   # before: built, and printed another sum (exit 0)
    assert proc.returncode != 0
    assert ("translate: N is not what it was when f.F90 was translated (40): translate it "
            "again with the -D and -I flags of this compilation") in proc.stderr
    assert "translate: SP was not defined when f.F90" in build(["-DSP"], "sp").stderr
