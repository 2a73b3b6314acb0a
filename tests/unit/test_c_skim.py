"""Function definitions without a region are blanked before pycparser parses the file."""

from __future__ import annotations

from frontends.c import FRONTEND
from frontends.c.skim import blank_unneeded_bodies

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
