"""The dense-kernel recipes of bench/gpu/gemm.c ("Dense kernels" in docs/pragmas.md) on PoCL:
the register-blocked sgemm and dgemm read their local tiles through 16-byte vector loads in
the full-tile copies, and the translated program prints what the original prints at sizes that
are multiples of the tiles, and at sizes that are not (edge groups run the guarded copies,
with scalar reads)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)

GEMM = REPO / "bench" / "gpu" / "gemm.c"


def _kernel_text(code: str, name: str) -> str:
    start = code.index(f") {name}(")
    end = code.find("__kernel", start)
    return code[start:] if end < 0 else code[start:end]


def test_gemm_recipes_use_vector_loads_and_match_original(tmp_path: Path) -> None:
    opts = SampleOptions()
    original = build_original(GEMM, tmp_path, opts)
    translated = build_translated(GEMM, tmp_path, opts)
    code = (tmp_path / "out" / "gemm.cl").read_text()
    sgemm, dgemm = _kernel_text(code, "sgemm"), _kernel_text(code, "dgemm")
    for text, vec, scalar in ((sgemm, "float4", "float"), (dgemm, "double2", "double")):
        assert f"__local {scalar} a_fetch[4096] __attribute__((aligned(16)));" in text
        loads = re.findall(rf"{vec} const _tr_vl\d+ = \*\(__local {vec} const \*\)"
                           r"&(a|b)_fetch\[", text)
        assert {"a", "b"} <= set(loads)
    # the reads of the 8x8 block in sgemm's full tiles: 8 vectors of a, 8 of b per step of 4
    full = sgemm[sgemm.index("full tile", sgemm.index("barrier(")):]
    assert len(re.findall(r"float4 const _tr_vl\d+ =", full[:full.index("else")])) == 16
    # 64 (less than one tile: guarded copies only), 130 and 200 (edge groups), 256 (full tiles)
    for n in ("64", "130", "200", "256"):
        expected = run([str(original), n, "1"], tmp_path)
        actual = run([str(translated), n, "1"], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
        compare_outputs(expected, actual, 1e-6)   # fp_contract: FMA rounds once
