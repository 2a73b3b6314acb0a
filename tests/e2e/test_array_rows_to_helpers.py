"""Rows of two-dimensional arrays given to helper functions, as kmeans-like C code writes it
(h56 differential hunt): ``nearest(feature[i], clusters, NC, NF)`` where ``nearest(const
float *pt, float (*cs)[NF], ...)`` calls ``dist(pt, cs[c], nf)``.  Two defects stopped the
loop, left as written with a wrong reason: the file skimmer read a function's name with a
pattern that fails on parentheses in its parameters (``float (*cs)[NF]``), so it blanked
``nearest``'s body and the region said "call to function 'nearest' cannot be translated: only
math.h functions, functions this file defines ..." of a function the file defines; and a row
``feature[i]`` was no pointer argument the inliner knew.  Now the signature is read by its
last parenthesised group, a row ``x[i]`` (``x[i][j]`` of a three-dimensional array) is a view
of the array, an array parameter whose extents after the first are the actual's constants is
that array; the loops map in parallel and give the original's output."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <float.h>
#define NP 300
#define NF 5
#define NC 4
static float feature[NP][NF], clusters[NC][NF], cube[3][NP][NF];
static int member[NP];
static float score[NP];

static inline float dist(const float *pt, const float *ct, int nf)
{
  float ans = 0.0f;
  for (int k = 0; k < nf; k++) ans += (pt[k] - ct[k]) * (pt[k] - ct[k]);
  return ans;
}

static inline int nearest(const float *pt, float (*cs)[NF], int nc, int nf)
{
  int best = 0;
  float bd = FLT_MAX;
  for (int c = 0; c < nc; c++) {
    float d = dist(pt, cs[c], nf);
    if (d < bd) { bd = d; best = c; }
  }
  return best;
}

int main(void)
{
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NF; j++) {
      feature[i][j] = (float)((i * 7 + j * 3) % 23) * 0.25f;
      cube[i % 3][i][j] = (float)(i - j);
    }
  for (int c = 0; c < NC; c++)
    for (int j = 0; j < NF; j++) clusters[c][j] = feature[c * 37][j];
#pragma omp parallel for
  for (int i = 0; i < NP; i++) member[i] = nearest(feature[i], clusters, NC, NF);
#pragma omp parallel for
  for (int i = 0; i < NP - 1; i++)
    score[i] = dist(feature[i], feature[i + 1], NF) + dist(cube[1][i], clusters[i % NC], NF);
  long s = 0;
  double t = 0;
  for (int i = 0; i < NP; i++) { s += member[i] * (i % 9 + 1); t += score[i] * (i % 4); }
  printf("%ld %d %.9g %.9g\\n", s, member[NP - 1], t, score[7]);
  return 0;
}
"""


def test_rows_and_row_arrays_passed_to_helpers_map_and_match(tmp_path: Path):
    src = tmp_path / "rows.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    out = tmp_path / "out"
    assert "#pragma omp parallel for" not in (out / "rows.c").read_text()
    assert (out / "rows.cl").read_text().count("get_group_id") >= 2


ROW_BY_CALL = """\
#include <stdio.h>
static int g = 0;
static double m[40][4], out[16];
static int pick(int i) { g = g + 1; return (i + g) % 40; }
static double first(const double *r) { return r[0] + r[3]; }
int main(void)
{
  for (int i = 0; i < 40; i++) for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j;
#pragma translate kernel k
  for (int i = 0; i < 16; i++) out[i] = first(m[pick(i)]);
#pragma translate end kernel
  printf("%.17g %.17g %d\\n", out[0], out[15], g);
  return 0;
}
"""


def test_a_row_chosen_by_a_call_calls_it_once(tmp_path: Path):
    """``first(m[pick(i)])``: the row's subscript is built once (a first version built it
    twice, so ``pick`` ran twice: "43 143 32" for "23 623 16")."""
    src = tmp_path / "rowcall.c"
    src.write_text(ROW_BY_CALL)
    assert check_sample(src, tmp_path) == "23 623 16\n"
