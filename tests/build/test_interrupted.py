"""An interrupted translation never leaves a set that builds into a wrong program (issue 28,
item 7): the rewritten source defines a generation stamp that the glue refers to, so outputs
of different runs fail to link with a message; temporaries of killed runs are removed by the
next run."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.build.helpers import env, must, run, translate, write
from translator.build.paths import runtime_dir

F_REGION = """\
! version {v}
subroutine saxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel saxpy_k
  do i = 1, n
     y(i) = a*x(i) + {v}*y(i)
  end do
  !$translate end kernel
end subroutine
"""

F_MAIN = """\
program main
  implicit none
  integer, parameter :: n = 300
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
     x(i) = i
     y(i) = 1
  end do
  call saxpy(n, 2d0, x, y)
  print '(3f8.1)', y(1), y(2), y(n)
end program
"""

C_REGION = """\
/* version {v} */
void saxpy(int n, double a, const double *restrict x, double *restrict y)
{{
#pragma translate kernel saxpy_k
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + {v} * y[i];
#pragma translate end kernel
}}
"""

C_MAIN = """\
#include <stdio.h>
void saxpy(int n, double a, const double *x, double *y);
int main(void)
{
  double x[300], y[300];
  for (int i = 0; i < 300; i++) { x[i] = i + 1; y[i] = 1; }
  saxpy(300, 2.0, x, y);
  printf("%8.1f%8.1f%8.1f\\n", y[0], y[1], y[299]);
  return 0;
}
"""

LANGS = {"fortran": ("s.f90", F_REGION, "main.f90", F_MAIN, "gfortran"),
         "c": ("s.c", C_REGION, "main.c", C_MAIN, "gcc")}
STAMP_MESSAGE = "undefined reference to `translate_outputs_out_of_date_rerun_translate_"


def expected(version: int) -> str:
    """What the program prints when the region computes y = a*x + version*y."""
    return "".join(f"{2.0 * i + version:8.1f}" for i in (1, 2, 300))


def _runtime(folder: Path) -> Path:
    obj = folder / "rt.o"
    if not obj.exists():
        must(run(["gcc", "-O1", "-c", f"-I{runtime_dir()}",
                  os.path.join(runtime_dir(), "translate_rt.c"), "-o", str(obj)], folder))
    return obj


def build(folder: Path, lang: str, source_dir: str, glue_dir: str
          ) -> subprocess.CompletedProcess:
    """Compile `source_dir`'s rewritten source and `glue_dir`'s glue, link with the main
    program; the link's result (a failed compile is a test failure)."""
    src, _, main, _, compiler = LANGS[lang]
    flags = ["-std=c99"] if lang == "c" else []
    must(run([compiler, *flags, "-c", f"{source_dir}/{src}", "-o", "s.o"], folder))
    must(run(["gcc", "-c", f"-I{runtime_dir()}", f"{glue_dir}/s.host.c", "-o", "g.o"],
             folder))
    return run([compiler, *flags, main, "s.o", "g.o", str(_runtime(folder)), "-lOpenCL",
                "-o", "prog"], folder)


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_outputs_of_two_runs_do_not_link(tmp_path: Path, lang: str) -> None:
    src, region, main, main_text, _ = LANGS[lang]
    write(tmp_path, main, main_text)
    for v in (1, 2):
        write(tmp_path, src, region.format(v=v))
        must(translate(src, "-o", f"out{v}", cwd=tmp_path))
    for v in (1, 2):   # each set as written builds and runs its own version
        must(build(tmp_path, lang, f"out{v}", f"out{v}"))
        assert must(run(["./prog"], tmp_path)).strip() == expected(v).strip()
    for source, glue in (("out2", "out1"), ("out1", "out2")):   # a mixed set is refused
        r = build(tmp_path, lang, source, glue)
        assert r.returncode != 0 and STAMP_MESSAGE in r.stderr, r.stderr


def test_edit_outside_the_regions_keeps_the_glue(tmp_path: Path) -> None:
    """The stamp hashes the glue: an edit outside the regions changes the rewritten source
    only, so the glue keeps its time and a build recompiles one file."""
    write(tmp_path, "s.f90", F_REGION.format(v=1))
    must(translate("s.f90", "-o", "out", cwd=tmp_path))
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    write(tmp_path, "s.f90", F_REGION.format(v=1).replace("! version 1", "! edited"))
    must(translate("s.f90", "-o", "out", cwd=tmp_path))
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    assert [n for n in sorted(after) if after[n] != before[n]] == ["s.f90"]


def test_stale_temporaries_are_removed(tmp_path: Path) -> None:
    write(tmp_path, "s.f90", F_REGION.format(v=1))
    dead = _dead_pid()
    out = tmp_path / "out"
    stale = [f".s.f90.{dead}.k2j3h4.tmp", f".s.host.c.{dead}.old", f".s.cl.{dead}.zz_9.tmp"]
    old = f".s.f90.{os.getpid()}.abcd.tmp"   # a live process, but older than a minute
    fresh = f".s.f90.{os.getpid()}.efgh.tmp"   # a live process, just written: kept
    other = [".s.f90.notes", ".other.f90.1.tmp"]   # not temporaries of these outputs
    for name in [*stale, old, fresh, *other]:
        write(out, name, "x")
    os.utime(out / old, (time.time() - 120, time.time() - 120))
    must(translate("s.f90", "-o", "out", cwd=tmp_path))
    hidden = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
    assert hidden == sorted([fresh, *other])


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_killed_translations_leave_a_consistent_or_refused_set(tmp_path: Path) -> None:
    """SIGKILL at random moments of ~20 translations, most of them inside the renames (slowed
    down by TRANSLATE_TEST_SLOW_RENAMES); after each, the set builds into the program of its
    rewritten source's version or is refused at link time; the next run leaves no
    temporaries."""
    write(tmp_path, "main.f90", F_MAIN)
    write(tmp_path, "s.f90", F_REGION.format(v=1))
    must(translate("s.f90", "-o", "out", cwd=tmp_path))
    rng = random.Random(28)
    # in-process: a SIGKILL of a client of the translation server does not kill the
    # translating child (the server interrupts it, and it finishes its renames first)
    slow = env(TRANSLATE_TEST_SLOW_RENAMES="0.3", TRANSLATE_SERVER="0")
    outcomes = {"consistent": 0, "refused": 0}
    for k in range(20):
        write(tmp_path, "s.f90", F_REGION.format(v=2 if k % 2 == 0 else 1))
        proc = subprocess.Popen([sys.executable, "-m", "translator.cli", "s.f90", "-o", "out"],
                                cwd=tmp_path, env=slow, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _wait_for_writes(tmp_path / "out", proc, rng.uniform(0.0, 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        outcomes[_judge(tmp_path)] += 1
        must(translate("s.f90", "-o", "out", cwd=tmp_path))   # the next run cleans up
        assert not [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]
    assert outcomes["refused"] > 0, outcomes   # the kills did land between renames


def _wait_for_writes(out: Path, proc: subprocess.Popen, delay: float) -> None:
    """Until the run has made its first temporary (translation done, renames under way),
    then `delay` seconds more."""
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        if any(p.name.endswith(".tmp") for p in out.iterdir()):
            break
        time.sleep(0.01)
    time.sleep(delay)


def _judge(folder: Path) -> str:
    """"consistent": the set builds and runs the version its rewritten source says;
    "refused": the link fails with the stamp's message."""
    r = build(folder, "fortran", "out", "out")
    if r.returncode != 0:
        assert STAMP_MESSAGE in r.stderr, r.stderr
        return "refused"
    version = int((folder / "out" / "s.f90").read_text().split("! version ")[1][0])
    assert must(run(["./prog"], folder)).strip() == expected(version).strip()
    return "consistent"


def _default_signal_handling() -> None:
    """The polite signals as a shell in the foreground leaves them.  A suite started in the
    background (`make test &`: the shell ignores SIGINT) or under `nohup` (SIGHUP) hands its
    processes ignored signals, and an ignored signal rightly ends nothing (exit 0)."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_polite_signals_wait_for_the_renames(tmp_path: Path, sig: int) -> None:
    """SIGTERM, SIGINT or SIGHUP while the outputs are renamed into place: the renames finish
    first, so the set is the new one, whole, and no temporary is left."""
    write(tmp_path, "s.f90", F_REGION.format(v=1))
    must(translate("s.f90", "-o", "new", cwd=tmp_path))   # what the new set must be
    new = {p.name: p.read_bytes() for p in (tmp_path / "new").iterdir()}
    write(tmp_path, "s.f90", F_REGION.format(v=2))
    must(translate("s.f90", "-o", "out", cwd=tmp_path))
    write(tmp_path, "s.f90", F_REGION.format(v=1))
    proc = subprocess.Popen([sys.executable, "-m", "translator.cli", "s.f90", "-o", "out"],
                            cwd=tmp_path, env=env(TRANSLATE_TEST_SLOW_RENAMES="0.3"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=_default_signal_handling)
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:   # a backup: renames under way
        if any(p.name.endswith(".old") for p in (tmp_path / "out").iterdir()):
            break
        time.sleep(0.005)
    assert proc.poll() is None, "the translation ended before the renames were seen"
    proc.send_signal(sig)
    assert proc.wait() != 0
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == new
