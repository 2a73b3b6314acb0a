"""OpenACC directives as input (``--directives openacc``): the samples of samples/openacc and
one program per language with every directive family (tests/e2e/openacc) translate, build
and print what the original prints on the CPU OpenCL device; the samples give the same
OpenCL kernels as their pragma versions in samples/fortran and samples/c."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

ACC = ("--directives", "openacc")
SAMPLES = sorted((REPO / "samples" / "openacc").glob("*.[cf]*"))
FAMILIES = sorted((Path(__file__).parent / "openacc").glob("families.*"))


@pytest.mark.parametrize("src", SAMPLES + FAMILIES, ids=lambda p: p.name)
def test_matches_original(src: Path, tmp_path: Path) -> None:
    check_sample(src, tmp_path, (*ACC, "-Wno-sequential-region"))


def test_samples_cover_both_languages() -> None:
    names = {p.name for p in SAMPLES}
    for stem in ("saxpy", "jacobi2d", "reductions", "data_timeloop"):
        assert {f"{stem}.f90", f"{stem}.c"} <= names


#: (OpenACC sample, its pragma version, kernel pairs (OpenACC name, pragma name)).
SAME_KERNELS = [
    ("saxpy.f90", "fortran/saxpy.f90", [("saxpy_0", "saxpy_k")]),
    ("saxpy.c", "c/saxpy.c", [("saxpy_0", "saxpy_k")]),
    ("jacobi2d.f90", "fortran/jacobi2d.f90", [("sweep_0", "jacobi_sweep")]),
    ("jacobi2d.c", "c/jacobi2d.c", [("sweep_0", "jacobi")]),
    ("data_timeloop.f90", "fortran/data_timeloop.f90",
     [("step_0", "sweep"), ("step_1", "copy_back")]),
    ("data_timeloop.c", "c/data_timeloop.c", [("step_0", "sweep"), ("step_1", "copy_back")]),
    ("reductions.f90", "fortran/reductions.f90", [("dot_0", "dot_k")]),
    ("reductions.c", "c/reductions.c", [("dot_0", "dot_k")]),
]


def kernels(src: Path, out: Path, *flags: str) -> dict[str, str]:
    """name -> text of each ``__kernel`` function of `src`'s OpenCL output, without the
    ``#line`` directives (they name the source file and its lines) and without the helper
    functions that follow it in the file."""
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(out), "-w", *flags], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = (out / f"{src.stem}.cl").read_text()
    text = re.sub(r"^#line .*\n", "", text, flags=re.M)
    parts = re.split(r"(?=^__kernel )", text, flags=re.M)[1:]
    # each kernel up to its closing brace: the helpers after it belong to the next kernel
    return {_KERNEL_NAME.match(p).group(1): p[:p.index("\n}\n") + 3] for p in parts}


#: The name in ``__kernel void __attribute__ ((reqd_work_group_size(64, 1, 1))) name(``.
_KERNEL_NAME = re.compile(r"__kernel\s+void\s+(?:__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*)?"
                          r"(\w+)\s*\(")


@pytest.mark.parametrize("acc, pragma, pairs", SAME_KERNELS, ids=[s[0] for s in SAME_KERNELS])
def test_same_kernels_as_pragma_version(acc: str, pragma: str, pairs: list, tmp_path: Path
                                        ) -> None:
    mine = kernels(REPO / "samples" / "openacc" / acc, tmp_path / "acc", *ACC)
    theirs = kernels(REPO / "samples" / pragma, tmp_path / "pragma")
    for acc_name, pragma_name in pairs:
        assert mine[acc_name].replace(acc_name, pragma_name) == theirs[pragma_name], \
            f"{acc_name} differs from {pragma_name}"
