"""MPI codes on PoCL (issue 25): the halo-exchange samples (samples/mpi, C and Fortran) run
with 2 ranks under mpirun, bit-identical to the original, and each halo update moves exactly
the halo (the profile's bytes per call); one device per local rank; `translate check
--launcher` compares each rank's region executions."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e import mpi
from tests.e2e.harness import REPO, TRANSLATE, run, runtime_dir, runtime_object

pytestmark = pytest.mark.skipif(bool(mpi.MISSING), reason=mpi.MISSING)

SAMPLES = REPO / "samples" / "mpi"
STEPS = 20
F8 = 8

#: Halo elements per update call of each sample: two columns of NX = 64 (C), two rows of
#: ny = 56 (Fortran), two contiguous rows of NY = 72 (C, rows split); the `_overlap` samples
#: are the same programs with async queues.
HALO = {"heat_mpi.c": 2 * 64, "heat_mpi.f90": 2 * 56, "heat_mpi_rows.c": 2 * 72,
        "heat_mpi_overlap.c": 2 * 64, "heat_mpi_overlap.f90": 2 * 56}


def build_both(src: Path, work: Path) -> tuple[Path, Path]:
    """The original and the translated program, built with the MPI compiler wrappers."""
    fortran = src.suffix == ".f90"
    comp = "mpif90" if fortran else "mpicc"
    rt = runtime_dir()
    run([comp, "-O1", str(src), "-o", "original"], work)
    run([*TRANSLATE, str(src), "-o", str(work / "out"), *mpi.include_flags()], work)
    out = work / "out"
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c")], work)
    run([comp, "-O1", str(out / src.name), f"{src.stem}.host.o", str(runtime_object()),
         "-lOpenCL", "-o", "translated"], work)
    return work / "original", work / "translated"


def launch(exe: Path, work: Path, **env: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([*mpi.launcher(2), str(exe)], cwd=work, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                                       **env})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def update_rows(stderr: str, src: Path) -> list[tuple[int, int, int]]:
    """(calls, bytes to, bytes from the device) of every rank's `update` profile rows."""
    rows = []
    for line in stderr.splitlines():
        m = re.match(rf"update\s+\S*{re.escape(src.name)}:\d+\s+(\d+)\s+[\d.]+\s+(\d+)\s+(\d+)$",
                     line)
        if m:
            rows.append(tuple(int(g) for g in m.groups()))
    return rows


@pytest.mark.parametrize("name", sorted(HALO))
def test_halo_exchange_matches_and_moves_only_the_halo(name: str, tmp_path: Path) -> None:
    src = SAMPLES / name
    original, translated = build_both(src, tmp_path)
    expected = launch(original, tmp_path).stdout
    proc = launch(translated, tmp_path, TRANSLATE_PROFILE="1")
    assert proc.stdout == expected and expected.count("checksum") == 2
    rows = update_rows(proc.stderr, src)
    halo = HALO[name] * F8
    # per rank: `update host` of the two edge sections, `update device` of the two halos
    assert sorted(rows) == sorted([(STEPS, 0, STEPS * halo), (STEPS, STEPS * halo, 0)] * 2), \
        proc.stderr
    for rank in (0, 1):
        assert re.search(rf"for local rank {rank}[);]", proc.stderr), proc.stderr


def test_each_local_rank_takes_its_own_device(tmp_path: Path) -> None:
    """Two PoCL devices (POCL_DEVICES): rank r of 2 takes device r; an explicit list maps
    rank 0 to the second device; the profile names the device and the rank."""
    _, translated = build_both(SAMPLES / "heat_mpi.c", tmp_path)
    two = {"POCL_DEVICES": "pthread pthread", "TRANSLATE_VERBOSE": "1",
           "TRANSLATE_PROFILE": "1"}
    proc = launch(translated, tmp_path, **two)
    for rank in (0, 1):
        assert re.search(rf'using device 0:{rank} "[^"]*" \(platform "[^"]*"\) for local rank '
                         rf"{rank}\n", proc.stderr), proc.stderr
        assert re.search(rf", 0:{rank} for local rank {rank}[);]", proc.stderr), proc.stderr
    proc = launch(translated, tmp_path, **two, TRANSLATE_DEVICE="cpu:1,0")
    assert "using device 0:1" in proc.stderr and "for local rank 0\n" in proc.stderr
    assert re.search(r'using device 0:1 "[^"]*" \(platform "[^"]*"\) for local rank 0\n',
                     proc.stderr)
    assert re.search(r'using device 0:0 "[^"]*" \(platform "[^"]*"\) for local rank 1\n',
                     proc.stderr)


def test_a_list_entry_that_matches_nothing_names_the_rank(tmp_path: Path) -> None:
    """Without a launcher: the local rank set by hand (TRANSLATE_LOCAL_RANK) picks its entry."""
    _, translated = build_both(SAMPLES / "heat_mpi.c", tmp_path)
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu,no-such-device", "TRANSLATE_LOCAL_RANK": "1"}
    proc = subprocess.run([*mpi.launcher(1), str(translated)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    line = next(k for k, text in enumerate((SAMPLES / "heat_mpi.c").read_text().splitlines(), 1)
                if text.startswith("#pragma translate data"))
    assert (f'heat_mpi.c:{line}: error: translate runtime: no OpenCL device matches '
            'TRANSLATE_DEVICE="cpu,no-such-device" for local rank 1 (expected gpu, cpu, '
            'accelerator, P:D, TYPE:K, a platform or device name substring, or a '
            'comma-separated list of these, one per local rank)') in proc.stderr, proc.stderr


@pytest.mark.parametrize("name, compilers", [
    ("heat_mpi.c", ["--cc", "mpicc"]),
    ("heat_mpi.f90", ["--fc", "mpif90", "--cc", "mpicc"]),
])
def test_check_under_a_launcher_compares_every_rank(name: str, compilers: list[str],
                                                    tmp_path: Path) -> None:
    proc = subprocess.run([*TRANSLATE, "check", str(SAMPLES / name), *compilers,
                           "--launcher", " ".join(mpi.launcher(2)), "--",
                           *mpi.include_flags()], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    regions = "heat_step x20, heat_store x20" if name.endswith(".c") else \
        "heat_step_f x20, heat_store_f x20"
    assert proc.stdout == "".join(
        f"translate check: rank {r}: all 40 region executions match ({regions})\n"
        for r in (0, 1))


def test_check_under_a_launcher_finds_the_rank_that_differs(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parent / "mpi_programs" / "forgotten_update.c"
    proc = subprocess.run([*TRANSLATE, "check", str(src), "--cc", "mpicc", "--launcher",
                           " ".join(mpi.launcher(2)), "--", *mpi.include_flags()],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert (f"{src}:24: error: rank 1: region plus_one, execution 1 of 1: u[3] differs: "
            "original 0.0, translated 9.0") in proc.stderr, proc.stderr
    assert "rank 0" not in proc.stderr
