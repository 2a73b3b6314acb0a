"""Full-tile versioning and the run-time check of `assume`, on PoCL against the original.

A register-blocked product (tiles of 32x32, 4x4 outputs per work item through unrolled splits,
both operands prefetched) is translated once; the kernel then holds a guard-free copy for
work groups inside the matrices and the general copy for the edge groups.  Calls with sizes
that are multiples of the tile (only full tiles), that are not (both copies run in one launch),
and that are smaller than one tile (only the general copy) must print what the original
prints.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.e2e.harness import (REPO, TRANSLATE, build_original, build_translated, check_sample,
                               compare_outputs, run, sample_options)

# (m, n, l): c[m][n] = a[m][l] * b[l][n]
SIZES = ((64, 32, 16), (37, 50, 19), (32, 96, 40), (5, 3, 7), (33, 65, 9))

GEMM = r"""#include <stdio.h>
#include <stdlib.h>

static void mm(int m, int n, int l, const double a[m][l], const double b[l][n], double c[m][n])
{
#pragma translate kernel mm
#pragma translate split_iname("i", 32, outer_tag="g.1")
#pragma translate split_iname("i_inner", 8, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 32, outer_tag="g.0")
#pragma translate split_iname("j_inner", 8, outer_tag="unr", inner_tag="l.0")
#pragma translate split_iname("k", 8)
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_outer", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner"], default_tag="l.auto")
#pragma translate add_prefetch("b", ["k_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto")
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < l; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

int main(void)
{
  static const int sizes[][3] = {SIZES};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int m = sizes[s][0], n = sizes[s][1], l = sizes[s][2];
    double *a = malloc(sizeof(double) * m * l), *b = malloc(sizeof(double) * l * n);
    double *c = malloc(sizeof(double) * m * n);
    for (int k = 0; k < m * l; k++) a[k] = (k * 7 % 11) - 5;
    for (int k = 0; k < l * n; k++) b[k] = (k * 3 % 13) - 6;
    for (int k = 0; k < m * n; k++) c[k] = -99.0;
    mm(m, n, l, (const double (*)[l])a, (const double (*)[n])b, (double (*)[n])c);
    printf("size %d %d %d\n", m, n, l);
    for (int k = 0; k < m * n; k++) printf("%g%c", c[k], k % 16 == 15 ? '\n' : ' ');
    printf("\n");
    free(a); free(b); free(c);
  }
  return 0;
}
"""

SCALE = r"""#include <stdio.h>
#include <stdlib.h>
static void scale(int n, int m, double a[n])
{
#pragma translate kernel scale
#pragma translate assume("n mod 4 = 0 and n >= 8 and m > n")
  for (int i = 0; i < n; i++)
    a[i] = 2.0 * a[i] + m;
#pragma translate end kernel
}
int main(int argc, char **argv)
{
  int n = atoi(argv[1]), m = atoi(argv[2]);
  double *a = malloc(sizeof(double) * (n > 0 ? n : 1));
  for (int i = 0; i < n; i++) a[i] = i;
  scale(n, m, a);
  for (int i = 0; i < n; i++) printf("%g\n", a[i]);
  return 0;
}
"""


def _gemm_source(tmp_path: Path) -> Path:
    src = tmp_path / "mm.c"
    sizes = ", ".join("{%d, %d, %d}" % s for s in SIZES)
    src.write_text(GEMM.replace("{SIZES}", "{" + sizes + "}"))
    return src


def _full_copies(code: str) -> list[str]:
    """The texts of the full-tile copies: from each marker to the end of its block."""
    out = []
    for start in [m.start() for m in re.finditer("full tile", code)]:
        depth, k = 0, code.rindex("{", 0, start)
        while True:
            depth += {"{": 1, "}": -1}.get(code[k], 0)
            if depth == 0:
                out.append(code[start:k])
                break
            k += 1
    return out


def test_register_blocked_product_with_edge_tiles_matches_original(tmp_path: Path) -> None:
    src = _gemm_source(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)
    code = (work / "out" / "mm.cl").read_text()
    # guard-free copies for full tiles (decided per group, and per step of k for the parts
    # between barriers), next to the general ones
    assert "if (32 * i_outer < m - 31 && 32 * j_outer < n - 31)" in code
    assert "if (8 * k_outer < l - 7 && 32 * i_outer < m - 31 && 32 * j_outer < n - 31)" in code
    fma = "acc[3 * 4 + 3] = acc[3 * 4 + 3] + a_fetch"
    inner = [c for c in _full_copies(code) if fma in c and "k_inner <= 7;" in c]
    assert inner and not re.search(r"\bif \(", inner[0])
    # no barrier inside a conditional copy
    assert not any("barrier" in c for c in _full_copies(code))
    # the general copy still guards each statement of the unrolled block
    assert "j_inner_inner + 32 * j_outer < n - 24" in code


def test_versioning_is_not_applied_without_guards_in_loops(tmp_path: Path) -> None:
    src = tmp_path / "axpy.c"
    src.write_text("""void axpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma translate kernel axpy
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
#pragma translate end kernel
}
""")
    run([*TRANSLATE, str(src), "-o", str(tmp_path / "out")], REPO)
    code = (tmp_path / "out" / "axpy.cl").read_text()
    assert "full tile" not in code
    assert code.count("if (") == 1


def _build_scale(tmp_path: Path) -> tuple[Path, Path, Path]:
    src = tmp_path / "scale.c"
    src.write_text(SCALE)
    work = tmp_path / "work"
    work.mkdir()
    opts = sample_options(src)
    return work, build_original(src, work, opts), build_translated(src, work, opts)


def test_assumptions_hold_and_the_program_runs(tmp_path: Path) -> None:
    work, orig, tran = _build_scale(tmp_path)
    for n, m in ((8, 9), (12, 100)):
        expected = run([str(orig), str(n), str(m)], work)
        actual = run([str(tran), str(n), str(m)], work, env={"TRANSLATE_DEVICE": "cpu"})
        compare_outputs(expected, actual, 0.0)


def test_broken_assumption_stops_the_program_with_a_message(tmp_path: Path) -> None:
    work, _, tran = _build_scale(tmp_path)
    cases = (((10, 20), "assuming n mod 4 = 0, but n = 10"),
             ((4, 20), "assuming n >= 8, but n = 4"),
             ((8, 8), "assuming n < m, but m = 8, n = 8"))
    for (n, m), text in cases:
        proc = subprocess.run([str(tran), str(n), str(m)], cwd=work, capture_output=True,
                              text=True, env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin"})
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout == ""
        assert proc.stderr.strip() == (
            f"{tmp_path / 'scale.c'}:5: error: translate runtime: region 'scale' was generated {text}")
