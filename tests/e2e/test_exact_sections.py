"""Exact sections on PoCL: data clauses and updates of sections that are not contiguous (rows
of a Fortran array, columns of a C array, a 4-D box, a single column) move exactly the named
elements, in both directions.  A copy of each section's whole span would overwrite elements
between its rows (the programs change such elements on the host, or keep different values on
the device), so the results differ from the original's unless the copies are exact; the
profile's bytes per directive equal the sections' sizes."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

HERE = Path(__file__).resolve().parent / "exact_sections"
F8 = 8

#: (directive text, bytes to the device, bytes from the device) per data directive.
EXPECTED = {
    "sections.f90": [
        ("data copy(v(1:2, :))", 2 * 5 * F8, 2 * 5 * F8),
        ("enter data copyin(v(2:3, 2:m))", 2 * 4 * F8, 0),
        ("exit data copyout(v(2:3, 2:m))", 0, 2 * 4 * F8),
        ("update host(u(1:1, :), u(:, 2:2), u(2:n-1, 4))", 0, (5 + 6 + 4) * F8),
        ("update device(u(1:1, :), u(:, 2:2))", (5 + 6) * F8, 0),
        ("update host(w(2:3, 1:2, 2:2, 1:2))", 0, 8 * F8),
        ("update device(w(2:3, 1:2, 2:2, 1:2))", 8 * F8, 0),
    ],
    "sections.c": [
        ("data copy(v[0:N][0:2])", 6 * 2 * F8, 6 * 2 * F8),
        ("enter data copyin(v[1:N-1][2:2])", 5 * 2 * F8, 0),
        ("exit data copyout(v[1:N-1][2:2])", 0, 5 * 2 * F8),
        ("update host(u[0:N][0:1], u[1:1][0:M], u[1:N-2][3:1])", 0, (6 + 5 + 4) * F8),
        ("update device(u[0:N][0:1], u[1:1][0:M])", (6 + 5) * F8, 0),
        ("update host(w[0:2][1:1][0:2][1:2])", 0, 8 * F8),
        ("update device(w[0:2][1:1][0:2][1:2])", 8 * F8, 0),
    ],
}


def directive_line(src: Path, text: str) -> int:
    for k, line in enumerate(src.read_text().splitlines(), start=1):
        if line.strip().endswith(text) and "translate" in line:
            return k
    raise AssertionError(f"no directive {text!r} in {src}")


def profile_bytes(stderr: str, src: Path) -> dict[int, tuple[int, int]]:
    """Bytes (to, from the device) of each data directive's profile row, by line."""
    out = {}
    for line in stderr.splitlines():
        m = re.search(rf"{re.escape(src.name)}:(\d+)\s+\d+\s+[\d.]+\s+(\d+)\s+(\d+)$", line)
        if m and not line.startswith(("whole", "again", "w4")):
            out[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sections_move_exactly_their_elements(name: str, tmp_path: Path) -> None:
    src = HERE / name
    expected = check_sample(src, tmp_path)
    proc = subprocess.run([str(tmp_path / "translated")], cwd=tmp_path, capture_output=True,
                          text=True, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                          "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    rows = profile_bytes(proc.stderr, src)
    for text, to_dev, from_dev in EXPECTED[name]:
        assert rows[directive_line(src, text)] == (to_dev, from_dev), (text, proc.stderr)


def test_strided_sections_get_rectangular_copies_contiguous_ones_plain_copies() -> None:
    from translator.driver import translate_text
    src = HERE / "sections.f90"
    host = translate_text(str(src), src.read_text()).outputs["sections.host.c"]
    assert 'tr_update_host_box(&_tr_site, "u", _tr_a0, _tr_first0, (size_t)_tr_size0, 2, ' \
        "_tr_box0);" in host
    # u(:, 2:2) and u(2:n-1, 4) are contiguous whatever n is: one plain copy each
    assert 'tr_update_host(&_tr_site, "u", _tr_a1,' in host
    assert 'tr_update_host(&_tr_site, "u", _tr_a2,' in host
    assert 'tr_data_enter_box(&_tr_site, "v", _tr_a0, _tr_first0, (size_t)_tr_size0, ' \
        "TR_DATA_COPY, 2, _tr_box0);" in host


BAD_SECTION = """\
#include <stdio.h>
static double u[4][5];
int main(void)
{
    int m = 6;
#pragma translate data copy(u)
#pragma translate update host(u[0:4][0:m])
#pragma translate end data
    printf("%f\\n", u[0][0]);
    return 0;
}
"""


def test_a_section_wider_than_the_array_stops_the_program(tmp_path: Path) -> None:
    src = tmp_path / "bad.c"
    src.write_text(BAD_SECTION)
    from tests.e2e.harness import build_translated, sample_options
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe)], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert proc.returncode == 1
    assert proc.stderr == (f"{src}:7: error: translate runtime: update: section of array 'u' "
                           "has 6 elements along a dimension of extent 5\n")
