"""Issue 29 item 2: a minimum (maximum) with its location in one loop runs in parallel as an
arg-min (arg-max) reduction and gives the original's bits on PoCL: ties at the first, a
middle and the last position (and in different work groups), NaNs, zeros of both signs,
values that never beat the initial one (the locations keep their values), ``<``, ``<=``,
``>``, ``>=``, a linear cell number as the location, integer values, sizes that are not
multiples of the work-group size; in Fortran and C (samples/fortran/argmin.f90,
samples/c/argmin.c), with the automatic mapping, an explicit one-group mapping and a host loop
around a one-loop reduction."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

SAMPLES = {"fortran": REPO / "samples" / "fortran" / "argmin.f90",
           "c": REPO / "samples" / "c" / "argmin.c"}

#: What `--report` says of each region of the samples: every one is an arg-reduction.
REPORTED = {
    "fortran": ["arg-min reduction (value dtmin, location jmin, kmin; equal values: the first",
                "arg-min reduction (value best, location cell; equal values: the last",
                "arg-max reduction (value best, location jb, kb; equal values: the first",
                "arg-max reduction (value best, location ib; equal values: the last"],
    "c": ["arg-min reduction (value b, location ii, jj; equal values: the first",
          "arg-max reduction (value b, location c; equal values: the last",
          "arg-min reduction (value f, location af; equal values: the first",
          "arg-min reduction (value l, location al; equal values: the last"],
}


def _report(src: Path, tmp: Path) -> str:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp / "report"), "--report=-"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "runs as a single work item" not in proc.stderr, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_sample_runs_in_parallel_and_matches(tmp_path: Path, language: str) -> None:
    src = SAMPLES[language]
    report = _report(src, tmp_path)
    for line in REPORTED[language]:
        assert line in report, report
    assert report.count("chosen by: 2-D group reduction") == 3 if language == "fortran" \
        else report.count("chosen by: 2-D group reduction") == 2, report
    out = check_sample(src, tmp_path)
    assert len(out.splitlines()) == (24 if language == "fortran" else 18)


#: The Fortran sample's first region with other mappings: one work group (no group axis),
#: groups of one work item (no local axis), and a location j*k, which keeps k on the host (a
#: loop of launches) and reduces over j.
VARIANTS = {
    "one group": ('  !$translate kernel min_first_k\n',
                  '  !$translate kernel min_first_k\n'
                  '  !$translate split_iname("j", 64, inner_tag="l.0")\n'),
    "groups only": ('  !$translate kernel min_first_k\n',
                    '  !$translate kernel min_first_k\n'
                    '  !$translate tag_inames("k:g.0")\n'),
    "host loop": ("        jmin = j\n", "        jmin = j*k\n"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_other_mappings_match(tmp_path: Path, variant: str) -> None:
    old, new = VARIANTS[variant]
    text = SAMPLES["fortran"].read_text()
    assert old in text
    src = tmp_path / "argmin.f90"
    src.write_text(text.replace(old, new, 1))
    report = _report(src, tmp_path)
    assert report.count("arg-min reduction") == 2, report
    check_sample(src, tmp_path)
