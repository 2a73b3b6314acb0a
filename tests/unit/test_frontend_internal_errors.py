"""A bug in a frontend is an internal error (exit 2, "internal error", the traceback), never
a user diagnostic that names a Python exception; what the input can cause stays a diagnostic
(exit 1): code nested too deeply for the frontend's recursion, literals OpenCL C has no type
for.  The bugs are simulated (a visitor that raises), as tests/build/test_fuzz.py does for the
driver: no real input should reach one."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontends.c import assemble as c_assemble
from frontends.c import build as c_build
from frontends.c import expressions as c_expressions
from frontends.c import typemodel as c_typemodel
from frontends.fortran import build as f_build
from frontends.fortran import expressions as f_expressions
from tests.build.helpers import write
from translator.cli import main

C_SOURCE = """\
/* {tag} */
void f(int n, double *restrict a)
{{
#pragma translate kernel k
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2 + 1;
#pragma translate end kernel
}}
"""

FORTRAN_SOURCE = """\
! {tag}
subroutine f(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel k
  do i = 1, n
     a(i) = a(i) * 2 + 1
  end do
  !$translate end kernel
end subroutine
"""

#: (module, class, method, source, the diagnostic's location when the error is expected)
VISITORS = {
    "c_statement": (c_build, "RegionBuilder", "visit_Assignment", C_SOURCE, "6:5"),
    "c_expression": (c_expressions, "ExpressionBuilder", "visit_BinaryOp", C_SOURCE, "6:12"),
    "c_file": (c_typemodel.FileScope, None, "from_ast", C_SOURCE, "4:1"),
    "c_region": (c_assemble, "Assembler", "assemble", C_SOURCE, "4:19"),   # the region name
    "fortran_statement": (f_build, "RegionBuilder", "visit_Assignment_Stmt", FORTRAN_SOURCE,
                          "8:6"),
    "fortran_expression": (f_expressions, "ExprBuilder", "visit_Int_Literal_Constant",
                           FORTRAN_SOURCE, "7:3"),   # the DO loop's bound 1
}


def _break(monkeypatch, where: str, error: BaseException) -> str:
    """Make the visitor `where` raise `error`; the source that reaches it."""
    module, cls, method, source, _ = VISITORS[where]
    owner = getattr(module, cls) if cls else module

    def broken(*args, **kwargs):
        raise error
    monkeypatch.setattr(owner, method, broken if cls else classmethod(broken))
    return source.format(tag=f"{where} {type(error).__name__}")


def _translate(capsys, tmp_path: Path, where: str, text: str) -> tuple[int, str]:
    name = "k.c" if VISITORS[where][3] is C_SOURCE else "k.f90"
    src = write(tmp_path, name, text)
    code = main([str(src), "-o", str(tmp_path / "out")])
    return code, capsys.readouterr().err.replace(str(src), name)


@pytest.mark.parametrize("where", sorted(VISITORS))
def test_a_bug_in_a_frontend_is_an_internal_error(capsys, monkeypatch, tmp_path: Path,
                                                  where: str) -> None:
    """Before: exit 1, "error: unsupported construct ... (KeyError: 'simulated bug')"."""
    text = _break(monkeypatch, where, KeyError("simulated bug"))
    code, err = _translate(capsys, tmp_path, where, text)
    name = "k.c" if VISITORS[where][3] is C_SOURCE else "k.f90"
    assert code == 2, err
    assert err.startswith(f"translate: internal error while translating {name} (this is a bug "
                          "in the translator):\n"), err
    assert "Traceback" in err and "KeyError: 'simulated bug'" in err
    assert "unsupported construct" not in err


@pytest.mark.parametrize("where", sorted(VISITORS))
def test_too_deep_for_a_frontend_is_a_diagnostic(capsys, monkeypatch, tmp_path: Path,
                                                 where: str) -> None:
    """Recursion too deep (a RecursionError) is the input's doing: exit 1, at the construct."""
    text = _break(monkeypatch, where, RecursionError("maximum recursion depth exceeded"))
    code, err = _translate(capsys, tmp_path, where, text)
    name = "k.c" if VISITORS[where][3] is C_SOURCE else "k.f90"
    assert code == 1, err
    assert err.startswith(f"{name}:{VISITORS[where][4]}: error: code nested too deeply to "
                          "translate\n"), err


@pytest.mark.parametrize("literal, message", [
    ("1.0L", "long double literal 1.0L is not supported: OpenCL C has no long double"),
    ("99999999999999999999", "integer literal 99999999999999999999 is too large for any C "
                             "integer type"),
    ("'\\x'", "malformed literal '\\x'"),
])
def test_c_literals_without_a_type(capsys, tmp_path: Path, literal: str, message: str) -> None:
    """Before: "unsupported construct in a region: C Constant (long double literal)" and the
    like (the text of the Python exception)."""
    text = C_SOURCE.format(tag=literal).replace("a[i] * 2", f"a[i] * {literal}")
    src = write(tmp_path, "k.c", text)
    code = main([str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.replace(str(src), "k.c")
    assert code == 1 and err.startswith(f"k.c:6:19: error: {message}\n"), err
