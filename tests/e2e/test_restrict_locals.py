"""Restrict-qualified local pointers (h72): LULESH and Rodinia unpack a struct of arrays
into ``double *restrict x = f->x;`` before their loops.  C promises that, while the block
runs, nothing but ``x`` reaches what ``x`` points to; before, such locals counted as
pointers of unknown origin that may overlap anything, and the ``parallel for`` was refused
with "v and x are pointers that may overlap; declare them restrict" although they were.
Now they are restrict pointers: the loop runs in parallel with gcc's results, and a call
whose restrict locals do overlap is stopped by the runtime's overlap check (loud, as for
restrict parameters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 1000
typedef struct { double *x, *v; int n; } Fields;
static double X[N + 1], V[N];
static void step(Fields *f, double dt)
{
  double *restrict x = f->x;
  double *restrict v = f->v;
  int n = f->n;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    v[i] -= dt * x[i];
    x[i] += dt * v[i];
  }
}
int main(void)
{
  for (int i = 0; i < N; i++) { X[i] = i * 0.01; V[i] = 0.0; }
  Fields f = {X, V, N};
  for (int t = 0; t < 5; t++) step(&f, 0.1);
  Fields g = {X + 1, X, N - 1};    /* BREAK */
  double s = 0;
  for (int i = 0; i < N; i++) s += X[i] + V[i] * 2;
  printf("%a\\n", s);
  return 0;
}
"""


def test_restrict_locals_from_a_struct_run_in_parallel(tmp_path: Path):
    src = tmp_path / "soa.c"
    src.write_text(PROGRAM.replace("    /* BREAK */", ";\n  (void)g;"))
    check_sample(src, tmp_path)
    assert "get_group_id" in (tmp_path / "out" / "soa.cl").read_text()


def test_overlapping_restrict_locals_are_stopped_at_the_call(tmp_path: Path):
    src = tmp_path / "soa.c"
    src.write_text(PROGRAM.replace("    /* BREAK */", ";\n  step(&g, 0.1);"))
    with pytest.raises(AssertionError, match="overlap in memory"):
        check_sample(src, tmp_path)
