"""Atomic updates of array elements (h80): OpenMP ``atomic`` / OpenACC ``atomic update`` over
``h[k[i]] += v`` inside a loop directive, and ``#pragma translate atomic``, translate with the
update atomic on the device (before, such a loop was left as written); an array also used
plainly in the loop is refused."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample, past_stamp

SAMPLES = [REPO / "samples" / "openmp" / "atomic_updates.c",
           REPO / "samples" / "openmp" / "atomic_updates.f90",
           REPO / "samples" / "openacc" / "atomic_updates.c"]


@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_atomic_updates_run_on_the_device(src: Path, tmp_path: Path) -> None:
    """Histograms, a scatter-add with collisions (doubles within a tolerance: the order of
    the additions changes) and a maximum, against the original built with -fopenmp (OpenMP
    samples); every loop is a region, its updates atomic helpers."""
    check_sample(src, tmp_path)
    rewritten = past_stamp((tmp_path / "out" / src.name).read_text())
    assert not re.search(r"^\s*(#pragma\s+|!\$)(omp|acc)\s+atomic", rewritten, re.M)
    device = (tmp_path / "out" / f"{src.stem}.cl").read_text()
    wanted = {"atomic_updates.c": ["_tr_atomic_sum_int32(&hist[", "_tr_atomic_sum_int64(&big[",
                                   "_tr_atomic_sum_float64(&rhs["],
              "atomic_updates.f90": ["_tr_atomic_sum_int32(&hist[", "_tr_atomic_sum_float64(&rhs[",
                                     "_tr_atomic_max_float64(&vmax["]}[src.name]
    if src.parent.name == "openacc":
        wanted = ["_tr_atomic_sum_float32(&rho[", "_tr_atomic_sum_int32(&count["]
    for call in wanted:
        assert call in device, call
    assert "get_group_id" in device or "get_global_id" in device   # run in parallel


MIXED_C = """\
#include <stdio.h>

static void count(int n, int nb, const int *key, int hist[nb], int seen[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        hist[key[i]] += 1;
        seen[i] = hist[key[i]];
    }
}

int main(void)
{
    int key[100], hist[7] = {0}, seen[100];
    for (int i = 0; i < 100; i++)
        key[i] = i * 5 % 7;
    count(100, 7, key, hist, seen);
    printf("%d %d\\n", hist[0], seen[99]);
    return 0;
}
"""

MIXED_F = """\
subroutine bins(n, nb, key, x, v)
  integer, intent(in) :: n, nb, key(n)
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: v(nb)
  integer :: i
  !$omp parallel do
  do i = 1, n
     !$omp atomic
     v(key(i)) = v(key(i)) + x(i)
     !$omp atomic
     v(key(i)) = max(v(key(i)), x(i))
  end do
end subroutine
"""


def _translate(tmp_path: Path, name: str, text: str, *extra: str
               ) -> subprocess.CompletedProcess:
    src = tmp_path / name
    src.write_text(text)
    return subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"),
                           "--directives", "openmp", *extra], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def test_an_array_also_read_plainly_is_refused(tmp_path: Path) -> None:
    """``seen[i] = hist[key[i]]`` reads what other iterations update: the claim is refused,
    at the directive, saying why (before: the loop was left as written, no error)."""
    proc = _translate(tmp_path, "mixed.c", MIXED_C)
    assert proc.returncode == 1, proc.stderr
    assert "mixed.c:5:13: error: '#pragma omp parallel for': 'hist' is updated atomically, " \
           "but line 9 reads it outside an atomic update: iterations may update one element " \
           "only where every access to the array in the loop is an atomic update with the " \
           "same operator" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_refused_loop_keeps_its_sequential_meaning(tmp_path: Path) -> None:
    """With -Wno-error=directive-race the refused loop runs in one work item, right."""
    src = tmp_path / "mixed.c"
    src.write_text("/* translate-test: translate=--directives=openmp "
                   "translate=-Wno-error=directive-race */\n" + MIXED_C)
    assert check_sample(src, tmp_path).split() == ["15", "15"]


def test_two_operators_on_one_array_are_refused(tmp_path: Path) -> None:
    proc = _translate(tmp_path, "bins.f90", MIXED_F)
    assert proc.returncode == 1, proc.stderr
    assert "'v' is updated atomically, but it is updated atomically with + and max, which " \
           "do not commute with each other" in proc.stderr, proc.stderr


PRAGMA_C = """\
#include <stdio.h>

static void hist(int n, int nb, const int *key, const float *x, int h[nb], float s[nb])
{
#pragma translate kernel hist_k
    for (int i = 0; i < n; i++) {
#pragma translate atomic
        h[key[i]] += 1;
#pragma translate atomic
        s[key[i]] -= x[i];
    }
#pragma translate end kernel
}

int main(void)
{
    enum { N = 5000, NB = 13 };
    static int key[N], h[NB];
    static float x[N], s[NB];
    for (int i = 0; i < N; i++) {
        key[i] = (i * 31 + 7) % NB;
        x[i] = (i % 8) * 0.25f;
    }
    hist(N, NB, key, x, h, s);
    for (int b = 0; b < NB; b++)
        printf("%d %.6g\\n", h[b], s[b]);
    return 0;
}
"""


def test_translate_atomic_pragma(tmp_path: Path) -> None:
    """``#pragma translate atomic`` marks the next update atomic: the automatic mapping then
    runs the loop in parallel (sums of quarters: exact in any order)."""
    src = tmp_path / "pragma.c"
    src.write_text(PRAGMA_C)
    check_sample(src, tmp_path)
    device = (tmp_path / "out" / "pragma.cl").read_text()
    assert "_tr_atomic_sum_int32(&h[" in device and "_tr_atomic_sum_float32(&s[" in device
    assert "get_group_id" in device or "get_global_id" in device


def test_translate_atomic_pragma_before_a_plain_assignment_is_an_error(tmp_path: Path) -> None:
    text = PRAGMA_C.replace("h[key[i]] += 1;", "h[key[i]] = 1;")
    src = tmp_path / "bad.c"
    src.write_text(text)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "bad.c:8:9: error: this statement is marked atomic, but an atomic update must have " \
           "the form x[i] = x[i] OP e" in proc.stderr, proc.stderr


NO_DEVICE_FORM_C = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>

static void count(int n, const int *key, short h[8], int g[8], const double *x, float r[8])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        h[key[i]] += 1;
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        g[key[i]] += x[i];
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        r[key[i]] += x[i] * 0.5;
    }
}

int main(void)
{
    int key[100], g[8] = {0};
    short h[8] = {0};
    double x[100];
    float r[8] = {0};
    for (int i = 0; i < 100; i++) {
        key[i] = i * 5 % 8;
        x[i] = 0.75 * i;
    }
    count(100, key, h, g, x, r);
    printf("%d %d %d %g\\n", h[0], h[7], g[3], r[5]);
    return 0;
}
"""


def test_updates_without_a_device_form(tmp_path: Path) -> None:
    """A 16-bit array and an int accumulating doubles (truncated at each update) have no
    atomic update on the device: those loops keep their sequential meaning, with a
    ``directive-sequential`` warning; a float accumulating a double term (rounded to float at
    each update) is updated atomically in float."""
    src = tmp_path / "forms.c"
    src.write_text(NO_DEVICE_FORM_C)
    proc = _translate(tmp_path, "forms.c", NO_DEVICE_FORM_C)
    assert proc.returncode == 0, proc.stderr
    for line, directive in ((9, 6), (14, 11)):
        assert (f"forms.c:{directive}:13: warning: '#pragma omp parallel for': the update "
                f"under 'atomic' at line {line} has no atomic form on the device") in proc.stderr
    assert "line 19" not in proc.stderr
    assert check_sample(src, tmp_path).split() == ["13", "13", "456", "238.875"]
    device = (tmp_path / "out" / "forms.cl").read_text()
    assert "_tr_atomic_sum_float32(&r[" in device and "_tr_atomic_sum_int" not in device


def test_an_update_whose_term_calls_a_function(tmp_path: Path) -> None:
    """``h[key[i]] += weight(x[i])``: the inlined body of weight computes the term in
    statements of the same line; the element's update alone is atomic."""
    src = tmp_path / "inl.c"
    src.write_text(INLINED_C)
    check_sample(src, tmp_path)
    device = (tmp_path / "out" / "inl.cl").read_text()
    assert "_tr_atomic_sum_float64(&h[key[" in device


INLINED_C = """\
/* translate-test: rtol=1e-12 translate=--directives=openmp */
#include <stdio.h>

static double weight(double x)
{
    double t = x * 0.5;
    return t * t + 1.0;
}

static void dep(int n, const int *key, const double *x, double h[16])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        h[key[i]] += weight(x[i]);
    }
}

int main(void)
{
    int key[1000];
    double x[1000], h[16] = {0};
    for (int i = 0; i < 1000; i++) {
        key[i] = i * 7 % 16;
        x[i] = 0.01 * i;
    }
    dep(1000, key, x, h);
    printf("%.15e %.15e\\n", h[0], h[15]);
    return 0;
}
"""


PRAGMA_F = """\
! translate-test: rtol=1e-12
subroutine bins(n, nb, key, x, h, v)
  integer, intent(in) :: n, nb, key(n)
  real(8), intent(in) :: x(n)
  integer, intent(inout) :: h(nb)
  real(8), intent(inout) :: v(nb)
  integer :: i
  !$translate kernel bins_k
  do i = 1, n
     !$translate atomic
     h(key(i)) = h(key(i)) + 1
     !$translate atomic
     v(key(i)) = min(v(key(i)), x(i))
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 3000, nb = 9
  integer :: key(n), h(nb), i
  real(8) :: x(n), v(nb)
  do i = 1, n
     key(i) = mod(i * 17, nb) + 1
     x(i) = mod(i * 31, 1000) * 0.01d0 - 3
  end do
  h = 0
  v = 100
  call bins(n, nb, key, x, h, v)
  print '(9i6)', h
  print '(9f8.3)', v
end program
"""


def test_translate_atomic_pragma_fortran(tmp_path: Path) -> None:
    """``!$translate atomic`` before a count and a minimum per bin."""
    src = tmp_path / "fp.f90"
    src.write_text(PRAGMA_F)
    check_sample(src, tmp_path)
    device = (tmp_path / "out" / "fp.cl").read_text()
    assert "_tr_atomic_sum_int32(&h[" in device and "_tr_atomic_min_float64(&v[" in device
