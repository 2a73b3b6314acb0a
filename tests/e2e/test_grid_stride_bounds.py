"""Inner loops whose bounds name a mapped outer loop, under a reduction over that loop
(issue 20, item 2).  The grid-stride split of the reduction's group iname
(`translator.codegen.bounded_groups`) must rewrite the nested domains bounded by it, and the
loops inside the reduction nest around its accumulators in the right order (with
``reassociate``, the automatic mapping's reduction puts the statement's loops outside the
mapped one).  Every program runs on PoCL against the sequential original; the values are
small multiples of 1/4, so every sum is exact and the outputs must be identical."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

#: Blocks of 256 (`i` from 256*k), blocks of a macro's size with two work items per group
#: (so that the grid-stride loop runs several strides and every accumulator), a triangle
#: (`j <= i`) and a float sum over blocks (mapped automatically under --reassociate).
C_BLOCKS = r"""
#include <stdio.h>
#define MM 3

long iblocks(int nb, const int *restrict a)
{
  long sum = 0;
  int k, i;
#pragma translate kernel iblocks_k
  for (k = 0; k < nb; k++)
    for (i = 256*k; i < 256*k+256; i++)
      sum += a[i];
#pragma translate end kernel
  return sum;
}

double dblocks(int nb, const double *restrict a)
{
  double sum = 0.25;
#pragma translate kernel dblocks_k
  for (int k = 0; k < nb; k++)
    for (int i = 256*k; i < 256*k+256; i++)
      sum += a[i];
#pragma translate end kernel
  return sum;
}

double mblocks(int nb, const double *restrict a)
{
  double sum = 0.5;
#pragma translate kernel mblocks_k
#pragma translate split_iname("k", 2, outer_tag="g.0", inner_tag="l.0")
  for (int k = 0; k < nb; k++)
    for (int i = k*MM; i <= k*MM+MM-1; i++)
      sum += a[i];
#pragma translate end kernel
  return sum;
}

long triangle(int n, const int *restrict a)
{
  long s = 1;
#pragma translate kernel triangle_k
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += a[i*n + j];
#pragma translate end kernel
  return s;
}

enum { NB = 40, MB = 10001, N = 300 };
static int a[256*NB], c[N*N];
static double d[256*NB], b[MB*MM];

int main(void)
{
  for (int i = 0; i < 256*NB; i++) { a[i] = (i % 7) - 2; d[i] = (i % 9) * 0.25; }
  for (int i = 0; i < MB*MM; i++) b[i] = (i % 5) * 0.25;
  for (int i = 0; i < N*N; i++) c[i] = (i % 11) - 4;
  for (int nb = 0; nb <= NB; nb += 13)
    printf("%d %ld %.4f\n", nb, iblocks(nb, a), dblocks(nb, d));
  static const int mbs[] = {0, 1, 2047, 2048, 2049, 8193, MB};
  for (int t = 0; t < 7; t++)
    printf("%d %.4f\n", mbs[t], mblocks(mbs[t], b));
  printf("%ld %ld\n", triangle(N, c), triangle(7, c));
  return 0;
}
"""

F_BLOCKS = """\
module blocks
  implicit none
  integer, parameter :: m = 3
contains
  subroutine iblocks(nb, a, s)
    integer, intent(in) :: nb
    integer, intent(in) :: a(256*nb)
    integer(8), intent(inout) :: s
    integer :: k, i
    !$translate kernel iblocks_k
    do k = 0, nb - 1
      do i = 256*k + 1, 256*k + 256
        s = s + a(i)
      end do
    end do
    !$translate end kernel
  end subroutine

  subroutine mblocks(nb, a, s)
    integer, intent(in) :: nb
    real(8), intent(in) :: a(m*nb)
    real(8), intent(inout) :: s
    integer :: k, i
    !$translate kernel mblocks_k
    !$translate split_iname("k", 2, outer_tag="g.0", inner_tag="l.0")
    do k = 1, nb
      do i = k*m - m + 1, k*m
        s = s + a(i)
      end do
    end do
    !$translate end kernel
  end subroutine

  subroutine triangle(n, a, s)
    integer, intent(in) :: n
    integer, intent(in) :: a(n, n)
    integer(8), intent(inout) :: s
    integer :: i, j
    !$translate kernel triangle_k
    do j = 1, n
      do i = j, n
        s = s + a(i, j)
      end do
    end do
    !$translate end kernel
  end subroutine
end module

program main
  use blocks
  implicit none
  integer, parameter :: nbmax = 40, mb = 10001, n = 300
  integer :: a(256*nbmax), c(n, n), i, j, t
  integer, parameter :: mbs(7) = [0, 1, 2047, 2048, 2049, 8193, mb]
  real(8) :: b(m*mb), s
  integer(8) :: is, it
  do i = 1, 256*nbmax
    a(i) = mod(i, 7) - 2
  end do
  do i = 1, m*mb
    b(i) = mod(i, 5) * 0.25d0
  end do
  do j = 1, n
    do i = 1, n
      c(i, j) = mod(i + 3*j, 11) - 4
    end do
  end do
  do t = 0, nbmax, 13
    is = 0
    call iblocks(t, a, is)
    print '(i4, i12)', t, is
  end do
  do t = 1, 7
    s = 0.5d0
    call mblocks(mbs(t), b, s)
    print '(i6, f16.4)', mbs(t), s
  end do
  is = 1
  it = 1
  call triangle(n, c, is)
  call triangle(7, c(1:7, 1:7), it)
  print '(2i12)', is, it
end program
"""

#: ``s = s + w`` where ``w`` sums a 2x2 neighbourhood (loops from k and j), mapped
#: explicitly on both loops, on k alone with two work items per group over many groups
#: (every accumulator of the grid-stride loop), and automatically under
#: set_options(reassociate=True) (j stays a loop outside the reduction over k).
F_NEIGHBOURS = """\
subroutine both(n, u, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n+1, n+1)
  real(8), intent(inout) :: s
  real(8) :: w
  integer :: j, k, jv, kv
  !$translate kernel both_k
  !$translate split_iname("k", 16, outer_tag="g.1", inner_tag="l.1")
  !$translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  do k = 1, n
    do j = 1, n
      w = 0.0d0
      do kv = k, k+1
        do jv = j, j+1
          w = w + u(jv, kv)
        end do
      end do
      s = s + w
    end do
  end do
  !$translate end kernel
end subroutine

subroutine long_k(n, m, u, s)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(m+1, n+1)
  real(8), intent(inout) :: s
  real(8) :: w
  integer :: j, k, jv, kv
  !$translate kernel long_k_k
  !$translate split_iname("k", 2, outer_tag="g.0", inner_tag="l.0")
  do k = 1, n
    do j = 1, m
      w = 0.0d0
      do kv = k, k+1
        do jv = j, j+1
          w = w + u(jv, kv)
        end do
      end do
      s = s + w
    end do
  end do
  !$translate end kernel
end subroutine

subroutine auto(n, u, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n+1, n+1)
  real(8), intent(inout) :: s
  real(8) :: w
  integer :: j, k, jv, kv
  !$translate kernel auto_k
  !$translate set_options(reassociate=True)
  do k = 1, n
    do j = 1, n
      w = 0.0d0
      do kv = k, k+1
        do jv = j, j+1
          w = w + u(jv, kv)
        end do
      end do
      s = s + w
    end do
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 40, nl = 9001, m = 3
  real(8) :: u(n+1, n+1), v(m+1, nl+1), s
  integer :: i, j
  do j = 1, n+1
    do i = 1, n+1
      u(i, j) = mod(i*7 + j*3, 11) * 0.25d0
    end do
  end do
  do j = 1, nl+1
    do i = 1, m+1
      v(i, j) = mod(i*5 + j, 13) * 0.25d0
    end do
  end do
  s = 1.0d0
  call both(n, u, s)
  print '(f20.4)', s
  s = 1.0d0
  call auto(n, u, s)
  print '(f20.4)', s
  s = 1.0d0
  call long_k(nl, m, v, s)
  print '(f20.4)', s
  s = 1.0d0
  call long_k(2048, m, v, s)
  print '(f20.4)', s
end program
"""

C_NEIGHBOURS = r"""
#include <stdio.h>
#define N 40

double both(int n, const double u[N+1][N+1])
{
  double s = 1.0, w;
#pragma translate kernel both_k
#pragma translate split_iname("k", 8, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 8, outer_tag="g.0", inner_tag="l.0")
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++) {
      w = 0.0;
      for (int kv = k; kv <= k + 1; kv++)
        for (int jv = j; jv <= j + 1; jv++)
          w += u[kv][jv];
      s = s + w;
    }
#pragma translate end kernel
  return s;
}

double autok(int n, const double u[N+1][N+1])
{
  double s = 2.0, w;
#pragma translate kernel auto_k
#pragma translate set_options(reassociate=True)
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++) {
      w = 0.0;
      for (int kv = k; kv <= k + 1; kv++)
        for (int jv = j; jv <= j + 1; jv++)
          w += u[kv][jv];
      s = s + w;
    }
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double u[N+1][N+1];
  for (int k = 0; k <= N; k++)
    for (int j = 0; j <= N; j++)
      u[k][j] = ((k * 7 + j * 3) % 11) * 0.25;
  printf("%.4f %.4f %.4f\n", both(N, u), autok(N, u), autok(17, u));
  return 0;
}
"""


#: The mapped loop from a parameter m: the grid counts from m's group, floor(m/2), which the
#: inner loops' bounds then name (an even m once lost a pass of the inner loop).
C_FROM_M = r"""
#include <stdio.h>
double mfrom(int m, int nb, const double *restrict a)
{
  double sum = 0.5;
#pragma translate kernel mfrom_k
#pragma translate split_iname("k", 2, outer_tag="g.0", inner_tag="l.0")
  for (int k = m; k < nb; k++)
    for (int i = 3*k; i <= 3*k+2; i++)
      sum += a[i];
#pragma translate end kernel
  return sum;
}

double ifrom(int m, int nb, const double *restrict a)
{
  double sum = 0.5;
#pragma translate kernel ifrom_k
#pragma translate split_iname("k", 4, outer_tag="g.0", inner_tag="l.0")
  for (int k = m; k < nb; k++)
    for (int i = k; i < nb; i++)
      sum += a[i] * k;
#pragma translate end kernel
  return sum;
}

int main(void)
{
  static double a[3*12001];
  for (int i = 0; i < 3*12001; i++) a[i] = (i % 5) * 0.25;
  static const int ms[] = {0, 1, 2, 7, 3000, 3001, 11998, 11999};
  for (int t = 0; t < 8; t++)
    printf("%d %.3f %.3f\n", ms[t], mfrom(ms[t], 12001, a), ifrom(ms[t] / 4, 3000, a));
  return 0;
}
"""


@pytest.mark.parametrize("name, text, flags", [
    ("from_m.c", C_FROM_M, ()),
    ("blocks.c", C_BLOCKS, ("--reassociate",)),
    ("blocks.f90", F_BLOCKS, ()),
    ("neighbours.f90", F_NEIGHBOURS, ()),
    ("neighbours.c", C_NEIGHBOURS, ()),
])
def test_inner_bounds_naming_the_mapped_loop(tmp_path: Path, name: str, text: str,
                                             flags: tuple[str, ...]) -> None:
    """Before: exit 0, then ``use of undeclared identifier 'k_outer'`` when the program is
    built (or ``contradictory loop priorities`` under reassociation)."""
    src = tmp_path / name
    src.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work, flags)


# ---------------------------------------------------------------------------------------------
# seeded random nests through the Python library

def _random_nest(rng: random.Random):
    """(kernel, arguments, expected s) for ``s += sum over k, i of x[i+2]*(k+1)``: k from 0, 1
    or m, mapped with groups of 1, 2 or 4 (often more than 1024 groups: the grid-stride loop
    with all its accumulators), and i in a window ``a*k + b .. a*k + b + w`` or ``k .. nk-1``."""
    import numpy as np

    import transforms
    import translator
    lo, a, b, w = rng.choice(["0", "1", "m"]), rng.randint(1, 3), rng.randint(-2, 2), \
        rng.randint(0, 3)
    triangle = rng.random() < 0.3
    inner = ("[k, nk] -> {[i]: k <= i < nk}" if triangle
             else f"[k] -> {{[i]: {a}*k + {b} <= i <= {a}*k + {b + w}}}")
    knl = translator.make_kernel(
        [f"{{[k]: {lo} <= k < nk}}", inner], "s[0] = s[0] + sum([k, i], x[i + 2] * (k + 1))",
        [translator.GlobalArg("x", np.int64, shape="xs"),
         translator.GlobalArg("s", np.int64, shape=(1,)), "..."])
    group = rng.choice([1, 2, 4])
    knl = transforms.split_iname(knl, "k", group, outer_tag="g.0", inner_tag="l.0")
    nk = rng.choice([7, 300]) if triangle else rng.choice([5, 1100 * group, 4200 * group + 3])
    m = rng.randint(0, 5)
    x = (np.arange(nk + 4 if triangle else a * nk + b + w + 4) % 13 - 6).astype(np.int64)
    want = 7
    for k in range(m if lo == "m" else int(lo), nk):
        for i in (range(k, nk) if triangle else range(a * k + b, a * k + b + w + 1)):
            want += int(x[i + 2]) * (k + 1)
    args = {"x": x, "s": np.array([7], np.int64), "nk": np.int32(nk)}
    if lo == "m":
        args["m"] = np.int32(m)
    return knl, args, want


def test_random_nests_with_bounds_naming_the_mapped_loop(ctx, queue) -> None:
    import translator
    rng = random.Random(20)
    for case in range(12):
        knl, args, want = _random_nest(rng)
        got = translator.compile(knl, ctx)(queue, **args)["s"][0]
        assert got == want, (case, translator.print_kernel(knl))
