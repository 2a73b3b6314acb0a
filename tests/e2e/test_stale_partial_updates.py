"""``-Wstale-host-access`` after an update of part of an array (h70; noted by h63's
``omp_update.c``): ``#pragma omp target update from(y[0:N/2])`` (``!$acc update
host(y(1:n/2))``) counted for all of ``y``, so a host loop over all of it read a stale half
without a warning.  Now a host statement whose subscripts leave the updated section, whatever
values the names take (``y[i]`` over ``i < N`` against ``[0:N/2]``), is warned of; a use
inside it, or one whose range is not known (the halo rule), stays silent.  Besides, the write
of a C OpenMP/OpenACC region on its last line (a loop whose body is one statement: the
region has no ``end`` directive) was not seen by the check, so a host read of ``z`` after
``#pragma omp target teams distribute parallel for`` / ``for (...)`` / ``z[i] = ...`` was
silent."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.e2e.harness import REPO

HUNT = REPO / "bench" / "h70_hunt"

EXPECTED = {
    "stale_partial.c": [
        "stale_partial.c:20:12: warning: host code uses y[i] for i = 0 .. N - 1, outside "
        "y[0:N/2], the part that the update at line 15 brought back; region 'main_0' last "
        "wrote the rest on the device (data region at line 10)",
        "stale_partial.c:25:10: warning: host code reads or writes 'z', which region 'main_1' "
        "last wrote on the device (data region at line 10)",
    ],
    "stale_partial.f90": [
        "stale_partial.f90:24:13: warning: host code uses y(i) for i = 1 .. n, outside "
        "y(1:n/2), the part that the update at line 18 brought back; region "
        "'stale_partial_0' last wrote the rest on the device (data region at line 13)",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_host_reads_outside_a_partial_update_warn(name: str, tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(HUNT / name), "-o",
                           str(tmp_path / "out"), "--directives=openmp,openacc"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    for message in EXPECTED[name]:
        assert message in done.stderr
    # the reads inside the section (lines 17 and 18 of the C file) are silent
    assert done.stderr.count("[-Wstale-host-access]") == len(EXPECTED[name])
