"""Independent nests of one region launched apart (issue 23), on PoCL.

``apart_launches/apart.c``: PolyBench's bicg (``s = A^T r`` and ``q = A p``, two nests that
share nothing they write) runs as one parallel kernel, but the automatic mapper gives each nest
a different tiling; in one launch both run on one work-group shape (smaller tiles, idle lanes:
0.36 of cuBLAS on an H200).  The region must become two launches, each with its own mapping
and launch grid (`translator.launch_cost.fusion_pays`), and print what the original prints.
The same nests at 16 x 16 (launches cost more than the work) and two large nests with one
mapping stay one launch.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample
from tests.e2e.test_launch_storms import region_block, report

SRC = Path(__file__).parent / "apart_launches" / "apart.c"


def test_independent_nests_with_their_own_mappings_launch_apart(tmp_path: Path) -> None:
    out = check_sample(SRC, tmp_path)
    assert out.startswith("bicg "), out
    text, _ = report(SRC, tmp_path)
    bicg = region_block(text, "bicg")
    assert "  launches per call: 2\n" in bicg, bicg
    assert "kernel bicg_k0: loops j, i" in bicg and "kernel bicg_k1: loops i_1, j_1" in bicg
    assert 'split_iname("i", 64)' in bicg and 'split_iname("j_1", 123)' in bicg, bicg
    assert "launch grid: global (max((n + 31) // 32, 0)*32), local (32) work items" in bicg
    assert "launch grid: global (max((n + 31) // 32, 0)*123), local (123) work items" in bicg


def test_tiny_nests_and_nests_of_one_mapping_stay_one_launch(tmp_path: Path) -> None:
    text, _ = report(SRC, tmp_path)
    for name in ("tiny", "same"):
        block = region_block(text, name)
        assert "  launches per call: 1\n" in block, block
        assert "host program" not in block, block
