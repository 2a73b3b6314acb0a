"""Data directives (data / end data, enter data, exit data, update): parsing, checks, rewrite.

Every malformed clause, section or nesting error is reported at its line; the rewrite replaces
each directive by a call of its glue and declares the glue.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from frontends.pragmas import parse_directive
from translator.diagnostics import FrontendError, SourceSpan
from translator.driver import translate_text

SPAN = SourceSpan(file="x.f90", line=3, col=1)

F_HEAD = """program p
  implicit none
  integer, parameter :: n = 8
  real(8) :: u(n), v(n, n), s
  integer :: i
"""

F_REGION = """  !$translate kernel
  do i = 1, n
    u(i) = 2.0d0 * u(i)
  end do
  !$translate end kernel
"""

C_HEAD = """void f(int n, double *u, double w[4][8])
{
    double a[16];
    double s = 0;
"""


def _fortran(body: str) -> str:
    return F_HEAD + body + "end program p\n"


def _c(body: str) -> str:
    return C_HEAD + body + "}\n"


def _error(path: str, text: str) -> FrontendError:
    with pytest.raises(FrontendError) as info:
        translate_text(path, text)
    return info.value


def test_component_items_keep_their_designator_and_section() -> None:
    """Issue 21 item 2: components were 'malformed data clause item'."""
    d = parse_directive("enter data copyin(g%a(1:n), chunk % tiles(1) % field%density0) "
                        "create(st%u(:, 2:m))", SPAN)
    assert [(i.name, i.section) for c in d.args for i in c.items] == [
        ("g%a", "(1:n)"), ("chunk%tiles(1)%field%density0", ""), ("st%u", "(:, 2:m)")]


def test_clauses_parse_into_actions_and_items() -> None:
    d = parse_directive("data copyin(a, b(1:n)) copyout(c) copy(u[0:n]) create(t) present(x)",
                        SPAN)
    assert d.kind == "data"
    assert [(c.action, [(i.name, i.section) for i in c.items]) for c in d.args] == [
        ("copyin", [("a", ""), ("b", "(1:n)")]), ("copyout", [("c", "")]),
        ("copy", [("u", "[0:n]")]), ("create", [("t", "")]), ("present", [("x", "")])]
    assert parse_directive("END DATA", SPAN).kind == "end_data"
    assert parse_directive("enter data create(a)", SPAN).kind == "enter_data"
    assert [c.action for c in parse_directive("update self(a) device(b)", SPAN).args] == [
        "host", "device"]


@pytest.mark.parametrize("text, message", [
    ("data", "'data' directive without clauses"),
    ("data copyin(a) foo(b)", "unknown clause 'foo'"),
    ("exit data copyin(a)", "unknown clause 'copyin' in this 'exit data' directive"),
    ("enter data copyout(a)", "unknown clause 'copyout'"),
    ("update copy(a)", "unknown clause 'copy'"),
    ("data copyin(a", "unbalanced brackets in data clause"),
    ("data copyin(a,,b)", "empty item in data clause"),
    ("data copyin(1a)", "malformed data clause item '1a'"),
    ("data copyin(a) copy(a)", "array 'a' appears twice"),
    ("end data copy(a)", "'end data' takes no clauses"),
    ("data copyin(a) 42", "malformed data clause '42'"),
])
def test_malformed_clauses(text: str, message: str) -> None:
    with pytest.raises(FrontendError) as info:
        parse_directive(text, SPAN)
    assert message in str(info.value)
    assert info.value.span.line == 3


FORTRAN_ERRORS = [
    ("  !$translate end data\n", 6, "'end data' without a matching 'data'"),
    ("  !$translate data copy(u)\n", 6, "data region not closed: no 'end data' before the end "
     "of program 'p'"),
    ("  !$translate kernel\n  do i = 1, n\n  !$translate data copy(u)\n    u(i) = 1\n"
     "  end do\n  !$translate end kernel\n", 8, "data directive inside a kernel region"),
    ("  !$translate data copy(w)\n  !$translate end data\n", 6, "unknown array 'w'"),
    ("  !$translate data copy(s)\n  !$translate end data\n", 6, "'s' in a data clause is not an "
     "array"),
    ("  !$translate update host(v(1:n))\n", 6, "section v(1:n) has 1 subscripts but 'v' has "
     "rank 2"),
    ("  !$translate update host(u(1:n:2))\n", 6, "strides are not supported"),
    ("  !$translate update host(u())\n", 6, "empty subscript"),
    ("  !$translate data copy(u) bogus(v)\n  !$translate end data\n", 6, "unknown clause 'bogus'"),
]


@pytest.mark.parametrize("body, line, message", FORTRAN_ERRORS)
def test_fortran_errors_at_their_line(body: str, line: int, message: str) -> None:
    err = _error("p.f90", _fortran(body))
    assert message in err.message
    assert (err.span.file, err.span.line) == ("p.f90", line)


def test_fortran_assumed_size_needs_a_section_with_an_upper_bound() -> None:
    text = ("subroutine s(n, a)\n  integer :: n\n  real :: a(*)\n"
            "  !$translate enter data copyin(a)\nend subroutine s\n")
    err = _error("s.f90", text)
    assert "array 'a' is assumed-size" in err.message and err.span.line == 4
    text = text.replace("copyin(a)", "copyin(a(2:))")
    err = _error("s.f90", text)
    assert "the last extent of an assumed-size array is unknown" in err.message
    assert err.span.line == 4


def test_fortran_name_hiding_an_intrinsic_is_an_error() -> None:
    text = ("subroutine s(size, a)\n  integer :: size\n  real :: a(size)\n"
            "  !$translate enter data copyin(a)\nend subroutine s\n")
    err = _error("s.f90", text)
    assert "intrinsic size()" in err.message and err.span.line == 4


def test_fortran_data_among_declarations_is_an_error() -> None:
    text = ("subroutine s(n, a)\n  integer :: n\n  !$translate enter data copyin(a)\n"
            "  real :: a(n)\n  a = 0\nend subroutine s\n")
    err = _error("s.f90", text)
    assert "among declarations" in err.message and err.span.line == 3


C_ERRORS = [
    ("#pragma translate end data\n", 5, "'end data' without a matching 'data'"),
    ("#pragma translate data copy(a)\n", 5, "data region not closed"),
    ("    {\n#pragma translate data copy(a)\n    }\n#pragma translate end data\n", 6,
     "data region not closed"),
    ("#pragma translate kernel\n    for (int i = 0; i < 16; i++) {\n"
     "#pragma translate data copy(a)\n        a[i] = 1;\n    }\n#pragma translate end kernel\n",
     7, "data directive inside kernel region"),
    ("#pragma translate update host(u)\n", 5, "'u' has no known extent here"),
    ("#pragma translate update host(w)\n", 5, "'w' has no known extent here"),
    ("#pragma translate update host(u[0:])\n", 5, "has no length"),
    ("#pragma translate update host(u[0])\n", 5, "expected [start:length]"),
    ("#pragma translate update host(u[0:n][0:2])\n", 5, "has 2 dimensions but 'u' has 1"),
    ("#pragma translate update host(zz[0:n])\n", 5, "unknown array 'zz'"),
    ("#pragma translate update host(s)\n", 5, "'s' in a data clause is not an array"),
    ("#pragma translate data copy(a) nope(u)\n#pragma translate end data\n", 5,
     "unknown clause 'nope'"),
]


@pytest.mark.parametrize("body, line, message", C_ERRORS)
def test_c_errors_at_their_line(body: str, line: int, message: str) -> None:
    err = _error("f.c", _c(body))
    assert message in err.message
    assert (err.span.file, err.span.line) == ("f.c", line)


def test_fortran_rewrite_calls_glue_and_declares_it() -> None:
    text = _fortran("  !$translate data copy(u) copyin(v(:, 2:n))\n" + F_REGION
                    + "  !$translate update host(u(2:4))\n  !$translate end data\n")
    res = translate_text("p.f90", text)
    out, host = res.outputs["p.f90"], res.outputs["p.host.c"]
    assert "call translate_p_data_6(u, int(0, selected_int_kind(18))" in out
    assert "call translate_p_update_12(u," in out and "call translate_p_end_data_13()" in out
    assert 'bind(C, name="translate_p_data_6")' in out and "type(*), dimension(*) :: a1" in out
    assert "!$translate data" not in out and "!$translate end data" not in out
    assert 'tr_data_enter(&_tr_site, "u", _tr_a0, _tr_first0, _tr_count0, (size_t)_tr_size0, ' \
        "TR_DATA_COPY);" in host
    assert 'tr_data_enter(&_tr_site, "v", _tr_a1' in host and "TR_DATA_COPYIN" in host
    assert "tr_update_host(&_tr_site" in host and "tr_data_end(&_tr_site);" in host


def test_fortran_call_with_a_long_section_stays_within_132_columns(tmp_path) -> None:
    """The count of a 2-D section is one argument longer than a line: it was emitted on one
    162-column line, which gfortran rejects (line truncation); it is continued at blanks."""
    text = _fortran("  !$translate data copyin(v(1:n, 1:n))\n" + F_REGION
                    + "  !$translate end data\n")
    out = translate_text("p.f90", text).outputs["p.f90"]
    assert max(len(line) for line in out.splitlines()) <= 100
    (tmp_path / "p.f90").write_text(out)
    proc = subprocess.run(["gfortran", "-fsyntax-only", "p.f90"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_c_rewrite_calls_glue_and_declares_it() -> None:
    text = _c("#pragma translate data copy(u[0:n]) copyin(a) present(w[1:2][0:8])\n"
              "    s = a[0];\n#pragma translate end data\n")
    res = translate_text("f.c", text)
    out = res.outputs["f.c"]
    assert out.startswith("/* Generation stamp of this translation")   # then the prototypes
    assert out.split('#line 1 "f.c"\n', 1)[1].startswith(
        "void translate_f_data_5(const void *, long long, long long, long long, const void *,")
    assert "translate_f_data_5(u, (0), (n), sizeof(u[0]), a, 0, sizeof(a), 1, w, " in out
    assert "translate_f_end_data_7();" in out
    assert "void translate_f_data_5(const void *_tr_a0" in res.outputs["f.host.c"]


def test_file_with_only_data_directives_gets_glue() -> None:
    text = _fortran("  !$translate enter data copyin(u)\n  !$translate exit data delete(u)\n")
    res = translate_text("p.f90", text)
    assert set(res.outputs) == {"p.f90", "p.cl", "p.host.c"}
    assert "tr_data_exit(&_tr_site, \"u\"" in res.outputs["p.host.c"]


def test_cli_reports_error_with_exit_1(tmp_path) -> None:
    src = tmp_path / "bad.f90"
    src.write_text(_fortran("  !$translate data copy(u)\n"))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 1
    assert f"{src}:6:" in proc.stderr and "data region not closed" in proc.stderr


# ---------------------------------------------------------------------------------------------
# -Wstale-host-access

STALE_F = """program st
  implicit none
  integer, parameter :: n = 8
  real(8) :: u(n), v(n)
  integer :: i
  u = 1
  !$translate data copy(u, v)
  !$translate kernel k1
  do i = 1, n
    u(i) = 2.0d0 * u(i)
  end do
  !$translate end kernel
  print *, u(1)
  v(2) = 3.0d0
  !$translate kernel k2
  do i = 1, n
    u(i) = u(i) + v(i)
  end do
  !$translate end kernel
  !$translate update host(u)
  print *, u(1)
  !$translate end data
end program st
"""

STALE_C = """#include <stdio.h>
int main(void)
{
    double u[8], v[8];
    for (int i = 0; i < 8; i++)
        u[i] = v[i] = 1; /* u is set */
#pragma translate data copy(u, v)
#pragma translate kernel k1
    for (int i = 0; i < 8; i++)
        u[i] = 2.0 * u[i];
#pragma translate end kernel
    printf("%g\\n", u[0]);
    v[2] = 3.0;
#pragma translate kernel k2
    for (int i = 0; i < 8; i++)
        u[i] = u[i] + v[i];
#pragma translate end kernel
#pragma translate update host(u)
    printf("%g\\n", u[0]);
#pragma translate end data
    return 0;
}
"""


def _stale(path: str, text: str) -> list:
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        translate_text(path, text)
    return [w.message for w in caught if getattr(w.message, "warning_id", "")
            == "stale-host-access"]


@pytest.mark.parametrize("path, text, sentinel", [("st.f90", STALE_F, "!$translate"),
                                                  ("st.c", STALE_C, "#pragma translate")])
def test_stale_host_access_warnings(path: str, text: str, sentinel: str) -> None:
    found = _stale(path, text)
    assert [(w.span.line, w.span.col) for w in found] == [(13 if path.endswith("90") else 12,
                                                           12 if path.endswith("90") else 20),
                                                          (14 if path.endswith("90") else 13,
                                                           3 if path.endswith("90") else 5)]
    assert "'u', which region 'k1' last wrote on the device (data region at line 7): add " \
        f"'{sentinel} update host(u)' before this statement" in found[0].message
    assert "host code writes 'v'" in found[1].message and "region 'k2' uses it" in found[1].message
    assert f"'{sentinel} update device(v)'" in found[1].message


@pytest.mark.parametrize("path, text", [("st.f90", STALE_F), ("st.c", STALE_C)])
def test_updates_silence_the_stale_check(path: str, text: str) -> None:
    fixed = text
    for line, update in (("print *, u(1)\n  v(2)", "  !$translate update host(u)\n"),
                         ('printf("%g\\n", u[0]);\n    v[2]', "#pragma translate update host(u)\n")):
        if line in fixed:
            fixed = fixed.replace("  " + line if line.startswith("print") else "    " + line,
                                  update + ("  " if line.startswith("print") else "    ") + line)
    for line, update in (("  !$translate kernel k2", "  !$translate update device(v)\n"),
                         ("#pragma translate kernel k2", "#pragma translate update device(v)\n")):
        fixed = fixed.replace(line, update + line)
    assert _stale(path, fixed) == []


def test_samples_have_no_stale_access() -> None:
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "samples"
    for src in sorted(root.glob("*/data_*")):
        assert _stale(str(src), src.read_text()) == [], src


def test_report_lists_arrays_each_region_expects_present(tmp_path) -> None:
    from pathlib import Path
    src = Path(__file__).resolve().parents[2] / "samples" / "fortran" / "data_timeloop.f90"
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--report"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout + proc.stderr
    # the regions are in `step`; the data region is in the main program: found at run time
    assert report.count("expects present: none from a data region around it here") == 2
    src = src.parent / "data_update.f90"
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out2"), "--report"], capture_output=True, text=True)
    report = proc.stdout + proc.stderr
    assert report.count("expects present: u (data region at line 16), unew (data region at "
                        "line 16); these move nothing per call") == 2
