"""Fortran as written, fourth round (h93), besides gathers (`test_fortran_gathers.py`): array
constructors with implied DOs in regions, and the packing of an array of derived type that is
not allocated."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.harness import build_translated, check_sample, sample_options

PROGRAMS = Path(__file__).parent / "fourth_round"


def test_implied_do_constructors_translate_and_match(tmp_path: Path) -> None:
    """``sum([(x(i + j) * w, j = -m, m)])`` is a loop over j (m is not a constant);
    ``(/ (i * 2 + j, j = 1, 4) /)`` and a maxval over two implied DOs and a value are the
    elements at the section's positions."""
    check_sample(PROGRAMS / "implied.f90", tmp_path, ("-Werror=directive-untranslated",))
    cl = (tmp_path / "out" / "implied.cl").read_text()
    assert "<= 2 * m; ++_tr_i)" in cl
    assert "_tr_i_1 == 3 ? 0.5 : " in cl


def test_an_unallocated_array_of_derived_type_stops_the_packing(tmp_path: Path) -> None:
    src = PROGRAMS / "unalloc.f90"
    exe = build_translated(src, tmp_path, sample_options(src))
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.startswith("ERROR STOP translate: sp is not allocated, which region "
                                  "push_0 packs into one array"), done.stderr
