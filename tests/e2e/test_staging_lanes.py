"""End to end: staged copies of several arrays of one directive through the same lanes (h38,
issue 23 item 1).  A staged write returns once the host data is in the pinned chunks (their
DMAs still run while the next array is staged), the lanes' threads live from the first staged
copy to the exit, and a staged read stores into the user's memory with non-temporal stores
(SSE2).  ``staging_lanes/lanes.c`` and ``lanes_f.f90`` copy arrays of 1 to 8 bytes per
element, sizes that are not multiples of 4 KiB, of the chunk or of 64 bytes, sections off a
16-byte boundary, arrays smaller than one lane's part, in both directions at entry, exit and in
updates; under forced staging on PoCL (chunks of 4 KiB to 1 MiB, 1 to 16 lanes, with and
without the profile's waits) they must print what the original prints, also under
AddressSanitizer and ThreadSanitizer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated,
                               compare_outputs, run, run_c_sanitized)

HERE = Path(__file__).parent / "staging_lanes"
STAGED = {"TRANSLATE_DEVICE": "cpu", "TRANSLATE_STAGING": "1"}


@pytest.fixture(scope="module", params=["lanes.c", "lanes_f.f90"])
def builds(request, tmp_path_factory) -> tuple[Path, str]:
    src = HERE / request.param
    work = tmp_path_factory.mktemp(src.stem)
    opts = SampleOptions()
    original = build_original(src, work, opts)
    translated = build_translated(src, work, opts)
    return translated, run([str(original)], work)


@pytest.mark.parametrize("lanes", ["1", "5", "16"])
@pytest.mark.parametrize("chunk", ["4096", "12288", "1048576"])
def test_staged_arrays_back_to_back(builds: tuple[Path, str], lanes: str, chunk: str) -> None:
    translated, expected = builds
    assert expected.count("\n") == 3, expected
    env = {**STAGED, "TRANSLATE_STAGING_CHUNK": chunk, "TRANSLATE_STAGING_THREADS": lanes}
    compare_outputs(expected, run([str(translated)], translated.parent, env=env), 0.0)


def test_staged_arrays_profiled(builds: tuple[Path, str]) -> None:
    """Under TRANSLATE_PROFILE a staged write waits for its DMAs (their time is its own)."""
    translated, expected = builds
    env = {**STAGED, "TRANSLATE_STAGING_CHUNK": "4096", "TRANSLATE_STAGING_THREADS": "7",
           "TRANSLATE_PROFILE": "1"}
    compare_outputs(expected, run([str(translated)], translated.parent, env=env), 0.0)


@pytest.fixture(scope="module")
def c_build(tmp_path_factory) -> tuple[Path, str]:
    src = HERE / "lanes.c"
    work = tmp_path_factory.mktemp("lanes_san")
    original = build_original(src, work, SampleOptions())
    build_translated(src, work, SampleOptions())   # translates into work/out
    return work, run([str(original)], work)


@pytest.mark.parametrize("sanitizer", ["address", "thread"])
def test_staged_arrays_clean_under_sanitizers(c_build: tuple[Path, str], sanitizer: str) -> None:
    """The lanes' threads, their rounds and the exit that joins them: no race, leak or bad
    access (the runtime built with -fsanitize, the C test program on PoCL)."""
    work, expected = c_build
    env = {**STAGED, "TRANSLATE_STAGING_CHUNK": "4096", "TRANSLATE_STAGING_THREADS": "5"}
    compare_outputs(expected, run_c_sanitized(work, "lanes", sanitizer, env), 0.0)
