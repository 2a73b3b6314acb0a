"""The translation server (`translator.server`): the command line hands its invocation to a
per-user server that forks a child per request; results are those of an in-process run.

Real processes throughout: each test has its own ``XDG_RUNTIME_DIR`` (a short directory: a
Unix socket path holds at most 107 bytes), and every server started under it is killed at
teardown.  ``TRANSLATE_SERVER_DEBUG=1`` makes a served client say so on stderr: that line
is how a test knows the server ran the request.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.build.helpers import AUTO_C, REPO, SAXPY, SUM_C, env, must, run, write
from tests.build.shapes import shape

SERVED = "translate: served by server pid "
BAD_PRAGMA = SAXPY.replace('split_iname("i", 128', 'split_inam("i", 128')


@pytest.fixture
def runtime():
    """A private ``XDG_RUNTIME_DIR``; the servers started under it are killed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="tsrv-", dir="/tmp"))
    yield folder
    for pid in servers(folder):
        os.kill(pid, signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


def servers(runtime: Path) -> list[int]:
    """The ids of the server processes whose socket lies under `runtime`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            cmdline = Path("/proc", entry, "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if entry.isdigit() and len(cmdline) > 3 and b"translator.server" in cmdline[2] \
                and cmdline[3].startswith(os.fsencode(runtime)):
            found.append(int(entry))
    return found


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(w) for w in text.split()]


def translate(cwd: Path, runtime: Path, *args: str, **extra: str
              ) -> subprocess.CompletedProcess:
    """`translate ARGS` as a fresh process, the server debug line on."""
    return run([sys.executable, "-m", "translator.cli", *args], cwd,
               XDG_RUNTIME_DIR=str(runtime), TRANSLATE_SERVER_DEBUG="1", **extra)


def sockets(runtime: Path) -> list[Path]:
    return sorted((runtime / "translate").glob("*.sock"))


def wait_for(condition, what: str, timeout: float = 90.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def warm(cwd: Path, runtime: Path, **extra: str) -> None:
    """Start a server (the first client translates in-process) and wait until it listens."""
    write(cwd, "warm.c", AUTO_C)
    must(translate(cwd, runtime, "warm.c", "--emit", "cl", **extra))
    wait_for(lambda: sockets(runtime), "the server's socket")


def without_debug(text: str) -> str:
    return "".join(line for line in text.splitlines(True) if not line.startswith(SERVED))


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("name, text", [("saxpy.f90", SAXPY), ("sum.c", SUM_C)])
def test_served_results_are_those_of_an_in_process_run(tmp_path: Path, runtime: Path,
                                                       name: str, text: str) -> None:
    warm(tmp_path, runtime)
    write(tmp_path, name, text)
    args = (name, "--report=-", "--print-outputs")
    served = translate(tmp_path, runtime, *args, "-o", "served")
    local = translate(tmp_path, runtime, *args, "-o", "local", TRANSLATE_SERVER="0")
    assert SERVED in served.stderr and SERVED not in local.stderr
    assert served.returncode == local.returncode == 0
    assert served.stdout.replace("served/", "local/") == local.stdout
    assert without_debug(served.stderr) == local.stderr
    if name.endswith(".c"):
        assert "[-Wsequential-region]" in local.stderr
    assert outputs(tmp_path / "served") == outputs(tmp_path / "local")


def test_a_user_error_is_exit_1_with_its_diagnostic(tmp_path: Path, runtime: Path) -> None:
    warm(tmp_path, runtime)
    write(tmp_path, "bad.f90", BAD_PRAGMA)
    served = translate(tmp_path, runtime, "bad.f90", "-o", "out")
    local = translate(tmp_path, runtime, "bad.f90", "-o", "out", TRANSLATE_SERVER="0")
    assert SERVED in served.stderr
    assert served.returncode == local.returncode == 1
    assert without_debug(served.stderr) == local.stderr
    assert "bad.f90:8:" in local.stderr and "error: " in local.stderr
    assert not (tmp_path / "out").exists()


def test_an_internal_error_is_exit_2(tmp_path: Path, runtime: Path) -> None:
    """A bug in the child (the rename delay of the crash tests given a bad value) is
    reported as in-process: exit 2 and the internal-error message."""
    warm(tmp_path, runtime)
    write(tmp_path, "saxpy.f90", SAXPY)
    served = translate(tmp_path, runtime, "saxpy.f90", "-o", "out",
                       TRANSLATE_TEST_SLOW_RENAMES="oops")
    assert SERVED in served.stderr
    assert served.returncode == 2, served.stderr
    assert "internal error" in served.stderr and "could not convert" in served.stderr


def test_concurrent_clients_start_one_server(tmp_path: Path, runtime: Path) -> None:
    write(tmp_path, "scale.c", AUTO_C)
    procs = [subprocess.Popen([sys.executable, "-m", "translator.cli", "scale.c", "--emit",
                               "cl"], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              env=env(XDG_RUNTIME_DIR=str(runtime)))
             for _ in range(8)]
    texts = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), texts
    assert len({out for out, _ in texts}) == 1
    wait_for(lambda: sockets(runtime), "the server's socket")
    time.sleep(1.0)   # a second server, had one started, would be up by now
    assert len(servers(runtime)) == 1 and len(sockets(runtime)) == 1


def test_an_edited_translator_does_not_use_the_old_server(tmp_path: Path,
                                                           runtime: Path) -> None:
    copy = tmp_path / "copy"
    for package in ("translator", "frontends", "transforms"):
        shutil.copytree(REPO / package, copy / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    warm(tmp_path, runtime, PYTHONPATH=str(copy))
    old = sockets(runtime)
    write(tmp_path, "saxpy.f90", SAXPY)
    assert SERVED in translate(tmp_path, runtime, "saxpy.f90", "-o", "out",
                               PYTHONPATH=str(copy)).stderr
    with open(copy / "transforms" / "__init__.py", "a") as f:
        f.write("# an edit\n")
    after = translate(tmp_path, runtime, "saxpy.f90", "-o", "out", PYTHONPATH=str(copy))
    assert after.returncode == 0 and SERVED not in after.stderr
    wait_for(lambda: len(sockets(runtime)) == 2, "the new version's server")
    assert old[0] in sockets(runtime)


def test_an_idle_server_exits(tmp_path: Path, runtime: Path) -> None:
    warm(tmp_path, runtime, TRANSLATE_SERVER_IDLE="6")
    assert len(servers(runtime)) == 1   # (it listens: warm saw its socket)
    started = time.monotonic()
    wait_for(lambda: not servers(runtime), "the idle server to exit", timeout=60)
    assert time.monotonic() - started < 30 and not sockets(runtime)


def test_a_killed_client_leaves_no_outputs_and_no_child(tmp_path: Path,
                                                        runtime: Path) -> None:
    warm(tmp_path, runtime)
    server = servers(runtime)[0]
    name, text = shape("statements", "c", 400)
    write(tmp_path, name, text)
    client = subprocess.Popen([sys.executable, "-m", "translator.cli", name, "-o", "out"],
                              cwd=tmp_path, env=env(XDG_RUNTIME_DIR=str(runtime)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = wait_for(lambda: children(server), "the request's child")
    client.kill()
    client.wait()
    wait_for(lambda: not children(server), "the child to be ended", timeout=30)
    assert not os.path.exists(f"/proc/{child[0]}")
    out = tmp_path / "out"
    assert not out.exists() or not os.listdir(out)
    assert servers(runtime) == [server]   # the server itself goes on


@pytest.mark.parametrize("how", ["env", "option"])
def test_switched_off_nothing_is_started(tmp_path: Path, runtime: Path, how: str) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    args = ["saxpy.f90", "-o", "out"] + (["--no-server"] if how == "option" else [])
    extra = {"TRANSLATE_SERVER": "0"} if how == "env" else {}
    for _ in range(2):
        proc = translate(tmp_path, runtime, *args, **extra)
        assert proc.returncode == 0 and SERVED not in proc.stderr
    time.sleep(1.0)
    assert not (runtime / "translate").exists() and not servers(runtime)
    assert (tmp_path / "out" / "saxpy.cl").exists()
    must(translate(tmp_path, runtime, "saxpy.f90", "-o", "out"))   # switched on: one starts
    wait_for(lambda: servers(runtime), "a server")


@pytest.mark.parametrize("problem", ["mode", "owner", "link"])
def test_a_directory_not_private_is_refused(tmp_path: Path, runtime: Path,
                                            problem: str) -> None:
    folder = runtime / "translate"
    if problem == "link":
        (runtime / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(runtime / "elsewhere")
    else:
        folder.mkdir(mode=0o700)
    if problem == "mode":
        folder.chmod(0o755)
    if problem == "owner":
        if os.getuid() != 0:
            pytest.skip("only root can give a directory to another user")
        os.chown(folder, 12345, -1)
    write(tmp_path, "saxpy.f90", SAXPY)
    proc = translate(tmp_path, runtime, "saxpy.f90", "-o", "out")
    assert proc.returncode == 0 and SERVED not in proc.stderr
    reason = {"mode": "is open to others (mode 755, want 700)",
              "owner": "is owned by uid 12345, not by you",
              "link": "is not a directory (a link or a file)"}[problem]
    assert proc.stderr == (f"translate: note: not using the translation server: {folder} "
                           f"{reason}\n")
    time.sleep(1.0)
    assert not servers(runtime) and (tmp_path / "out" / "saxpy.cl").exists()


def test_the_wrapper_is_served(tmp_path: Path, runtime: Path) -> None:
    """``translate-cc gcc`` through the server: the program it builds runs as before."""
    warm(tmp_path, runtime)
    write(tmp_path, "scale.c", AUTO_C)
    write(tmp_path, "main.c", '#include <stdio.h>\nvoid scale(int, double, const double *, '
          'double *);\nint main(void)\n{\n  double x[3] = {1, 2, 3}, y[3];\n  scale(3, 2.0, '
          'x, y);\n  printf("%g %g %g\\n", y[0], y[1], y[2]);\n  return 0;\n}\n')
    wrapper = str(Path(sys.executable).parent / "translate-cc")
    built = run([wrapper, "gcc", "-c", "scale.c", "-o", "scale.o"], tmp_path,
                XDG_RUNTIME_DIR=str(runtime), TRANSLATE_SERVER_DEBUG="1")
    assert built.returncode == 0 and SERVED in built.stderr, built.stderr
    must(run([wrapper, "gcc", "main.c", "scale.o", "-o", "prog"], tmp_path,
             XDG_RUNTIME_DIR=str(runtime)))
    assert must(run(["./prog"], tmp_path)) == "2 4 6\n"


def test_a_polite_signal_reaches_the_child_which_finishes_its_renames(tmp_path: Path,
                                                                      runtime: Path) -> None:
    """SIGTERM to a served client while its child renames the outputs: the renames finish,
    then the client ends by SIGTERM, as an in-process run does."""
    warm(tmp_path, runtime)
    write(tmp_path, "saxpy.f90", SAXPY)
    must(translate(tmp_path, runtime, "saxpy.f90", "-o", "new"))
    new = outputs(tmp_path / "new")
    write(tmp_path, "saxpy.f90", SAXPY.replace("a*x(i)", "a*x(i)*2"))
    must(translate(tmp_path, runtime, "saxpy.f90", "-o", "out"))
    write(tmp_path, "saxpy.f90", SAXPY)
    client = subprocess.Popen([sys.executable, "-m", "translator.cli", "saxpy.f90", "-o",
                               "out"], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                              env=env(XDG_RUNTIME_DIR=str(runtime), TRANSLATE_SERVER_DEBUG="1",
                                      TRANSLATE_TEST_SLOW_RENAMES="0.3"))
    wait_for(lambda: any(p.name.endswith(".old") for p in (tmp_path / "out").iterdir()),
             "the renames", timeout=60)
    client.send_signal(signal.SIGTERM)
    _, err = client.communicate(timeout=60)
    assert client.returncode == -signal.SIGTERM and SERVED in err
    assert outputs(tmp_path / "out") == new


def test_the_clients_resource_limits_hold_in_the_child(tmp_path: Path, runtime: Path) -> None:
    """``ulimit -f``: the served child cannot write past the client's file size limit."""
    import resource
    warm(tmp_path, runtime)
    write(tmp_path, "saxpy.f90", SAXPY)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "saxpy.f90", "-o", "out"],
                          cwd=tmp_path, capture_output=True, text=True, preexec_fn=limited,
                          check=False,
                          env=env(XDG_RUNTIME_DIR=str(runtime), TRANSLATE_SERVER_DEBUG="1"))
    assert proc.returncode == 1 and SERVED in proc.stderr
    assert "File too large (no output of saxpy.f90 was written)" in proc.stderr
