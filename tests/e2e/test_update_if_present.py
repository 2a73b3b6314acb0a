"""``update`` of data that is not on the device (h70 hunt): OpenMP ``#pragma omp target
update from(y[0:N])`` after a ``target teams distribute parallel for map(from: y[0:N])``
(OpenMP: a list item that is not present is not updated), OpenACC ``update self(x[0:N])
if_present``, and ``!$acc update self(glob)`` of a module array under ``!$acc declare
create(glob)`` (present for the whole program in OpenACC; the translated regions move it
themselves).  The runtime stopped each with "update: array 'y' ... is not present on the
device" (exit 1 at run time, valid programs).  Now the updates of OpenMP and OpenACC
directives leave an array that is not present alone (``if_present``); the translator's own
``update`` still stops, unless it says ``if_present``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HUNT = REPO / "bench" / "h70_hunt"

STRICT = """\
#include <stdio.h>
static double u[8];
int main(void) {
  for (int i = 0; i < 8; i++) u[i] = i;
#pragma translate update host(u)
  printf("%g\\n", u[7]);
  return 0;
}
"""


@pytest.mark.parametrize("name", ["omp_update_unmapped.c", "acc_clauses.f90"])
def test_updates_of_data_not_on_the_device_match(name: str, tmp_path: Path) -> None:
    check_sample(HUNT / name, tmp_path)


def test_the_translate_update_of_absent_data_still_stops(tmp_path: Path) -> None:
    from tests.e2e.harness import build_translated, sample_options
    src = tmp_path / "strict.c"
    src.write_text(STRICT)
    exe = build_translated(src, tmp_path, sample_options(src))
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                          check=False, env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin"})
    assert done.returncode == 1
    assert "strict.c:5: error: translate runtime: update: array 'u'" in done.stderr
    assert "is not present on the device" in done.stderr
    src.write_text(STRICT.replace("host(u)", "host(u) if_present"))
    exe = build_translated(src, tmp_path, sample_options(src))
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                          check=False, env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "7\n"
