"""Function definitions without a region are blanked before pycparser parses the file."""

from __future__ import annotations

import pytest

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


#: Preprocessed text as gcc writes it: a system header (flag 3), a marker of the same header
#: without the flag (after a macro of the command line), the file's own lines and header.
HEADERS = """\
# 1 "<stdin>"
# 1 "/usr/include/demo.h" 1 3 4
typedef struct _F FILE;
struct tm;
extern FILE *stdout;
extern int fclose (FILE *__stream);
extern int puts (const char *
# 9 "/usr/include/demo.h"
                  restrict
# 9 "/usr/include/demo.h" 3 4
                           __s);
extern void (*signal (int __sig, void (*__h) (int))) (int);
extern int opterr, optind;
extern const char *const sys_errlist[];
static inline int getc_fast (FILE *__f) { return __uflow (__f); }
extern int __uflow (FILE *);
extern struct tm *localtime (const long *__timer);
extern double used_by_macro (double);
typedef double __real_t;
typedef unsigned long int __unused_t;
extern double called (__real_t);
enum { red, green };
# 3 "<stdin>" 2
# 1 "mine.h" 1
extern int unused_of_mine (int);
# 4 "<stdin>" 2
void r(int n, double *restrict a)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    a[i] = called(a[i]) + used_by_macro(1.0);
#pragma translate end kernel
}
"""


def test_system_header_declarations_nothing_names_are_blanked():
    """A system header's prototypes, extern variables and typedef names of one name that
    nothing else in the text names are left out of the parse (issue 24: stdio.h's 91
    prototypes and 70 typedefs cost a C translation 20 ms); tags, enumerations, function
    pointers, multiple declarators, names that a header's inline function, the file, its own
    header or a kept declaration uses (``__real_t``), and the file's own headers stay; lines
    and markers stay where they were."""
    out = blank_unneeded_bodies(HEADERS, declarations=True)
    assert len(out) == len(HEADERS) and out.count("\n") == HEADERS.count("\n")
    gone = {line for line in HEADERS.splitlines()} - set(out.splitlines())
    assert gone == {"extern FILE *stdout;", "extern int fclose (FILE *__stream);",
                    "extern int puts (const char *", "                  restrict",
                    "                           __s);",
                    "extern struct tm *localtime (const long *__timer);",
                    "typedef unsigned long int __unused_t;",
                    # a body no region calls, blanked as before (its names still count)
                    "static inline int getc_fast (FILE *__f) { return __uflow (__f); }"}
    for kept in ("typedef struct _F FILE;", "struct tm;", "extern int opterr, optind;",
                 "extern int __uflow (FILE *);", "extern double called (__real_t);",
                 "typedef double __real_t;",
                 "extern double used_by_macro (double);", "enum { red, green };",
                 "extern const char *const sys_errlist[];", '# 9 "/usr/include/demo.h"',
                 "extern int unused_of_mine (int);",
                 "extern void (*signal (int __sig, void (*__h) (int))) (int);"):
        assert kept in out.splitlines(), kept
    assert "extern int fclose (FILE *__stream);" in blank_unneeded_bodies(HEADERS)   # asked


def test_a_c_translation_parses_only_the_prototypes_it_names(tmp_path):
    """stdio.h's and math.h's prototypes and typedefs that the file does not name are not in
    the tree the frontend reads; those it names, and the types these use, are."""
    from pycparser import c_ast

    from frontends.c.preprocess import SourceText, parse_file
    text = ("#include <stdio.h>\n#include <math.h>\n" + REGION.replace("2 * a[i]", "sqrt(a[i])")
            + "int main(void) { double a[4] = {0}; r(4, a); printf(\"%g\\n\", a[0]);"
            " fprintf(stderr, \"done\\n\"); return 0; }\n")
    tree, _ = parse_file(SourceText(str(tmp_path / "m.c"), text), {})
    declared = {ext.name for ext in tree.ext if isinstance(ext, c_ast.Decl)}
    typedefs = {ext.name for ext in tree.ext if isinstance(ext, c_ast.Typedef)}
    assert {"printf", "sqrt", "fprintf", "stderr"} <= declared
    assert "FILE" in typedefs and "size_t" in typedefs and "__u_char" not in typedefs
    assert not {"fclose", "fopen", "cos", "remove"} & declared


@pytest.mark.parametrize(("text", "bodies"), [
    ("int f(void) /* { */ { return 1; }\nstruct s { int a; } v;\n", [(0, 21, 33)]),
    ("int g(int x)\n// }\n{\n  char c = '}';\n  return x; }\n", [(0, 19, 49)]),
    ('int h(void) { return "{"[0]; } int k; # 3 "x"\n', [(0, 13, 30)]),
    ("#define X {\nint m(void)\r\n{\r\n return 0;\r\n}\r\n", [(11, 26, 41)]),
    ('void n(void) { a / b; }\n  # 7 "f.c" 3\nint p(void) { }\n', [(0, 14, 23), (37, 51, 53)]),
])
def test_the_top_level_scan_skips_comments_literals_and_directive_lines(text, bodies):
    """The scan that skips plain text by regular expression (h68) finds what the scan per
    character found (the expected values are that scan's): braces in comments, literals and
    directive lines do not count; a ``#`` starts a directive only first on its line."""
    from frontends.c.skim import _function_bodies
    assert _function_bodies(text) == bodies
