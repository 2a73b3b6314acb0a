"""Function definitions without a region are blanked before pycparser parses the file."""

from __future__ import annotations

from frontends.c import FRONTEND
from frontends.c.skim import blank_unneeded_bodies, function_definitions

REGION = """\
void r(int n, double *restrict a)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    a[i] = 2 * a[i];
#pragma translate end kernel
}
"""


def test_only_definitions_without_a_pragma_are_blanked():
    text = ('struct s { int x; };\nstatic int f(int x) { return x + "}"[0]; }\n'
            '# 7 "t.c"\n' + REGION)
    out = blank_unneeded_bodies(text)
    assert out.count("\n") == text.count("\n") and len(out) == len(text)
    assert out.splitlines()[0] == "struct s { int x; };"
    assert not out.splitlines()[1].strip()
    assert out.splitlines()[2] == '# 7 "t.c"'
    assert out.endswith(REGION)


def test_unbalanced_text_is_left_alone():
    text = "int f(void) { return 1;\n"
    assert blank_unneeded_bodies(text) is text


def test_region_after_many_functions_keeps_its_lines():
    plain = "".join(f"static double p{k}(double x)\n{{\n  return x * {k};\n}}\n"
                    for k in range(100))
    parsed = FRONTEND.parse("big.c", plain + REGION, {})
    assert [r.name for r in parsed.regions] == ["r_0"]
    assert parsed.regions[0].span.line == 403


def test_syntax_error_outside_the_regions_functions_is_left_to_the_compiler():
    parsed = FRONTEND.parse("x.c", "int bad(void) { return (1 + ; }\n" + REGION, {})
    assert len(parsed.regions) == 1


def test_syntax_error_in_the_regions_function_is_reported_at_its_line():
    import pytest

    from translator.diagnostics import FrontendError
    with pytest.raises(FrontendError) as err:
        FRONTEND.parse("x.c", "int ok(void) { return 1; }\n"
                       + REGION.replace("2 * a[i];", "2 a[i];"), {})
    assert err.value.message.startswith("C syntax error")
    assert err.value.span.line == 6


def test_functions_a_region_calls_are_kept_transitively():
    """Their calls are inlined; a function called only outside the regions is blanked."""
    text = ("static double g(double x) { return x * x; }\n"
            "static double f(double x) { return g(x) + 1; }\n"
            "static double h(double x) { return x; }\n"
            "void r(int n, double *restrict a)\n{\n  a[0] = h(a[0]);\n"
            "#pragma translate kernel\n  for (int i = 0; i < n; i++)\n    a[i] = f(a[i]);\n"
            "#pragma translate end kernel\n}\n")
    lines = blank_unneeded_bodies(text).splitlines()
    assert lines[0] == "static double g(double x) { return x * x; }"
    assert lines[1].startswith("static double f(")
    assert not lines[2].strip()
    assert not blank_unneeded_bodies(text, keep_called=False).splitlines()[0].strip()


def test_called_functions_with_parentheses_in_their_parameters_are_kept():
    """``float (*cs)[5]`` and a function pointer parameter: the name is the identifier before
    the last parenthesised group (h56: the body was blanked, the call reported undefined)."""
    text = ("static int near(const float *p, float (*cs)[5], int n) { return cs[n][0] > p[0]; }\n"
            "static double ap(double (*f)(double, int), double x) { return x; }\n"
            "void r(int n, float *restrict a, int *restrict m, float (*c)[5])\n{\n"
            "#pragma translate kernel\n  for (int i = 0; i < n; i++)\n    m[i] = near(a, c, i);\n"
            "#pragma translate end kernel\n}\n")
    lines = blank_unneeded_bodies(text).splitlines()
    assert lines[0].startswith("static int near(")
    assert not lines[1].strip()
    assert [(name, params) for name, params, _, _ in function_definitions(text)] == [
        ("near", ("p", "cs", "n")), ("ap", ("f", "x")), ("r", ("n", "a", "m", "c"))]
