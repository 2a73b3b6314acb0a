"""Automatic mapping of 3-D nests (issue 13): the stride-one loop on l.0 (32), the loop with the
next smallest stride on l.1 (8), the next whole on group axis 2; the programs still match the
original on PoCL."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from frontends.c import FRONTEND
from tests.e2e.harness import check_sample
from translator.analysis.access import statement_accesses
from translator.analysis.coalescing import coalescing_key, coalescing_scores
from translator.driver import translate_text

C_VLA = """
#include <stdio.h>
static void s3d(int n, const double a[n][n][n], double b[n][n][n])
{
#pragma translate kernel s3d
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        b[i][j][k] = 0.125 * (a[i - 1][j][k] + a[i + 1][j][k] + a[i][j - 1][k]
                              + a[i][j + 1][k] + a[i][j][k - 1] + a[i][j][k + 1])
                     + 0.25 * a[i][j][k];
#pragma translate end kernel
}
"""

C_LINEARISED = """
#include <stdio.h>
static void s3d(int n, const double *restrict a, double *restrict b)
{
#pragma translate kernel s3d
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        b[(i*n + j)*n + k] = 0.125 * (a[((i-1)*n + j)*n + k] + a[((i+1)*n + j)*n + k]
                                      + a[(i*n + j - 1)*n + k] + a[(i*n + j + 1)*n + k]
                                      + a[(i*n + j)*n + k - 1] + a[(i*n + j)*n + k + 1])
                             + 0.25 * a[(i*n + j)*n + k];
#pragma translate end kernel
}
"""

C_MAIN = """
int main(void)
{
  enum { N = 21 };
  static double a[N * N * N], b[N * N * N];
  for (int q = 0; q < N * N * N; q++) { a[q] = (q % 17) * 0.25; b[q] = -1.0; }
  s3d(N, (void *)a, (void *)b);
  double s = 0.0;
  for (int q = 0; q < N * N * N; q++) s += b[q] * (q % 7 + 1);
  printf("%.17g %.17g %.17g\\n", s, b[N * N + N + 1], b[N * N * N - N * N - N - 2]);
  return 0;
}
"""

# Fortran column-major: i (the first subscript) has stride one although it is the outer loop
F_3D = """
subroutine s3d(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n, n)
  real(8), intent(inout) :: b(n, n, n)
  integer :: i, j, k
  !$translate kernel s3d
  do i = 2, n - 1
     do j = 2, n - 1
        do k = 2, n - 1
           b(i, j, k) = 0.125d0 * (a(i-1, j, k) + a(i+1, j, k) + a(i, j-1, k) &
                                   + a(i, j+1, k) + a(i, j, k-1) + a(i, j, k+1)) &
                        + 0.25d0 * a(i, j, k)
        end do
     end do
  end do
  !$translate end kernel
end subroutine s3d

program main
  implicit none
  integer, parameter :: n = 19
  real(8) :: a(n, n, n), b(n, n, n)
  integer :: i, j, k
  do k = 1, n
     do j = 1, n
        do i = 1, n
           a(i, j, k) = mod(i + 3*j + 7*k, 17) * 0.25d0
        end do
     end do
  end do
  b = -1.0d0
  call s3d(n, a, b)
  print '(3(1x, es23.15e3))', sum(b), b(2, 3, 4), b(n-1, n-2, n-1)
end program main
"""

# heat-3d: a time loop around two 3-D nests (the time loop stays on the host)
C_HEAT = """
#include <stdio.h>
static void heat3d(int n, int steps, double a[n][n][n], double b[n][n][n])
{
#pragma translate kernel heat3d
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          b[i][j][k] = 0.125 * (a[i + 1][j][k] - 2.0 * a[i][j][k] + a[i - 1][j][k])
                       + 0.125 * (a[i][j + 1][k] - 2.0 * a[i][j][k] + a[i][j - 1][k])
                       + 0.125 * (a[i][j][k + 1] - 2.0 * a[i][j][k] + a[i][j][k - 1])
                       + a[i][j][k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          a[i][j][k] = 0.125 * (b[i + 1][j][k] - 2.0 * b[i][j][k] + b[i - 1][j][k])
                       + 0.125 * (b[i][j + 1][k] - 2.0 * b[i][j][k] + b[i][j - 1][k])
                       + 0.125 * (b[i][j][k + 1] - 2.0 * b[i][j][k] + b[i][j][k - 1])
                       + b[i][j][k];
  }
#pragma translate end kernel
}

int main(void)
{
  enum { N = 18 };
  static double a[N][N][N], b[N][N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) { a[i][j][k] = (i * 5 + j * 3 + k) % 11; b[i][j][k] = 0.0; }
  heat3d(N, 4, a, b);
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) s += a[i][j][k] * (k + 1) + b[i][j][k];
  printf("%.17g %.17g\\n", s, a[3][4][5]);
  return 0;
}
"""

# a 3-D nest and a 2-D nest in one kernel: group axis 2 would repeat the 2-D nest's work, so
# the 3-D nest uses the two local axes and runs i sequentially in each work item
C_MIXED = """
#include <stdio.h>
static void mixed(int n, const double a[n][n][n], double b[n][n][n], double c[n][n])
{
#pragma translate kernel mixed
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        b[i][j][k] = 2.0 * a[i][j][k] + k;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c[i][j] = a[i][j][0] + 1.0;
#pragma translate end kernel
}

int main(void)
{
  enum { N = 13 };
  static double a[N][N][N], b[N][N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) a[i][j][k] = (i * 7 + j * 3 + k) % 13;
  mixed(N, a, b, c);
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s += c[i][j] * (i + 1);
      for (int k = 0; k < N; k++) s += b[i][j][k] * (j + 2);
    }
  printf("%.17g\\n", s);
  return 0;
}
"""

# the stride-one loop has 3 iterations: it would leave 29 of 32 lanes of l.0 idle
C_CHANNELS = """
#include <stdio.h>
static void rgb(int h, int w, const float a[h][w][3], float b[h][w][3])
{
#pragma translate kernel rgb
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 3; c++)
        b[y][x][c] = 0.5f * a[y][x][c] + c;
#pragma translate end kernel
}

int main(void)
{
  enum { H = 11, W = 37 };
  static float a[H][W][3], b[H][W][3];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 3; c++) a[y][x][c] = (float)((y * 5 + x * 3 + c) % 9);
  rgb(H, W, a, b);
  double s = 0.0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 3; c++) s += b[y][x][c] * (x + c + 1);
  printf("%.9g\\n", s);
  return 0;
}
"""


def split(iname: str, size: int, axis: int) -> str:
    return f'split_iname("{iname}", {size}, outer_tag="g.{axis}", inner_tag="l.{axis}")'


def mapping(name: str, text: str) -> tuple[str, ...]:
    """The automatic mapping of the source's one region (every kernel's lines, in order)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = translate_text(name, text)
    (region,) = result.mappings
    return region.auto_mapping


def matches_original(tmp_path: Path, name: str, text: str) -> None:
    src = tmp_path / name
    src.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


@pytest.mark.parametrize("name, text, l0, l1, g2", [
    ("vla.c", C_VLA + C_MAIN, "k", "j", "i"),
    ("lin.c", C_LINEARISED + C_MAIN, "k", "j", "i"),
    ("col.f90", F_3D, "i", "j", "k"),
])
def test_3d_stencil_puts_the_stride_one_loop_on_l0_and_matches(
        tmp_path: Path, name: str, text: str, l0: str, l1: str, g2: str) -> None:
    chosen = mapping(name, text)
    assert chosen == (split(l0, 32, 0), split(l1, 8, 1), f'tag_inames("{g2}:g.2")'), chosen
    matches_original(tmp_path, name, text)


def test_heat3d_in_a_time_loop_maps_both_nests_coalesced(tmp_path: Path) -> None:
    chosen = mapping("heat.c", C_HEAT)
    assert chosen == (split("k", 32, 0), split("j", 8, 1), 'tag_inames("i:g.2")',
                      split("k_1", 32, 0), split("j_1", 8, 1), 'tag_inames("i_1:g.2")'), chosen
    matches_original(tmp_path, "heat.c", C_HEAT)


def test_3d_nest_next_to_a_2d_nest_uses_two_axes(tmp_path: Path) -> None:
    chosen = mapping("mixed.c", C_MIXED)
    assert chosen[:2] == (split("k", 32, 0), split("j", 8, 1)), chosen
    assert not any("g.2" in line for line in chosen), chosen
    matches_original(tmp_path, "mixed.c", C_MIXED)


def test_short_constant_stride_one_loop_goes_to_group_axis_2(tmp_path: Path) -> None:
    chosen = mapping("rgb.c", C_CHANNELS)
    assert chosen == (split("x", 32, 0), split("y", 8, 1), 'tag_inames("c:g.2")'), chosen
    matches_original(tmp_path, "rgb.c", C_CHANNELS)


def test_band_of_two_with_a_sequential_inner_loop() -> None:
    """A 3-deep nest whose inner loop carries a dependence: the band is i, j (both parameter
    strides, as before on two axes); j (stride n) goes on l.0 before i (stride n*n)."""
    scan = C_VLA.replace("b[i][j][k] = 0.125 * (a[i - 1][j][k]", "b[i][j][k] = b[i][j][k - 1] "
                         "+ 0.125 * (a[i - 1][j][k]")
    chosen = mapping("scan.c", scan)
    assert chosen == (split("j", 32, 0), split("i", 8, 1)), chosen


def test_linearised_3d_writes_are_delinearised_for_legality() -> None:
    """``(i*n + j)*n + k`` names one element per (i, j, k): a write to it does not race when
    i is mapped (the 3-D stencil above would otherwise stay sequential)."""
    kernel = FRONTEND.parse("lin.c", C_LINEARISED, {}).regions[0].kernel
    (write,) = [a for s in kernel.statements for a in statement_accesses(kernel, s)
                if a.is_write]
    assert write.layout == "delinearised:n"
    assert [str(i) for i in write.index] == ["i", "j", "k"]


def test_parameter_strides_break_ties_by_degree() -> None:
    """i (stride n*n) and j (stride n) scatter alike; j keeps neighbours closer."""
    kernel = FRONTEND.parse("vla.c", C_VLA, {}).regions[0].kernel
    scores = coalescing_scores(kernel, ["i", "j", "k"])
    assert scores.spread["i"] > scores.spread["j"] > scores.spread["k"] == 0
    assert coalescing_key(scores, "j") < coalescing_key(scores, "i")
