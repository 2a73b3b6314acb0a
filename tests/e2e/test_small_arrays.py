"""End to end: the small arrays of a plain call go to the device in one write and come back in
one read (h49, issue 23 item 5; translate_rt.c "Small arrays of a call").

``small_arrays/small.c`` and ``small.f90`` call regions with small arrays in every way the
packing could get wrong (partial writes, outputs written whole, sizes changing past the limits,
aliasing pointers, several kernels, a sum, an empty call, present data); the translated
programs must print exactly what the originals print, under every runtime mode and under
AddressSanitizer.  ``small_arrays/calls.c`` runs 80 plain calls under an LD_PRELOAD interposer
(``count_cl.c``) that counts the commands: one write and one read per call, where the runtime
before issued one per array.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated,
                               compare_outputs, run, run_c_sanitized)

HERE = Path(__file__).parent / "small_arrays"

MODES = {
    "default": {},
    "off": {"TRANSLATE_SMALL_ARRAYS": "off"},
    "tiny-limit": {"TRANSLATE_SMALL_ARRAYS": "200"},
    "profile": {"TRANSLATE_PROFILE": "1"},
    "sync": {"TRANSLATE_SYNC": "1"},
    "staged": {"TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096"},
    "late-start": {"TRANSLATE_EARLY_INIT": "0"},
}


def _builds(src: Path, work: Path) -> tuple[Path, str]:
    original = build_original(src, work, SampleOptions())
    return build_translated(src, work, SampleOptions()), run([str(original)], work)


@pytest.fixture(scope="module")
def c_builds(tmp_path_factory) -> tuple[Path, str]:
    return _builds(HERE / "small.c", tmp_path_factory.mktemp("small_c"))


@pytest.fixture(scope="module")
def fortran_builds(tmp_path_factory) -> tuple[Path, str]:
    return _builds(HERE / "small.f90", tmp_path_factory.mktemp("small_f90"))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_c_small_arrays_as_the_original(c_builds: tuple[Path, str], mode: str) -> None:
    translated, expected = c_builds
    assert expected.count("\n") == 104, expected
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", **MODES[mode]})
    compare_outputs(expected, actual, 0.0)


@pytest.mark.parametrize("mode", ["default", "off", "sync"])
def test_fortran_small_arrays_as_the_original(fortran_builds: tuple[Path, str],
                                              mode: str) -> None:
    translated, expected = fortran_builds
    assert expected.count("\n") == 26, expected
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", **MODES[mode]})
    compare_outputs(expected, actual, 0.0)


def test_small_arrays_clean_under_address_sanitizer(c_builds: tuple[Path, str]) -> None:
    translated, expected = c_builds
    compare_outputs(expected, run_c_sanitized(translated.parent, "small", "address"), 0.0)


@pytest.fixture(scope="module")
def counted(tmp_path_factory) -> tuple[Path, Path, str]:
    work = tmp_path_factory.mktemp("small_calls")
    translated, expected = _builds(HERE / "calls.c", work)
    counter = work / "count_cl.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", str(HERE / "count_cl.c"), "-o",
                    str(counter), "-ldl"], check=True, capture_output=True, text=True)
    return translated, counter, expected


def _commands(counted: tuple[Path, Path, str], env: dict) -> dict[str, int]:
    translated, counter, expected = counted
    counts = translated.parent / "counts.txt"
    counts.unlink(missing_ok=True)
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", "LD_PRELOAD": str(counter),
                      "CL_COUNT_FILE": str(counts), **env})
    compare_outputs(expected, actual, 0.0)
    words = counts.read_text().split()
    return {words[k]: int(words[k + 1]) for k in range(0, len(words), 2)}


def test_one_write_and_one_read_per_plain_call(counted: tuple[Path, Path, str]) -> None:
    """80 calls: 40 of axpy (x and y in, y back), 40 of two (x, y, z in; y and z back)."""
    assert _commands(counted, {}) == {"writes": 80, "reads": 80, "launches": 80}


def test_small_arrays_off_copies_each_array(counted: tuple[Path, Path, str]) -> None:
    assert _commands(counted, {"TRANSLATE_SMALL_ARRAYS": "off"}) == {
        "writes": 40 * 2 + 40 * 3, "reads": 40 + 40 * 2, "launches": 80}


def test_profile_counts_packed_bytes(counted: tuple[Path, Path, str]) -> None:
    """The packed copies count each array's bytes, as separate copies did."""
    translated, _, _ = counted
    proc = subprocess.run([str(translated)], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                               "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line.split()[2:6] for line in proc.stderr.splitlines()
            if line.split()[:1] in (["axpy"], ["two"])}
    assert rows["axpy"][0] == "40" and rows["axpy"][2:] == [str(40 * 256), str(40 * 128)]
    assert rows["two"][0] == "40" and rows["two"][2:] == [str(40 * 384), str(40 * 256)]
