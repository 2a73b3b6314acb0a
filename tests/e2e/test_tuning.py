"""Tuning (issue 23 item 4, docs/tuning.md) on PoCL, in C and Fortran: a ``--tune-candidates``
build prints what the original prints (with and without TRANSLATE_TUNE=1); ``translate tune``
times every candidate of every region and appends one record per region to the tuning file
(concurrent tuners too); a build with that file emits the winners and still prints what the
original prints."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, SampleOptions, build_original, build_translated, run
from translator.build.tunefile import load

PROGRAMS = REPO / "tests" / "e2e" / "tuning"
ENV = {"TRANSLATE_DEVICE": "cpu"}


def _candidate_counts(host: Path) -> dict[str, int]:
    """Per region of a ``--tune-candidates`` build: the candidates its dispatcher holds."""
    text = host.read_text()
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r"/\* region (\w+) \([^)]*\): (\d+) candidate mappings", text)}


@pytest.mark.parametrize("name", ["tune_c.c", "tune_f.f90"])
def test_tune_run_times_every_candidate_and_the_tuned_build_matches(tmp_path, name):
    src = shutil.copy(PROGRAMS / name, tmp_path / name)
    src = Path(src)
    expected = run([str(build_original(src, tmp_path, SampleOptions()))], tmp_path)
    (tmp_path / "cand").mkdir()
    prog = build_translated(src, tmp_path / "cand", SampleOptions(), ("--tune-candidates",))
    counts = _candidate_counts(tmp_path / "cand" / "out" / f"{src.stem}.host.c")
    assert sorted(counts) == ["axpy_k", "gemm_k"] if name.endswith("f90") else \
        sorted(counts) == ["atax_k", "mm_k", "scale_k"]
    assert all(n >= 4 for n in counts.values())
    # without TRANSLATE_TUNE the first candidate runs and nothing is written
    assert run([str(prog)], tmp_path, env=ENV) == expected
    assert not (tmp_path / "translate-tune.jsonl").exists()
    tuned = run([*TRANSLATE, "tune", "--tune-file", str(tmp_path / "t.jsonl"), "--",
                 str(prog)], tmp_path, env=ENV)
    assert tuned.startswith(expected)
    records = load(str(tmp_path / "t.jsonl"))
    assert {r["region"]: len(r["candidates"]) for r in records} == counts
    for r in records:
        assert r["source"] == name and r["size_class"] == "n=2^5"
        assert all(c["calls"] >= 4 and c["ms"] > 0 for c in r["candidates"])
        times = [c["ms"] for c in r["candidates"]]
        assert times[r["winner"]] == min(times)
        assert f"region {r['region']} ({name}), device \"{r['device']}\"" in tuned
    (tmp_path / "won").mkdir()
    prog = build_translated(src, tmp_path / "won", SampleOptions(),
                            ("--tune-file", str(tmp_path / "t.jsonl")))
    assert run([str(prog)], tmp_path, env=ENV) == expected
    report = run([*TRANSLATE, str(src), "--emit", "cl", "--tune-file",
                  str(tmp_path / "t.jsonl"), "--report=-"], tmp_path)
    assert report.count("chosen by: tuning, on device") == len(counts)


def test_concurrent_tuners_append_whole_records(tmp_path):
    src = Path(shutil.copy(PROGRAMS / "tune_c.c", tmp_path / "tune_c.c"))
    prog = build_translated(src, tmp_path, SampleOptions(), ("--tune-candidates",))
    env = {**ENV, "TRANSLATE_TUNE": "1", "TRANSLATE_TUNE_FILE": str(tmp_path / "t.jsonl")}
    import os
    procs = [subprocess.Popen([str(prog), str(n), "30"], cwd=tmp_path,
                              env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for n in (40, 70, 130)]
    for p in procs:
        assert p.wait(timeout=600) == 0, p.stderr.read()
    records = load(str(tmp_path / "t.jsonl"))
    assert len(records) == 9
    assert sorted({r["size_class"] for r in records}) == ["n=2^5", "n=2^6", "n=2^7"]
    assert all(json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines())
