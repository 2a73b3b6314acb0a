"""Defects the held-out hunt of Livermore loops, LINPACK and NAS kernels found (h90,
`bench/h90_hunt/`), each with the smallest program that showed it:

- Livermore 2 (ICCG): a level's index ``i = ipntp + 1 + (k - ipnt)/2`` was not read as its
  value (a quotient), so the OpenMP loop was refused as "not affine";
- Livermore 19 and 24 under a careless ``parallel do``: the refusal advised reduction(+:stb5)
  and private(m), clauses that only move the refusal (the value is carried between
  iterations);
- LINPACK dgesl with ``b(*)``: ``b(l)`` after ``l = ipvt(k)`` gave an unlocated
  "host-side expression uses l" instead of the assumed-size error at the access;
- NPB EP: a private scalar was taken as read after the loop because an internal procedure
  declares its own variable of that name;
- NPB IS's histogram under ``parallel do`` without ``atomic``: the refusal offered only
  ``independent``, which for a histogram is wrong; it now says to make the update atomic;
- NPB EP: a private written under ``if (t1 <= 1)`` and read by the reduction in the same
  branch was refused as read before written (the branch's comparison was dropped from the
  read's conditions because it compares floating-point values).

Programs that translate run on PoCL against the original (`check_sample`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

ICCG = """\
! translate-test: translate=--directives=openmp
program iccg
  implicit none
  integer, parameter :: n = 1001
  real(8) :: x(2 * n), v(2 * n)
  integer :: k, i, ii, ipnt, ipntp
  do k = 1, 2 * n
    x(k) = 0.01d0 * mod(k, 13)
  end do
  do k = 1, 2 * n
    v(k) = 0.001d0 * mod(k, 5)
  end do
  ii = 512
  ipntp = 0
  do while (ii > 1)
    ipnt = ipntp
    ipntp = ipntp + ii
    ii = ii / 2
    !$omp parallel do private(i)
    do k = ipnt + 2, ipntp, 2
      i = ipntp + 1 + (k - ipnt) / 2
      x(i) = x(k) - v(k) * x(k - 1) - v(k + 1) * x(k + 1)
    end do
  end do
  write (*, '(2es24.15)') sum(x(1:n)), x(1024)
end program iccg
"""

#: Two k share one i: a quotient value must not hide the race.
HALVED = """\
program halved
  implicit none
  real(8) :: x(100), y(200)
  integer :: k, i
  y = 1.0d0
  x = 0.0d0
  !$omp parallel do private(i)
  do k = 1, 200
    i = (k + 1) / 2
    x(i) = x(i) + y(k)
  end do
  print *, sum(x)
end program halved
"""

CARRIED = """\
program carried
  implicit none
  integer, parameter :: n = 101
  real(8) :: x(n), sa(n), sb(n), b5(n), stb5
  integer :: k, m
  x = 1.0d0
  sa = 0.1d0
  sb = 0.2d0
  stb5 = 0.0136d0
  !$omp parallel do
  do k = 1, n
    b5(k) = sa(k) + stb5 * sb(k)
    stb5 = b5(k) - stb5
  end do
  m = 1
  !$omp parallel do
  do k = 2, n
    if (x(k) < x(m)) m = k
  end do
  print *, stb5, m
end program carried
"""

DGESL = """\
subroutine fwd(a, lda, n, ipvt, b)
  integer :: lda, n, ipvt(*)
  real(8) :: a(lda, *), b(*), t
  integer :: k, l, i
  !$translate kernel fwd_k
  do k = 1, n - 1
    l = ipvt(k)
    t = b(l)
    if (l /= k) then
      b(l) = b(k)
      b(k) = t
    end if
    do i = k + 1, n
      b(i) = b(i) + t * a(i, k)
    end do
  end do
  !$translate end kernel
end subroutine fwd
"""

SHADOW = """\
! translate-test: translate=--directives=openmp
program shadow
  implicit none
  real(8) :: y(100), t1
  integer :: k
  !$omp parallel do private(t1)
  do k = 1, 100
    t1 = dble(k) * 0.5d0
    y(k) = twice(t1)
  end do
  write (*, '(es24.15)') sum(y)
contains
  real(8) function twice(v)
    real(8), intent(in) :: v
    real(8) :: t1
    t1 = 2.0d0 * v
    twice = t1
  end function twice
end program shadow
"""

PAIRS_C = """\
/* translate-test: translate=--directives=openmp rtol=1e-12 */
#include <math.h>
#include <stdio.h>
static double x[16][64];
int main(void)
{
  double sx = 0.0, sy = 0.0;
  for (int k = 0; k < 16; k++)
    for (int i = 0; i < 64; i++) x[k][i] = ((k * 7 + i * 3) % 11) / 11.0;
#pragma omp parallel for reduction(+:sx, sy)
  for (int k = 0; k < 16; k++)
    for (int i = 0; i < 32; i++) {
      double x1 = 2.0 * x[k][2 * i] - 1.0, x2 = 2.0 * x[k][2 * i + 1] - 1.0;
      double t1 = x1 * x1 + x2 * x2;
      if (t1 <= 1.0) {
        double t2 = sqrt(-2.0 * log(t1 + 1e-3) / (t1 + 1e-3));
        sx += x1 * t2;
        sy += x2 * t2;
      }
    }
  printf("%.15e %.15e\\n", sx, sy);
  return 0;
}
"""

PAIRS_F = """\
! translate-test: translate=--directives=openmp rtol=1e-12
program pairs
  implicit none
  real(8) :: x(64, 16), sx, sy, x1, x2, t1, t2
  integer :: k, i
  do k = 1, 16
    do i = 1, 64
      x(i, k) = mod(k * 7 + i * 3, 11) / 11.0d0
    end do
  end do
  sx = 0.0d0
  sy = 0.0d0
  !$omp parallel do private(i, x1, x2, t1, t2) reduction(+:sx, sy)
  do k = 1, 16
    do i = 1, 32
      x1 = 2.0d0 * x(2 * i - 1, k) - 1.0d0
      x2 = 2.0d0 * x(2 * i, k) - 1.0d0
      t1 = x1 * x1 + x2 * x2
      if (t1 <= 1.0d0) then
        t2 = sqrt(-2.0d0 * log(t1 + 1d-3) / (t1 + 1d-3))
        sx = sx + x1 * t2
        sy = sy + x2 * t2
      end if
    end do
  end do
  write (*, '(2es24.15)') sx, sy
end program pairs
"""


HISTOGRAM = """\
program hist
  implicit none
  integer :: key(1000), buff(0:63), i
  do i = 1, 1000
    key(i) = mod(i * 37, 64)
  end do
  buff = 0
  !$omp parallel do
  do i = 1, 1000
    buff(key(i)) = buff(key(i)) + 1
  end do
  print *, buff(0)
end program hist
"""


def _translate(tmp: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    src = tmp / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp / "out"), *flags], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=False)


def _sample(tmp: Path, name: str, text: str) -> None:
    src = tmp / name
    src.write_text(text)
    check_sample(src, tmp)


def test_iccg_level_index_with_a_quotient_matches(tmp_path: Path) -> None:
    _sample(tmp_path, "iccg.f90", ICCG)


def test_a_quotient_index_that_repeats_stays_refused(tmp_path: Path) -> None:
    done = _translate(tmp_path, "halved.f90", HALVED, "--directives=openmp")
    assert done.returncode == 1, done.stderr
    assert "halved.f90:7:3: error: '!$omp parallel do'" in done.stderr


def test_a_carried_scalar_is_called_a_recurrence(tmp_path: Path) -> None:
    done = _translate(tmp_path, "carried.f90", CARRIED, "--directives=openmp")
    assert done.returncode == 1, done.stderr
    for line, name in ((10, "stb5"), (16, "m")):
        assert (f"carried.f90:{line}:3: error: '!$omp parallel do': shared variable "
                f"'{name}' is written by every iteration of the parallel loop over k and read "
                "by the iterations after it (a recurrence): no clause makes them independent: "
                "remove the directive") in done.stderr
    assert "add reduction(" not in done.stderr and "add private(" not in done.stderr


def test_assumed_size_subscript_the_region_computes_is_located(tmp_path: Path) -> None:
    done = _translate(tmp_path, "dgesl.f90", DGESL)
    assert done.returncode == 1, done.stderr
    assert ("dgesl.f90:8:5: error: cannot determine the extent of assumed-size array 'b' from "
            "its subscripts (a subscript reads 'l', which the region computes); declare its "
            "last dimension explicitly") in done.stderr
    assert "host-side expression" not in done.stderr


def test_an_internal_procedures_own_local_is_not_the_hosts(tmp_path: Path) -> None:
    _sample(tmp_path, "shadow.f90", SHADOW)


def test_the_hosts_variable_read_by_an_internal_procedure_stays_read_after(
        tmp_path: Path) -> None:
    text = SHADOW.replace("    real(8) :: t1\n    t1 = 2.0d0 * v\n    twice = t1",
                          "    twice = 2.0d0 * v + t1")
    done = _translate(tmp_path, "shadow2.f90", text, "--directives=openmp")
    assert done.returncode == 1, done.stderr
    assert "private variable 't1' is read after the loop" in done.stderr


def test_a_private_set_in_the_branch_of_a_reduction_c(tmp_path: Path) -> None:
    _sample(tmp_path, "pairs.c", PAIRS_C)


def test_a_private_set_in_the_branch_of_a_reduction_fortran(tmp_path: Path) -> None:
    _sample(tmp_path, "pairs.f90", PAIRS_F)


def test_a_histogram_without_atomic_is_told_to_make_it_atomic(tmp_path: Path) -> None:
    done = _translate(tmp_path, "hist.f90", HISTOGRAM, "--directives=openmp")
    assert done.returncode == 1, done.stderr
    assert ("hist.f90:8:3: error: '!$omp parallel do': the loop over i is declared parallel, "
            "but mapping i to g.0 may race") in done.stderr
    assert ("hist.f90:10); buff is written through an index table (a scatter): where several "
            "iterations may update one element, mark the update atomic ('!$omp atomic update'"
            ) in done.stderr
