"""Reductions whose update sits in an inner loop or under a condition that differ between the
iterations of the parallel loop (h87's held-out hunt, `bench/h87_hunt/md.*`): the energy of a
force loop, ``reduction(+:e)`` on the atom loop, accumulated over each atom's neighbours
(``for (k = 0; k < cnt[i]; k++)``) under a cutoff test on a distance computed in the loop.

- The neighbour loop's trip count is a private temporary set per atom (``_tr_bound =
  cnt[i]``), which isl sees as a parameter: the reduction stage took the loop for one that
  every work item runs equally often and left it around the reduction tree.  The tree's
  barriers then ran a different number of times per work item: the sum came out 0, a silent
  wrong result.  Now the loop is known to vary, and each work item accumulates a private
  partial sum in it, reduced after it (`translator.analysis.private_accumulators`).
- A condition reading a private the loop computes (``if (d*d < 4.0) e += d*d``) was left on
  the rewritten statement, outside the reduction, and the loop was refused; it is now a
  condition of the reduction's term.
- A constant loop between two varying ones (link cells: the cell's atoms, the 27 neighbour
  cells, each neighbour cell's atoms: `bench/h87_hunt/md_cells.f90`) is inside the partial
  result's loops too (it was set inside the neighbour loop's parent, which split the nest:
  "cannot share one loop over m").

Each program runs on PoCL against the original."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import REPO, check_sample

C_ENERGY = r"""/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
#include <stdio.h>
#define N 300
static double x[N], f[N];
static int cnt[N], nb[N][8];

int main(void)
{
  for (int i = 0; i < N; i++) {
    x[i] = i * 0.37 - 10;
    cnt[i] = i % 7;
    for (int k = 0; k < 8; k++) nb[i][k] = (i * 13 + k * 7) % N;
  }
  double e = 0.0, e2 = 0.0, e3 = 0.0, e4 = 0.0;
  int pairs = 0;
#pragma omp parallel for reduction(+:e, pairs)
  for (int i = 0; i < N; i++) {
    double fi = 0.0;
    for (int k = 0; k < cnt[i]; k++) {
      double d = x[i] - x[nb[i][k]];
      fi += d;
      e += d * d;
      pairs += 1;
    }
    f[i] = fi;
  }
  printf("%.15e %d %.15e\n", e, pairs, f[8]);
#pragma omp parallel for reduction(+:e2)
  for (int i = 0; i < N; i++)
    for (int k = 0; k < cnt[i]; k++) {
      double d = x[i] - x[nb[i][k]];
      if (d * d < 900.0) e2 += d * d;
    }
#pragma omp parallel for reduction(+:e3)
  for (int i = 0; i < N; i++) {
    double d = x[i] - x[(i * 7) % N];
    if (d * d < 400.0) e3 += d * d;
  }
#pragma translate kernel energy_auto
#pragma translate set_options(reassociate=True)
  for (int i = 0; i < N; i++)
    for (int k = 0; k < cnt[i]; k++) {
      double d = x[i] - x[nb[i][k]];
      e4 += d * d;
    }
#pragma translate end kernel
  printf("%.15e %.15e %.15e\n", e2, e3, e4);
  return 0;
}
"""

F_ENERGY = """\
! translate-test: translate=--directives=openacc rtol=1e-12
program energy
  implicit none
  integer, parameter :: n = 240, maxn = 9
  real(8) :: x(n), f(n), d, epot, fi
  integer :: list(maxn, n), nn(n), i, k, j
  do i = 1, n
    x(i) = 0.21d0 * i - 7.0d0
    nn(i) = mod(i * 5, maxn + 1)
    do k = 1, maxn
      list(k, i) = 1 + mod(i * 11 + k * 17, n)
    end do
  end do
  epot = 0.0d0
  !$acc parallel loop gang private(fi, k, j, d) reduction(+:epot)
  do i = 1, n
    fi = 0.0d0
    do k = 1, nn(i)
      j = list(k, i)
      d = x(i) - x(j)
      if (d * d < 100.0d0) then
        fi = fi + d
        epot = epot + d * d
      end if
    end do
    f(i) = fi
  end do
  print '(2es24.15)', epot, f(17)
end program
"""


def test_reduction_in_a_loop_of_varying_trip_count_c(tmp_path: Path) -> None:
    src = tmp_path / "energy.c"
    src.write_text(C_ENERGY)
    check_sample(src, tmp_path)


def test_reduction_in_a_loop_of_varying_trip_count_fortran(tmp_path: Path) -> None:
    src = tmp_path / "energy.f90"
    src.write_text(F_ENERGY)
    check_sample(src, tmp_path)


def test_reduction_in_varying_loops_around_a_constant_loop(tmp_path: Path) -> None:
    src = tmp_path / "md_cells.f90"
    src.write_text((REPO / "bench" / "h87_hunt" / "md_cells.f90").read_text())
    check_sample(src, tmp_path)
