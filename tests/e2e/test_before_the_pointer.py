"""A region that reads the element before the one a pointer points to (h64's GPU hunt):
``f(n, a + 1)`` with ``y[i - 1]`` at ``i = 0`` is legal C (it reads ``a[0]``), but the region
moves the pointer's elements from the one it points to on, so the kernel read the memory before
its buffer: exit 0 and other numbers, on PoCL as on the GPU (``bench/h64_hunt/ptr_before.c``).
Such a region is now refused at the access with what to write; the same loop over a pointer
to the first element it uses matches the original."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
#include <stdio.h>
static void f(int n, double *restrict y)
{
#pragma translate kernel f
    for (int i = 0; i < n; i++)
        y[n + i] = y[i - 1] * 0.5;
#pragma translate end kernel
}
static void g(int n, double *restrict y)
{
#pragma translate kernel g
    for (int i = 0; i < n; i++)
        y[n + 1 + i] = y[i] * 0.5;
#pragma translate end kernel
}
int main(void)
{
    static double a[2001];
    for (int i = 0; i < 2001; i++) a[i] = i + 1;
    CALL;
    double s = 0;
    for (int i = 0; i < 2001; i++) s += a[i] * (i % 7 + 1);
    printf("%.17g %.17g\\n", s, a[1001]);
    return 0;
}
"""


def test_reading_before_the_pointer_is_refused_at_the_access(tmp_path: Path) -> None:
    src = tmp_path / "before.c"
    src.write_text(PROGRAM.replace("CALL", "f(1000, a + 1)"))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:6:9: error: y[i - 1] reaches index -1 at i=0 when n=1: the loop reads "
            "before the first element of 'y', which has no declared extent: the translator "
            "moves a pointer's elements from the one it points to on; pass a pointer to the "
            "first element the loop uses") in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_pointer_to_the_first_element_used_matches(tmp_path: Path) -> None:
    src = tmp_path / "first.c"
    src.write_text(PROGRAM.replace("CALL", "g(1000, a)")
                   .replace("#pragma translate kernel f", "")
                   .replace("#pragma translate end kernel\n}\nstatic void g",
                            "}\nstatic void g", 1))
    check_sample(src, tmp_path)
