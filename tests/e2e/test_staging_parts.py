"""End to end: a staged copy is split into one part per lane, each a multiple of 4 KiB; the
parts must cover every byte.  The share of one lane was once truncated before it was rounded
up to 4 KiB, so that a copy of 65,540 bytes over 8 or 16 lanes lost its last 4 bytes in both
directions (on an H200, the mini-app's last row offset at 3840 x 3840 cells: a wrong result
with exit 0).  ``runtime_reuse/parts.c`` copies 16,385 ints in and out under forced staging.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated, compare_outputs,
                               run)

SRC = Path(__file__).parent / "runtime_reuse" / "parts.c"


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, str]:
    work = tmp_path_factory.mktemp("parts")
    opts = SampleOptions()
    original = build_original(SRC, work, opts)
    translated = build_translated(SRC, work, opts)
    return translated, run([str(original)], work)


@pytest.mark.parametrize("lanes", ["1", "3", "8", "16"])
@pytest.mark.parametrize("chunk", ["4096", "1048576"])
def test_staged_parts_cover_every_byte(builds: tuple[Path, str], lanes: str, chunk: str) -> None:
    translated, expected = builds
    assert expected.endswith(f"last {2 * (16384 % 97 + 1) + 1}\n"), expected
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", "TRANSLATE_STAGING": "1",
                      "TRANSLATE_STAGING_CHUNK": chunk, "TRANSLATE_STAGING_THREADS": lanes})
    compare_outputs(expected, actual, 0.0)
