"""Pragma variants of the register-blocked product (bench/gpu/gemm.c's recipe and the ones
tried next to it), as one C file for the translator, and a manifest for shapes.c.

    python3 recipes.py OUT_DIR      # writes OUT_DIR/recipes.c and OUT_DIR/manifest.txt
    translate OUT_DIR/recipes.c -o OUT_DIR/out -Wno-uncoalesced
    (cd OUT_DIR && cp out/recipes.cl . && shapes manifest.txt 4096 10)

Each variant: name, type, tile columns per group, pragma lines (after set_options)."""
import sys
from pathlib import Path

BLOCK_4RUNS = [  # 8x8 per work item, columns 64*h + 4*l.0 + c
    'split_iname("i", 128, outer_tag="g.1")',
    'split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")',
    'split_iname("j", 128, outer_tag="g.0")',
    'split_iname("j_inner", 64, outer_tag="unr")',
    'split_iname("j_inner_inner", 4, outer_tag="l.0", inner_tag="unr")']
PRIV_4RUNS = 'privatize_temporaries_with_inames("i_inner_outer,j_inner_outer,j_inner_inner_inner", "acc")'
FETCH_A = 'add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto")'
FETCH_B_4RUNS = 'add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner_outer", "j_inner_inner_inner"], default_tag="l.auto")'
BLOCK_84 = [  # 8x4 per work item, 128x64 tiles, columns 4*l.0 + c
    'split_iname("i", 128, outer_tag="g.1")',
    'split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")',
    'split_iname("j", 64, outer_tag="g.0")',
    'split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")']
PRIV_84 = 'privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")'
FETCH_B_84 = 'add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto")'


def runs4(kt: int, kq: int, *extra: str) -> list[str]:
    return [*BLOCK_4RUNS, f'split_iname("k", {kt})', f'split_iname("k_inner", {kq}, inner_tag="unr")',
            PRIV_4RUNS, FETCH_A, FETCH_B_4RUNS, *extra]


def block84(kt: int, kq: int) -> list[str]:
    return [*BLOCK_84, f'split_iname("k", {kt})', f'split_iname("k_inner", {kq}, inner_tag="unr")',
            PRIV_84, FETCH_A, FETCH_B_84]


VARIANTS = [
    ("s_r32", "float", 128, runs4(32, 4)),          # bench/gpu/gemm.c's sgemm
    ("s_r16", "float", 128, runs4(16, 4)),
    ("s_r8", "float", 128, runs4(8, 4)),
    ("s_r16q2", "float", 128, runs4(16, 2)),
    ("s_r32q8", "float", 128, runs4(32, 8)),
    ("s_r32p", "float", 128, runs4(32, 4, 'prioritize_loops("k_inner_inner,i_inner_outer,j_inner_outer,j_inner_inner_inner")')),
    ("d_r16", "double", 128, runs4(16, 2)),
    ("d_r8", "double", 128, runs4(8, 2)),
    ("d_r16q4", "double", 128, runs4(16, 4)),
    ("d_t64", "double", 64, block84(16, 2)),
    ("d_t64k32", "double", 64, block84(32, 2)),     # bench/gpu/gemm.c's dgemm
]


def function(name: str, t: str, pragmas: list[str]) -> str:
    zero = "0.0f" if t == "float" else "0.0"
    lines = "\n".join(f"#pragma translate {x}" for x in ['set_options("fp_contract")', *pragmas])
    return f"""static void {name}(int n, const {t} a[n][n], const {t} b[n][n], {t} c[n][n])
{{
#pragma translate kernel {name}
{lines}
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {{
      {t} acc = {zero};
      for (int k = 0; k < n; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }}
#pragma translate end kernel
}}
"""


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    src = "".join(function(n, t, p) for n, t, _, p in VARIANTS) + "int main(void) { return 0; }\n"
    (out / "recipes.c").write_text(src)
    (out / "manifest.txt").write_text("".join(f"{n} recipes.cl {n} 16 16 128 {tn} {t}\n"
                                              for n, t, tn, _ in VARIANTS))
