"""End to end: a region that tests ``present`` of five OPTIONAL dummies (h85; three before):
built once per combination of present and absent (32 kernels), the call chosen by an
``if (present(w) .and. ...) ... else if`` chain.  Before: "the region tests present() of 4
OPTIONAL arguments ... at most 3 are supported".  The limit exists because the builds
double with each tested optional (translation time, kernels in the program, the call's
chain); bench/RESULTS.md (h85) has the measured cost."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import REPO, check_sample


def test_five_tested_optionals_match_the_original(tmp_path: Path) -> None:
    check_sample(REPO / "bench" / "h85_hunt" / "opt85.f90", tmp_path)
    rewritten = (tmp_path / "out" / "opt85.f90").read_text()
    assert rewritten.count("call translate_upd") == 32
    assert "call translate_upd_absent_w_bias_mask_lo_hi(f, u, n)" in rewritten
