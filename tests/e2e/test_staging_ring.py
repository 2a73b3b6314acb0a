"""End to end: staged copies go through one pinned ring shared by the lanes, and `group`
adjacent chunks travel as one DMA command (h49, issue 23 item 1; translate_rt.c "Pinned
staging").  ``small_arrays/staged.c`` copies 1 MiB in and out of one region call under forced
staging with 4 KiB chunks; ``small_arrays/count_cl.c`` (LD_PRELOAD) counts the commands: 256
chunks make 64 writes and 64 reads in groups of 4, 256 each in groups of 1 (as the lanes
before sent them).  The result must be the original's in every setting.  The ring's
correctness under many lane, chunk and size settings is test_staging_lanes.py's,
test_staging_held.py's and test_staging_parts.py's.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import SampleOptions, build_original, build_translated, compare_outputs, run

HERE = Path(__file__).parent / "small_arrays"
STAGED = {"TRANSLATE_DEVICE": "cpu", "TRANSLATE_STAGING": "1",
          "TRANSLATE_STAGING_CHUNK": "4096"}


@pytest.fixture(scope="module")
def counted(tmp_path_factory) -> tuple[Path, Path, str]:
    work = tmp_path_factory.mktemp("staging_ring")
    original = build_original(HERE / "staged.c", work, SampleOptions())
    translated = build_translated(HERE / "staged.c", work, SampleOptions())
    counter = work / "count_cl.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", str(HERE / "count_cl.c"), "-o",
                    str(counter), "-ldl"], check=True, capture_output=True, text=True)
    return translated, counter, run([str(original)], work)


def _commands(counted: tuple[Path, Path, str], env: dict) -> dict[str, int]:
    translated, counter, expected = counted
    counts = translated.parent / "counts.txt"
    counts.unlink(missing_ok=True)
    actual = run([str(translated)], translated.parent,
                 env={**STAGED, "LD_PRELOAD": str(counter), "CL_COUNT_FILE": str(counts), **env})
    compare_outputs(expected, actual, 0.0)
    words = counts.read_text().split()
    return {words[k]: int(words[k + 1]) for k in range(0, len(words), 2)}


@pytest.mark.parametrize("threads,group,commands", [
    ("4", "4", 64), ("12", None, 64), ("4", "1", 256), ("3", "4", 86), ("5", "4", 128),
    ("1", "4", 256)])
def test_staged_chunks_travel_in_groups(counted: tuple[Path, Path, str], threads: str,
                                        group: str | None, commands: int) -> None:
    """The group is at most the lanes and divides twice the lanes: 12 lanes take the default
    4; 3 lanes take 3 (86 commands for 256 chunks), 5 lanes 2, 1 lane 1."""
    env = {"TRANSLATE_STAGING_THREADS": threads}
    if group is not None:
        env["TRANSLATE_STAGING_GROUP"] = group
    assert _commands(counted, env) == {"writes": commands, "reads": commands, "launches": 1}
