"""The splitter's candidate checks (`translator.pipeline.LeafChecks`): a candidate equal to the
whole region takes the region's own verdict instead of a second mapping, a candidate asked
twice is mapped once, and the verdicts so reused are the ones computed afresh."""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from tests.e2e.harness import REPO
from translator import pipeline
from translator.driver import translate_text
from translator.ir.data import ArrayArg

SAMPLES = REPO / "samples"


def _count_mappings(monkeypatch) -> list[int]:
    """Statement counts of the kernels `_map_and_check` maps, in call order."""
    seen: list[int] = []
    real = pipeline._map_and_check

    def counted(kernel, opts, label=""):
        seen.append(len(kernel.statements))
        return real(kernel, opts, label)

    monkeypatch.setattr(pipeline, "_map_and_check", counted)
    return seen


@pytest.mark.parametrize("sample", ["fortran/trailing_scalar.f90", "c/trailing_scalar.c",
                                    "c/heat_steps.c"])
def test_whole_region_is_mapped_once(monkeypatch, sample: str) -> None:
    """The region (a parallel loop, then a statement reading its result) cannot run as one
    kernel; the splitter's candidate of all its statements is the region itself and takes
    its verdict: the whole region was mapped twice before, now once; still two launches."""
    seen = _count_mappings(monkeypatch)
    path = Path(SAMPLES / sample)
    result = translate_text(str(path), path.read_text())
    (_, _, code), = result.regions
    whole = max(seen)
    assert seen.count(whole) == 1, seen
    assert len([launch for launch, _ in code.launches()]) == 2


def _region_kernel() -> object:
    """The kernel of trailing_scalar.f90's region, after transforms and privatisation."""
    captured = []
    real = pipeline._plan

    def plan(kernel, checks, parallel=False):
        captured.append(kernel)
        return real(kernel, checks, parallel)

    pipeline._plan = plan
    try:
        path = SAMPLES / "fortran" / "trailing_scalar.f90"
        translate_text(str(path), path.read_text())
    finally:
        pipeline._plan = real
    return captured[0]


def test_known_verdict_equals_the_computed_one_and_is_reused(monkeypatch) -> None:
    kernel = _region_kernel()
    fresh = pipeline.LeafChecks()
    computed = fresh(kernel)
    assert computed is False   # the loop's writes race with the trailing statement's reads
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")   # the region runs sequentially as one kernel
        found = pipeline._map_and_check(kernel, pipeline.PassOptions())
    seen = _count_mappings(monkeypatch)
    checks = pipeline.LeafChecks()
    checks.known(kernel, found, warned=False)
    assert checks(kernel.copy(name="candidate")) is computed
    assert checks.runs(kernel) == fresh.runs(kernel)
    assert seen == []          # answered from the region's own check, not mapped again


def test_candidate_with_other_intent_flags_is_checked_afresh(monkeypatch) -> None:
    """Intent flags are part of the kernel: a candidate whose flags differ from the region's
    is not taken for it (the comparison is explicit, not assumed)."""
    kernel = _region_kernel()
    flagged = kernel.copy(args=tuple(replace(a, is_input=True, is_output=True)
                                     if isinstance(a, ArrayArg) else a for a in kernel.args))
    assert flagged != kernel
    checks = pipeline.LeafChecks()
    checks.known(kernel, None, warned=False)
    seen = _count_mappings(monkeypatch)
    checks(flagged)
    checks(flagged)             # asked twice, mapped once
    assert seen == [len(kernel.statements)]
