"""Integer locals that name an element, ``int k = i*cols + j; D[k] = ...`` and Rodinia nw's
``int r = idx + 1, c = d - idx + 1; int index = r*N + c;`` (h56 differential hunt): each was a
private temporary, so ``D[k]`` was not affine and a ``#pragma omp parallel for`` over such a
loop was refused ("may race (a subscript is not affine ...)", exit 1).  Now an integer local set
once, at its declaration, from loop variables and values that do not change while it lives is
that value: ``D[k]`` is ``D[i*cols + j]``, the loops map in parallel and the program gives the
original's output.  Locals that do not qualify stay temporaries with their C meaning: one
assigned again, one whose value reads a variable assigned later in its block (``int k = m + 1;
m = 5;``), one reading a global that a called function changes, one whose value calls a
function (``int w = next(i) + x[i];``: built once; a first version built it twice, running
``next`` twice); narrow types wrap (``unsigned char c = i * 37``)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define R 40
#define C 24
#define N 33
static float J[R * C], D[R * C];
static int score[N * N];
static int x[200], gofs = 3;
static void bump(void) { gofs += 2; }
static int next(int v) { gofs += 1; return v + gofs; }

static void rows(int rows, int cols)
{
#pragma omp parallel for
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      int k = i * cols + j;
      long w = (long)i * cols + (j + 1 < cols ? j + 1 : j);
      D[k] = J[w] - J[k];
    }
}

static void diagonals(void)
{
  for (int d = 0; d < N - 1; d++) {
#pragma omp parallel for
    for (int idx = 0; idx <= d; idx++) {
      int r = idx + 1, c = d - idx + 1;
      int index = r * N + c;
      int up = index - N;
      score[index] = score[up - 1] + (score[index - 1] > score[up] ? score[index - 1] : score[up]) % 97;
    }
  }
}

static void tricky(int n)
{
#pragma translate kernel tricky_k
  for (int i = 0; i < n; i++) {
    int m = i * 2;
    int k = m + 1;
    m = 5;
    int u = k * 3 + m;
    unsigned char c = i * 37;
    short s = i * 1000;
    int g = gofs + i;
    bump();
    int h = g + gofs;
    int w = next(i) + x[i];
    x[i] = k + u + c + s + g + h + w;
  }
#pragma translate end kernel
}

int main(void)
{
  for (int k = 0; k < R * C; k++) J[k] = (float)((k * 37) % 101) / 7.0f;
  for (int i = 0; i < N; i++) { score[i * N] = -i; score[i] = -2 * i; }
  rows(R, C);
  diagonals();
  tricky(200);
  double s = 0;
  long t = 0;
  for (int k = 0; k < R * C; k++) s += D[k] * (k % 5 + 1);
  for (int k = 0; k < N * N; k++) t += (long)score[k] * (k % 7 + 1);
  for (int k = 0; k < 200; k++) t += (long)x[k] * (k + 1);
  printf("%.9g %ld %d %d\\n", s, t, x[199], gofs);
  return 0;
}
"""


def test_index_locals_map_in_parallel_and_match(tmp_path: Path):
    src = tmp_path / "idx_locals.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    out = tmp_path / "out"
    assert "#pragma omp parallel for" not in (out / "idx_locals.c").read_text()
    kernels = (out / "idx_locals.cl").read_text()
    assert "int index" not in kernels and "get_group_id" in kernels
    tricky = kernels[kernels.index("tricky_k("):]
    assert "k = m + 1;" in tricky and "h = g + gofs[0];" in tricky   # temporaries kept


THROUGH_POINTER = """\
#include <stdio.h>
static int b[16];
int main(void)
{
  int n = 3;
#pragma translate kernel k
  for (int i = 0; i < 16; i++) {
    int *pn = &n;
    {
      int k = n + i;
      *pn = i;
      b[i] = k * 10 + n;
    }
  }
#pragma translate end kernel
  printf("%d %d %d\\n", b[0], b[15], n);
  return 0;
}
"""


def test_index_local_reading_a_variable_written_through_a_pointer(tmp_path: Path):
    """``int *pn = &n;`` (a local pointer at a scalar, allowed since h56) writes ``n`` in the
    block where ``int k = n + i`` lives: ``k`` stays a temporary holding the value at its
    declaration."""
    src = tmp_path / "through.c"
    src.write_text(THROUGH_POINTER)
    assert check_sample(src, tmp_path) == "30 305 15\n"
