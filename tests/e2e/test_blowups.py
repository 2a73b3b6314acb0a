"""Programs of the sizes that blew the translator up (issue 28, items 8-10), translated and
run on the CPU OpenCL device against the original program: 25 statements on one pointer
(C) or assumed-size array (Fortran), sums and products of 300 terms, 60 nested parentheses.
The kernels keep the source's left-to-right order of operations (FP_CONTRACT OFF), so the
results match to the last bit but for the compilers' libraries (rtol 1e-15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.shapes import shape
from tests.e2e.harness import check_sample


@pytest.mark.parametrize("lang", ["c", "fortran"])
@pytest.mark.parametrize("kind,size", [("statements", 25), ("sum", 300), ("product", 300),
                                       ("parens", 60)])
def test_large_shapes_match_the_original(tmp_path: Path, lang: str, kind: str, size: int):
    name, text = shape(kind, lang, size, header="translate-test: rtol=1e-15")
    src = tmp_path / name
    src.write_text(text)
    expected = check_sample(src, tmp_path)
    assert len(expected.split()) >= 5
