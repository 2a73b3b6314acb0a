"""The result cache (`translator.build.cache`): a hit replays what the first run wrote and
printed without importing the translator's pipeline; any part of the key that changes is a
miss; concurrent writers and damaged entries are harmless.

Each run is a fresh process that reports which heavy modules it imported: a hit imports
none of them (the pipeline, numpy, islpy, pymbolic), a miss imports the pipeline.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build.helpers import AUTO_C, REPO, SAXPY, SUM_C, env, write
from translator.build.cache import PACKAGES, canonical

HEAVY = ("translator.driver", "numpy", "islpy", "pymbolic")
_PROBE = f"""\
import sys
from translator.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
heavy = [m for m in {HEAVY!r} if m in sys.modules]
sys.stderr.write("\\nHEAVY=" + ",".join(heavy) + "\\n")
sys.exit(code)
"""

USES_MODULE = """\
subroutine scale(n, x, y)
  use consts
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel scale_k
  do i = 1, n
     y(i) = factor * x(i)
  end do
  !$translate end kernel
end subroutine
"""
CONSTS = "module consts\n  implicit none\n  real(8), parameter :: factor = {}\nend module\n"
C_WITH_HEADER = '#include "scale.h"\n' + AUTO_C.replace("s * x[i]", "s * x[i] + SHIFT")


class Run:
    """One translation in a fresh process: exit status, stdout, stderr (without the probe's
    line) and whether it was a cache hit (imported none of `HEAVY`)."""

    def __init__(self, proc: subprocess.CompletedProcess) -> None:
        self.code, self.stdout = proc.returncode, proc.stdout
        self.stderr, _, heavy = proc.stderr.rpartition("\nHEAVY=")
        self.heavy = [m for m in heavy.strip().split(",") if m]
        self.hit = not self.heavy


def translate(cwd: Path, *args: str, cache: Path, pythonpath: str | None = None) -> Run:
    extra = {"TRANSLATE_CACHE_DIR": str(cache)}
    if pythonpath:
        extra["PYTHONPATH"] = pythonpath
    return Run(subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=cwd,
                              capture_output=True, text=True, env=env(**extra), timeout=300))


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_hit_replays_outputs_without_heavy_imports(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    first = translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache)
    assert first.code == 0 and not first.hit, first.stderr
    assert "translator.driver" in first.heavy and "islpy" in first.heavy
    written = outputs(tmp_path / "out")
    shutil.rmtree(tmp_path / "out")
    second = translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache)
    assert second.code == 0 and second.hit, second.heavy
    assert outputs(tmp_path / "out") == written
    assert (second.stdout, second.stderr) == (first.stdout, first.stderr)


#: Standard modules a hit does without: each costs 1-3 ms of the 50 ms a hit may take
#: (typing, shutil through argparse's help formatter, traceback for internal errors).
NOT_ON_A_HIT = ("typing", "shutil", "traceback")


def test_hit_imports_no_module_it_does_not_need(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache).code == 0
    probe = ("import sys; before = set(sys.modules); from translator.cli import main; "
             "code = main(sys.argv[1:]); print(sorted(m for m in set(sys.modules) - before "
             f"if m in {NOT_ON_A_HIT!r}), code)")
    proc = subprocess.run([sys.executable, "-c", probe, "--cache", "saxpy.f90", "-o", "out"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env=env(TRANSLATE_CACHE_DIR=str(cache)), check=False)
    assert proc.stdout.splitlines()[-1] == "[] 0", proc.stdout + proc.stderr


def test_without_cache_option_the_cli_does_not_use_it(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache).code == 0
    assert not translate(tmp_path, "saxpy.f90", "-o", "out", cache=cache).hit
    assert not translate(tmp_path, "--cache", "--no-cache", "saxpy.f90", "-o", "out",
                         cache=cache).hit
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache).hit


def test_stdout_and_depfile_replayed(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "scale.c", C_WITH_HEADER)
    write(tmp_path, "scale.h", "#define SHIFT 1.0\n")
    args = ("--cache", "scale.c", "--emit", "cl")
    first = translate(tmp_path, *args, cache=cache)
    second = translate(tmp_path, *args, cache=cache)
    assert first.code == 0 and second.hit and second.stdout == first.stdout != ""
    args = ("--cache", "scale.c", "-o", "out", "-MD")
    first = translate(tmp_path, *args, cache=cache)
    depfile = (tmp_path / "out" / "scale.d").read_bytes()
    (tmp_path / "out" / "scale.d").unlink()
    second = translate(tmp_path, *args, cache=cache)
    assert first.code == 0 and second.hit
    assert (tmp_path / "out" / "scale.d").read_bytes() == depfile
    assert b"scale.h" in depfile


def test_miss_when_the_source_changes(tmp_path: Path, cache: Path) -> None:
    src = write(tmp_path, "saxpy.f90", SAXPY)
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache).code == 0
    src.write_text(SAXPY.replace("a*x(i)", "2*a*x(i)"))
    changed = translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache)
    assert changed.code == 0 and not changed.hit
    assert "2.0 * a" in (tmp_path / "out" / "saxpy.cl").read_text() or \
        "2 * a" in (tmp_path / "out" / "saxpy.cl").read_text()


@pytest.mark.parametrize("option", [
    "--reassociate", "-DSCALE=2", "-UNDEBUG", "-Iinc", "--unique-symbols", "--all-outputs",
    "-Werror", "-Wno-sequential-region", "-w", "--report", "--language=c", "-MD",
])
def test_miss_when_an_option_changes(tmp_path: Path, cache: Path, option: str) -> None:
    write(tmp_path, "sum.c", SUM_C)
    (tmp_path / "inc").mkdir()
    base = translate(tmp_path, "--cache", "sum.c", "-o", "out", cache=cache)
    assert base.code == 0, base.stderr
    assert translate(tmp_path, "--cache", "sum.c", "-o", "out", cache=cache).hit
    other = translate(tmp_path, "--cache", option, "sum.c", "-o", "out", cache=cache)
    assert not other.hit, option
    again = translate(tmp_path, "--cache", option, "sum.c", "-o", "out", cache=cache)
    assert (again.code, again.stderr) == (other.code, other.stderr)
    assert again.hit == (other.code == 0)   # failures are not stored


def test_miss_when_an_output_directory_changes(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache).code == 0
    assert not translate(tmp_path, "--cache", "saxpy.f90", "-o", "elsewhere", cache=cache).hit


def test_miss_when_an_included_file_changes(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "scale.c", C_WITH_HEADER)
    header = write(tmp_path, "scale.h", "#define SHIFT 1.0\n")
    assert translate(tmp_path, "--cache", "scale.c", "-o", "out", cache=cache).code == 0
    assert translate(tmp_path, "--cache", "scale.c", "-o", "out", cache=cache).hit
    header.write_text("#define SHIFT 7.5\n")
    changed = translate(tmp_path, "--cache", "scale.c", "-o", "out", cache=cache)
    assert changed.code == 0 and not changed.hit
    assert "7.5" in (tmp_path / "out" / "scale.cl").read_text()
    assert translate(tmp_path, "--cache", "scale.c", "-o", "out", cache=cache).hit


def test_miss_when_a_used_module_source_changes(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "scale.f90", USES_MODULE)
    module = write(tmp_path, "mods/consts.f90", CONSTS.format("3.0d0"))
    args = ("--cache", "scale.f90", "-Imods", "-o", "out")
    first = translate(tmp_path, *args, cache=cache)
    assert first.code == 0, first.stderr
    assert translate(tmp_path, *args, cache=cache).hit
    module.write_text(CONSTS.format("5.0d0"))
    changed = translate(tmp_path, *args, cache=cache)
    assert changed.code == 0 and not changed.hit
    assert "5.0" in (tmp_path / "out" / "scale.cl").read_text()


def test_miss_when_the_translator_changes(tmp_path: Path, cache: Path) -> None:
    """A copy of the translator's packages: editing one of its files is a new version."""
    copy = tmp_path / "copy"
    for package in PACKAGES:
        shutil.copytree(REPO / package, copy / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    write(tmp_path, "saxpy.f90", SAXPY)
    args = ("--cache", "saxpy.f90", "-o", "out")
    assert translate(tmp_path, *args, cache=cache, pythonpath=str(copy)).code == 0
    assert translate(tmp_path, *args, cache=cache, pythonpath=str(copy)).hit
    with open(copy / "transforms" / "__init__.py", "a") as f:
        f.write("# an edit\n")
    assert not translate(tmp_path, *args, cache=cache, pythonpath=str(copy)).hit
    assert translate(tmp_path, *args, cache=cache, pythonpath=str(copy)).hit


def test_warnings_and_report_replayed(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "sum.c", SUM_C)
    args = ("--cache", "sum.c", "-o", "out", "--report")
    first = translate(tmp_path, *args, cache=cache)
    assert first.code == 0 and "[-Wsequential-region]" in first.stderr
    second = translate(tmp_path, *args, cache=cache)
    assert second.hit and second.stderr == first.stderr
    promoted = translate(tmp_path, *args, "-Werror", cache=cache)
    assert promoted.code == 1 and not promoted.hit
    assert "[-Werror=sequential-region]" in promoted.stderr


def test_time_passes_bypasses_the_cache(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "out", cache=cache).code == 0
    timed = translate(tmp_path, "--cache", "--time-passes", "saxpy.f90", "-o", "out",
                      cache=cache)
    assert not timed.hit and "translate: pass codegen:" in timed.stderr


def test_damaged_entries_are_ignored_and_replaced(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    args = ("--cache", "saxpy.f90", "-o", "out")
    assert translate(tmp_path, *args, cache=cache).code == 0
    written = outputs(tmp_path / "out")
    stored = sorted(p for p in (cache / "entries").rglob("*") if p.is_file())
    assert len(stored) == 1
    damaged = stored[0].read_bytes()
    stored[0].write_bytes(damaged[:-40] + b"garbage")    # as if a writer had been cut off
    shutil.rmtree(tmp_path / "out")
    again = translate(tmp_path, *args, cache=cache)
    assert again.code == 0 and not again.hit
    assert outputs(tmp_path / "out") == written
    assert stored[0].read_bytes() == damaged              # replaced by a whole entry
    for path in (cache / "manifests").rglob("*"):
        if path.is_file():
            path.write_bytes(b"not a manifest")
    assert not translate(tmp_path, *args, cache=cache).hit
    assert translate(tmp_path, *args, cache=cache).hit


def test_concurrent_writers_share_the_cache(tmp_path: Path, cache: Path) -> None:
    write(tmp_path, "saxpy.f90", SAXPY)
    write(tmp_path, "scale.c", AUTO_C)
    cmds = [[sys.executable, "-c", _PROBE, "--cache", src, "-o", out]
            for src, out in (("saxpy.f90", "a"), ("saxpy.f90", "b"), ("scale.c", "c"),
                             ("scale.c", "d"))]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              env=env(TRANSLATE_CACHE_DIR=str(cache))) for cmd in cmds]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    assert outputs(tmp_path / "a") == outputs(tmp_path / "b")
    assert outputs(tmp_path / "c") == outputs(tmp_path / "d")
    assert not [p for p in cache.rglob("*.tmp")]             # no temporary left behind
    written = outputs(tmp_path / "a")
    shutil.rmtree(tmp_path / "a")
    assert translate(tmp_path, "--cache", "saxpy.f90", "-o", "a", cache=cache).hit
    assert translate(tmp_path, "--cache", "scale.c", "-o", "d", cache=cache).hit
    assert outputs(tmp_path / "a") == written


def test_wrapper_uses_the_cache_unless_told_not_to(tmp_path: Path) -> None:
    write(tmp_path, "scale.c", AUTO_C)
    for flags, used in (("--no-cache", False), ("", True)):
        cache = tmp_path / f"cache{int(used)}"
        proc = subprocess.run(["translate-cc", "gcc", "-c", "scale.c", "-o", "scale.o"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env=env(TRANSLATE_CACHE_DIR=str(cache), TRANSLATE_FLAGS=flags))
        assert proc.returncode == 0, proc.stderr
        assert (cache / "entries").is_dir() == used


def test_options_key_ignores_set_and_dict_order() -> None:
    from translator.build.job import JobOptions
    from translator.build.warnpolicy import WarningPolicy
    one = JobOptions(frontend={"a": 1, "b": [2]}, policy=WarningPolicy(disabled=frozenset("xy")))
    two = JobOptions(frontend={"b": [2], "a": 1}, policy=WarningPolicy(disabled=frozenset("yx")))
    assert canonical(one) == canonical(two)
    assert canonical(one) != canonical(JobOptions(frontend={"a": 1, "b": [3]}))
