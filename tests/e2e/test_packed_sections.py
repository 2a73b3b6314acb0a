"""Sections of many narrow rows packed on the device (TRANSLATE_PACK_ROWS) on PoCL: a gather
kernel and one plain read, or one plain write and a scatter kernel, instead of rectangular
copies.  The programs (columns of C arrays, rows of Fortran arrays, of 8-, 4-, 2- (C) and 1-byte
elements, 3-D slices, data clauses, updates both ways, async queues) change elements between
the rows of each section on the host, so a copy that is not exact, or a read scattered before
the data came (async), shows in their output; the profile counts each section's bytes once
and says how many copies were packed."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from tests.e2e.test_exact_sections import EXPECTED as EXACT_EXPECTED
from tests.e2e.test_exact_sections import HERE as EXACT_HERE
from tests.e2e.test_exact_sections import directive_line, profile_bytes

HERE = Path(__file__).resolve().parent / "packed_sections"
F8, F4 = 8, 4

#: (directive text, bytes to the device, bytes from the device) per data directive.
EXPECTED = {
    "packed.c": [
        ("data copy(c[0:N][3:2], b[0:N][2:3], s[0:N][1:3])", 67 * (2 + 3 * F4 + 3 * 2),
         67 * (2 + 3 * F4 + 3 * 2)),
        ("update host(c[1:N-2][4:1], b[1:N-2][3:1], s[1:N-2][2:2])", 0, 65 * (1 + F4 + 2 * 2)),
        ("update device(c[1:N-2][4:1], b[1:N-2][3:1], s[1:N-2][2:2])", 65 * (1 + F4 + 2 * 2), 0),
        ("enter data copyin(c[0:N][11:1])", 67, 0),
        ("exit data copyout(c[0:N][11:1])", 0, 67),
        ("update host(a[0:N][0:1], a[0:N][M-1:1], a[1:N-3][4:3])", 0, (2 * 67 + 64 * 3) * F8),
        ("update device(a[0:N][0:1], a[0:N][M-1:1])", 2 * 67 * F8, 0),
        ("update host(a[0:N][1:1], a[2:N-5][7:2]) async(1)", 0, (67 + 62 * 2) * F8),
        ("update device(a[0:N][1:1]) async(2)", 67 * F8, 0),
        ("update host(w[0:5][1:4][2:2])", 0, 5 * 4 * 2 * F8),
        ("update device(w[0:5][1:4][2:2])", 5 * 4 * 2 * F8, 0),
    ],
    "packed.f90": [
        ("data copy(r(2:4, :), b(5:6, :))", 71 * (3 * F4 + 2), 71 * (3 * F4 + 2)),
        ("update host(r(3:3, 2:m-1), b(6:6, 3:m-2))", 0, 69 * F4 + 67),
        ("update device(r(3:3, 2:m-1), b(6:6, 3:m-2))", 69 * F4 + 67, 0),
        ("enter data copyin(b(n:n, :))", 71, 0),
        ("exit data copyout(b(n:n, :))", 0, 71),
        ("update host(u(1:1, :), u(n:n, :), u(4:6, 2:m-3))", 0, (2 * 71 + 3 * 67) * F8),
        ("update device(u(1:1, :), u(n:n, :))", 2 * 71 * F8, 0),
        ("update host(u(2:2, :), u(7:8, 3:m-2)) async(1)", 0, (71 + 2 * 67) * F8),
        ("update device(u(2:2, :)) async(2)", 71 * F8, 0),
        ("update host(w(3:4, 2:5, :))", 0, 2 * 4 * 5 * F8),
        ("update device(w(3:4, 2:5, :))", 2 * 4 * 5 * F8, 0),
    ],
}

#: Copies packed with the default thresholds (at least 64 rows of fewer than 64 bytes): all but
#: the 3-D slices' (20 rows) and, in packed.c, a[2:N-5][7:2]'s (62 rows).
DEFAULT_PACKED = {"packed.c": 21, "packed.f90": 18}

#: A threshold that packs the data clauses' copies (67, 71 rows) but not the updates of fewer
#: rows inside those data regions (65; 69 and 67 rows), and the copies it packs: a packed copy
#: that puts rows in the wrong places shows against the rectangular copies.
MIXED = {"packed.c": ("66", 14), "packed.f90": ("70", 12)}

NOTE = re.compile(r"^note: (\d+) copies of sections of narrow rows \((\d+) bytes\) were packed "
                  r"on the device \(TRANSLATE_PACK_ROWS\)$", re.MULTILINE)


def run_translated(work: Path, **env: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(work / "translated")], cwd=work, capture_output=True, text=True,
                          check=False, env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1",
                               **env})
    assert proc.returncode == 0, proc.stderr
    return proc


def section_bytes(name: str) -> int:
    return sum(to + back for _, to, back in EXPECTED[name])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_packed_sections_match_the_original_and_count_their_bytes_once(
        name: str, tmp_path: Path) -> None:
    src = HERE / name
    expected = check_sample(src, tmp_path)
    proc = run_translated(tmp_path, TRANSLATE_PACK_ROWS="all")
    assert proc.stdout == expected
    rows = profile_bytes(proc.stderr, src)
    for text, to_dev, from_dev in EXPECTED[name]:
        assert rows[directive_line(src, text)] == (to_dev, from_dev), (text, proc.stderr)
    note = NOTE.search(proc.stderr)
    assert note is not None, proc.stderr
    # every section copy of the program is packed: its bytes are the directives' bytes
    assert int(note.group(2)) == section_bytes(name)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_default_thresholds_pack_many_narrow_rows_and_off_packs_none(
        name: str, tmp_path: Path) -> None:
    src = HERE / name
    expected = check_sample(src, tmp_path)
    default = run_translated(tmp_path)
    assert default.stdout == expected
    note = NOTE.search(default.stderr)
    assert note is not None and int(note.group(1)) == DEFAULT_PACKED[name], default.stderr
    off = run_translated(tmp_path, TRANSLATE_PACK_ROWS="off")
    assert off.stdout == expected
    assert NOTE.search(off.stderr) is None
    # ROWS:BYTES: rows of 1 byte only (a 1-byte column or row: enter and exit data, update
    # host and device)
    narrow = run_translated(tmp_path, TRANSLATE_PACK_ROWS="1:2")
    assert narrow.stdout == expected
    note = NOTE.search(narrow.stderr)
    assert note is not None and int(note.group(1)) == 4, narrow.stderr


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_packed_and_rectangular_copies_of_one_array_agree(name: str, tmp_path: Path) -> None:
    src = HERE / name
    expected = check_sample(src, tmp_path)
    rows, count = MIXED[name]
    proc = run_translated(tmp_path, TRANSLATE_PACK_ROWS=rows)
    assert proc.stdout == expected
    note = NOTE.search(proc.stderr)
    assert note is not None and int(note.group(1)) == count, proc.stderr


@pytest.mark.parametrize("name", sorted(EXACT_EXPECTED))
def test_exact_sections_packed(name: str, tmp_path: Path) -> None:
    """The exact-section programs (a 4-D box: several 3-D copies) packed, with the same bytes."""
    src = EXACT_HERE / name
    expected = check_sample(src, tmp_path)
    proc = run_translated(tmp_path, TRANSLATE_PACK_ROWS="all")
    assert proc.stdout == expected
    assert NOTE.search(proc.stderr) is not None, proc.stderr
    rows = profile_bytes(proc.stderr, src)
    for text, to_dev, from_dev in EXACT_EXPECTED[name]:
        assert rows[directive_line(src, text)] == (to_dev, from_dev), (text, proc.stderr)
