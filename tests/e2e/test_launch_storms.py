"""Launch storms (issue 21 item 9): host loops around tiny kernels, on PoCL.

``launch_storms/storm.{c,f90}``: an initialisation nest that writes a 2 x 2 block per cell
(neighbouring cells overlap, so neither cell loop is parallel) and a sweep whose two cell
loops carry dependences around two 4-iteration nests that cannot share a kernel.  Cut into
host loops they would launch two kernels per cell (two million per call at sizes of 1000);
they must run as one launch and print what the original prints.  ``wide_k`` (Fortran) has
nests of 64 iterations: its host loops stay (one work item would be slower still), and it
warns with ``-Wlaunch-storm``; the profile counts its launches.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, SampleOptions, build_translated, check_sample

HERE = Path(__file__).parent / "launch_storms"


def report(src: Path, work: Path) -> tuple[str, str]:
    """(report, stderr) of translating `src`."""
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(work / "rep"), "--report=-"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr


def region_block(text: str, name: str) -> str:
    found = re.search(rf"^region {name} at .*?(?=^region |\Z)", text, re.M | re.S)
    assert found, f"no region {name} in\n{text}"
    return found.group(0)


@pytest.mark.parametrize("name", ["storm.c", "storm.f90"])
def test_tiny_kernels_in_host_loops_run_as_one_launch(name: str, tmp_path: Path) -> None:
    src = HERE / name
    check_sample(src, tmp_path)
    text, err = report(src, tmp_path)
    for region in ("fill_k", "sweep_k"):
        block = region_block(text, region)
        assert "  launches per call: 1\n" in block, block
        assert "host loop" not in block, block
    assert not re.search(r"region (fill|sweep)_k: .*launch-storm", err), err


def test_wide_kernels_in_host_loops_warn(tmp_path: Path) -> None:
    text, err = report(HERE / "storm.f90", tmp_path)
    block = region_block(text, "wide_k")
    assert "  launches per call: 2*(nz - 1)*(ny - 1) (host loops k, j)\n" in block, block
    assert ("storm.f90:42:3: warning: region wide_k: about 1996002 kernel launches per call "
            "(with every unknown size 1000) from host loops around kernels that do little "
            "work each; the launches cost more than the work: map an outer loop, or make the "
            "loop nest parallel so that it runs as one kernel [-Wlaunch-storm]") in err, err
    assert err.count("[-Wlaunch-storm]") == 1


def test_profile_counts_launches(tmp_path: Path) -> None:
    """nz = 19, ny = 23: each of wide_k's two kernels runs 18 * 22 times per call."""
    exe = build_translated(HERE / "storm.f90", tmp_path, SampleOptions())
    proc = subprocess.run([str(exe)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                            "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    for kernel in ("wide_k_k0", "wide_k_k1"):
        row = re.search(rf"^\s+{kernel}\s+-\s+(\d+)\s", proc.stderr, re.M)
        assert row and int(row.group(1)) == 18 * 22, proc.stderr
    assert not re.search(r"^\s+(fill|sweep)_k_k\d", proc.stderr, re.M), proc.stderr


def test_time_loop_around_big_kernels_keeps_its_host_loop(tmp_path: Path) -> None:
    """A time loop around big kernels keeps its host loop and does not warn."""
    src = tmp_path / "steps.c"
    src.write_text(
        "void steps(int nt, int n, double *restrict u, double *restrict v)\n{\n"
        "#pragma translate kernel steps_k\n"
        "  for (int t = 0; t < nt; t++) {\n"
        "    for (int i = 1; i < n - 1; i++)\n      v[i] = 0.5 * (u[i-1] + u[i+1]);\n"
        "    for (int i = 1; i < n - 1; i++)\n      u[i] = v[i];\n  }\n"
        "#pragma translate end kernel\n}\n")
    text, err = report(src, tmp_path)
    assert "  launches per call: 2*nt (host loops t)\n" in text, text
    assert "launch-storm" not in err

