"""Writes variants.c: syrk and gemm_pb of polybench.c (same sources, inputs and checksums)
with hand-edited copies of the automatic mapping, to time next to the automatic regions
(bench/RESULTS.md, "Dense kernels, second round (h37)").  Usage: python3 make_variants.py"""

from __future__ import annotations

from pathlib import Path

GEMM = """
static void {name}(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{{
#pragma translate kernel {name}
{pragmas}
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {{
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * b[k][j];
      c[i][j] = acc;
    }}
#pragma translate end kernel
}}
"""
SYRK = """
static void {name}(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{{
#pragma translate kernel {name}
{pragmas}
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {{
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * a[j][k];
      c[i][j] = acc;
    }}
#pragma translate end kernel
}}
"""
# the same product over the whole square (twice syrk's work, no diagonal): what the
# triangle costs
SQUARE = SYRK.replace("j <= i", "j < n")
KS = '"k_inner_outer", "k_inner_inner"'
ROWS = f'["i_inner_outer", "i_inner_inner", {KS}]'


def gemm(j_split: list[str], k: int, k_unroll: int, cols: str, priv: str,
         extra: tuple[str, ...] = ()) -> list[str]:
    """The automatic gemm_pb mapping with other column splits / k step."""
    return [*extra, 'split_iname("i", 128, outer_tag="g.1")',
            'split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")', *j_split,
            f'split_iname("k", {k})', f'split_iname("k_inner", {k_unroll}, inner_tag="unr")',
            f'privatize_temporaries_with_inames("i_inner_outer,{priv}", "acc")',
            f'add_prefetch("a", {ROWS}, default_tag="l.auto", within="iname:k_inner_inner")',
            (f'add_prefetch("b", [{KS}, {cols}], default_tag="l.auto", '
             'within="iname:k_inner_inner")')]


J64 = ['split_iname("j", 64, outer_tag="g.0")',
       'split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")']
J128 = ['split_iname("j", 128, outer_tag="g.0")',
        'split_iname("j_inner", 64, outer_tag="unr")',
        'split_iname("j_inner_inner", 4, outer_tag="l.0", inner_tag="unr")']
C64 = '"j_inner_outer", "j_inner_inner"'
C128 = '"j_inner_outer", "j_inner_inner_outer", "j_inner_inner_inner"'
P128 = "j_inner_outer,j_inner_inner_inner"


def syrk(layout: str) -> list[str]:
    """The automatic syrk mapping with another layout of the column tile."""
    return ['tag_reads("a", "row", "i")', 'tag_reads("a", "col", "j")',
            *gemm(J64, 16, 2, C64, "j_inner_inner")[:-2],
            f'add_prefetch("a$row", {ROWS}, default_tag="l.auto", within="iname:k_inner_inner")',
            (f'add_prefetch("a$col", [{KS}, {C64}], default_tag="l.auto", '
             f'within="iname:k_inner_inner"{layout})')]


VARIANTS = {
    # syrk: the column tile as before (a[j][k] order), transposed unpadded, padded by 1
    "syrk_plain": (SYRK, syrk("")),
    "syrk_pad0": (SYRK, syrk(", storage_axes=[1, 0]")),
    "syrk_pad1": (SYRK, syrk(", storage_axes=[1, 0], storage_padding=1")),
    "syrk_square": (SQUARE, syrk(", storage_axes=[1, 0], storage_padding=2")),
    # gemm_pb: the automatic mapping with FMA allowed; k steps of 32 (48 KiB, more than
    # OpenCL's 32 KiB minimum); 8x8 per item (128 x 128 tiles, 32 KiB)
    "gemm_fma": (GEMM, gemm(J64, 16, 2, C64, "j_inner_inner", ('set_options("fp_contract")',))),
    "gemm_k32": (GEMM, gemm(J64, 32, 2, C64, "j_inner_inner")),
    "gemm_8x8": (GEMM, gemm(J128, 16, 2, C128, P128)),
}

MAIN = """
static double *filled(long count, int seed)
{
  double *p = malloc((count > 0 ? count : 1) * sizeof *p);
  for (long i = 0; i < count; i++)
    p[i] = (double)((i * seed + 1) % 101) / 101.0;
  return p;
}

static double checksum(const double *p, long count)
{
  double s = 0.0;
  for (long i = 0; i < count; i++)
    s += p[i] * (double)(i % 7 + 1);
  return s;
}

static int wanted(const char *only, const char *name)
{
  size_t len = strlen(name);
  if (!*only)
    return 1;
  for (const char *p = only; p != NULL; p = strchr(p, ',')) {
    p += *p == ',';
    if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\\0'))
      return 1;
  }
  return 0;
}

/* Usage: variants [n] [reps] [comma list of variants]; prints one checksum per variant,
 * the same as polybench's syrk (seed 29) or gemm_pb (seed 13) for the same n and reps. */
int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 2048, reps = argc > 2 ? atoi(argv[2]) : 3;
  const char *only = argc > 3 ? argv[3] : "";
  long nn = (long)n * n;
  double *a = filled(nn, 3), *b = filled(nn, 5);
@CALLS@  return 0;
}
"""
CALL = """  if (wanted(only, "%(v)s")) {
    double *c = filled(nn, %(seed)d);
    for (int r = 0; r < reps; r++)
      %(v)s(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("%(v)s %%.17g\\n", checksum(c, nn));
    free(c);
  }
"""


def main() -> None:
    parts = ["#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"]
    for name, (template, pragmas) in VARIANTS.items():
        lines = "\n".join(f"#pragma translate {p}" for p in pragmas)
        parts.append(template.format(name=name, pragmas=lines))
    calls = "".join(CALL % {"v": v, "seed": 29 if v.startswith("syrk") else 13}
                    for v in VARIANTS)
    parts.append(MAIN.replace("@CALLS@", calls))
    Path(__file__).with_name("variants.c").write_text("".join(parts))


if __name__ == "__main__":
    main()
