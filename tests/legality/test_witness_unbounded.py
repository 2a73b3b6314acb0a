"""A witness whose lexicographic minimum does not exist (the loop's bounds come from values the
region reads, unbounded below): the refusal is still an error at the statement, never exit 2.
Found by the CLI fuzzer (a mutant of samples/c/chained_assign.c)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SOURCE = """\
void filter(int rows, int cols, double gain, double x[rows][cols], double y[rows][cols])
{
    #pragma translate kernel filter
    #pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < rows; i++) {
        double y1, acc;
            acc += y1;
        y1 = acc = 0.0;
        for (int j = 0; j < cols; j++) {
            y1 = 0.75 * y1 + gain * x[i][j];
            y[i][j] = y1;
        }
    }
    #pragma translate end kernel
}
"""


def test_read_before_write_of_private_scalar_is_located_error(tmp_path: Path) -> None:
    src = tmp_path / "filter.c"
    src.write_text(SOURCE)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:7:13: error: mapping i_inner to l.0 makes acc private" in proc.stderr
    assert "reads acc before the region writes it" in proc.stderr
