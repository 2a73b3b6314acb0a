"""End to end: the runtime opens the device while the program starts (h44, issue 29).

A constructor loads the OpenCL implementation, chooses the device, registers the runtime's
exit handler and starts a thread that creates the context and the queue; the first region or
data call takes them.  ``early_start/early_exit.c`` exits after a delay (exit(), a return from
main, after one region call, or after a fork whose child exits at once) while that thread may
still be inside the implementation: the status and the buffered output must survive every
time.  A child of fork() that calls a region gets a message instead of a hang, the device is
chosen again when the program changes TRANSLATE_DEVICE before its first call, and
``TRANSLATE_EARLY_INIT=0`` turns all of it off.  The runtime's thread, its join at exit and the
fork handler are also run under AddressSanitizer and ThreadSanitizer.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, SampleOptions, build_translated
from tests.e2e.test_data_regions import SUPPRESSIONS

HERE = Path(__file__).parent / "early_start"
DEVICE = {"TRANSLATE_DEVICE": "cpu"}
TOTAL = "total 16320\n"
SOURCE = HERE / "early_exit.c"
FORK_CHILD = (f"{SOURCE}:18: error: translate runtime: this process is a child of fork() "
              "and the OpenCL implementation was started in its parent at program start; no "
              "implementation works in such a child: set TRANSLATE_EARLY_INIT=0 to start it at "
              "the first region or data call")


@pytest.fixture(scope="module")
def exe(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("early_start")
    return build_translated(SOURCE, work, SampleOptions())


def launch(exe: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120,
                          cwd=exe.parent, env={**os.environ, **DEVICE, **env})


def expected_output(how: str, status: int) -> str:
    if how == "region":
        return "start\n" + TOTAL
    if how == "fork":
        return f"start\nchild\nstart\nchild status {status}\n" + TOTAL
    return "start\n"


def test_exits_while_the_device_opens(exe: Path) -> None:
    """Exits from 0 to 400 ms after start, most within the first 20 ms (the thread's time on
    PoCL): every run keeps its exit status and its output.  bench/startup/early_exit.sh runs
    the same storm hundreds of times (bench/RESULTS.md)."""
    ways = ["exit", "return", "region", "fork"]
    for i in range(48):
        us = (i * 7919) % 400000 if i % 4 == 3 else (i * 211) % 20000
        how, status = ways[i % 4], 3 + i % 7
        proc = launch(exe, str(us), str(status), how)
        assert proc.returncode == status, (i, how, us, proc.stderr)
        assert proc.stdout == expected_output(how, status), (i, how, us, proc.stderr)


def test_verbose_says_the_device_opened_early(exe: Path) -> None:
    """Before: the device was opened by the first call, and the line had no such note."""
    proc = launch(exe, "100000", "0", "region", TRANSLATE_VERBOSE="1")
    assert proc.returncode == 0, proc.stderr
    assert ("\ntranslate runtime: device opened while the program started "
            "(TRANSLATE_EARLY_INIT)\n") in proc.stderr
    assert proc.stdout == "start\n" + TOTAL
    proc = launch(exe, "0", "0", "region", TRANSLATE_VERBOSE="1", TRANSLATE_EARLY_INIT="0")
    assert proc.returncode == 0, proc.stderr
    assert "translate runtime: using device " in proc.stderr
    assert "device opened while the program started" not in proc.stderr


def test_fork_child_gets_a_message_not_a_hang(exe: Path) -> None:
    """A child of fork() that calls a region: the implementation's threads stayed in the
    parent (PoCL hung in the launch before this message); the parent goes on."""
    proc = launch(exe, "20000", "7", "forkregion")
    assert proc.returncode == 7, proc.stderr
    assert FORK_CHILD in proc.stderr
    assert proc.stdout.endswith("child status 1\n" + TOTAL), proc.stdout
    proc = launch(exe, "0", "7", "forkregion", TRANSLATE_EARLY_INIT="0")
    assert proc.returncode == 7, proc.stderr
    assert proc.stdout == "start\nchild 16320\nstart\nchild status 7\n" + TOTAL


@pytest.mark.parametrize("choice", ["nomatch", "0:0"])
def test_device_chosen_again_after_setenv(exe: Path, choice: str) -> None:
    """TRANSLATE_DEVICE changed by the program before its first call: the early device is
    dropped and the call chooses again, reporting a bad value at its own location."""
    proc = launch(exe, "0", "5", "setenv", choice, TRANSLATE_VERBOSE="1")
    if choice == "nomatch":
        assert proc.returncode == 1
        assert proc.stderr.startswith(
            f'{SOURCE}:18: error: translate runtime: no OpenCL device matches '
            'TRANSLATE_DEVICE="nomatch"'), proc.stderr
    else:
        assert proc.returncode == 5, proc.stderr
        assert proc.stdout == "start\n" + TOTAL
        assert "translate runtime: using device 0:0 " in proc.stderr
        assert "device opened while the program started" not in proc.stderr


@pytest.mark.parametrize("sanitizer", ["address", "thread"])
def test_early_start_clean_under_sanitizers(exe: Path, sanitizer: str) -> None:
    work = exe.parent
    out, rt = work / "out", REPO / "translator" / "runtime"
    san = work / f"san_{sanitizer}"
    subprocess.run(["gcc", "-std=c99", "-g", f"-fsanitize={sanitizer}", f"-I{rt}",
                    str(out / "early_exit.c"), str(out / "early_exit.host.c"),
                    str(rt / "translate_rt.c"), "-lOpenCL", "-lm", "-o", str(san)],
                   check=True, cwd=work, capture_output=True, text=True)
    (work / "lsan.supp").write_text(SUPPRESSIONS)
    env = {"ASAN_OPTIONS": "detect_leaks=1",
           "LSAN_OPTIONS": f"suppressions={work / 'lsan.supp'}:print_suppressions=0"}
    # the fork comes after the thread has ended: a child forked while it runs inherits its
    # allocations in flight, which LeakSanitizer reports in the child
    for args in (["0", "3", "exit"], ["5000", "4", "region"], ["500000", "6", "fork"],
                 ["200000", "0", "region"]):
        proc = launch(san, *args, **env)
        assert proc.returncode == int(args[1]), proc.stderr
        assert "Sanitizer" not in proc.stderr, proc.stderr
        assert proc.stdout == expected_output(args[2], int(args[1]))


def test_fortran_stops_while_the_device_opens(tmp_path: Path) -> None:
    """The same for a Fortran program ending with STOP (libgfortran's exit) or after a region."""
    exe = build_translated(HERE / "early_exit_f.f90", tmp_path, SampleOptions())
    for i in range(16):
        us = (i * 7919) % 400000 if i % 4 == 3 else (i * 1409) % 20000
        how, status = ("stop", "region")[i % 2], 3 + i % 4
        proc = launch(exe, str(us), str(status), how)
        assert proc.returncode == status, (i, how, us, proc.stderr)
        assert proc.stdout == "start\n" + ("total 16320.0\n" if how == "region" else ""), i
        assert proc.stderr == f"STOP {status}\n", (i, proc.stderr)


def test_program_calling_opencl_itself_at_once(tmp_path: Path) -> None:
    """Before: the early start's thread chose the device while ``main`` listed the devices
    itself; PoCL's lazy device set-up ran in both threads and crashed (SIGSEGV in most runs)."""
    rt = REPO / "translator" / "runtime"
    exe = tmp_path / "own_opencl"
    subprocess.run(["gcc", "-O1", "-std=c99", f"-I{rt}", str(HERE / "own_opencl.c"),
                    str(rt / "translate_rt.c"), "-lOpenCL", "-o", str(exe)],
                   check=True, capture_output=True, text=True)
    for _ in range(12):
        proc = launch(exe)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("devices "), proc.stdout
