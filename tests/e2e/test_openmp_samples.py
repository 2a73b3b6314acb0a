"""The repo's samples rewritten with OpenMP directives (``samples/openmp``) give the same
kernels as their pragma versions (issue 22): the directive version against the pragma version
with its mapping pragmas removed (a directive leaves the mapping to the automatic mapper), the
region names and source lines aside.  That they also run and match the original programs is
`tests/e2e/test_samples.py`'s job (it runs every ``samples/*/*``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import REPO
from translator.driver import translate_text

PAIRS = [(f"openmp/{stem}{ext}", f"{lang}/{stem}{ext}")
         for stem in ("saxpy", "jacobi2d", "data_timeloop")
         for lang, ext in (("fortran", ".f90"), ("c", ".c"))]

_MAPPING = re.compile(r"^\s*(!\$translate|#pragma translate) \w+\(.*\n", re.MULTILINE)


def kernels(path: Path, text: str, options: dict) -> str:
    """The device code, each region's name replaced by its index, line markers dropped."""
    result = translate_text(str(path), text, options)
    code = result.outputs[f"{path.stem}.cl"]
    for k, (region, _, _) in enumerate(result.regions):
        code = re.sub(rf"\b{region.name}\b", f"region{k}", code)
    return "\n".join(line for line in code.splitlines()
                     if not line.startswith(("#line", "/*", " *", "// translate generation stamp")))


@pytest.mark.parametrize("openmp,pragmas", PAIRS)
def test_openmp_sample_gives_the_pragma_sample_kernels(openmp: str, pragmas: str) -> None:
    omp_path, pragma_path = REPO / "samples" / openmp, REPO / "samples" / pragmas
    omp = kernels(omp_path, omp_path.read_text(), {"directives": ("openmp",)})
    unmapped = _MAPPING.sub("", pragma_path.read_text())
    assert unmapped != pragma_path.read_text() or "data_timeloop" in pragmas
    reference = kernels(pragma_path, unmapped, {})
    assert "__kernel" in omp
    assert omp == reference
