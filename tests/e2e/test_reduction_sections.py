"""OpenMP reductions over array sections, as histogram codes write them (h56 differential
hunt): ``reduction(+:hist[:NB])`` in C, ``reduction(+: h(1:8))`` in Fortran.  The clause was
split at its last colon, the one inside the section, so `translate` stopped with a wrong
message ("reduction operator '+:hist[' on 'parallel for' is not supported").  Now the operator
ends at the first colon and a section reduces its array: a reduction the translator has no
parallel form for, so a ``directive-sequential`` warning and the loop keeps its sequential
meaning; the program gives the original's output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

C_PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 1000
#define NB 16
static int hist[NB], key[N];
static double w[N], tot[NB];
int main(void)
{
  for (int i = 0; i < N; i++) { key[i] = (i * 11) % NB; w[i] = i * 0.5; }
#pragma omp parallel for reduction(+:hist[:NB]) reduction(+: tot[0:NB])
  for (int i = 0; i < N; i++) { hist[key[i]] += 1; tot[key[i]] += w[i]; }
  printf("%d %d %.17g\\n", hist[0], hist[NB - 1], tot[3]);
  return 0;
}
"""

FORTRAN_PROGRAM = """\
! translate-test: translate=--directives=openmp
program sections
  integer :: h(8), key(500), i
  h = 0
  do i = 1, 500
    key(i) = mod(i * 5, 8) + 1
  end do
  !$omp parallel do reduction(+: h(1:8))
  do i = 1, 500
    h(key(i)) = h(key(i)) + 2
  end do
  !$omp end parallel do
  print *, h(1), h(8)
end program
"""


@pytest.mark.parametrize("name, text, line", [("hist.c", C_PROGRAM, "10:13"),
                                              ("hist.f90", FORTRAN_PROGRAM, "8:3")])
def test_section_reductions_keep_the_sequential_meaning(tmp_path: Path, name: str, text: str,
                                                        line: str):
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "again"), "--directives=openmp"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    array = "hist" if name.endswith(".c") else "h"
    assert (f"{src}:{line}: warning: " in proc.stderr and f"reduction over the array {array!r}: "
            "the translator reduces scalars only; the loop keeps its sequential meaning "
            "[-Wdirective-sequential]" in proc.stderr), proc.stderr
