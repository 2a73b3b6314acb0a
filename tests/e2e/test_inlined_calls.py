"""Calls of user procedures inside regions, inlined: the programs of ``inlined_calls/`` and
the samples ``calls.f90`` and ``calls.c``, built as written and as translated, run on the CPU
OpenCL device and compared; the loops holding the calls are parallel.  Calls that cannot run
on a device are refused at the call, naming the callee."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample, run, runtime_dir, runtime_object

HERE = Path(__file__).parent / "inlined_calls"


def _translate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_same_file_subroutine_section_pure_and_elemental_functions(tmp_path: Path) -> None:
    """An external subroutine given a column section ``a(1:n, i)``, a module's pure function
    in an expression, a subroutine writing its scalar dummy ``c(i)``, an elemental function
    on array syntax: the same numbers as the original, every loop parallel."""
    src = tmp_path / "calls.f90"
    shutil.copy(REPO / "samples" / "fortran" / "calls.f90", src)
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")
    report = _translate(str(src), "-o", str(tmp_path / "r"), "--report", cwd=REPO)
    assert report.returncode == 0, report.stderr
    assert "kernel cols_k0: loops i, twice_k" in report.stderr
    assert "i_outer  g.0  legal" in report.stderr
    assert "_tr_i_outer  g.0  legal" in report.stderr


def test_assumed_shape_dummies_calls_outside_loops_and_in_conditions(tmp_path: Path) -> None:
    """`axpy` with assumed-shape dummies (``size(x)``) called before a loop (its own loop is
    mapped) and inside one, a pure function with an IF/ELSE IF in an IF condition, an
    integer counter written through a dummy."""
    src = tmp_path / "shapes.f90"
    shutil.copy(HERE / "shapes.f90", src)
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")
    report = _translate(str(src), "-o", str(tmp_path / "r"), "--report", cwd=REPO)
    assert "kernel whole_k0: loops axpy_k" in report.stderr
    assert "axpy_k_outer  g.0  legal" in report.stderr
    assert "kernel whole_k2: loops j_1, count_pos_k" in report.stderr


def test_component_sections_as_actuals(tmp_path: Path) -> None:
    """``call relax(n, g%u(:, j), g%v(:, j))``: derived-type component sections are views
    too; the call's loop and the callee's loop are both mapped."""
    src = tmp_path / "components.f90"
    shutil.copy(HERE / "components.f90", src)
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")
    report = _translate(str(src), "-o", str(tmp_path / "r"), "--report", cwd=REPO)
    assert "relax_k_outer  g.0  legal" in report.stderr
    assert "j_outer        g.1  legal" in report.stderr


def test_elemental_function_reading_the_assigned_array_is_checked(tmp_path: Path) -> None:
    """``c(2:n) = half(c(1:n-1))``: the function's read counts as the right-hand side's
    (element-wise, its statement would read elements already assigned)."""
    src = tmp_path / "ov.f90"
    src.write_text("module m\ncontains\n  elemental real(8) function half(x)\n"
                   "    real(8), intent(in) :: x\n    half = 0.5d0 * x\n  end function\n"
                   "end module\nsubroutine s(n, c)\n  use m\n  integer :: n\n"
                   "  real(8) :: c(n)\n  !$translate kernel k\n  c(2:n) = half(c(1:n-1))\n"
                   "  c(1:n) = half(c(1:n))\n  !$translate end kernel\nend subroutine\n")
    done = _translate("ov.f90", "-o", "out", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        "ov.f90:13:3: error: array assignment to 'c' reads other elements of 'c' on its "
        "right-hand side; write it as a DO loop (or copy through a temporary array)")


def test_callees_in_a_module_found_by_include_dir_and_another_input(tmp_path: Path) -> None:
    """`smooth_row` (module found by -I, calling the module's `avg3`), `scale_add` (another
    input file, calling `accumulate`, writing the caller's scalar through a dummy) and an
    internal function reading host arrays."""
    for name in ("main.f90", "other.f90"):
        shutil.copy(HERE / name, tmp_path / name)
    shutil.copytree(HERE / "mods", tmp_path / "mods")
    out = tmp_path / "out"
    done = _translate("main.f90", "other.f90", "-I", "mods", "-o", str(out), "--report",
                      cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "j_outer  g.0  legal" in done.stderr
    assert "_tr_avg3_avg3: float64" in done.stderr
    rt = runtime_dir()
    run(["gfortran", "-O1", "mods/stencils.f90", "main.f90", "other.f90", "-o", "original"],
        tmp_path)
    run(["gfortran", "-c", "-O1", "mods/stencils.f90"], tmp_path)
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / "main.host.c")],
        tmp_path)
    run(["gfortran", "-O1", "stencils.o", str(out / "main.f90"), str(out / "other.f90"),
         "main.host.o", str(runtime_object()), "-lOpenCL", "-o", "translated"], tmp_path)
    expected = run(["./original"], tmp_path)
    assert run(["./translated"], tmp_path, env={"TRANSLATE_DEVICE": "cpu"}) == expected


BAD = """\
subroutine report(x)
  real, intent(in) :: x
  print *, x
end subroutine report

recursive subroutine down(k, x)
  integer, intent(in) :: k
  real, intent(inout) :: x
  if (k > 0) call down(k - 1, x)
  x = x + 1
end subroutine down

subroutine prefix(n, x)
  integer, intent(in) :: n
  real, intent(inout) :: x(n)
  integer :: k
  do k = 2, n
    x(k) = x(k) + x(k - 1)
  end do
end subroutine prefix

subroutine work(n, a)
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
  !$translate kernel k
  {body}
  !$translate end kernel
end subroutine work
"""


def _refusal(tmp_path: Path, body: str) -> list[str]:
    src = tmp_path / "bad.f90"
    src.write_text(BAD.format(body=body))
    done = _translate(str(src), "-o", str(tmp_path / "out"), cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr.replace(str(src), "bad.f90").splitlines()


@pytest.mark.parametrize("body, first, note", [
    ("do i = 1, n\n    call report(a(i))\n  end do",
     "bad.f90:28:10: error: subroutine 'report' cannot be offloaded: it has an I/O statement "
     "(PRINT)", "bad.f90:3:3: note: in 'report' here"),
    ("do i = 1, n\n    call down(3, a(i))\n  end do",
     "bad.f90:9:19: error: recursive call of 'down' (down -> down) cannot be offloaded: a "
     "kernel cannot recurse, and inlining it would not end",
     "bad.f90:28:10: note: in 'down', inlined at this call"),
    ("do i = 1, n\n    a(i) = nowhere(a(i))\n  end do",
     "bad.f90:28:12: error: call of unknown external procedure 'nowhere': its source is not "
     "among the translator's inputs, so it cannot be offloaded (procedures of this file, of "
     "the other Fortran files of the command and of modules found by -I are inlined; or give "
     "the device a definition of the function with a register_function pragma)", None),
])
def test_refused_calls_name_the_callee_at_the_call(tmp_path: Path, body: str, first: str,
                                                  note: str | None) -> None:
    lines = _refusal(tmp_path, body)
    assert lines[0] == first
    if note is not None:
        assert note in lines


def test_race_inside_a_callee_is_reported_there_with_a_note_at_the_call(tmp_path: Path) -> None:
    lines = _refusal(tmp_path, '!$translate tag_inames("prefix_k:g.0")\n  call prefix(n, a)')
    assert lines[0].startswith("bad.f90:18:5: error: mapping prefix_k to g.0 races: iteration "
                               "prefix_k=2 writes a[1], iteration prefix_k=3 reads a[1]")
    assert "bad.f90:28:8: note: in 'prefix', inlined at this call" in lines


# -- C ----------------------------------------------------------------------------------------

def test_c_functions_of_the_file_scalar_and_pointer_parameters(tmp_path: Path) -> None:
    """``axpy(n, a, &x[i*n], y + i*n)`` (pointer parameters as offset views), a function
    calling two others with ``&t`` (a scalar written through a pointer), a scalar function
    with an if/else if, math inside and around: the same numbers, the loop parallel."""
    src = tmp_path / "calls.c"
    shutil.copy(REPO / "samples" / "c" / "calls.c", src)
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")
    report = _translate(str(src), "-o", str(tmp_path / "r"), "--report", cwd=REPO)
    assert "i_outer  g.0  legal" in report.stderr
    assert "_tr_clip_result: float64" in report.stderr


C_BAD = """\
#include <stdio.h>

static void show(double x) { printf("%g\\n", x); }

static double fact(double x) { return x <= 1 ? 1 : x * fact(x - 1); }

static double early(double x)
{
  for (int k = 0; k < 3; k++) if (x < k)
    return k;
  return x;
}

static void prefix(int n, double *x)
{
  for (int k = 1; k < n; k++)
    x[k] += x[k - 1];
}

double lib(double x);

void work(int n, double *a)
{
#pragma translate kernel k
  {body}
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("body, first, note", [
    ("for (int i = 0; i < n; i++)\n    show(a[i]);",
     "bad.c:3:30: error: call to function 'printf' cannot be translated: input and output "
     "cannot run on the device", "bad.c:26:5: note: in 'show', inlined at this call"),
    ("for (int i = 0; i < n; i++)\n    a[i] = fact(a[i]);",
     "bad.c:5:56: error: recursive call of 'fact' (fact -> fact) cannot be offloaded: a kernel "
     "cannot recurse, and inlining it would not end",
     "bad.c:26:12: note: in 'fact', inlined at this call"),
    ("for (int i = 0; i < n; i++)\n    a[i] = early(a[i]);",
     "bad.c:26:12: error: function 'early' cannot be offloaded: it returns from inside a "
     "loop or a nested block (returns at its end or in if statements can be inlined)",
     "bad.c:10:5: note: in 'early' here"),
    ("for (int i = 0; i < n; i++)\n    a[i] = lib(a[i]);",
     "bad.c:26:12: error: call to function 'lib' cannot be translated: only math.h functions, "
     "functions this file defines (they are inlined), and functions a register_function "
     "pragma of the region declares, may be called inside a region", None),
    ('#pragma translate tag_inames("prefix_k:g.0")\n  prefix(n, a);',
     "bad.c:17:5: error: mapping prefix_k to g.0 races: iteration prefix_k=1 writes a[1], "
     "iteration prefix_k=2 reads a[1] (bad.c:17)", "bad.c:26:3: note: in 'prefix', inlined "
     "at this call"),
])
def test_c_refused_calls_name_the_callee(tmp_path: Path, body: str, first: str,
                                         note: str | None) -> None:
    src = tmp_path / "bad.c"
    src.write_text(C_BAD.replace("{body}", body))
    done = _translate("bad.c", "-o", "out", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == first
    if note is not None:
        assert note in lines
