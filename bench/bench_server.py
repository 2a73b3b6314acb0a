"""CPU time of cold translations with and without the translation server (issue 24).

Two measurements, each with the server off (``TRANSLATE_SERVER=0``) and with a warm server
(started and warmed up before the runs, in a private ``XDG_RUNTIME_DIR``):

- ``cold``: ``translate --no-cache samples/fortran/saxpy.f90 -o out``, a fresh process per
  run; the client's CPU (user + system, from ``wait4``) and, when served, the child's CPU
  the server reports (``TRANSLATE_SERVER_DEBUG=1``);
- ``build``: ``make -j2`` of N Fortran files, each with a region, compiled by
  ``translate-fc gfortran -c`` (a fresh result cache per run, so every file is translated);
  the CPU of make and everything it waited for, plus the server's own CPU and that of its
  children (``/proc/<server>/stat``: utime, stime, cutime, cstime) over the run.

Usage::

    python bench/bench_server.py                      # both, least of 5 runs
    python bench/bench_server.py --repeat 3 --files 50 --only build

Run from the checkout with its virtualenv's python (``unset PYTHONDONTWRITEBYTECODE`` and run
once before, so that compiled bytecode exists).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SERVED = re.compile(r"translate: served by server pid (\d+): child CPU ([0-9.]+) s")
TICK = os.sysconf("SC_CLK_TCK")

REGION = """\
subroutine saxpy{k}(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     y(i) = a*x(i) + {k}*y(i)
  end do
  !$translate end kernel
end subroutine
"""


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """(CPU seconds of the process and its waited-for descendants, stderr)."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} failed:\n{text}")
    return usage.ru_utime + usage.ru_stime, text


def server_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(fields[k]) for k in (11, 12, 13, 14)) / TICK


def start_server(work: Path, env: dict[str, str]) -> int:
    src = work / "warm.f90"
    src.write_text(REGION.format(k=0))
    timed([str(BIN / "translate"), "--no-cache", str(src), "-o", str(work / "warm")], work,
          env)
    for _ in range(600):
        time.sleep(0.1)
        _, text = timed([str(BIN / "translate"), "--no-cache", str(src), "-o",
                         str(work / "warm")], work, env)
        found = SERVED.search(text)
        if found:
            return int(found.group(1))
    raise SystemExit("the server did not start")


def cold(work: Path, env: dict[str, str], repeat: int) -> list[tuple[float, float]]:
    cmd = [str(BIN / "translate"), "--no-cache", str(ROOT / "samples/fortran/saxpy.f90"),
           "-o", str(work / "out")]
    runs = []
    for _ in range(repeat):
        cpu, text = timed(cmd, work, env)
        found = SERVED.search(text)
        runs.append((cpu, float(found.group(2)) if found else 0.0))
    return runs


def build(work: Path, env: dict[str, str], files: int, server: int | None,
          repeat: int) -> list[tuple[float, float]]:
    runs = []
    for r in range(repeat):
        folder = work / f"build{r}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for k in range(files):
            (folder / f"s{k}.f90").write_text(REGION.format(k=k + 1))
        objs = " ".join(f"s{k}.o" for k in range(files))
        (folder / "Makefile").write_text(f"all: {objs}\n%.o: %.f90\n\t$(FC) -c $< -o $@\n")
        run_env = dict(env, TRANSLATE_CACHE_DIR=str(folder / "cache"))
        before = server_cpu(server) if server else 0.0
        cpu, _ = timed(["make", "-s", "-j2", f"FC={BIN / 'translate-fc'} gfortran"], folder,
                       run_env)
        runs.append((cpu, server_cpu(server) - before if server else 0.0))
    return runs


def show(name: str, runs: list[tuple[float, float]]) -> None:
    """The least total CPU of `runs` (client or make, server side) and every total."""
    totals = [a + b for a, b in runs]
    best = min(range(len(runs)), key=lambda k: totals[k])
    print(f"{name}: least total {totals[best]:.3f} s (client/make {runs[best][0]:.3f} s + "
          f"server side {runs[best][1]:.3f} s); all totals "
          + ", ".join(f"{t:.3f}" for t in totals), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--files", type=int, default=50)
    ap.add_argument("--only", choices=("cold", "build"))
    args = ap.parse_args()
    runtime = Path(tempfile.mkdtemp(prefix="bsrv-", dir="/tmp"))
    work = Path(tempfile.mkdtemp(prefix="bench-server-"))
    base = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), TRANSLATE_SERVER_DEBUG="1",
                TRANSLATE_SERVER_IDLE="3600", PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    off = dict(base, TRANSLATE_SERVER="0")
    server = start_server(work, base)
    try:
        if args.only in (None, "cold"):
            show("cold saxpy.f90, no server", cold(work, off, args.repeat))
            show("cold saxpy.f90, warm server", cold(work, base, args.repeat))
        if args.only in (None, "build"):
            label = f"make -j2 of {args.files} files"
            show(f"{label}, warm server", build(work, base, args.files, server, args.repeat))
            show(f"{label}, no server", build(work, off, args.files, None, args.repeat))
    finally:
        os.kill(server, signal.SIGTERM)
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)


if __name__ == "__main__":
    main()
