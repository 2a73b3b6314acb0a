"""Split loops whose lower bound is a parameter, an expression or negative, on PoCL.

Each generated program (C and Fortran) holds one region per (bound, mapping) pair and calls
every region for lower bounds below, at and above multiples of the split factor (and past the
upper bound, where the loop is empty); the translated program must print what the original
prints (issue 16).  The split group loop of a dot product launches a bounded grid (issue 13).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

# (name, lower bound, upper bound (exclusive)); the same text is valid C and Fortran
BOUNDS = (
    ("param", "n", "40"),
    ("expr", "2 * n + m", "m + 30"),
    ("negoff", "n - 7", "33"),
)
# (outer tag, inner tag); None: no tag (a sequential loop)
MAPPINGS = (("g.0", "l.0"), (None, "l.0"), ("g.0", None), (None, None))
OFFSET = 48          # arrays hold indices -OFFSET .. 79
M = 5


def n_values(factor: int) -> list[int]:
    """Lower bounds around multiples of `factor`, negative ones, and empty loops."""
    return sorted({-2 * factor - 1, -factor, -1, 0, 1, factor - 1, factor, factor + 1,
                   2 * factor + 3, 36, 39, 40, 47})


def _tags(outer: str | None, inner: str | None) -> str:
    args = [f'{w}_tag="{t}"' for w, t in (("outer", outer), ("inner", inner)) if t]
    return "".join(", " + a for a in args)


def c_program(factor: int) -> str:
    funcs, calls = [], []
    for k, (bname, lo, hi) in enumerate(BOUNDS):
        for j, (outer, inner) in enumerate(MAPPINGS):
            name = f"r_{bname}_{j}"
            funcs.append(f"""
void {name}(int n, int m, double *restrict a, const double *restrict b)
{{
#pragma translate kernel k_{name}
#pragma translate split_iname("i", {factor}{_tags(outer, inner)})
  for (int i = {lo}; i < {hi}; i++)
    a[i + {OFFSET}] = b[i + {OFFSET}] + 1.0;
#pragma translate end kernel
}}""")
            calls.append(f'    reset(a); {name}(n, {M}, a, b); show("{name}", n, a);')
    values = ", ".join(map(str, n_values(factor)))
    return f"""#include <stdio.h>
#define LEN 128
{''.join(funcs)}

static void reset(double *a)
{{
  for (int k = 0; k < LEN; k++)
    a[k] = -1.0;
}}

static void show(const char *name, int n, const double *a)
{{
  printf("%s n=%d:", name, n);
  for (int k = 0; k < LEN; k++)
    printf(" %g", a[k]);
  printf("\\n");
}}

int main(void)
{{
  static double a[LEN], b[LEN];
  static const int ns[] = {{{values}}};
  for (int k = 0; k < LEN; k++)
    b[k] = k - {OFFSET};
  for (int t = 0; t < (int) (sizeof ns / sizeof ns[0]); t++) {{
    int n = ns[t];
{chr(10).join(calls)}
  }}
  return 0;
}}
"""


def fortran_program(factor: int) -> str:
    subs, calls = [], []
    for bname, lo, hi in BOUNDS:
        for j, (outer, inner) in enumerate(MAPPINGS):
            name = f"r_{bname}_{j}"
            subs.append(f"""
subroutine {name}(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(-{OFFSET}:79)
  real(8), intent(in) :: b(-{OFFSET}:79)
  integer :: i
  !$translate kernel k_{name}
  !$translate split_iname("i", {factor}{_tags(outer, inner)})
  do i = {lo}, {hi} - 1
     a(i) = b(i) + 1.0d0
  end do
  !$translate end kernel
end subroutine {name}
""")
            calls.append(f"     a = -1.0d0\n     call {name}(n, {M}, a, b)\n"
                         f"     print '(a, 1x, i0, 128(1x, f0.1))', '{name}', n, a")
    values = ", ".join(map(str, n_values(factor)))
    count = len(n_values(factor))
    return f"""{''.join(subs)}
program main
  implicit none
  real(8) :: a(-{OFFSET}:79), b(-{OFFSET}:79)
  integer, parameter :: ns({count}) = [{values}]
  integer :: t, k, n
  do k = -{OFFSET}, 79
     b(k) = real(k, 8)
  end do
  do t = 1, {count}
     n = ns(t)
{chr(10).join(calls)}
  end do
end program main
"""


@pytest.mark.parametrize("factor", [4, 7])
@pytest.mark.parametrize("language", ["c", "fortran"])
def test_split_with_parameter_lower_bounds_matches_original(language: str, factor: int,
                                                            tmp_path: Path) -> None:
    if language == "c":
        src, text = tmp_path / "split_bounds.c", c_program(factor)
    else:
        src, text = tmp_path / "split_bounds.f90", fortran_program(factor)
    src.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    # the program really computes something for the non-empty bounds
    assert out.count("\n") == len(BOUNDS) * len(MAPPINGS) * len(n_values(factor))
    assert " 1 " in out or " 1.0 " in out


DOT = """#include <stdio.h>
double dot(int n, const double *restrict a, const double *restrict b)
{
  double s = 0.0;
#pragma translate kernel dotk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i_outer", 8, inner_tag="g.0", do_tagged_check=False)
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double a[10000], b[10000];
  static const int ns[] = {0, 1, 255, 256, 257, 2047, 2048, 2049, 5000, 10000};
  for (int i = 0; i < 10000; i++) {
    a[i] = (i % 7) * 0.5;
    b[i] = (i % 5) - 1.0;
  }
  for (int t = 0; t < 10; t++)
    printf("n=%d dot=%.17g\\n", ns[t], dot(ns[t], a, b));
  return 0;
}
"""


def test_split_group_loop_launches_a_bounded_grid(tmp_path: Path) -> None:
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"), "--report"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout + proc.stderr
    grid = next(line for line in report.splitlines() if "launch grid" in line)
    assert "min(8, (n + 255) // 256)" in grid, grid
    assert "max(8" not in grid, grid
    host = (tmp_path / "out" / "dot.host.c").read_text()
    assert "tr_min(8, _tr_i_n + 255 >= 0 ? (_tr_i_n + 255) / 256" in host
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


# ---------------------------------------------------------------------------------------------
# random split factors and affine lower bounds through the Python library (PoCL)

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@hypothesis.settings(max_examples=25, deadline=None, derandomize=True)
@hypothesis.given(factor=st.integers(1, 9), coeff=st.sampled_from([1, 2, -1]),
                  shift=st.integers(-9, 9), top=st.integers(-5, 40),
                  mapping=st.sampled_from(MAPPINGS),
                  ns=st.lists(st.integers(-12, 30), min_size=3, max_size=3))
def test_random_affine_lower_bounds(ctx, queue, factor: int, coeff: int, shift: int, top: int,
                                    mapping: tuple[str | None, str | None],
                                    ns: list[int]) -> None:
    import numpy as np

    import transforms
    import translator
    from translator.ir.parse import GlobalArg

    lo = f"{coeff}*n + {shift}"
    knl = translator.make_kernel(
        f"{{[i]: {lo} <= i < {top}}}", f"a[i + {OFFSET}] = b[i + {OFFSET}] + 1",
        [GlobalArg("a", np.int32, shape=(128,)), GlobalArg("b", np.int32, shape=(128,)),
         "..."])
    knl = transforms.split_iname(knl, "i", factor, outer_tag=mapping[0], inner_tag=mapping[1])
    run = translator.compile(knl, ctx)
    b = np.arange(128, dtype=np.int32) - OFFSET
    for n in ns:
        want = np.full(128, -7, dtype=np.int32)
        i = np.arange(max(coeff * n + shift, -OFFSET), max(min(top, 80), -OFFSET))
        want[i + OFFSET] = i + 1
        out = run(queue, a=np.full(128, -7, dtype=np.int32), b=b, n=np.int32(n))
        np.testing.assert_array_equal(out["a"], want, err_msg=f"lower bound {lo} at n={n}")
