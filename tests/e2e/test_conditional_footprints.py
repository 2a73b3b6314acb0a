"""The elements a region moves for a pointer without extent leave out the reads of ``?:``
branches that the condition rules out (h72).  Rodinia's hotspot reads its neighbours as
``r == rows - 1 ? ctr : in[(r + 1)*cols + c]``: the footprint of ``in`` took row ``rows`` as
read, so the runtime copied one row past the array (reading the host memory after it) and, with
``out`` right behind ``in``, stopped every call ("array arguments 'in' ... and 'out' ...
overlap in memory").  Now the branch's condition bounds the footprint: the call runs, with
gcc's results."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define R 40
#define C 24
static float t[2 * R * C], pw[R * C];
static void step(int rows, int cols, const float *restrict in, float *restrict out,
                 const float *restrict p)
{
#pragma omp parallel for collapse(2)
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      float ctr = in[r * cols + c];
      float n = r == 0 ? ctr : in[(r - 1) * cols + c];
      float s = r == rows - 1 ? ctr : in[(r + 1) * cols + c];
      float w = c > 0 ? in[r * cols + c - 1] : ctr;
      float e = c < cols - 1 ? in[r * cols + c + 1] : ctr;
      out[r * cols + c] = ctr + 0.05f * (p[r * cols + c] + (n + s - 2.0 * ctr) * 0.5
                                         + (e + w - 2.0f * ctr) / 3);
    }
}
int main(void)
{
  for (int i = 0; i < R * C; i++) { t[i] = 60.0f + (i % 17) * 0.5f; pw[i] = (i % 5) * 0.01f; }
  for (int it = 0; it < 10; it++) {
    step(R, C, t, t + R * C, pw);
    step(R, C, t + R * C, t, pw);
  }
  double s = 0;
  for (int i = 0; i < R * C; i++) s += t[i] * (i % 7);
  printf("%a\\n", s);
  return 0;
}
"""


def test_ternary_neighbours_move_only_the_array(tmp_path: Path):
    src = tmp_path / "hotspot.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
