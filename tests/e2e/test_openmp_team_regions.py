"""OpenMP ``parallel`` constructs in the reference style (h92): one ``parallel`` around a
sequential loop, worksharing loops inside it, scalar code under ``single``/``master``, code
every thread runs (a private scalar), ``barrier``, orphaned ``do``/``for`` in a procedure the
construct calls.  Before, such a construct was left as written with all its loops, silently
without ``--report`` (h87's ``cg_omp.f90``).  Now each worksharing loop is a region of its
own (called under ``single`` in a build with -fopenmp), and the code between stays on the
host once it is proven to do the same run once as run by every thread; otherwise the
construct is left as written with a ``directive-not-offloaded`` warning."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample, runtime_dir, runtime_object

HUNT = REPO / "bench" / "h92_hunt"
#: a region's function in the host glue (not a data region's: ``translate_f_data_21``)
REGION = re.compile(r"^void translate_(?!\w*_data_\d+\()\w+\(.*\);$", re.MULTILINE)

#: sample -> the regions its translation has (every worksharing loop of the file)
SAMPLES = {"cg_npb.f90": 9, "cg_npb.c": 9, "mg_smooth.f90": 5, "mg_smooth.c": 5,
           "jacobi_omp.c": 2}


def _translate(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           "--directives=openmp", *extra], capture_output=True, text=True,
                          timeout=300, check=False, cwd=REPO,
                          env={**os.environ, "TRANSLATE_SERVER": "0"})


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_reference_style_parallel_regions_are_offloaded(tmp_path: Path, name: str) -> None:
    check_sample(HUNT / name, tmp_path)
    host = (tmp_path / "out" / f"{Path(name).stem}.host.c").read_text()
    assert len(REGION.findall(host)) == SAMPLES[name]


def test_openmp_build_of_the_translation_matches(tmp_path: Path) -> None:
    """Built with -fopenmp (4 threads), the construct runs as written and each region's call
    is made by one thread (``single``): the same numbers as the original with -fopenmp."""
    src = HUNT / "cg_npb.f90"
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    rt = runtime_dir()
    subprocess.run(["gcc", "-c", "-O1", f"-I{rt}", str(tmp_path / "out" / "cg_npb.host.c"),
                    "-o", str(tmp_path / "h.o")], check=True, cwd=tmp_path)
    subprocess.run(["gfortran", "-O1", "-fopenmp", str(src), "-o", str(tmp_path / "orig")],
                   check=True, cwd=tmp_path)
    subprocess.run(["gfortran", "-O1", "-fopenmp", str(tmp_path / "out" / "cg_npb.f90"),
                    str(tmp_path / "h.o"), str(runtime_object()), "-lOpenCL", "-o",
                    str(tmp_path / "tr")], check=True, cwd=tmp_path)
    env = {**os.environ, "OMP_NUM_THREADS": "4", "TRANSLATE_DEVICE": "cpu"}
    want = subprocess.run([str(tmp_path / "orig")], capture_output=True, text=True, env=env,
                          check=True).stdout.split()
    got = subprocess.run([str(tmp_path / "tr")], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    assert len(want) == len(got)
    for w, g in zip(want, got):
        assert float(w) == pytest.approx(float(g), rel=1e-9)
    text = (tmp_path / "out" / "cg_npb.f90").read_text()
    assert text.count("!$omp end single nowait") == 1 and text.count("!$omp single\n") == 11


SHARED_WRITE = """\
program p
  implicit none
  real(8) :: a(100), s
  integer :: i, it
  a = 1.0d0
  s = 0.0d0
  !$omp parallel private(i)
  do it = 1, 3
    s = s + 1.0d0
    !$omp do
    do i = 1, 100
      a(i) = a(i) * 0.5d0 + s
    end do
    !$omp end do
  end do
  !$omp end parallel
  print *, a(1), a(100), s
end program p
"""


def test_a_shared_write_every_thread_runs_leaves_the_construct_with_a_warning(
        tmp_path: Path) -> None:
    src = tmp_path / "shared_write.f90"
    src.write_text(SHARED_WRITE)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert ("shared_write.f90:7:3: warning: '!$omp parallel' is not offloaded: line 9 writes "
            "the shared variable 's', and every thread runs it (put it in a single construct, "
            "or make 's' private); its worksharing loops are left as written with it "
            "[-Wdirective-not-offloaded]") in done.stderr
    assert not (tmp_path / "out" / "shared_write.host.c").exists() or \
        not REGION.search((tmp_path / "out" / "shared_write.host.c").read_text())


C_CASES = """\
#include <stdio.h>
static double a[64], b[64];
static double bump(double v) { return v + 1.0; }
static void show(int k) { printf("%d\\n", k); }
int main(void) {
  double t = 2.0, u;
  int k;
#pragma omp parallel private(u)
  {
    for (k = 0; k < 2; k++) {
#pragma omp for
      for (int i = 0; i < 64; i++) a[i] = i * t;
    }
  }
#pragma omp parallel private(u)
  {
    u = bump(t);
#pragma omp for
    for (int i = 0; i < 64; i++) b[i] = a[i] + u;
#pragma omp critical
    t = t + 1.0;
  }
#pragma omp parallel
  {
    show(3);
#pragma omp for
    for (int i = 0; i < 64; i++) b[i] += 1.0;
  }
#pragma omp parallel private(u)
  {
#pragma omp for
    for (int i = 0; i < 64; i++) b[i] = a[i] * u;
    u = 1.0;
  }
#pragma omp task
  a[0] = 1.0;
  printf("%g %g\\n", a[63], b[63]);
  return 0;
}
"""


def test_c_code_every_thread_runs_is_checked(tmp_path: Path) -> None:
    """A ``for`` index declared outside the construct (shared, written by every thread), a
    ``critical`` between the loops, a call of a function that does I/O: each leaves its
    construct as written with a warning naming it; a private scalar the loop reads but no
    code of the team gives a value before is refused at the loop; a task warns."""
    src = tmp_path / "cases.c"
    src.write_text(C_CASES)
    done = _translate(src, tmp_path / "out")
    err = done.stderr
    assert ("cases.c:8:13: warning: '#pragma omp parallel' is not offloaded: line 10 writes "
            "the shared variable 'k', and every thread runs it (put it in a single construct, "
            "or make 'k' private); its worksharing loops are left as written with it "
            "[-Wdirective-not-offloaded]") in err
    assert ("cases.c:15:13: warning: '#pragma omp parallel' is not offloaded: line 20 holds "
            "'critical' outside its worksharing loops") in err
    assert ("cases.c:23:13: warning: '#pragma omp parallel' is not offloaded: line 4 calls "
            "'printf', whose body is not in this file (or does I/O), and every thread runs "
            "the call (in 'show', called at line 25)") in err
    assert ("cases.c:31:13: error: '#pragma omp for': private variable 'u' is read but never "
            "written in the loop: its value is undefined in OpenMP; use firstprivate(u)") in err
    assert ("cases.c:35:13: warning: '#pragma omp task' is not offloaded: tasks run on the "
            "host's OpenMP runtime [-Wdirective-not-offloaded]") in err
    assert done.returncode == 1


SAVED_LOCAL = """\
! translate-test: translate=--directives=openmp
program p
  implicit none
  real(8) :: a(100)
  integer :: i
  a = 1.0d0
  !$omp parallel private(i)
  call step(a)
  call step(a)
  !$omp end parallel
  print *, a(1), a(100)
contains
  subroutine step(a)
    real(8), intent(inout) :: a(:)
    integer :: i
    integer :: ncalls = 0
    real(8) :: f
    ncalls = ncalls + 1
    f = 0.5d0
    !$omp do
    do i = 1, 100
      a(i) = a(i) * f + ncalls
    end do
    !$omp end do
  end subroutine step
end program p
"""


def test_a_callee_is_checked_with_its_saved_locals_shared(tmp_path: Path) -> None:
    """A construct holding only calls: the callee's code runs in every thread; its local
    ``f`` is each thread's, but ``ncalls`` (initialised in its declaration: SAVE) is one
    copy for all threads."""
    src = tmp_path / "saved.f90"
    src.write_text(SAVED_LOCAL)
    done = _translate(src, tmp_path / "o1")
    assert done.returncode == 0, done.stderr
    assert ("saved.f90:7:3: warning: '!$omp parallel' is not offloaded: line 18 writes the "
            "shared variable 'ncalls', and every thread runs it (put it in a single "
            "construct, or make 'ncalls' private) (in 'step', called at line 8)") in done.stderr
    src.write_text(SAVED_LOCAL.replace("ncalls = 0", "ncalls").replace(
        "ncalls = ncalls + 1", "ncalls = 2"))
    done = _translate(src, tmp_path / "o2")
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    check_sample(src, tmp_path)


SIMD_IN_TEAM = """\
#include <stdio.h>
static double a[100];
int main(void) {
#pragma omp parallel
  {
    double t = 2.0;
#pragma omp for
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma omp simd
    for (int i = 0; i < 100; i++) a[i] *= t;
  }
  printf("%g\\n", a[99]);
  return 0;
}
"""


def test_a_simd_loop_every_thread_runs_leaves_the_construct(tmp_path: Path) -> None:
    """``simd`` (or a nested ``parallel for``) in a team's code is no worksharing loop:
    every thread runs it whole, which one region call would not do."""
    src = tmp_path / "simd.c"
    src.write_text(SIMD_IN_TEAM)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert ("simd.c:4:13: warning: '#pragma omp parallel' is not offloaded: 'simd' at line 9 "
            "is no worksharing loop: every thread runs it whole; its worksharing loops are "
            "left as written with it [-Wdirective-not-offloaded]") in done.stderr


CRITICAL_LOOP = """\
#include <stdio.h>
static double a[100];
int main(void) {
  double s = 0;
#pragma omp parallel
  {
    double t = 2.0;
#pragma omp for
    for (int i = 0; i < 100; i++) a[i] = i * t;
#pragma omp for
    for (int i = 0; i < 100; i++) {
#pragma omp critical
      s += a[i];
    }
  }
  printf("%g\\n", s);
  return 0;
}
"""


def test_a_loop_left_as_written_leaves_its_construct_with_the_reason(tmp_path: Path) -> None:
    src = tmp_path / "crit.c"
    src.write_text(CRITICAL_LOOP)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert ("crit.c:5:13: warning: '#pragma omp parallel' is not offloaded: its loop at line "
            "10 is not offloaded (its loop holds 'critical' at line 12, which is not "
            "offloaded); its worksharing loops are left as written with it "
            "[-Wdirective-not-offloaded]") in done.stderr


THREADPRIVATE = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
static double a[100];
static double scale;
#pragma omp threadprivate(scale)
int main(void) {
#pragma omp parallel
  {
    scale = 3.0;
#pragma omp for
    for (int i = 0; i < 100; i++) a[i] = i * scale;
  }
  printf("%g %g\\n", a[1], a[99]);
  return 0;
}
"""


def test_c_threadprivate_variables_are_each_threads(tmp_path: Path) -> None:
    """A ``threadprivate`` variable every thread assigns is each thread's: the same value
    run once (it was refused as a shared write)."""
    src = tmp_path / "tp.c"
    src.write_text(THREADPRIVATE)
    check_sample(src, tmp_path)
    assert len(REGION.findall((tmp_path / "out" / "tp.host.c").read_text())) == 1


def test_arrays_only_the_loops_use_stay_on_the_device(tmp_path: Path) -> None:
    """C: the arrays a construct's worksharing loops use and nothing else in it names (its
    other code, the functions it calls) stay on the device between the loops (a data region
    around the construct): the Jacobi solver moves its three arrays once, not at each of its
    800 launches (h92)."""
    src = tmp_path / "jacobi_omp.c"
    text = (HUNT / "jacobi_omp.c").read_text()
    src.write_text(text)
    check_sample(src, tmp_path)
    out = subprocess.run([str(tmp_path / "translated")], capture_output=True, text=True,
                         check=True, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                          "TRANSLATE_PROFILE": "1"}).stderr
    total = [line.split() for line in out.splitlines() if line.startswith("total")][0]
    # the arrays once in, once out; err (8 bytes) in and out at each of the 400 reductions
    assert int(total[-2]) == int(total[-1]) == 3 * 96 * 96 * 8 + 400 * 8
    # the host reads u in the convergence test: u moves at each launch again, correctly
    src.write_text(text.replace("if (err < tol)", "if (err < tol || u[1][1] > 1e9)"))
    check_sample(src, tmp_path / "w2" if (tmp_path / "w2").mkdir() is None else tmp_path)
    rewritten = (tmp_path / "w2" / "out" / "jacobi_omp.c").read_text()
    assert "data_21(f, 0, sizeof(f), 1, unew, 0, sizeof(unew), 1)" in rewritten


HOST_LOOP = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <stdlib.h>
static double a[100], b[100];
int main(void) {
#pragma omp parallel
  {
    double t = 2.0;
#pragma omp for
    for (int i = 0; i < 100; i++) a[i] = i * t;
#pragma omp for
    for (int i = 0; i < 100; i++) b[i] = a[i] + abs(i - 50) + (double)rand() * 0.0;
#pragma omp for
    for (int i = 0; i < 100; i++) a[i] += b[i];
  }
  printf("%g %g\\n", a[1], a[99]);
  return 0;
}
"""


def test_no_data_region_around_a_loop_left_on_the_host(tmp_path: Path) -> None:
    """A worksharing loop whose region cannot be built (a call of ``rand``) stays on the
    host: the data region that would keep ``a`` and ``b`` on the device around the construct
    goes (with it, the host loop read stale arrays: ``2 198`` instead of ``53 445``)."""
    src = tmp_path / "host_loop.c"
    src.write_text(HOST_LOOP)
    check_sample(src, tmp_path)
    assert "translate_host_loop_data_" not in (tmp_path / "out" / "host_loop.c").read_text()


POINTER_READ = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
static double a[100], b[100];
static double *pa = a;
int main(void) {
  double seen = 0;
#pragma omp parallel
  {
    double t = 2.0;
#pragma omp for
    for (int i = 0; i < 100; i++) a[i] = i * t;
#pragma omp single
    seen = pa[7];
#pragma omp for
    for (int i = 0; i < 100; i++) b[i] = a[i] + 1;
  }
  printf("%g %g %g\\n", seen, a[99], b[99]);
  return 0;
}
"""


def test_no_data_region_where_the_host_code_reads_through_a_pointer(tmp_path: Path) -> None:
    """The construct's code reads ``pa[7]``, a pointer into ``a``: with ``a`` kept on the
    device it read the value from before the loop (0 instead of 14)."""
    src = tmp_path / "pointer_read.c"
    src.write_text(POINTER_READ)
    check_sample(src, tmp_path)
