"""Issue 23 item 3: a floating-point sum that the automatic mapping keeps on one work item
(exact by default) gets a warning with the one line that makes it parallel, and `--report`
states the speed-up that line is expected to give -- for a region that is one kernel and for
one kernel of a host program, in C and Fortran."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

C_DOT = """double dot(int n, const double *restrict x, const double *restrict y)
{
  double s = 0.0;
#pragma translate kernel dot_k
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
#pragma translate end kernel
  return s;
}
"""

# a parallel nest, then the sum of its results: two kernels, the second kept sequential
F_NORM = """subroutine norm(n, x, y, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n), s
  integer :: i
  !$translate kernel norm_k
  do i = 1, n
     y(i) = 2d0 * x(i)
  end do
  s = 0d0
  do i = 1, n
     s = s + y(i) * y(i)
  end do
  !$translate end kernel
end subroutine norm
"""

SPEEDUP = ("expected speed-up with reassociation: 21x at 10^3, 3400x at 10^6, 4071x at 2^25 "
           "iterations of the loop (a model: thousands of work items at once against one; "
           "measured on an H100, a dot of 2^25 doubles ran 6300x faster)")


def _translate(tmp: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    src = tmp / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp / "out"), "--report=-", *flags],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name, text, where, line, indent", [
    ("dot.c", C_DOT, "dot.c:4:19", "`#pragma translate set_options(reassociate=True)`", "  "),
    ("norm.f90", F_NORM, "norm.f90:6:3", "`!$translate set_options(reassociate=True)`", "      "),
])
def test_sequential_sum_says_which_line_and_how_much_faster(
        tmp_path: Path, name: str, text: str, where: str, line: str, indent: str) -> None:
    proc = _translate(tmp_path, name, text)
    assert proc.returncode == 0, proc.stderr
    warning = next(row for row in proc.stderr.splitlines() if ": warning: " in row)
    assert warning.startswith(f"{tmp_path / where}: warning: ")
    assert f"add the line {line} after the kernel directive" in warning
    assert warning.endswith("[-Wsequential-region]")
    report = proc.stdout
    assert f"\n{indent}{SPEEDUP}\n" in report, report


def test_no_speedup_line_once_the_sum_is_parallel(tmp_path: Path) -> None:
    text = C_DOT.replace("#pragma translate kernel dot_k\n", "#pragma translate kernel dot_k\n"
                         "#pragma translate set_options(reassociate=True)\n")
    proc = _translate(tmp_path, "dot.c", text)
    assert proc.returncode == 0, proc.stderr
    assert "expected speed-up" not in proc.stdout + proc.stderr
    assert "runs as a single work item" not in proc.stderr
