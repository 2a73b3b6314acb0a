"""Private temporaries proved private (issue 10) and accumulators that move (issue 16).

Each refused shape is written in C and Fortran and must fail with a witness that names the
write and the read, pointing at the writing statement's line.  The privatisable cousins are
translated, built and run on the CPU OpenCL device against the original program.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import LegalityError
from translator.driver import translate_text

C = """\
void f(int n, double a[n], double b[n], double c[n][n], double d[n][n], double *x)
{{
  int i, j, k, im1;
  double s, t, acc;
#pragma translate kernel k
{pragmas}
{body}
#pragma translate end kernel
}}
"""

FORTRAN = """\
subroutine f(n, a, b, c, d, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n), c(n, n), d(n, n), x
  integer :: i, j, k, im1
  real(8) :: s, t, acc
  !$translate kernel k
{pragmas}
{body}
  !$translate end kernel
end subroutine
"""

SPLIT_I = 'split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")'
SPLIT_J = 'split_iname("j", 64, inner_tag="l.0")'


@dataclass(frozen=True)
class Shape:
    name: str
    c: str
    fortran: str
    expect: tuple[str, ...]   # fragments of the message and its hint
    line: int                 # the writing statement's line within the body (1-based)
    pragma: str = SPLIT_I


REFUSED = [
    Shape("prefix sum",
          "  s = 0;\n  for (i = 0; i < n; i++) {\n    s = s + b[i];\n    a[i] = s;\n  }",
          "  s = 0\n  do i = 1, n\n     s = s + b(i)\n     a(i) = s\n  end do",
          ("mapping i_inner to l.0 races on private s: each work item has its own s, but "
           "iteration i_inner=", "writes s and iteration i_inner=", "a scan"), 3),
    Shape("running count",
          "  k = 0;\n  for (i = 0; i < n; i++) {\n    if (b[i] > 0) k = k + 1;\n    a[i] = k;\n"
          "  }",
          "  k = 0\n  do i = 1, n\n     if (b(i) > 0) k = k + 1\n     a(i) = k\n  end do",
          ("races on private k", "writes k and iteration", "a scan"), 3),
    Shape("value carried to the next iteration",
          "  t = 1;\n  for (i = 0; i < n; i++) {\n    a[i] = t;\n    t = b[i];\n  }",
          "  t = 1\n  do i = 1, n\n     a(i) = t\n     t = b(i)\n  end do",
          ("races on private t", "writes t and iteration i_inner=",
           "carried from one iteration of i_inner"), 4),
    Shape("conditional carry",
          "  t = 0;\n  for (i = 0; i < n; i++) {\n    if (b[i] > 0.5) t = b[i];\n    a[i] = t;\n"
          "  }",
          "  t = 0\n  do i = 1, n\n     if (b(i) > 0.5) t = b(i)\n     a(i) = t\n  end do",
          ("races on private t", "carried from one iteration"), 3),
    Shape("row recurrence, inner loop mapped",
          "  for (i = 0; i < n; i++) {\n    acc = 0;\n    for (j = 0; j < n; j++) {\n"
          "      acc = acc*0.5 + c[i][j];\n      d[i][j] = acc;\n    }\n  }",
          "  do i = 1, n\n     acc = 0\n     do j = 1, n\n        acc = acc*0.5 + c(i, j)\n"
          "        d(i, j) = acc\n     end do\n  end do",
          ("mapping j_inner to l.0 races on private acc", "a scan"), 4, SPLIT_J),
    Shape("wrap-around variable",
          "  im1 = n - 1;\n  for (i = 0; i < n; i++) {\n    a[i] = b[i] + b[im1];\n"
          "    im1 = i;\n  }",
          "  im1 = n\n  do i = 1, n\n     a(i) = b(i) + b(im1)\n     im1 = i\n  end do",
          ("races on private im1", "writes im1 and iteration", "carried"), 4),
    Shape("induction variable",
          "  k = 0;\n  for (i = 0; i < n - 1; i++) {\n    k = k + 1;\n    a[i] = b[k];\n  }",
          "  k = 1\n  do i = 1, n - 1\n     k = k + 1\n     a(i) = b(k)\n  end do",
          ("races on private k", "a scan"), 3),
    Shape("value read after the loop",
          "  s = b[0];\n  for (i = 0; i < n; i++) {\n    s = b[n - 1 - i];\n    a[i] = 2*s;\n"
          "  }\n  *x = s + 1;",
          "  s = b(1)\n  do i = 1, n\n     s = b(n + 1 - i)\n     a(i) = 2*s\n  end do\n"
          "  x = s + 1",
          ("races on private s", "writes s and the statement after the loop reads that value",
           "comes from its last iteration"), 3),
    # issue 21: the writes of an IF/ELSE combine only when they cover every path, under a
    # condition that holds the same value at both (and at the read)
    Shape("else if chain without else",
          "  t = 0;\n  for (i = 0; i < n; i++) {\n    if (b[i] > 0.5) {\n      t = 1;\n"
          "    } else if (b[i] > 0) {\n      t = 2;\n    }\n    a[i] = t;\n  }",
          "  t = 0\n  do i = 1, n\n     if (b(i) > 0.5) then\n        t = 1\n"
          "     else if (b(i) > 0) then\n        t = 2\n     end if\n     a(i) = t\n  end do",
          ("races on private t", "carried from one iteration"), 4),
    Shape("branch condition changed between the branches",
          "  t = 0;\n  for (i = 0; i < n; i++) {\n    s = b[i];\n    if (s > 0) t = s;\n"
          "    s = -s;\n    if (!(s > 0)) t = 1;\n    a[i] = t;\n  }",
          "  t = 0\n  do i = 1, n\n     s = b(i)\n     if (s > 0) t = s\n     s = -s\n"
          "     if (.not. (s > 0)) t = 1\n     a(i) = t\n  end do",
          ("races on private t", "carried from one iteration"), 4),
    Shape("guard changed between the write and the read",
          "  t = 0;\n  for (i = 0; i < n; i++) {\n    s = b[i];\n    if (s > 0.5) t = s;\n"
          "    s = s - 1;\n    if (s > 0.5) a[i] = t;\n  }",
          "  t = 0\n  do i = 1, n\n     s = b(i)\n     if (s > 0.5) t = s\n     s = s - 1\n"
          "     if (s > 0.5) a(i) = t\n  end do",
          ("races on private t", "carried from one iteration"), 4),
]


#: A running maximum with its index, read after the loop: refused until arg-max reductions
#: (session 7); now an exact arg-max (tests/e2e/test_arg_reductions.py runs such mappings).
ARGMAX = Shape("running maximum, its index read after the loop",
               "  t = b[0];\n  k = 0;\n  for (i = 0; i < n; i++) {\n    if (b[i] > t) {\n"
               "      t = b[i];\n      k = i;\n    }\n  }\n  *x = k;",
               "  t = b(1)\n  k = 1\n  do i = 1, n\n     if (b(i) > t) then\n"
               "        t = b(i)\n        k = i\n     end if\n  end do\n  x = k",
               (), 0)


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_running_maximum_with_its_index_is_an_arg_max(lang: str) -> None:
    path, text = _source(lang, ARGMAX.c if lang == "c" else ARGMAX.fortran, (ARGMAX.pragma,))
    result = translate_text(path, text)
    kernel = next(v for k, v in result.outputs.items() if k.endswith(".cl"))
    assert "_tr_argfinish_argmax_" in kernel


def _source(lang: str, body: str, pragmas: tuple[str, ...]) -> tuple[str, str]:
    if lang == "c":
        lines = "\n".join(f"#pragma translate {p}" for p in pragmas)
        return "flow.c", C.format(pragmas=lines, body=body)
    lines = "\n".join(f"  !$translate {p}" for p in pragmas)
    return "flow.f90", FORTRAN.format(pragmas=lines, body=body)


def _body_start(text: str) -> int:
    """1-based line number of the body's first line (after the last pragma)."""
    lines = text.splitlines()
    last = max(k for k, line in enumerate(lines)
               if "translate" in line and "end kernel" not in line)
    return last + 2


@pytest.mark.parametrize("lang", ["c", "fortran"])
@pytest.mark.parametrize("shape", REFUSED, ids=[s.name for s in REFUSED])
def test_refused_with_witness(lang: str, shape: Shape) -> None:
    body = shape.c if lang == "c" else shape.fortran
    path, text = _source(lang, body, (shape.pragma,))
    with pytest.raises(LegalityError) as info:
        translate_text(path, text)
    err = info.value
    rendered = err.render()
    for fragment in shape.expect:
        assert fragment in rendered, rendered
    assert err.span is not None and err.span.file == path
    assert err.span.line == _body_start(text) + shape.line - 1, rendered


def test_prefix_sum_witness_in_full() -> None:
    """The whole message: the nearest pair of work items, the smallest size, the read's line
    and a note at the read."""
    path, text = _source("c", REFUSED[0].c, (SPLIT_I,))
    with pytest.raises(LegalityError) as info:
        translate_text(path, text)
    start = _body_start(text)
    assert info.value.message == (
        "mapping i_inner to l.0 races on private s: each work item has its own s, but "
        "iteration i_inner=0, i_outer=0 writes s and iteration i_inner=1, i_outer=0 reads that "
        f"value (flow.c:{start + 2})")
    assert info.value.detail.splitlines()[0] == "  for example when n=2"


def test_moving_accumulator_is_not_a_reduction() -> None:
    """Issue 16: ``p[k] += a[i][j]; k += 8`` with j mapped updates another element in every
    iteration; it is not a reduction, and k carries from one iteration to the next."""
    text = textwrap.dedent("""\
        void f(int n, double p[8*n*n], double a[n][n])
        {
          int i, j, k;
        #pragma translate kernel k
        #pragma translate split_iname("j", 64, inner_tag="l.0")
          for (i = 0; i < n; i++) {
            k = i;
            for (j = 0; j < n; j++) {
              p[k] += a[i][j];
              k += 8;
            }
          }
        #pragma translate end kernel
        }
        """)
    with pytest.raises(LegalityError) as info:
        translate_text("move.c", text)
    err = info.value
    assert "races on private k" in err.message, err.render()
    assert err.span.file == "move.c" and err.span.line == 10


# ---------------------------------------------------------------------------------------------
# privatisable cousins: translated and run on PoCL

C_PROGRAM = """\
#include <stdio.h>
#define N 300

void f(int n, double a[n], double b[n], double c[n][n], double d[n][n], double *x)
{{
  int i, j;
  double t, acc;
#pragma translate kernel k
{pragmas}
{body}
#pragma translate end kernel
}}

int main(void)
{{
  static double a[N], b[N], c[N][N], d[N][N];
  double x = 0.0;
  for (int i = 0; i < N; i++) {{
    b[i] = (i * 37 % 101) / 100.0;
    for (int j = 0; j < N; j++)
      c[i][j] = ((i + 3*j) % 17) / 16.0;
  }}
  f(N, a, b, c, d, &x);
  double sa = 0.0, sd = 0.0;
  for (int i = 0; i < N; i++) {{
    sa += a[i] * (i + 1);
    for (int j = 0; j < N; j++)
      sd += d[i][j] * ((i + j) % 7);
  }}
  printf("%.17g %.17g %.17g %.17g\\n", sa, sd, a[N - 1], d[N - 1][N - 1]);
  return 0;
}}
"""

FORTRAN_PROGRAM = """\
subroutine f(n, a, b, c, d, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n), c(n, n), d(n, n), x
  integer :: i, j
  real(8) :: t, acc
  !$translate kernel k
{pragmas}
{body}
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(n), b(n), c(n, n), d(n, n), x, sa, sd
  integer :: i, j
  a = 0
  d = 0
  x = 0
  do i = 1, n
     b(i) = mod(i * 37, 101) / 100.0d0
     do j = 1, n
        c(i, j) = mod(i + 3*j, 17) / 16.0d0
     end do
  end do
  call f(n, a, b, c, d, x)
  sa = 0
  sd = 0
  do i = 1, n
     sa = sa + a(i) * i
     do j = 1, n
        sd = sd + d(i, j) * mod(i + j, 7)
     end do
  end do
  print '(4(1x, es25.17e3))', sa, sd, a(n), d(n, n)
end program main
"""

ACCEPTED = [
    Shape("scalar written first in every iteration",
          "  t = 5;\n  for (i = 0; i < n; i++) {\n    t = 2*b[i];\n    a[i] = t + 1;\n  }",
          "  t = 5\n  do i = 1, n\n     t = 2*b(i)\n     a(i) = t + 1\n  end do", (), 0),
    Shape("row accumulator, row loop mapped",
          "  for (i = 0; i < n; i++) {\n    acc = 0;\n    for (j = 0; j < n; j++) {\n"
          "      acc = acc*0.5 + c[i][j];\n      d[i][j] = acc;\n    }\n  }",
          "  do i = 1, n\n     acc = 0\n     do j = 1, n\n        acc = acc*0.5 + c(i, j)\n"
          "        d(i, j) = acc\n     end do\n  end do", (), 0),
    # C privatises a scalar whose first write is unconditional (t = 0 here), Fortran also one
    # first written under a condition: the read under the same condition sees this
    # iteration's write either way.
    Shape("written and read under one condition",
          "  t = 0;\n  for (i = 0; i < n; i++) {\n    if (b[i] > 0.5) {\n      t = 3*b[i];\n"
          "      a[i] = t - 1;\n    }\n  }",
          "  do i = 1, n\n     if (b(i) > 0.5) then\n        t = 3*b(i)\n        a(i) = t - 1\n"
          "     end if\n  end do", (), 0),
    # issue 21: written on every path, used in several nests, guarded by a private scalar
    Shape("written on both branches",
          "  for (i = 0; i < n; i++) {\n    if (b[i] > 0.5) t = b[i];\n    else t = -b[i];\n"
          "    a[i] = t;\n  }",
          "  do i = 1, n\n     if (b(i) > 0.5) then\n        t = b(i)\n     else\n"
          "        t = -b(i)\n     end if\n     a(i) = t\n  end do", (), 0),
    Shape("written on every branch of an else if chain",
          "  for (i = 0; i < n; i++) {\n    if (b[i] > 0.7) t = 1;\n"
          "    else if (b[i] > 0.3) t = b[i];\n    else t = 2*b[i];\n    a[i] = t*t;\n  }",
          "  do i = 1, n\n     if (b(i) > 0.7) then\n        t = 1\n"
          "     else if (b(i) > 0.3) then\n        t = b(i)\n     else\n        t = 2*b(i)\n"
          "     end if\n     a(i) = t*t\n  end do", (), 0),
    Shape("one scalar in two nests",
          "  for (i = 0; i < n; i++) {\n    t = 2*b[i];\n    a[i] = t + 1;\n  }\n"
          "  for (j = 0; j < n; j++) {\n    t = 3*b[j];\n    d[j][0] = t + 1;\n  }",
          "  do i = 1, n\n     t = 2*b(i)\n     a(i) = t + 1\n  end do\n"
          "  do j = 1, n\n     t = 3*b(j)\n     d(j, 1) = t + 1\n  end do", (), 0),
    Shape("guard reads a private scalar",
          "  for (i = 0; i < n; i++) {\n    acc = b[i];\n    if (acc > 0.5) {\n"
          "      t = 2*acc;\n      a[i] = t;\n    }\n  }",
          "  do i = 1, n\n     acc = b(i)\n     if (acc > 0.5) then\n        t = 2*acc\n"
          "        a(i) = t\n     end if\n  end do", (), 0),
]


@pytest.mark.parametrize("lang", ["c", "fortran"])
@pytest.mark.parametrize("shape", ACCEPTED, ids=[s.name for s in ACCEPTED])
def test_privatisable_cousin_runs(tmp_path: Path, lang: str, shape: Shape) -> None:
    body = shape.c if lang == "c" else shape.fortran
    if lang == "c":
        pragmas = f"#pragma translate {shape.pragma}"
        src = tmp_path / "cousin.c"
        src.write_text(C_PROGRAM.format(pragmas=pragmas, body=body))
    else:
        pragmas = f"  !$translate {shape.pragma}"
        src = tmp_path / "cousin.f90"
        src.write_text(FORTRAN_PROGRAM.format(pragmas=pragmas, body=body))
    check_sample(src, tmp_path)


# ---------------------------------------------------------------------------------------------
# reductions only where the accumulated element stays put (issue 16)

def _accumulation(subscript: str, extra: str = ""):
    import numpy as np

    import transforms
    import translator
    from translator.ir.parse import GlobalArg
    knl = translator.make_kernel(
        "{[i, j]: 0<=i<n and 0<=j<n}",
        f"""
        {extra}
        p[{subscript}] = p[{subscript}] + a[i, j]  {{id=acc, dep=*}}
        """,
        [GlobalArg("a", np.float64, shape="n, n"), GlobalArg("p", np.float64, shape="8*n*n"),
         "..."])
    return transforms.split_iname(knl, "j", 64, inner_tag="l.0")


def test_fixed_element_is_a_reduction() -> None:
    from translator.analysis.reductions import recognize_parallel_reductions
    from translator.ir.expr import Reduction
    knl = recognize_parallel_reductions(_accumulation("3*i + 1"))
    assert isinstance(knl.statement("acc").expression.children[1], Reduction)


@pytest.mark.parametrize("subscript", ["n*i + j", "i + n*j"])
def test_moving_affine_element_is_not_a_reduction(subscript: str) -> None:
    """An element that moves with j is an ordinary write (here a different one each time)."""
    from translator.analysis.legality import check_kernel
    from translator.analysis.reductions import recognize_parallel_reductions
    knl = _accumulation(subscript)
    assert recognize_parallel_reductions(knl) is knl
    check_kernel(knl)       # different elements in different iterations: no race either


def test_element_through_a_written_variable_is_not_a_reduction() -> None:
    """``p[k]`` with k written in the kernel is not proved fixed: left as it is, and legality
    refuses the mapping with a witness on the variable."""
    from translator.analysis.legality import check_kernel
    from translator.analysis.reductions import recognize_parallel_reductions
    knl = _accumulation("k", extra="<int32> k = i + 8*j  {id=setk}")
    assert recognize_parallel_reductions(knl) is knl
    with pytest.raises(LegalityError, match="mapping j_inner to l.0"):
        check_kernel(knl)


# ---------------------------------------------------------------------------------------------
# kernel-language temporaries

def _kl(instructions: str, tags: str = "i:l.0", temporaries: bool = False):
    import numpy as np

    import transforms
    import translator
    from translator.ir.parse import GlobalArg, TemporaryVariable
    extra = [TemporaryVariable("t", np.float64)] if temporaries else []
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", instructions,
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("b", np.float64, shape="n"), *extra,
         "..."])
    return transforms.tag_inames(knl, tags)


def test_kernel_language_temporary_written_first_is_private() -> None:
    from translator.analysis.legality import check_kernel
    check_kernel(_kl("""
        <float64> t = 2*b[i]  {id=w}
        a[i] = t + 1  {id=r, dep=w}
        """))


def test_kernel_language_temporary_read_before_written_has_no_value() -> None:
    from translator.analysis.legality import check_kernel
    with pytest.raises(LegalityError) as info:
        check_kernel(_kl("""
            t = b[i]  {id=w, if=i > 0}
            a[i] = t  {id=r, dep=w}
            """, temporaries=True))
    assert info.value.message == ("mapping i to l.0 makes t private to each work item, but "
                                  "iteration i=0 reads t before the region writes it, so that "
                                  "copy has no value")


def test_independent_assertion_covers_private_temporaries() -> None:
    """``independent("i")`` is the user's word that iterations of i do not communicate."""
    from translator.analysis.legality import check_kernel
    knl = _kl("""
        <float64> t = 0  {id=z}
        a[i] = t  {id=r, dep=z}
        t = b[i]  {id=w, dep=r}
        """)
    with pytest.raises(LegalityError, match="races on private t"):
        check_kernel(knl)
    import transforms
    check_kernel(transforms.independent(knl, "i"))


# ---------------------------------------------------------------------------------------------
# issue 15: legality diagnostics that say what is true

INDIRECT = """\
void f(int n, double a[n], double b[n], const int idx[n])
{{
  int i;
#pragma translate kernel k
{pragmas}
  for (i = 0; i < n; i++)
    a[idx[i]] = b[i];
#pragma translate end kernel
}}
"""


def test_indirect_subscript_hint_names_the_source_loop() -> None:
    """The hint asks for independent("i") before the split; following it translates."""
    split = '#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")'
    with pytest.raises(LegalityError) as info:
        translate_text("ind.c", INDIRECT.format(pragmas=split))
    assert info.value.detail.splitlines()[-1] == (
        '  if the iterations of loop i really are independent, say so with independent("i") '
        "in the region, before the split_iname that made i_inner")
    translate_text("ind.c", INDIRECT.format(
        pragmas='#pragma translate independent("i")\n' + split))


def test_report_judges_the_mapping_as_a_whole() -> None:
    """Two sibling loops on one local axis share work items: neither races, although either
    one mapped alone would."""
    import numpy as np

    import transforms
    import translator
    from translator.analysis.legality import check_kernel, check_mapping
    from translator.ir.parse import GlobalArg
    knl = translator.make_kernel(
        "{[i, j]: 0<=i<n and 0<=j<n}", """
        a[i] = 2*b[i]  {id=w}
        c[j] = a[j] + 1  {id=r, dep=w}
        """, [GlobalArg(x, np.float64, shape="n") for x in "abc"] + ["..."])
    knl = transforms.tag_inames(knl, "i:l.0, j:l.0")
    check_kernel(knl)
    assert check_mapping(knl) == {"i": "legal", "j": "legal"}
    alone = transforms.tag_inames(translator.make_kernel(
        "{[i, j]: 0<=i<n and 0<=j<n}", """
        a[i] = 2*b[i]  {id=w}
        c[j] = a[j] + 1  {id=r, dep=w}
        """, [GlobalArg(x, np.float64, shape="n") for x in "abc"] + ["..."]), "i:l.0")
    with pytest.raises(LegalityError):
        check_kernel(alone)


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_subscript_through_a_computed_scalar_is_not_affine(lang: str) -> None:
    """``k = -i; a(k + i + 1) = ...`` writes one element from every iteration: k is computed
    by the kernel, so it is no parameter of the subscript.  k (read only after its
    assignment in the loop body, and not after the region) is that value, ``a[-i + i]``:
    the race is then shown exactly (h77 for C; h87 for Fortran, which said "may race (a
    subscript is not affine" before `frontends.fortran.index_values`)."""
    body = ("  for (i = 0; i < n; i++) {\n    k = -i;\n    a[k + i] = b[i];\n  }" if lang == "c"
            else "  do i = 1, n\n     k = -i\n     a(k + i + 1) = b(i)\n  end do")
    path, text = _source(lang, body, (SPLIT_I,))
    with pytest.raises(LegalityError) as info:
        translate_text(path, text)
    assert "races: iteration" in info.value.message, info.value.render()
    assert "writes a[0]" in info.value.message, info.value.render()
    assert info.value.span.line == _body_start(text) + 2


def test_constant_table_needs_no_write(ctx, queue) -> None:
    """A private table with an initializer is read without a write: every work item starts
    with the same values.  Run on the CPU OpenCL device."""
    import numpy as np

    import transforms
    import translator
    from translator.analysis.legality import check_kernel
    from translator.ir.parse import GlobalArg, TemporaryVariable
    table = TemporaryVariable("tab", np.float64, shape=(4,), address_space="private",
                              read_only=True, initializer=(1.0, 2.0, 4.0, 8.0))
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", "a[i] = tab[i % 4]*b[i]",
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("b", np.float64, shape="n"),
         table, "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    check_kernel(knl)
    b = np.arange(37, dtype=np.float64)
    out = translator.compile(knl, ctx)(queue, b=b)
    np.testing.assert_array_equal(out["a"], np.array([1.0, 2.0, 4.0, 8.0])[np.arange(37) % 4]*b)
