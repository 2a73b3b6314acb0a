"""Prefetches (`add_prefetch`) that must not give wrong results: each program is translated,
built and run on PoCL against the original, or refused with a diagnostic (exit 1).

A tile in local memory lives for one launch: the region splitter must not put its fill in one
kernel and its readers in another (the readers would see uninitialised local memory).  A tile
fetched for each step of k_outer must be read in the same step: with a sequential loop j
between the group's loops and k, the fetch (which does not depend on j) used to run all its
steps before j and the product read the last tile only.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.harness import REPO, TRANSLATE, check_sample

# y = A x with a 2-D work group (l.1 x l.0) and x fetched over j_inner only: every row of
# work items would write the same tile of x (a race legality refuses); before, the splitter
# moved the fill of x_fetch into a kernel of its own and the product read nan.
MV_2D_C = r"""#include <stdio.h>
#include <stdlib.h>
static void mv(int n, int m, const double a[n][m], const double x[m], double y[n])
{
#pragma translate kernel mv
#pragma translate split_iname("i", 64, outer_tag="g.0")
#pragma translate split_iname("i_inner", 32, outer_tag="l.1", inner_tag="l.0")
#pragma translate split_iname("j", 31)
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "j_inner"], default_tag="l.auto")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto")
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++)
      s += a[i][j] * x[j];
    y[i] = s;
  }
#pragma translate end kernel
}
int main(void)
{
  int n = 100, m = 70;
  double *a = malloc(sizeof(double) * n * m), *x = malloc(sizeof(double) * m);
  double *y = malloc(sizeof(double) * n);
  for (int k = 0; k < n * m; k++) a[k] = (k * 7 % 11) - 5;
  for (int k = 0; k < m; k++) x[k] = (k * 3 % 13) - 6;
  for (int k = 0; k < n; k++) y[k] = -99.0;
  mv(n, m, (const double (*)[m])a, x, y);
  for (int k = 0; k < n; k++) printf("%g%c", y[k], k % 10 == 9 ? '\n' : ' ');
  return 0;
}
"""

MV_2D_F = """subroutine mv(n, m, a, x, y)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(m, n), x(m)
  real(8), intent(out) :: y(n)
  integer :: i, j
  real(8) :: s
  !$translate kernel mv
  !$translate split_iname("i", 64, outer_tag="g.0")
  !$translate split_iname("i_inner", 32, outer_tag="l.1", inner_tag="l.0")
  !$translate split_iname("j", 31)
  !$translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "j_inner"], default_tag="l.auto")
  !$translate add_prefetch("x", ["j_inner"], default_tag="l.auto")
  do i = 1, n
     s = 0.0d0
     do j = 1, m
        s = s + a(j, i) * x(j)
     end do
     y(i) = s
  end do
  !$translate end kernel
end subroutine mv

program main
  implicit none
  integer, parameter :: n = 100, m = 70
  real(8) :: a(m, n), x(m), y(n)
  integer :: i, j
  do i = 1, n
     do j = 1, m
        a(j, i) = mod(7 * (j + m * i), 11) - 5
     end do
  end do
  do j = 1, m
     x(j) = mod(3 * j, 13) - 6
  end do
  y = -99.0d0
  call mv(n, m, a, x, y)
  print '(10f8.1)', y
end program main
"""


def _translate(tmp_path: Path, name: str, text: str) -> tuple[Path, subprocess.CompletedProcess]:
    src = tmp_path / name
    src.write_text(text)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=False)
    return src, proc


def _assert_local_tile_refused(src: Path, proc: subprocess.CompletedProcess,
                               where: str, iname: str) -> None:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"{src}:{where}: error: mapping {iname} to l.1 races: "), first
    assert "writes x_fetch[" in first
    assert "statement x_fetch_rule is not inside the loop over " + iname in proc.stderr
    assert not (src.parent / "out").exists()


def test_local_tile_of_2d_group_is_not_split_from_its_readers_c(tmp_path: Path) -> None:
    src, proc = _translate(tmp_path, "mv.c", MV_2D_C)
    _assert_local_tile_refused(src, proc, "14:7", "a_dim_0_inner")


def test_local_tile_of_2d_group_is_not_split_from_its_readers_fortran(tmp_path: Path) -> None:
    src, proc = _translate(tmp_path, "mv.f90", MV_2D_F)
    _assert_local_tile_refused(src, proc, "17:9", "a_dim_1_inner")


# c = A B^T: j is a sequential loop between i (g.0/l.0) and k (split by 4)
ABT_C = r"""#include <stdio.h>
#include <stdlib.h>
static void abt(int n, int m, int l, const double a[n][l], const double b[m][l], double c[n][m])
{
#pragma translate kernel abt
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 4)
#pragma translate add_prefetch("a", ["i_inner", "k_inner"]OUTER)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double acc = 0.0;
      for (int k = 0; k < l; k++)
        acc += a[i][k] * b[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}
int main(void)
{
  int n = 37, m = 9, l = 14;
  double *a = malloc(sizeof(double) * n * l), *b = malloc(sizeof(double) * m * l);
  double *c = malloc(sizeof(double) * n * m);
  for (int k = 0; k < n * l; k++) a[k] = (k * 7 % 11) - 5;
  for (int k = 0; k < m * l; k++) b[k] = (k * 3 % 13) - 6;
  for (int k = 0; k < n * m; k++) c[k] = -99.0;
  abt(n, m, l, (const double (*)[l])a, (const double (*)[l])b, (double (*)[m])c);
  for (int k = 0; k < n * m; k++) printf("%g%c", c[k], k % 9 == 8 ? '\n' : ' ');
  return 0;
}
"""

ABT_F = """subroutine abt(n, m, l, a, b, c)
  implicit none
  integer, intent(in) :: n, m, l
  real(8), intent(in) :: a(l, n), b(l, m)
  real(8), intent(out) :: c(m, n)
  integer :: i, j, k
  real(8) :: t
  !$translate kernel abt
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  !$translate split_iname("k", 4)
  !$translate add_prefetch("a", ["i_inner", "k_inner"])
  do i = 1, n
     do j = 1, m
        t = 0.0d0
        do k = 1, l
           t = t + a(k, i) * b(k, j)
        end do
        c(j, i) = t
     end do
  end do
  !$translate end kernel
end subroutine abt

program main
  implicit none
  integer, parameter :: n = 37, m = 9, l = 14
  real(8) :: a(l, n), b(l, m), c(m, n)
  integer :: i, k
  do i = 1, n
     do k = 1, l
        a(k, i) = mod(7 * (k + l * i), 11) - 5
     end do
  end do
  do i = 1, m
     do k = 1, l
        b(k, i) = mod(3 * (k + l * i), 13) - 6
     end do
  end do
  c = -99.0d0
  call abt(n, m, l, a, b, c)
  print '(9f8.1)', c
end program main
"""


def _assert_tile_step_refused(src: Path, proc: subprocess.CompletedProcess, where: str,
                              reader: str) -> None:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if ": error: " in line]
    assert errors == [(
        f"{src}:{where}: error: statement '{reader}' reads a_fetch written by 'a_fetch_rule' "
        "in the same iteration of loop k_outer, but they cannot share one loop over k_outer: "
        "loop j encloses the reader's loop over k_outer but not the writer's (include j in the "
        "writer's loops, e.g. add_prefetch(..., fetch_outer_inames=...), or move the loop)")]
    assert f"{src}:{where}: note: statement 'a_fetch_rule' writes a_fetch here" in proc.stderr
    assert not (src.parent / "out").exists()


def test_tile_fetched_outside_a_sequential_loop_of_its_reader_is_refused_c(
        tmp_path: Path) -> None:
    src, proc = _translate(tmp_path, "abt.c", ABT_C.replace("OUTER", ""))
    _assert_tile_step_refused(src, proc, "13:9", "insn_0")


def test_tile_fetched_outside_a_sequential_loop_of_its_reader_is_refused_fortran(
        tmp_path: Path) -> None:
    src, proc = _translate(tmp_path, "abt.f90", ABT_F)
    _assert_tile_step_refused(src, proc, "16:12", "s1")


def test_tile_fetched_inside_the_sequential_loop_matches_original(tmp_path: Path) -> None:
    """The way out the error names: the fetch inside j too (one tile per j and k step)."""
    src = tmp_path / "abt.c"
    src.write_text(ABT_C.replace(
        "OUTER", ', fetch_outer_inames=["i_outer", "j", "k_outer"]'))
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)
