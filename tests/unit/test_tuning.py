"""Tuning (issue 23 item 4, docs/tuning.md) without running a program: the candidate mappings
of a region (proven, distinct, deterministic, capped), the tuning file's checks and the rule
that chooses a record, builds that use a record (the kernel, the report, the stale-record
warning, byte-identical outputs) and the result cache keyed on the records.  The runs on PoCL
are in tests/e2e/test_tuning.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from translator.build.tunefile import FORMAT, select, size_key
from translator.diagnostics import FrontendError
from translator.driver import frontend_for
from translator.tuning import MAX_CANDIDATES, candidates, fingerprint

REPO = Path(__file__).resolve().parents[2]

C_GEMM = """\
void gemm(int n, const double a[n][n], const double b[n][n], double c[n][n])
{
#pragma translate kernel gemm_k
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}
"""

C_MAPPED = """\
void axpy(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel axpy_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    y[i] += 2.0 * x[i];
#pragma translate end kernel
}
"""


def _region(text: str, name: str = "t.c"):
    parsed = frontend_for(name).parse(name, text, {})
    return parsed.regions[0]


def _candidates(text: str, name: str = "t.c"):
    region = _region(text, name)
    return region, candidates(region.kernel, region.transform_calls)


def test_gemm_candidates_are_distinct_proven_mappings_first_the_automatic_one():
    region, found = _candidates(C_GEMM)
    assert 2 < len(found) <= MAX_CANDIDATES
    assert found[0].variant == "auto" and found[0].label == "dense 16x16"
    assert len({c.mapping for c in found}) == len(found)
    assert [c.result.kernel.name for c in found] == [f"gemm_k__tune{k}"
                                                     for k in range(len(found))]
    assert "groups 16x16" in [c.label for c in found]
    # every candidate went through the pipeline: legality proved its parallel loops
    from translator.analysis.legality import parallel_inames
    assert all(parallel_inames(c.result.kernel) for c in found)
    again = candidates(region.kernel, region.transform_calls)
    assert [(c.variant, c.mapping) for c in again] == [(c.variant, c.mapping) for c in found]


def test_a_region_the_user_mapped_has_no_candidates():
    assert _candidates(C_MAPPED)[1] == []


def _record(**changes) -> dict:
    rec = {"format": FORMAT, "source": "t.c", "region": "gemm_k", "fingerprint": "0" * 16,
           "device": "dev A", "size_class": "n=2^9",
           "candidates": [{"variant": "auto", "label": "x", "mapping": "m0", "calls": 3,
                           "ms": 2.0},
                          {"variant": "g128", "label": "y", "mapping": "m1", "calls": 3,
                           "ms": 1.0}],
           "winner": 1}
    rec.update(changes)
    return rec


def test_the_largest_size_class_then_the_latest_record_decides():
    small = _record(size_class="n=2^12", winner=0)
    big = _record(size_class="n=2^13", winner=1)
    later_big = _record(size_class="n=2^13", winner=0)
    chosen = select([small, big, later_big, small], "f", None)
    assert chosen[("t.c", "gemm_k")] is later_big
    assert size_key("n=2^10 m=2^9") > size_key("n=2^9 m=2^9") > size_key("n=0 m=2^9")


def test_several_devices_need_tune_device():
    records = [_record(), _record(device="dev B")]
    with pytest.raises(FrontendError, match=r"records for several devices \(dev A; dev B\): "
                                            r"choose one with --tune-device NAME"):
        select(records, "f", None)
    assert select(records, "f", "b")[("t.c", "gemm_k")]["device"] == "dev B"
    with pytest.raises(FrontendError, match="no tuning record for a device matching 'gpu'"):
        select(records, "f", "gpu")


def _translate(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=cwd,
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO), **env}, timeout=300)


@pytest.mark.parametrize("line, message", [
    ("garbage", ("not a tuning record (invalid JSON: Expecting value); a tuning file is "
                 "written by TRANSLATE_TUNE=1 runs (docs/tuning.md)")),
    ('{"format": "other-1", "source": "t.c"}',
     ("not a tuning record of this translator (format 'other-1', expected "
      "'translate-tune-1')")),
    (json.dumps({**_record(), "winner": 5}), ("malformed tuning record: winner 5 is not a "
                                              "candidate")),
    (json.dumps({k: v for k, v in _record().items() if k != "device"}),
     "malformed tuning record: field 'device' is missing"),
])
def test_a_corrupted_or_foreign_tuning_file_is_an_error_at_its_line(tmp_path, line, message):
    (tmp_path / "t.c").write_text(C_GEMM)
    (tmp_path / "tune.jsonl").write_text(json.dumps(_record()) + "\n\n" + line + "\n")
    proc = _translate("t.c", "-o", "out", "--tune-file", "tune.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"tune.jsonl:3:1: error: {message}\n{line}\n^"), proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_missing_tuning_file_is_an_error_unless_only_the_environment_names_it(tmp_path):
    (tmp_path / "t.c").write_text(C_GEMM)
    proc = _translate("t.c", "-o", "out", "--tune-file", "none.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert "none.jsonl: cannot read the tuning file: No such file or directory" in proc.stderr
    proc = _translate("t.c", "-o", "out", cwd=tmp_path, TRANSLATE_TUNE_FILE="none.jsonl")
    assert proc.returncode == 0, proc.stderr


def _winner_file(folder: Path, text: str, label: str, name: str = "t.c") -> Path:
    """A tuning file whose record names the candidate `label` of the file's first region."""
    region, found = _candidates(text, name)
    cands = [{"variant": c.variant, "label": c.label, "mapping": c.mapping, "calls": 4,
              "ms": 1.0 if c.label == label else 2.0} for c in found]
    winner = [c.label for c in found].index(label)
    rec = _record(source=name, region=region.name, candidates=cands, winner=winner,
                  fingerprint=fingerprint(region.kernel, region.transform_calls))
    path = folder / "tune.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    return path


def test_a_build_with_the_file_emits_the_winner_and_reports_what_was_tried(tmp_path):
    (tmp_path / "t.c").write_text(C_GEMM)
    _winner_file(tmp_path, C_GEMM, "groups 16x16")
    plain = _translate("t.c", "-o", "plain", cwd=tmp_path)
    tuned = _translate("t.c", "-o", "tuned", "--tune-file", "tune.jsonl", "--report",
                       cwd=tmp_path)
    assert plain.returncode == tuned.returncode == 0, tuned.stderr
    assert "reqd_work_group_size(16, 16, 1)" in (tmp_path / "plain/t.cl").read_text()
    cl = (tmp_path / "tuned/t.cl").read_text()
    assert cl != (tmp_path / "plain/t.cl").read_text()
    assert "_fetch" not in cl   # the simple mapping, no local tiles
    assert 'split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")' in tuned.stderr
    assert 'chosen by: tuning, on device "dev A", sizes n=2^9: ' in tuned.stderr
    assert "    * groups 16x16" in tuned.stderr and "      dense 16x16" in tuned.stderr
    again = _translate("t.c", "-o", "again", "--tune-file", "tune.jsonl", cwd=tmp_path)
    assert again.returncode == 0
    for name in ("t.c", "t.cl", "t.host.c"):
        assert (tmp_path / "again" / name).read_bytes() == \
            (tmp_path / "tuned" / name).read_bytes()


def test_a_record_of_a_changed_region_is_not_used_with_a_warning(tmp_path):
    (tmp_path / "t.c").write_text(C_GEMM.replace("double acc = 0.0", "double acc = 1.0"))
    _winner_file(tmp_path, C_GEMM, "groups 16x16")
    proc = _translate("t.c", "-o", "out", "--tune-file", "tune.jsonl", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stderr.startswith(
        "t.c:3:19: warning: the tuning record of region gemm_k is not used: the region "
        "changed since it was tuned; the automatic mapping stands (tune the program again) "
        "[-Wstale-tuning]"), proc.stderr
    assert "_fetch" in (tmp_path / "out/t.cl").read_text()


def test_the_result_cache_keys_on_the_records_of_the_file(tmp_path):
    (tmp_path / "t.c").write_text(C_GEMM)
    cache = str(tmp_path / "cache")
    outs = []
    for label in ("groups 16x16", "groups 32x4", "groups 16x16"):
        _winner_file(tmp_path, C_GEMM, label)
        proc = _translate("--cache", "t.c", "-o", "out", "--tune-file", "tune.jsonl",
                          cwd=tmp_path, TRANSLATE_CACHE_DIR=cache)
        assert proc.returncode == 0, proc.stderr
        outs.append((tmp_path / "out/t.cl").read_text())
    assert "reqd_work_group_size(32, 4, 1)" in outs[1]
    assert outs[0] != outs[1] and outs[0] == outs[2]


def test_the_dependency_file_names_the_tuning_file(tmp_path):
    (tmp_path / "t.c").write_text(C_GEMM)
    _winner_file(tmp_path, C_GEMM, "groups 32x4")
    proc = _translate("t.c", "-o", "out", "--tune-file", "tune.jsonl", "-MD", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert " tune.jsonl " in (tmp_path / "out/t.d").read_text().replace("\\\n", " ")


def test_a_candidates_build_has_a_dispatcher_and_reports_the_candidates(tmp_path):
    (tmp_path / "t.c").write_text(C_GEMM)
    proc = _translate("t.c", "--tune-candidates", "--emit", "host", "--report=-",
                      cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    again = _translate("t.c", "--tune-candidates", "--emit", "host", "--report=-",
                       cwd=tmp_path)
    assert again.stdout == proc.stdout
    _, found = _candidates(C_GEMM)
    assert f"/* region gemm_k (t.c:3): {len(found)} candidate mappings" in proc.stdout
    assert "switch (tr_tune_begin(&_tr_tune_gemm_k, _tr_sizes)) {" in proc.stdout
    assert f"tuning candidates ({len(found)}; the first runs unless TRANSLATE_TUNE=1):\n" \
           "      0: dense 16x16 (auto)\n      1: groups 32x8 (simple)\n" in proc.stdout
    proc = _translate("t.c", "--tune-candidates", "--tune-file", "x.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == ("translate: error: --tune-candidates emits every candidate: it "
                           "takes no --tune-file\n")


def test_translate_tune_show_prints_the_latest_record_of_each_region(tmp_path):
    old, new = _record(winner=0), _record()
    other = _record(region="axpy_k", size_class="n=2^20")
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (old, other, new)))
    proc = _translate("tune", "--show", "--tune-file", "t.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:5] == [
        'region axpy_k (t.c), device "dev A", sizes n=2^20:',
        "    candidate           calls      best ms  mapping",
        "    x                       3       2.0000  m0",
        "  * y                       3       1.0000  m1",
        "    winner: y, 2.00x the speed of the automatic mapping (x)"]
    assert proc.stdout.count("region gemm_k (t.c)") == 1
    (tmp_path / "bad.jsonl").write_text("[1, 2]\n")
    proc = _translate("tune", "--show", "--tune-file", "bad.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.startswith("bad.jsonl:1:1: error: not a tuning record of this "
                                  "translator (format None, expected 'translate-tune-1')")
    proc = _translate("tune", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == ("translate tune: error: give a command to run (after --) or "
                           "--show\n")


def test_the_compiler_wrappers_read_translate_tune_file(tmp_path):
    from tests.build.helpers import BIN, run
    (tmp_path / "t.c").write_text(C_GEMM)
    _winner_file(tmp_path, C_GEMM, "groups 32x4")
    wrapped = [str(BIN / "translate-cc"), "gcc", "-c", "t.c", "-o", "t.o", "-Xtranslate",
               "--report"]
    proc = run(wrapped, tmp_path, TRANSLATE_TUNE_FILE="tune.jsonl",
               TRANSLATE_BUILD_DIR=str(tmp_path / "tb"))
    assert proc.returncode == 0, proc.stderr
    assert "    * groups 32x4" in proc.stderr
    (tmp_path / "tune.jsonl").write_text("{}\n")
    proc = run(wrapped, tmp_path, TRANSLATE_TUNE_FILE="tune.jsonl",
               TRANSLATE_BUILD_DIR=str(tmp_path / "tb"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tune.jsonl:1:1: error: not a tuning record of this "
                                  "translator (format None"), proc.stderr
