"""Procedures an OpenMP ``declare target`` or an OpenACC ``routine seq`` makes callable on the
device (issue 22): a loop directive whose loop calls them translates, each call inlined and
the loop proven as if the bodies were written in it, in C and Fortran; the samples
(`samples/openmp/declare_target.*`, `samples/openacc/routine_seq.*`) build and match the
original on PoCL.  A ``routine gang``/``worker``/``vector`` procedure shares its loops among
the caller's gangs: a region that calls it is refused with a message naming the level."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample
from translator.driver import translate_text

SAMPLES = [(REPO / "samples" / "openmp" / f"declare_target{ext}", "openmp")
           for ext in (".c", ".f90")] + [
           (REPO / "samples" / "openacc" / f"routine_seq{ext}", "openacc")
           for ext in (".c", ".f90")]


def translate(src: Path, out: Path, models: str, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           "--directives", f"{models},translate", *flags],
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("src,models", SAMPLES, ids=lambda v: getattr(v, "name", v))
def test_callable_procedures_are_inlined_into_the_loop(src: Path, models: str,
                                                       tmp_path: Path) -> None:
    done = translate(src, tmp_path / "out", models, "--report", "-Werror")
    assert done.returncode == 0, done.stderr
    report = done.stderr + done.stdout
    assert "at line" in report and "proven: loops i parallel" in report, report
    why = ("its procedures are inlined into the regions that call them" if models == "openmp"
           else "a 'routine seq' procedure is inlined into the regions that call it")
    assert why in report
    device = (tmp_path / "out" / f"{src.stem}.cl").read_text()
    assert "__kernel" in device
    assert "smooth(" not in device and "clamp(" not in device   # inlined, not called


@pytest.mark.parametrize("src,models", SAMPLES, ids=lambda v: getattr(v, "name", v))
def test_callable_procedure_samples_match_the_original(src: Path, models: str,
                                                       tmp_path: Path) -> None:
    assert check_sample(src, tmp_path).strip()


def test_a_file_whose_functions_are_all_needed_inlines_them() -> None:
    """A C file holding only the region's function and the functions it calls (nothing for
    the parse to skip): the calls are inlined (they were 'cannot be translated')."""
    text = textwrap.dedent("""\
        #pragma acc routine seq
        static double sq(double x) { return x * x + 1; }
        void s(int n, double *restrict a, double *restrict b)
        {
        #pragma acc parallel loop
          for (int i = 0; i < n; i++)
            b[i] = sq(a[i]);
        }
        """)
    result = translate_text("lib.c", text, {"directives": ("openacc",)})
    assert len(result.regions) == 1
    assert "sq(" not in result.outputs["lib.cl"]


ROUTINE_C = """\
#pragma acc routine {level}
static void row_scale(int n, double *r, double f)
{{
#pragma acc loop {level}
  for (int k = 0; k < n; k++)
    r[k] *= f;
}}

void s(int n, double *restrict a, double *restrict b)
{{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    row_scale(n, &a[i * n], b[i]);
}}

void t(int n, double *restrict a, double *restrict b)
{{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    row_scale(n, &a[i * n], b[i]);
#pragma translate end kernel
}}
"""

ROUTINE_F = """\
module m
contains
  subroutine row_scale(n, r, f)
    !$acc routine {level}
    integer, intent(in) :: n
    real(8), intent(inout) :: r(n)
    real(8), intent(in) :: f
    integer :: k
    !$acc loop {level}
    do k = 1, n
       r(k) = r(k) * f
    end do
  end subroutine
end module

subroutine s(n, a, b)
  use m
  integer :: n, i
  real(8) :: a(n, n), b(n)
  !$acc parallel loop
  do i = 1, n
     call row_scale(n, a(:, i), b(i))
  end do
end subroutine

subroutine t(n, a, b)
  use m
  integer :: n, i
  real(8) :: a(n, n), b(n)
  !$translate kernel
  do i = 1, n
     call row_scale(n, a(:, i), b(i))
  end do
  !$translate end kernel
end subroutine
"""


def _why(level: str) -> str:
    return (f"call of 'row_scale', an OpenACC 'routine {level}' procedure, cannot be "
            f"translated: its loops are shared among the {level}s of the calling construct")


@pytest.mark.parametrize("level", ["gang", "worker", "vector"])
@pytest.mark.parametrize("name,text,loop,call,note", [
    ("r.c", ROUTINE_C, "r.c:11:13", "r.c:20:5", "r.c:1:13: note: 'row_scale' is declared "),
    ("r.f90", ROUTINE_F, "r.f90:20:3", "r.f90:32:11",
     "r.f90:4:5: note: 'row_scale' is declared "),
])
def test_routine_with_a_parallel_level_is_refused(tmp_path: Path, level: str, name: str,
                                                  text: str, loop: str, call: str,
                                                  note: str) -> None:
    """A directive loop calling it is left as written (a warning naming the level); a
    translate region calling it is an error at the call, with a note at the routine."""
    src = tmp_path / name
    src.write_text(text.format(level=level))
    done = translate(src, tmp_path / "out", "openacc")
    assert done.returncode == 1, done.stderr
    assert f"{loop}: warning: '" in done.stderr and _why(level) in done.stderr
    assert "[-Wdirective-untranslated]" in done.stderr
    assert f"{call}: error: {_why(level)}" in done.stderr
    assert f"{note}'routine {level}' here" in done.stderr
