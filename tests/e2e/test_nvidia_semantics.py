"""End to end: translated programs stay right under the behaviours of NVIDIA's OpenCL that PoCL
does not have (h64, bench/RESULTS.md "Differential hunt on an NVIDIA GPU (h64)").

``nvidia_semantics/nvidia_cl.c`` is an LD_PRELOAD interposer that gives the CPU device those
behaviours: its platform is named NVIDIA, a non-blocking write reads the host memory when it
is enqueued (not when the device-side barrier before it lets it run), and releasing a
sub-buffer aborts (the NVIDIA driver crashed there).  On an H200 the runtime before crashed in
``sizes.c`` (packed small arrays: sub-buffers) and printed wrong sums in the async programs;
under the interposer it does the same here.  The `update device` after an async `update host`
of ``async_plain.c`` was wrong on PoCL too: its bounce copy read the host array before the
async copy back had arrived.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated,
                               compare_outputs, run)

HERE = Path(__file__).parent / "nvidia_semantics"


@pytest.fixture(scope="module")
def interposer(tmp_path_factory) -> Path:
    lib = tmp_path_factory.mktemp("nvidia_cl") / "nvidia_cl.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", str(HERE / "nvidia_cl.c"), "-o", str(lib),
                    "-ldl"], check=True, capture_output=True, text=True)
    return lib


def _check(name: str, work: Path, env: dict) -> None:
    src = HERE / name
    original = build_original(src, work, SampleOptions())
    translated = build_translated(src, work, SampleOptions())
    expected = run([str(original)], work)
    compare_outputs(expected, run([str(translated)], work, env={"TRANSLATE_DEVICE": "cpu",
                                                                **env}), 0.0)


@pytest.mark.parametrize("name", ["sizes.c", "async_plain.c", "async_plain.f90"])
def test_matches_original_with_nvidia_behaviour(name: str, interposer: Path,
                                                tmp_path: Path) -> None:
    _check(name, tmp_path, {"LD_PRELOAD": str(interposer)})


def test_update_device_after_async_update_host_on_pocl(tmp_path: Path) -> None:
    """Without the interposer: the bounce copy of `update device` is made at the directive."""
    _check("async_plain.c", tmp_path, {})
