"""End to end: the runtime reuses a region's device buffers, slots and kernel arguments from
call to call, and stages large copies through pinned buffers.  Neither may change a result.

``runtime_reuse/reuse.c`` calls the same regions with different arrays, different sizes (also
one seen before), host data changed between calls, a region of several kernels, and all of it
inside and outside a data region.  It must print what the original prints, under every runtime
mode: default, forced pinned staging with a tiny chunk (many chunks, a partial last one; one
thread and several), and TRANSLATE_SYNC=1; and under AddressSanitizer without leaks.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)
from tests.e2e.test_data_regions import SUPPRESSIONS

SRC = Path(__file__).parent / "runtime_reuse" / "reuse.c"

MODES = {
    "default": {},
    "staged": {"TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096"},
    "staged-large-only": {"TRANSLATE_STAGING": "8192", "TRANSLATE_STAGING_CHUNK": "4096"},
    "staged-threads": {"TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096",
                       "TRANSLATE_STAGING_THREADS": "3"},
    "staged-one-thread": {"TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096",
                          "TRANSLATE_STAGING_THREADS": "1"},
    "sync": {"TRANSLATE_SYNC": "1"},
    "profile": {"TRANSLATE_PROFILE": "1", "TRANSLATE_STAGING": "1",
                "TRANSLATE_STAGING_CHUNK": "4096"},
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, Path, str]:
    work = tmp_path_factory.mktemp("reuse")
    opts = SampleOptions()
    original = build_original(SRC, work, opts)
    translated = build_translated(SRC, work, opts)
    return original, translated, run([str(original)], work)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_reuse_matches_original(builds: tuple[Path, Path, str], mode: str) -> None:
    _, translated, expected = builds
    assert expected.count("\n") == 34, expected
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", **MODES[mode]})
    compare_outputs(expected, actual, 0.0)


def test_profile_counts_every_byte_once(builds: tuple[Path, Path, str]) -> None:
    """Reused buffers still count their copies: axpy's bytes to the device are x and y for
    every call outside the data region (3*2 + 5 + 3 + 1 calls) plus b inside it (3 calls)."""
    _, translated, _ = builds
    proc = subprocess.run([str(translated)], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1",
                               "TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096"})
    assert proc.returncode == 0, proc.stderr
    row = next(line for line in proc.stderr.splitlines() if line.startswith("axpy "))
    calls, _, to_dev, from_dev = row.split()[2:6]
    sizes = [100] * 6 + [100, 37, 3000, 100, 1] + [3000] * 3 + [3000]
    assert int(calls) == len(sizes) + 6
    assert int(to_dev) == 8 * (2 * sum(sizes) + 3 * 3000)
    assert int(from_dev) == 8 * (sum(sizes) + 3 * 3000)


def test_reuse_clean_under_address_sanitizer(builds: tuple[Path, Path, str]) -> None:
    _, translated, expected = builds
    work = translated.parent
    rt = REPO / "translator" / "runtime"
    out = work / "out"
    asan = work / "asan"
    subprocess.run(["gcc", "-std=c99", "-g", "-fsanitize=address", f"-I{rt}",
                    str(out / "reuse.c"), str(out / "reuse.host.c"), str(rt / "translate_rt.c"),
                    "-lOpenCL", "-o", str(asan)], check=True, cwd=work, capture_output=True,
                   text=True)
    (work / "lsan.supp").write_text(SUPPRESSIONS)
    for mode in ("default", "staged", "staged-threads"):
        env = {**os.environ, "TRANSLATE_DEVICE": "cpu", **MODES[mode],
               "ASAN_OPTIONS": "detect_leaks=1",
               "LSAN_OPTIONS": f"suppressions={work / 'lsan.supp'}:print_suppressions=0"}
        proc = subprocess.run([str(asan)], capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        assert "Sanitizer" not in proc.stderr, proc.stderr
        compare_outputs(expected, proc.stdout, 0.0)
