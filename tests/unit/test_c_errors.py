"""Every user-facing error of the C frontend: its class, its message and its file:line:col."""

from __future__ import annotations

import subprocess
import sys

import pytest

from frontends.c import FRONTEND
from translator.diagnostics import FrontendError, TranslatorError, UnsupportedConstructError

HEAD = "#include <stdio.h>\nstruct P { double x; double *w; };\nvoid g(double);\n"   # 3 lines


def fn(stmts: str, params: str = "int n, double *a") -> str:
    """A function (starting on line 4) whose region (directive on line 5) holds `stmts`."""
    return (f"{HEAD}void f({params}) {{\n#pragma translate kernel\n{stmts}\n"
            "#pragma translate end kernel\n}\n")


def error_of(text: str, path: str = "err.c") -> TranslatorError:
    with pytest.raises(TranslatorError) as info:
        FRONTEND.parse(path, text, {})
    return info.value


def check(text: str, cls: type, message: str, line: int, col: int | None = None) -> None:
    err = error_of(text)
    assert isinstance(err, cls), repr(err)
    assert message in err.message, err.message
    assert err.span is not None and (err.span.file, err.span.line) == ("err.c", line), err
    if col is not None:
        assert err.span.col == col, err
    assert err.span.source_line is not None


LOOP = "  for (int i = 0; i < n; i++)"


@pytest.mark.parametrize("stmts, message, line, col", [
    ("  int i = 0;\n  while (i < n) { a[i] = 0; i++; }", "while loop in a region", 7, 3),
    ("  int i = 0;\n  do { a[i] = 0; } while (i < n);", "do-while loop in a region", 7, 3),
    (f"{LOOP} {{ if (a[i] < 0) goto out; a[i] = 1; }}\n  out: ;",
     "goto is not supported in a region", 6, 47),
    (f"{LOOP} {{ if (a[i] < 0) break; a[i] = 1; }}", "break is not supported", 6, 47),
    (f"  if (n < 0) continue;\n{LOOP}\n    a[i] = 1;",
     "continue outside the for loops of the region is not supported", 6, 14),
    (f"{LOOP}\n    a[i] = 1;\n  return;", "return is not supported in a region", 8, 3),
    (f"{LOOP}\n    switch (i) {{ default: a[i] = 0; }}", "switch is not supported", 7, 5),
])
def test_unsupported_control_flow(stmts, message, line, col):
    check(fn(stmts), UnsupportedConstructError, message, line, col)


@pytest.mark.parametrize("stmts, name, line", [
    (f"{LOOP}\n    g(a[i]);", "g", 7),
    (f"{LOOP}\n    a[i] = atof(\"1.5\");", "atof", 7),   # hypot was here: now supported
])
def test_calls_to_functions_the_region_cannot_see(stmts, name, line):
    check(fn(stmts).replace("#include <stdio.h>", "#include <stdio.h>\n#include <math.h>")
          .replace("void f(", "\nvoid f(", 0), UnsupportedConstructError,
          f"call to function {name!r} cannot be translated: only math.h functions", line + 1)


def test_io_call_is_refused_as_io():
    check(fn(f"{LOOP}\n    a[i] = printf(\"%d\", i);"), UnsupportedConstructError,
          "call to function 'printf' cannot be translated: input and output cannot run on the "
          "device", 7, 12)


def test_call_through_a_function_pointer():
    check(fn(f"{LOOP}\n    a[i] = g(a[i]);", "int n, double *a, double (*g)(double)"),
          UnsupportedConstructError, "call through function pointer 'g' cannot be translated: "
          "the function it points to is not known when the region is translated", 7, 12)


def test_struct_member_access():
    check(fn(f"{LOOP}\n    a[i] = p.x;", "int n, double *a, struct P p"),
          UnsupportedConstructError, "struct or union member access ('.x')", 7, 12)
    check(fn(f"{LOOP}\n    a[i] = q->x;", "int n, double *a, struct P *q"),
          UnsupportedConstructError, "struct or union member access ('->x')", 7, 12)


@pytest.mark.parametrize("expr, shown, col", [("p[i].x", "p[i].x", 12),
                                              ("(p + i)->x", "(p + i)->x", 13)])
def test_array_of_structs_says_to_write_a_structure_of_arrays(expr, shown, col):
    check(fn(f"{LOOP}\n    a[i] = {expr};", "int n, double *a, struct P *p"),
          UnsupportedConstructError, f"a member of an array of structs ('{shown}') is not "
          "supported in a region ('p' has type pointer to struct P (its member 'w' is a pointer; "
          "only structs whose members are numbers, arrays of numbers of constant extents or "
          "such structs can be used in a region)); keep each member in an array of its own (a structure of "
          f"arrays: 'x[i]' for '{shown}'), or copy the members into such arrays before the "
          "region", 7, col)


def test_struct_variable():
    check(fn(f"{LOOP}\n    p = p;", "int n, double *a, struct P p"),
          UnsupportedConstructError, ("'p' has type struct P (its member 'w' is a pointer; only "
                                     "structs whose members are numbers, arrays of numbers "
                                     "of constant extents or such structs can be used in a "
                                     "region), which is not supported"), 7, 5)


@pytest.mark.parametrize("head, message", [
    ("for (int i = 0; i < n; i *= 2)", "the increment of 'i' is not a constant step"),
    ("for (int i = 0; i == n; i++)", "the condition must compare 'i' with a bound (<, <=, "
                                     ">, >=, or != with a step of 1 or -1)"),
    ("for (int i = 0; i != n; i += 2)", "the condition 'i != ...' needs a step of 1 or -1 (the "
                                        "loop over 'i' has step 2, which may pass the bound)"),
    ("for (int i = n; n != i; i -= 3)", "the condition 'i != ...' needs a step of 1 or -1"),
    ("for (int i = 0; i > n; i++)", "does not end the increasing loop over 'i'"),
    ("for (int i = 0; i < n; i += n)", "the increment of 'i' is not a constant step"),
    ("for (int i = 0, j = 0; i < n; i++)", "the initialisation must set one loop variable"),
    ("for (int i = 0; ; i++)", "the loop has no condition"),
    ("for (int i = 0; i < n; i += 0)", "has step 0"),
])
def test_non_canonical_for_loops(head, message):
    err = error_of(fn(f"  {head}\n    a[i] = 0;"))
    assert isinstance(err, UnsupportedConstructError)
    assert err.message.startswith("non-canonical for loop: ") and message in err.message
    assert (err.span.line, err.span.col) == (6, 3)


def test_loop_variable_assigned_in_its_body():
    check(fn(f"{LOOP} {{ a[i] = 0; i += 1; }}"), UnsupportedConstructError,
          "assignment to the loop variable 'i' inside its loop", 6, 43)


def test_region_straddling_a_preprocessor_conditional():
    text = fn(f"#ifdef FAST\n{LOOP} a[i] = 0;\n#else\n{LOOP} a[i] = 1;\n#endif")
    check(text, FrontendError, "region 'f_0' straddles a preprocessor conditional (#ifdef", 6, 1)
    text = (f"{HEAD}void f(int n, double *a) {{\n#pragma translate kernel k\n{LOOP} a[i] = 0;\n"
            "#if 1\n#pragma translate end kernel\n#endif\n}\n")
    check(text, FrontendError, "region 'k' straddles a preprocessor conditional (#if", 7, 1)


def test_other_preprocessor_lines_inside_a_region():
    check(fn(f"#define ZERO 0\n{LOOP} a[i] = ZERO;"), FrontendError,
          "preprocessor directive #define inside region 'f_0'", 6, 1)


@pytest.mark.parametrize("text, message, line, col", [
    ("#pragma translate kernel\nvoid f(void) {}\n", "translate directive outside a function",
     1, 19),
    (f"{HEAD}void f(int n, double *a) {{\n#pragma translate kernel\n{LOOP} a[i] = 0;\n}}\n",
     "unterminated region 'f_0'", 5, 19),
    (fn(f"#pragma translate kernel inner\n{LOOP} a[i] = 0;"),
     "nested region: a 'kernel' directive inside region 'f_0' (started at err.c:5:19)", 6, 19),
    (f"{HEAD}void f(int n, double *a) {{\n{LOOP} a[i] = 0;\n#pragma translate end kernel\n}}\n",
     "'end kernel' without a matching 'kernel' directive", 6, 19),
    (fn(f"{LOOP} a[i] = 0;\n#pragma translate split_iname(\"i\", 4)"),
     "transform directive 'split_iname' outside the head of a region", 7, 19),
    (fn(f"{LOOP} {{\n#pragma translate end kernel\n  a[i] = 0; }}"),
     "'end kernel' inside a nested block of region 'f_0'", 7, 19),
    (fn(f"{LOOP} a[i] = 0;").replace("translate kernel", "translate kernal foo"),
     "malformed translate directive 'kernal foo'", 5, 19),
    (fn(f"{LOOP} a[i] = 0;").replace("translate kernel", "translate frobnicate"),
     "unknown translate directive 'frobnicate'", 5, 19),
    (fn(f"{LOOP} a[i] = 0;").replace("translate kernel", "translate split(\"i\", x)"),
     "argument 'x' is not a Python literal", 5, 19),
    (f"{HEAD}void f(int n, double *a) {{\n  if (n)\n#pragma translate kernel\n"
     f"{LOOP} a[i] = 0;\n#pragma translate end kernel\n}}\n", "unterminated region", 6, 19),
])
def test_directive_errors(text, message, line, col):
    check(text, FrontendError, message, line, col)


def test_duplicate_region_names():
    text = (f"{HEAD}void f(int n, double *a) {{\n#pragma translate kernel k\n{LOOP} a[i] = 0;\n"
            f"#pragma translate end kernel\n#pragma translate kernel k\n{LOOP} a[i] = 1;\n"
            "#pragma translate end kernel\n}\n")
    check(text, FrontendError, "region name 'k' is used twice in this file (first at err.c:5",
          8)


@pytest.mark.parametrize("stmts, params, cls, message, line", [
    (f"{LOOP} a[idx[i]] = 0;", "int n, double *a, int *idx", FrontendError,
     "cannot tell how many elements of 'a' the region accesses", 6),
    (f"{LOOP} {{ a[i] = 0; n = 3; }}", "int n, double *a", FrontendError,
     "the bounds of the loop over 'i' depend on 'n', which the region writes", 6),
    (f"{LOOP} a[i][0] = 0;", "int n, double **a", UnsupportedConstructError,
     "'a' has type pointer to pointer", 6),
    (f"{LOOP} a[i] = b;", "int n, double *a, double b[4]", UnsupportedConstructError,
     "array 'b' used without a subscript", 6),
    (f"{LOOP} a[i] = (long)&a[i];", "int n, double *a", UnsupportedConstructError,
     "taking an address", 6),
    (f"{LOOP} a[i] = a[i++];", "int n, double *a", UnsupportedConstructError,
     "increment or decrement inside an expression", 6),
    (f"{LOOP} a[i] = (a[i] = 1) + 1;", "int n, double *a", UnsupportedConstructError,
     "assignment inside an expression", 6),
    (f"{LOOP} a[i] = \"s\"[0];", "int n, double *a", UnsupportedConstructError,
     "subscript of a computed pointer", 6),
    (f"{LOOP} {{ static int k = 0; a[i] = k; }}", "int n, double *a",
     UnsupportedConstructError, "static declaration of 'k' inside a region", 6),
    (f"{LOOP} for (int j = 0; j < a[i]; j++) a[j] = 0;", "int n, double *a", FrontendError,
     "loop bound must be an integer", 6),
    (f"{LOOP} for (int j = 0; j < i * i; j++) a[j] = 0;", "int n, double *a", FrontendError,
     "unsupported bounds of the loop over 'j'", 6),
    (f"{LOOP} for (int j = 0; j < (n > i ? n : i); j++) a[j] = 0;", "int n, double *a",
     FrontendError, "do not form a convex domain", 6),
    (f"{LOOP} a[i] = (long double)a[i];", "int n, double *a", UnsupportedConstructError,
     "cast to long double is not supported", 6),
])
def test_unsupported_data_and_expressions(stmts, params, cls, message, line):
    check(fn(stmts, params), cls, message, line)


def test_value_of_a_loop_variable_after_the_region():
    """A top-level loop's final value is computed after the call (tests/e2e/
    test_do_variables.py); one nested in a loop of the region is refused."""
    text = (f"{HEAD}void f(int n, double *a) {{\n  int i;\n#pragma translate kernel\n"
            "  for (int j = 0; j < 2; j++)\n    for (i = 0; i < n; i++) a[i] = j;\n"
            "#pragma translate end kernel\n  a[0] = i;\n}\n")
    check(text, UnsupportedConstructError, "the value of loop variable 'i' after region 'f_0' "
          "is used, but the host cannot compute it (the loop is nested in another loop or an "
          "if of the region, or its bounds use values the region declares)", 8, 5)


def test_name_declared_in_a_region_and_used_after_it():
    text = (f"{HEAD}void f(int n, double *a) {{\n#pragma translate kernel\n  double s = 0;\n"
            f"{LOOP} s += a[i];\n#pragma translate end kernel\n  a[0] = s;\n}}\n")
    check(text, UnsupportedConstructError, "'s' is declared inside region 'f_0' and used after "
          "it", 6)


def test_syntax_and_preprocessor_errors():
    check(fn(f"{LOOP} a[i] = 0 0;"), FrontendError, "C syntax error", 6)
    check('#include "no_such_header.h"\n' + fn(f"{LOOP} a[i] = 0;"), FrontendError,
          "C preprocessor: no_such_header.h: No such file or directory", 1)


def test_cli_reports_a_frontend_error_with_exit_status_1(tmp_path):
    src = tmp_path / "bad.c"
    src.write_text(fn(f"{LOOP} {{ if (a[i] < 0) break; a[i] = 1; }}"))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:6:47: error: break is not supported in a region" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------------------------------------
# fuzzing: damaged sources give a TranslatorError or a result, never another exception

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_FUZZ_BASE = f"""{HEAD}#define N 8
double G[N][N];
void f(int n, int m, double *restrict a, const double *b, float s) {{
  double t = 0;
#pragma translate kernel
#pragma translate split_iname("i", 4, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {{
    for (int j = i; j < m && j < N; j += 2) {{
      t = b[i * m + j] * s;
      if (t > 0.5) G[i % N][j] = t; else a[i] -= sqrt(t * t) + (i < j ? 1 : 2);
    }}
  }}
#pragma translate end kernel
}}
"""
_TOKENS = ["for", "(", ")", "{", "}", ";", "i", "j", "n", "m", "[", "]", "=", "+=", "-", "*",
           "/", "%", "<", "<=", "0", "1.5f", "2u", "if", "else", "while", "?", ":", "&&",
           "t", "a", "b", "G", "s", "sqrt", "#pragma translate end kernel\n", ",", "->x"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(_FUZZ_BASE) - 1), st.integers(0, 6),
       st.sampled_from(_TOKENS + [""]))
def test_fuzzed_sources_never_crash(position, cut, token):
    text = _FUZZ_BASE[:position] + token + _FUZZ_BASE[position + cut:]
    try:
        FRONTEND.parse("fuzz.c", text, {})
    except TranslatorError as err:
        assert err.message


def test_gather_extent_from_data_says_what_to_declare():
    """A gather ``x[j]`` with ``j`` computed from the column array (h72; ``int j = c[i];``
    itself is read through the table since h86): the message says how to give the pointer
    an extent."""
    stmts = (f"{LOOP} {{\n    int j = 2 * c[i];\n    if (j >= 0) a[i] = x[j];\n  }}")
    check(fn(stmts, "int n, double *restrict a, const int *restrict c, "
                    "const double *restrict x"),
          FrontendError, "the extent of 'x' accessed by the region depends on 'j', which is "
          "not a value argument; declare it as an array parameter with its extent, e.g. "
          "'double a[n]'", 8)
