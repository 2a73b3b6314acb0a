"""One device per local rank (issue 25), through ``translate devices`` (the runtime's own
selection code): PoCL shows two CPU devices with ``POCL_DEVICES="pthread pthread"``; the local
rank comes from the launcher's variables (Open MPI's, MPICH's, Slurm's) or TRANSLATE_LOCAL_RANK,
first set first.  No MPI needed (tests/e2e/test_mpi.py runs the same under mpirun)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import translate

TWO = {"POCL_DEVICES": "pthread pthread"}
RANK_VARIABLES = ("TRANSLATE_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                  "PMI_LOCAL_RANK", "SLURM_LOCALID")


def selected(tmp_path: Path, choice: str, **env: str) -> str:
    """The P:D that `translate devices CHOICE` marks, or "" when it matches nothing."""
    clean = {name: "" for name in RANK_VARIABLES}
    r = translate("devices", choice, cwd=tmp_path, **TWO, **{**clean, **env})
    marked = [line.split()[1] for line in r.stdout.splitlines() if line.startswith("* ")]
    return marked[0] if marked else ""


@pytest.fixture(autouse=True)
def two_devices(tmp_path: Path) -> None:
    r = translate("devices", "cpu", cwd=tmp_path, **TWO)
    if sum(line[2:].startswith("0:") for line in r.stdout.splitlines()) != 2:
        pytest.skip("POCL_DEVICES does not give two devices here (not PoCL?)")


@pytest.mark.parametrize("variable", RANK_VARIABLES)
def test_rank_r_takes_device_r_mod_count(tmp_path: Path, variable: str) -> None:
    assert [selected(tmp_path, "cpu", **{variable: str(r)}) for r in range(4)] == \
        ["0:0", "0:1", "0:0", "0:1"]


def test_the_first_variable_set_wins(tmp_path: Path) -> None:
    assert selected(tmp_path, "cpu", TRANSLATE_LOCAL_RANK="0",
                    OMPI_COMM_WORLD_LOCAL_RANK="1") == "0:0"
    assert selected(tmp_path, "cpu", OMPI_COMM_WORLD_LOCAL_RANK="1", SLURM_LOCALID="0") == "0:1"


@pytest.mark.parametrize("choice, by_rank", [
    ("cpu:1,0", ["0:1", "0:0", "0:1"]),        # a bare number after TYPE:K: same type
    ("cpu:1,cpu:1", ["0:1", "0:1", "0:1"]),
    ("0:0,0:1", ["0:0", "0:1", "0:0"]),
    ("cpu:1", ["0:1", "0:1", "0:1"]),          # one named device: every rank
    ("0:1", ["0:1", "0:1", "0:1"]),
    ("cpu:2", ["", "", ""]),                   # past the CPUs: nothing
    ("cpu,no-such-device", ["0:0", "", "0:0"]),
])
def test_explicit_choices(tmp_path: Path, choice: str, by_rank: list[str]) -> None:
    assert [selected(tmp_path, choice, TRANSLATE_LOCAL_RANK=str(r)) for r in range(3)] == \
        by_rank
