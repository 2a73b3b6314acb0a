"""What the MPI tests need of the machine's MPI (Open MPI from Debian's openmpi-bin and
libopenmpi-dev, installed by ``make setup``): the launcher and the C include directories."""

from __future__ import annotations

import os
import shutil
import subprocess

#: Why the MPI tests are skipped, or "" when mpirun and the compiler wrappers are there.
MISSING = "" if all(shutil.which(t) for t in ("mpirun", "mpicc", "mpif90")) else (
    "mpirun, mpicc or mpif90 missing: install Open MPI (apt-get install openmpi-bin "
    "libopenmpi-dev, as `make setup` does)")


def include_flags() -> list[str]:
    """``-I`` flags for ``mpi.h`` (the C frontend preprocesses the source)."""
    proc = subprocess.run(["mpicc", "--showme:incdirs"], capture_output=True, text=True)
    return [f"-I{d}" for d in proc.stdout.split()] if proc.returncode == 0 else []


def launcher(ranks: int) -> list[str]:
    """``mpirun --oversubscribe -np N`` (with --allow-run-as-root for root): the test machine
    has fewer cores than ranks, and CI runs as root."""
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return ["mpirun", *root, "--oversubscribe", "-np", str(ranks)]
