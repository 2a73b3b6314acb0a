"""The C frontend: regions -> kernels (structure), the rewrite, and translated programs run on
the CPU OpenCL device against the original program."""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p
import pytest

from frontends.base import GlueParam, GlueSignature
from frontends.c import FRONTEND
from translator.ir.data import ArrayArg, ValueArg
from translator.ir.expr import IRStringifier, TypeCast
from translator.ir.isl_glue import domain_str

HEADERS = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n"


def parse(text: str, path: str = "t.c", **options):
    return FRONTEND.parse(path, text, options)


def region(text: str, k: int = 0, **options):
    return parse(text, **options).regions[k]


def body(stmts: str, params: str = "int n, double *restrict a, double *restrict b",
         head: str = "", prefix: str = "") -> str:
    """A function whose body is one region around `stmts`."""
    return (f"{HEADERS}{head}void f({params}) {{\n{prefix}#pragma translate kernel\n"
            f"{stmts}\n#pragma translate end kernel\n}}\n")


def text_of(expr) -> str:
    return IRStringifier()(expr)


def stmt_texts(kernel) -> list[str]:
    return [f"{text_of(s.assignee)} = {text_of(s.expression)}" for s in kernel.statements]


def domains(kernel) -> list[str]:
    return [domain_str(d) for d in kernel.domains]


def arg(kernel, name: str):
    found = kernel.arg(name)
    assert found is not None, f"no argument {name}: {kernel.arg_names}"
    return found


# ---------------------------------------------------------------------------------------------
# regions and directives

SAXPY = """#include <stdio.h>
/* comment */
void saxpy(int n, double a, const double *restrict x, double *restrict y)
{
  #pragma translate kernel saxpy_k
  #pragma translate split_iname("i", 128, outer_tag="g.0", \\
                                inner_tag="l.0")
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
  #pragma translate end kernel
}
"""


def test_saxpy_region_kernel_and_directives():
    r = region(SAXPY, path="saxpy.c")
    k = r.kernel
    assert (r.name, r.procedure, k.name) == ("saxpy_k", "saxpy", "saxpy_k")
    assert k.options.source_language == "c"
    assert domains(k) == ["{ [i] : 0 <= i < n }"]
    assert stmt_texts(k) == ["y[i] = a*x[i] + y[i]"]
    assert k.arg_names == ("n", "a", "x", "y")
    assert arg(k, "n") == ValueArg(name="n", dtype=np.int32)
    assert arg(k, "a").dtype == np.float64
    x, y = arg(k, "x"), arg(k, "y")
    assert isinstance(x, ArrayArg) and x.shape == (p.Variable("n"),)
    assert y.may_alias == frozenset() == x.may_alias
    (call,) = r.transform_calls
    assert (call.name, call.args) == ("split_iname", ("i", 128))
    assert dict(call.kwargs) == {"outer_tag": "g.0", "inner_tag": "l.0"}
    assert (call.span.file, call.span.line) == ("saxpy.c", 6)
    # [start, end) covers the kernel line through the end kernel line and its newline
    assert SAXPY[r.start:r.end].startswith("  #pragma translate kernel saxpy_k\n")
    assert SAXPY[r.start:r.end].endswith("  #pragma translate end kernel\n")
    assert r.indent == "  " and (r.span.file, r.span.line) == ("saxpy.c", 5)
    assert dict(r.call_args) == {"n": "n", "a": "a", "x": "x", "y": "y"}


def test_no_region_means_no_parse_and_no_regions():
    assert parse("this is not C at all, but has no directive\n").regions == ()


def test_default_names_count_regions_per_function():
    text = (HEADERS + "double v[10];\nvoid f(void) {\n"
            "#pragma translate kernel\n  for (int i = 0; i < 10; i++) v[i] = 1;\n"
            "#pragma translate end kernel\n"
            "#pragma translate kernel\n  for (int i = 0; i < 10; i++) v[i] += 1;\n"
            "#pragma translate end kernel\n}\n"
            "void g(void) {\n#pragma translate kernel\n  for (int i = 0; i < 10; i++) "
            "v[i] *= 2;\n#pragma translate end kernel\n}\n")
    assert [r.name for r in parse(text).regions] == ["f_0", "f_1", "g_0"]


def test_region_in_nested_block_of_a_time_loop():
    text = (HEADERS + "void f(int n, int steps, double *restrict a) {\n"
            "  for (int t = 0; t < steps; t++) {\n    if (t % 2) {\n"
            "#pragma translate kernel\n      for (int i = 0; i < n; i++) a[i] += t;\n"
            "#pragma translate end kernel\n    }\n  }\n}\n")
    k = region(text).kernel
    assert stmt_texts(k) == ["a[i] = a[i] + t"]
    assert arg(k, "t") == ValueArg(name="t", dtype=np.int32)


# ---------------------------------------------------------------------------------------------
# loops and domains

def test_repeated_loop_variables_get_numbered_inames():
    k = region(body("for (int i = 0; i < n; i++) a[i] = 1;\n"
                    "for (int i = 0; i < n; i++) b[i] = a[i];\n"
                    "for (int i = 0; i < n; i++) { for (int j = 0; j < i; j++) "
                    "b[i] += a[j]; }")).kernel
    assert domains(k) == [
        "{ [i] : 0 <= i < n }", "{ [i_1] : 0 <= i_1 < n }", "{ [i_2] : 0 <= i_2 < n }",
        "{ [j] : 0 <= j < i_2 }"]
    assert [sorted(s.within_inames) for s in k.statements] == [["i"], ["i_1"], ["i_2", "j"]]


@pytest.mark.parametrize("head, value, domain", [
    ("int i = n - 1; i >= 0; i--", "(n - 1) - i", "{ [i] : 0 <= i < n }"),
    ("int i = 3; i < n; i += 4", "3 + 4*i", "{ [i] : i >= 0 and 4i <= -4 + n }"),
    ("int i = 1; i <= n; i = i + 2", "1 + 2*i", "{ [i] : i >= 0 and 2i < n }"),
    ("int i = n; i > 2; i -= 3", "n + -3*i", "{ [i] : i >= 0 and 3i <= -3 + n }"),
    ("int i = 2; i <= n; ++i", "i", "{ [i] : 2 <= i <= n }"),
])
def test_loops_are_normalised_to_counters_in_source_order(head, value, domain):
    k = region(body(f"for ({head}) a[i] = i;")).kernel
    assert domains(k) == [domain]
    assert stmt_texts(k) == [f"a[{value}] = cast(float64, {value})"]


def test_loop_variable_declared_before_the_loop():
    k = region(body("for (i = 0; n > i; i++) a[i] = 0;", prefix="  int i;\n")).kernel
    assert domains(k) == ["{ [i] : 0 <= i < n }"]
    assert "i" not in k.arg_names


def test_min_max_bounds_from_ternaries_and_macros():
    head = "#define MIN(x, y) ((x) < (y) ? (x) : (y))\n"
    k = region(body("for (int i = (m > 2 ? m : 2); i < MIN(n, 100) && i <= m + 5; i++) "
                    "a[i] = 0;", params="int n, int m, double *a", head=head)).kernel
    (dom,) = k.domains
    assert domain_str(dom) == "{ [i] : i >= m and 2 <= i <= 99 and i < n and i <= 5 + m }"


def test_integer_division_in_a_bound_is_floor_with_an_assumption():
    k = region(body("for (int i = 0; i < n / 2; i++) a[i] = 0;\n"
                    "for (int i = 0; i < n; i++) for (int j = 0; j < (i + 1) / 2; j++) "
                    "b[j] = 1;")).kernel
    assert domains(k)[0] == "{ [i] : i >= 0 and 2i <= -2 + n }"
    assert domains(k)[2] == "{ [j] : j >= 0 and 2j < i_1 }"
    assert str(k.assumptions) == "[n] -> {  : n >= 0 }"


def test_triangular_and_imperfect_nest():
    k = region(body("for (int i = 0; i < n; i++) {\n  a[i] = 0;\n"
                    "  for (int j = 0; j <= i; j++) a[i] += b[j];\n  a[i] *= 2;\n}")).kernel
    assert domains(k) == ["{ [i] : 0 <= i < n }", "{ [j] : 0 <= j <= i }"]
    assert [sorted(s.within_inames) for s in k.statements] == [["i"], ["i", "j"], ["i"]]
    s0, s1, s2 = k.statements
    assert s1.depends_on == {s0.id} and s2.depends_on == {s0.id, s1.id}


def test_domain_forest_is_a_chain_along_the_nest():
    k = region(body("for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) "
                    "for (int l = 0; l < i; l++) a[l] += b[j];")).kernel
    # l's bound names only i; its domain also carries j's bounds so that it stays j's child
    assert domains(k)[2] == "{ [l] : j >= 0 and n > j and 0 <= l < i }"


# ---------------------------------------------------------------------------------------------
# statements and expressions

def test_if_else_become_predicates_and_ternary_an_if_expression():
    k = region(body("for (int i = 0; i < n; i++) {\n"
                    "  if (a[i] > 0) b[i] = 1; else if (i) b[i] = 2; else b[i] = 3;\n"
                    "  b[i] += i % 2 == 0 ? a[i] : -a[i];\n}")).kernel
    preds = [sorted(text_of(c) for c in s.predicates) for s in k.statements]
    assert preds == [["a[i] > 0"], ["i != 0", "not (a[i] > 0)"],
                     ["not (a[i] > 0)", "not (i != 0)"], []]
    assert stmt_texts(k)[3] == "b[i] = b[i] + if(rem(i, 2) == 0, a[i], -1*a[i])"


def test_condition_is_hoisted_when_its_branch_changes_what_it_reads():
    k = region(body("for (int i = 0; i < n; i++) if (a[i] < 0) { a[i] = -a[i]; b[i] = a[i]; }")
               ).kernel
    assert stmt_texts(k)[0] == "_tr_cond = cast(int32, a[i] < 0)"
    assert {text_of(c) for c in k.statements[1].predicates} == {"_tr_cond != 0"}
    assert k.temporaries["_tr_cond"].dtype == np.int32


@pytest.mark.parametrize("literal, dtype", [
    ("0.5f", np.float32), ("1e-3", np.float64), ("10u", np.uint32), ("10L", np.int64),
    ("10ul", np.uint64), ("0x10", None), ("'A'", None), ("3000000000", np.int64)])
def test_typed_literals(literal, dtype):
    k = region(body(f"for (int i = 0; i < n; i++) a[i] = a[i] * {literal};")).kernel
    value = k.statements[0].expression.children[1]
    if dtype is None:
        assert isinstance(value, int) and value in (16, 65)
    else:
        assert isinstance(value, np.generic) and value.dtype == np.dtype(dtype)


@pytest.mark.parametrize("expr, expected", [
    # an unsigned value argument is passed as a long and read as (unsigned) u (h72)
    ("i + u", "cast(uint32, i) + cast(uint32, u)"),   # int + unsigned is unsigned in C
    ("i * f", "cast(float32, i)*f"),             # int * float is float
    ("c + c", "cast(int32, c) + cast(int32, c)"),  # integer promotion
    ("f * 2.0", "f*float64(2.0)"),               # float * double constant is double
    ("f * 2", "f*2"),                            # an int constant adapts
    ("i / 3 + i % 3", "i / 3 + rem(i, 3)"),      # truncating division, C remainder
    ("(double)i / 2", "cast(float64, i) / 2"),
    ("u - 1u", "cast(uint32, u) - uint32(1)"),
    ("-1 + u", "4294967295 + cast(uint32, u)"),  # -1 converted to unsigned (wraps)
])
def test_usual_arithmetic_conversions(expr, expected):
    k = region(body(f"for (int i = 0; i < n; i++) r[i] = {expr};",
                    params="int n, unsigned u, float f, char c, double *r")).kernel
    rhs = k.statements[0].expression
    rhs = rhs.child if isinstance(rhs, TypeCast) else rhs
    assert text_of(rhs).replace("uint32(4294967295)", "4294967295") == expected


@pytest.mark.parametrize("target, call, expected", [
    ("x", "sqrt(x[i])", "sqrt(x[i])"),
    ("f", "sqrtf(f[i])", "sqrt(f[i])"),
    ("x", "sqrt(f[i])", "sqrt(cast(float64, f[i]))"),   # the double form computes in double
    ("x", "sqrtf(x[i])", "cast(float64, sqrt(cast(float32, x[i])))"),
    ("x", "fabs(x[i])", "abs(x[i])"), ("f", "fabsf(f[i])", "abs(f[i])"),
    ("x", "pow(x[i], 2)", "pow(x[i], float64(2.0))"),
    ("x", "atan2(x[i], 1.0)", "atan2(x[i], float64(1.0))"),
    ("x", "fmin(x[i], 0.5)", "min(x[i], float64(0.5))"),
    ("f", "fmaxf(f[i], 1)", "max(f[i], float32(1.0))"),
    ("x", "fmod(x[i], 3)", "fmod(x[i], float64(3.0))"),
    ("x", "floor(x[i]) + ceil(x[i])", "floor(x[i]) + ceil(x[i])"),
    ("x", "abs(i - 5)", "cast(float64, abs(i - 5))"),
    ("f", "expf(f[i]) * logf(f[i])", "exp(f[i])*log(f[i])"),
])
def test_math_functions(target, call, expected):
    k = region(body(f"for (int i = 0; i < n; i++) {target}[i] = {call};",
                    params="int n, double *x, float *f")).kernel
    assert text_of(k.statements[0].expression) == expected


def test_compound_assignments_increments_and_casts():
    k = region(body("for (int i = 0; i < n; i++) { k[i] += 2; k[i]--; ++k[i]; k[i] <<= 1;"
                    " k[i] = (int)(a[i] * 2.5); }", params="int n, double *a, int *k")).kernel
    assert stmt_texts(k) == ["k[i] = k[i] + 2", "k[i] = k[i] - 1", "k[i] = k[i] + 1",
                             "k[i] = k[i] << 1", "k[i] = cast(int32, a[i]*float64(2.5))"]


def test_statement_order_dependencies():
    k = region(body("for (int i = 0; i < n; i++) a[i] = 1;\n"
                    "for (int i = 0; i < n; i++) b[i] = 2;\n"
                    "for (int i = 0; i < n; i++) b[i] += a[i];")).kernel
    s0, s1, s2 = k.statements
    assert (s0.depends_on, s1.depends_on, s2.depends_on) == (
        frozenset(), frozenset(), {s0.id, s1.id})


# ---------------------------------------------------------------------------------------------
# data

def test_fixed_size_and_vla_arrays():
    text = (HEADERS + "#define N 8\n#define M (N + 2)\ndouble G[N][M];\n"
            "void f(int n, int m, double A[n][m], double B[][m]) {\n#pragma translate kernel\n"
            "  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++)\n"
            "    A[i][j] = G[i % N][j % M] + B[i + 1][j];\n#pragma translate end kernel\n}\n")
    r = region(text)
    k = r.kernel
    assert arg(k, "G").shape == (8, 10)
    assert arg(k, "A").shape == (p.Variable("n"), p.Variable("m"))
    assert arg(k, "B").shape == (p.Sum((p.Variable("n"), 1)), p.Variable("m"))
    assert k.arg_names == ("n", "m", "A", "B", "G")
    assert dict(r.call_args) == {"n": "n", "m": "m", "A": "&A[0][0]", "B": "&B[0][0]",
                                 "G": "&G[0][0]"}


def test_cpp_args_reach_the_preprocessor():
    text = HEADERS + "double G[N];\nvoid f(void) {\n#pragma translate kernel\n" \
        "  for (int i = 0; i < N; i++) G[i] = i;\n#pragma translate end kernel\n}\n"
    assert arg(region(text, cpp_args=["-DN=37"]).kernel, "G").shape == (37,)


def test_pointer_footprints_and_aliasing():
    k = region(body("for (int i = 0; i < n; i++) for (int j = 0; j < m; j++)\n"
                    "  c[i * m + j] = a[j * n + i] + b[i + 2] + d[2 * j];",
                    params="int n, int m, double *a, double *b, double *restrict c, "
                           "const double *d")).kernel
    assert text_of(arg(k, "b").shape[0]) == "n + 2"
    assert text_of(arg(k, "d").shape[0]) == "2*m - 1"
    assert text_of(arg(k, "c").shape[0]) == "(m - 1) + m*(n - 1) + 1"
    assert arg(k, "a").may_alias == {"b", "d"} and arg(k, "c").may_alias == frozenset()


def test_pointer_provenance_and_unknown_origins():
    """Issue 20 item 9: a pointer set once to an array plus an invariant offset is that array
    (chains too); a pointer of any other origin may alias every buffer; ``a[restrict n]`` is a
    restrict pointer, a plain array parameter a disjoint buffer."""
    k = region(body("for (int i = 0; i < n; i++) { p[i] = 2 * u[i] + q[i] + r[i]; w[i] = a[i]; }",
                    params="int n, int k, double *restrict a, double b[restrict n], "
                           "double c[n], int which",
                    prefix="  double u[40], v[40];\n  double *p = u + 1;\n"
                           "  double *q = &a[k];\n  double *r = q - 2;\n"
                           "  double *w = which ? b : c;\n")).kernel
    assert stmt_texts(k)[0] == "u[1 + i] = 2*u[i] + a[k + i] + a[(k - 2) + i]"   # one flat sum
    assert sorted(k.arg_names) == ["a", "k", "n", "u", "w"]
    assert arg(k, "w").may_alias == {"a", "u"}
    assert arg(k, "u").may_alias == {"w"} and arg(k, "a").may_alias == {"w"}
    k = region(body("for (int i = 0; i < n; i++) b[i] = c[i] + d[i];",
                    params="int n, double b[restrict n], double c[n], double d[n]")).kernel
    assert all(arg(k, x).may_alias == frozenset() for x in "bcd")


def test_a_pointer_assigned_twice_has_no_known_origin():
    k = region(body("for (int i = 0; i < n; i++) p[i] = 2 * u[i];",
                    prefix="  double u[40];\n  double *p = u + 1;\n  p = u;\n")).kernel
    assert sorted(k.arg_names) == ["n", "p", "u"]
    assert arg(k, "p").may_alias == {"u"}


def test_scalars_values_written_and_private():
    text = (HEADERS + "double out;\nvoid f(int n, double *restrict a, double s) {\n"
            "  double t, sum = 0, u = 0;\n#pragma translate kernel\n"
            "  for (int i = 0; i < n; i++) {\n    t = a[i] * s;\n    a[i] = t * t;\n"
            "    sum += t;\n    out = t;\n  }\n  u = sum;\n#pragma translate end kernel\n"
            "  printf(\"%g %g\\n\", sum, t * 0);\n}\n")
    r = region(text)
    k = r.kernel
    assert isinstance(arg(k, "s"), ValueArg)
    # sum is read before written and used after: a 1-element array passed by address
    assert arg(k, "sum").shape == (1,) and dict(r.call_args)["sum"] == "&sum"
    # t is used after the region too; out is a global
    assert r.written_scalars == {"sum", "t", "out"}
    # u is written first and dead afterwards: a private temporary
    assert "u" in k.temporaries and "u" not in k.arg_names
    assert "sum[0] = sum[0] + t[0]" in stmt_texts(k)


def test_block_scope_statics_keep_their_value_across_calls():
    r = region(body("for (int i = 0; i < n; i++) calls += a[i];",
                    prefix="  static double calls = 0;\n"))
    assert r.written_scalars == {"calls"} and dict(r.call_args)["calls"] == "&calls"


def test_locals_of_the_region_are_private_temporaries():
    k = region(body("for (int i = 0; i < n; i++) {\n  double t = a[i];\n  float w[3];\n"
                    "  w[0] = t;\n  b[i] = t + w[0];\n}", prefix="  double t = 1;\n")).kernel
    temps = dict(k.temporaries)
    assert temps["t_0"].dtype == np.float64 and temps["t_0"].shape == ()
    assert temps["w"].shape == (3,) and temps["w"].dtype == np.float32
    assert stmt_texts(k)[0] == "t_0 = a[i]"


def test_every_statement_and_argument_has_a_span():
    r = region(SAXPY, path="saxpy.c")
    for item in (*r.kernel.statements, *r.kernel.args):
        assert item.span is not None and item.span.file == "saxpy.c"
        assert item.span.source_line is not None
    st = r.kernel.statements[0].span
    assert (st.line, st.col) == (9, 5) and st.source_line.startswith("    y[i]")


def test_system_headers_parse():
    text = ("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n"
            "#include <stdint.h>\n#include <stdbool.h>\n#include <assert.h>\n"
            "#include <time.h>\n#include <limits.h>\n#include <float.h>\n"
            "void f(size_t n, int64_t *restrict a) {\n#pragma translate kernel\n"
            "  for (size_t i = 0; i < n; i++) a[i] = (int64_t)i * INT_MAX;\n"
            "#pragma translate end kernel\n}\n")
    k = region(text).kernel
    # size_t n: passed as a long, so that bounds like n - 1 do not wrap (h72)
    assert arg(k, "n").dtype == np.int64 and arg(k, "a").dtype == np.int64


# ---------------------------------------------------------------------------------------------
# rewrite

def glue_for(parsed) -> dict[str, GlueSignature]:
    out = {}
    for r in parsed.regions:
        params = tuple(GlueParam(name=a.name, kind="array" if isinstance(a, ArrayArg)
                                 else "value", dtype=a.dtype,
                                 is_output=bool(r.kernel.writers(a.name)))
                       for a in r.kernel.args)
        out[r.name] = GlueSignature(region=r.name, symbol=f"translate_{r.name}", params=params)
    return out


REWRITE_SOURCE = """/* header comment */
#include <stdio.h>
#define N 16   /* size */

static double A[N][N];

static int helper(int x) { return x + 1; }   /* untouched */

/* doc comment of work */
static void
work(int n, double s)
{
  double sum = 0;
#ifdef VERBOSE
  printf("start\\n");
#endif
    #pragma translate kernel first
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        A[i][j] = s * i + j;   /* comment inside */
    #pragma translate end kernel
  /* between */
#pragma translate kernel
  for (int i = 0; i < n; i++)
    sum += A[i][i];
#pragma translate end kernel
  printf("%g %d\\n", sum, helper(1));
}

int main(void) { work(N, 0.5); return 0; }
"""


def test_rewrite_keeps_every_byte_outside_regions():
    parsed = parse(REWRITE_SOURCE)
    glue = glue_for(parsed)
    new = FRONTEND.rewrite(parsed, glue)
    first, second = parsed.regions
    assert second.name == "work_1"
    call1 = "    translate_first(n, s, &A[0][0]);\n"
    call2 = "  translate_work_1(n, &sum, &A[0][0]);\n"
    protos = ("void translate_first(int n, double s, double *A);\n"
              "void translate_work_1(int n, double *sum, const double *A);\n")
    at = REWRITE_SOURCE.index("static void\nwork(")
    expected = (REWRITE_SOURCE[:at] + protos + REWRITE_SOURCE[at:first.start] + call1
                + REWRITE_SOURCE[first.end:second.start] + call2 + REWRITE_SOURCE[second.end:]
                + parsed.macro_guard)
    assert new == expected
    # the one addition after the last byte: N (the extents, the kernels' bounds) checked again
    assert "#if !defined(N) || (N) != 16\n" in parsed.macro_guard


def test_rewrite_c_types_and_no_regions():
    parsed = parse(body("for (int i = 0; i < n; i++) k[i] = u + l + (long long)f;",
                        params="int n, unsigned u, long l, float f, long long *k"))
    new = FRONTEND.rewrite(parsed, glue_for(parsed))
    assert ("void translate_f_0(int n, long long u, long l, float f, long long *k);"
            in new)
    plain = "int main(void) { return 0; }\n"
    assert FRONTEND.rewrite(parse(plain), {}) == plain


# ---------------------------------------------------------------------------------------------
# translated programs against the originals (CPU OpenCL device)

SEMANTICS = r"""
#include <stdio.h>
#define N 64
static unsigned int h[N];
static int q[N], r[N], cmp[N], sh[N];
static signed char c8[N];
static float f[N];
static double d[N];

void semantics(int n, unsigned int seed)
{
#pragma translate kernel
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    h[i] = seed * (unsigned int)(i + 1) - 7u;        /* wraps around */
    q[i] = (i - 40) / 7;                              /* truncates toward zero */
    r[i] = (i - 40) % 7;                              /* sign of the dividend */
    cmp[i] = (i - 32 < 5u) + 2 * (h[i] > 100);        /* int converted to unsigned */
    c8[i] = (signed char)(i * 5);
    sh[i] = c8[i] * c8[i] + (c8[i] >> 1);             /* char arithmetic in int */
    f[i] = (float)i / 3.0f + 0.1f;                    /* float stays float */
    d[i] = (float)i / 3.0 + 0.1f;                     /* float / double is double */
  }
#pragma translate end kernel
}

int main(void)
{
  semantics(N, 2654435761u);
  for (int i = 0; i < N; i += 3)
    printf("%u %d %d %d %d %d %.9g %.17g\n", h[i], q[i], r[i], cmp[i], c8[i], sh[i], f[i], d[i]);
  return 0;
}
"""

SCALARS = r"""
#include <stdio.h>
#include <math.h>

double norm_and_scale(int n, double *restrict v, double s)
{
  double total = 0.0, t;
  int count = 0;
#pragma translate kernel
  total = 0.5;
  for (int i = 0; i < n; i++) {
    double w[2];
    t = v[i] * s;
    w[0] = t > 1.0 ? t : -t;
    w[1] = sqrt(fabs(t));
    v[i] = w[0] + w[1];
    if (v[i] > 2.0) {
      total += v[i];
      count++;
    }
  }
  total = total / (count + 1);
#pragma translate end kernel
  return total + count;
}

int main(void)
{
  double v[50];
  double acc = 0.0;
  for (int step = 0; step < 3; step++) {
    for (int i = 0; i < 50; i++)
      v[i] = (i % 9) * 0.5 - step;
    acc += norm_and_scale(50 - step, v, 1.5 + step);
    printf("%.17g %.17g %.17g\n", acc, v[3], v[49 - step]);
  }
  return 0;
}
"""

LOOPS = r"""
#include <stdio.h>
#include <stdlib.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))

void shapes(int n, int m, double A[n][m], double *restrict lin, double tri[n * (n + 1) / 2])
{
#pragma translate kernel
  for (int i = n - 1; i >= 0; i -= 2)
    for (int j = 0; j < MIN(m, i + 3); j++)
      A[i][j] = A[i][j] * 2 + i - j;
  for (int i = 0; i < n / 2; i++)
    for (int j = i; j < m; j += 3)
      lin[i * m + j] += 1.0 / (1 + i + j);
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      tri[i * (i + 1) / 2 + j] = tri[i * (i + 1) / 2 + j] - A[i][j % m];
#pragma translate end kernel
}

int main(void)
{
  int n = 11, m = 7;
  double (*A)[m] = malloc(sizeof(double) * n * m);
  double *lin = malloc(sizeof(double) * n * m), *tri = malloc(sizeof(double) * n * (n + 1) / 2);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      A[i][j] = i * 0.25 + j;
      lin[i * m + j] = -j;
    }
  for (int k = 0; k < n * (n + 1) / 2; k++)
    tri[k] = k;
  shapes(n, m, A, lin, tri);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += A[i][j] * (i + 1) + lin[i * m + j] * (j + 2);
  for (int k = 0; k < n * (n + 1) / 2; k++)
    s += tri[k] * (k % 5);
  printf("%.17g %.17g %.17g\n", s, lin[m + 1], tri[n * (n + 1) / 2 - 1]);
  free(A);
  free(lin);
  free(tri);
  return 0;
}
"""


@pytest.mark.parametrize("name, source", [("semantics", SEMANTICS), ("scalars", SCALARS),
                                          ("loops", LOOPS)])
def test_translated_program_matches_original(name, source, tmp_path):
    from tests.e2e.harness import check_sample
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    out = check_sample(src, tmp_path)
    assert out.strip()


def test_non_affine_bound_in_values_is_computed_by_the_caller():
    r = region(body("for (int k = 0; k < n * m; k++) a[k] = k;", params="int n, int m, "
                    "double *restrict a"))
    assert domains(r.kernel) == ["{ [k] : 0 <= k < _tr_bound }"]
    assert r.kernel.arg_names == ("a", "_tr_bound")
    assert dict(r.call_args)["_tr_bound"] == "(n * m)"
    assert text_of(arg(r.kernel, "a").shape[0]) == "_tr_bound"


def test_printed_kernels_parse_back_identically():
    from pathlib import Path

    from translator.ir.parse import parse_kernel
    from translator.ir.printer import print_kernel
    samples = sorted((Path(__file__).parents[2] / "samples" / "c").glob("*.c"))
    assert len(samples) >= 8
    for src in samples:
        for r in FRONTEND.parse(str(src), src.read_text(), {}).regions:
            assert parse_kernel(print_kernel(r.kernel)) == r.kernel, (src.name, r.name)


def test_prototypes_use_the_sources_type_spellings(tmp_path):
    """A `long *` argument gets a `long *` parameter (not `long long *`: a different C type,
    an error in recent gcc), so the rewritten file compiles with -Werror."""
    import subprocess

    from translator.driver import translate_text
    src = ("void f(int n, long *restrict a, const long *restrict b)\n{\n"
           "#pragma translate kernel k\n  for (int i = 0; i < n; i++)\n    a[i] = 2 * b[i];\n"
           "#pragma translate end kernel\n}\n")
    out = translate_text("lg.c", src).outputs["lg.c"]
    assert "void translate_k(long *a, const long *b, int n);" in out
    (tmp_path / "lg.c").write_text(out)
    subprocess.run(["gcc", "-c", "-std=c99", "-Wall", "-Werror", str(tmp_path / "lg.c"), "-o",
                    str(tmp_path / "lg.o")], check=True)
