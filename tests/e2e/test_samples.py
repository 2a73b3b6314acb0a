"""End to end: every sample, original vs translated, on the CPU OpenCL device."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample, sample_options

SAMPLES = sorted(p for p in (REPO / "samples").glob("*/*")
                 if p.suffix in {".f90", ".f", ".F90", ".c"}
                 and p.parent.name != "mpi")     # MPI programs: tests/e2e/test_mpi.py


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


@pytest.mark.parametrize("src", SAMPLES, ids=_id)
def test_sample_matches_original(src: Path, tmp_path: Path) -> None:
    out = check_sample(src, tmp_path)
    assert out.strip(), "the sample printed nothing: the comparison would prove nothing"


@pytest.mark.parametrize("src", SAMPLES, ids=_id)
def test_text_outside_regions_is_unchanged(src: Path) -> None:
    """Every original line outside the regions survives, in order, byte for byte; what is added
    is only the glue's call and its declarations."""
    from translator.driver import translate_text
    opts = sample_options(src)
    options = {"cpp_args": [f for f in opts.translate_flags if f[:2] in ("-D", "-I", "-U")]}
    models = [f.split("=", 1)[1] for f in opts.translate_flags if f.startswith("--directives=")]
    if models:
        options["directives"] = tuple(models[-1].split(","))
    text = src.read_text()
    result = translate_text(str(src), text, options)
    new = result.outputs[src.name]
    regions = [r for r, _, _ in result.regions]
    regions += list(getattr(result.parsed, "data_sites", ()))   # data directives are replaced too
    inside = [(text.count("\n", 0, r.start), text.count("\n", 0, r.end)) for r in regions]
    old_lines, new_lines = text.splitlines(True), new.splitlines(True)
    sm = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op in ("delete", "replace"):
            assert all(any(lo <= k < hi for lo, hi in inside) for k in range(i1, i2)), (
                f"lines {i1 + 1}-{i2} changed outside every region:\n"
                + "".join(old_lines[i1:i2]))
        if op in ("insert", "replace"):
            added = "".join(new_lines[j1:j2])
            guard = getattr(result.parsed, "macro_guard", "")   # C: after the last line
            assert ("translate_" in added or op == "replace"
                    or (guard and added.startswith(guard) and j2 == len(new_lines))), \
                f"unexpected insertion:\n{added}"
