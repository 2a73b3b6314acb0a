"""Atomic updates that h80 left as written (h86): bitwise ``|= &= ^=`` of 32- and 64-bit C
integers (``atomic_or``/``atomic_and``/``atomic_xor``, a compare-and-swap loop for 64 bits),
Fortran ``ior``/``iand``/``ieor``, and OpenMP 5.1 ``atomic compare`` for an integer maximum
(``if (v > m[k]) m[k] = v;``) and minimum (``lo[b] = v < lo[b] ? v : lo[b];``).  Each program
prints what the original prints on the CPU OpenCL device; a float ``atomic compare`` keeps its
loop sequential (the device's fmax differs from the comparison where a NaN is compared)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.e2e.harness import REPO, TRANSLATE, check_sample

PROGRAMS = Path(__file__).parent / "atomic_forms"


def _helpers(cl: Path) -> set[str]:
    return set(re.findall(r"_tr_atomic_[a-z]+_[a-z0-9]+(?=\()", cl.read_text()))


def test_bitwise_and_compare_updates_match(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    check_sample(PROGRAMS / "atomic_forms.c", tmp_path, (f"--report={report}",))
    assert _helpers(tmp_path / "out" / "atomic_forms.cl") >= {
        "_tr_atomic_bitor_uint32", "_tr_atomic_bitxor_int64", "_tr_atomic_bitand_int32",
        "_tr_atomic_max_int32", "_tr_atomic_min_int64"}
    rewritten = (tmp_path / "out" / "atomic_forms.c").read_text()
    assert rewritten.count("#pragma omp atomic") == 0, rewritten
    text = report.read_text()
    assert text.count("proven: loops i parallel") == 2, text


def test_float_compare_keeps_its_loop_sequential(tmp_path: Path) -> None:
    src = PROGRAMS / "atomic_forms.c"
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"),
                           "--directives=openmp"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert ("atomic_forms.c:45:13: warning: '#pragma omp parallel for': the update under "
            "'atomic' at line 48 has no atomic form on the device: the conditional maximum or "
            "minimum of 'fbest' is of floating-point data, where the device's fmax/fmin differ "
            "from the comparison (a NaN on either side): only integers are compared and set "
            "atomically; the loop keeps its sequential meaning [-Wdirective-sequential]"
            ) in proc.stderr, proc.stderr


def test_fortran_bitwise_intrinsics_match(tmp_path: Path) -> None:
    check_sample(PROGRAMS / "atomic_bits.f90", tmp_path, ("-Werror=directive-untranslated",))
    assert _helpers(tmp_path / "out" / "atomic_bits.cl") == {
        "_tr_atomic_bitor_int32", "_tr_atomic_bitand_int32", "_tr_atomic_bitxor_int32"}
