"""The runtime's program binary cache on disk (issue 29 item 4): a second run loads the
built program instead of compiling it; corrupt, truncated or foreign entries are rebuilt and
replaced; ``TRANSLATE_KERNEL_CACHE=off`` disables it.  Runs on the PoCL CPU device."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.unit.test_runtime import (SAXPY_CL, SAXPY_MAIN, build_program, run, saxpy_code,
                                     saxpy_expected)
from translator.codegen.host import HostUnit, generate_host_file, glue_signature

LINE = re.compile(r"kernel cache (\S+): (\d+) program\(s\) loaded, (\d+) built, (\d+) unusable")


@pytest.fixture(scope="module")
def exes(tmp_path_factory) -> tuple[Path, Path]:
    """Two programs whose kernels differ (by a comment: another source, another entry)."""
    build = tmp_path_factory.mktemp("kc")
    out = []
    for name, source in (("one", SAXPY_CL), ("two", SAXPY_CL + "/* another source */\n")):
        code = saxpy_code(source)
        unit = HostUnit("saxpy_k", glue_signature("saxpy_k", code), code, "saxpy.f90:7")
        out.append(build_program(build, generate_host_file([unit], source_name="saxpy.f90"),
                                 SAXPY_MAIN, name))
    return out[0], out[1]


def _run(exe: Path, cache: Path | str, **env: str) -> tuple[int, int, int]:
    """Runs `exe` with the profile on; checks its results; returns (loaded, built, replaced)."""
    proc = run(exe, TRANSLATE_DEVICE="cpu", TRANSLATE_PROFILE="1",
               TRANSLATE_KERNEL_CACHE=str(cache), **env)
    assert proc.returncode == 0, proc.stderr
    assert [float(v) for v in proc.stdout.split()] == saxpy_expected()
    match = LINE.search(proc.stderr)
    assert match is not None, proc.stderr
    assert match.group(1) == str(cache)
    return int(match.group(2)), int(match.group(3)), int(match.group(4))


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.iterdir())


def test_second_run_loads_the_binary(exes, tmp_path: Path) -> None:
    cache = tmp_path / "deep" / "cache"           # made with its parents
    assert _run(exes[0], cache) == (0, 1, 0)
    [entry] = _entries(cache)
    assert entry.suffix == ".clbin"
    stamp = entry.stat().st_mtime_ns
    assert _run(exes[0], cache) == (1, 0, 0)
    assert _entries(cache) == [entry] and entry.stat().st_mtime_ns == stamp
    assert _run(exes[1], cache) == (0, 1, 0)      # another source: its own entry
    assert len(_entries(cache)) == 2


def test_float_division_and_sqrt_are_built_correctly_rounded(exes, tmp_path: Path) -> None:
    """The options a program is built with are part of its entry's key: on a device that can
    round float division and sqrt correctly (PoCL can), the runtime asks for it; without the
    option NVIDIA's compiler rounds a quarter of float divisions differently from gcc
    (bench/RESULTS.md, "Float division and square root on NVIDIA")."""
    cache = tmp_path / "cache"
    assert _run(exes[0], cache) == (0, 1, 0)
    [entry] = _entries(cache)
    key = entry.read_bytes()[:4096]
    assert b"\noptions=-cl-kernel-arg-info -cl-fp32-correctly-rounded-divide-sqrt\n" in key


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty"])
def test_corrupt_entry_is_rebuilt_and_replaced(exes, tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    _run(exes[0], cache)
    [entry] = _entries(cache)
    data = bytearray(entry.read_bytes())
    if damage == "flip":
        middle = len(data) - 100      # inside the binary, which the checksum covers
        data[middle:middle + 8] = bytes(b ^ 0x5A for b in data[middle:middle + 8])
    entry.write_bytes(bytes(data[:40]) if damage == "truncate" else
                      b"" if damage == "empty" else bytes(data))
    assert _run(exes[0], cache) == (0, 1, 1)
    assert _run(exes[0], cache) == (1, 0, 0)      # the replacement is good
    assert not [p for p in cache.iterdir() if ".tmp" in p.name]


def test_entry_of_another_source_is_not_used(exes, tmp_path: Path) -> None:
    """An entry under this program's name holding another source (a hash collision, or a file
    copied by hand) is not loaded: the key is compared byte for byte."""
    one, two = tmp_path / "one", tmp_path / "two"
    _run(exes[0], one)
    _run(exes[1], two)
    [entry_one], [entry_two] = _entries(one), _entries(two)
    entry_two.write_bytes(entry_one.read_bytes())
    assert _run(exes[1], two) == (0, 1, 1)


def test_cache_off_and_default_directory(exes, tmp_path: Path) -> None:
    proc = run(exes[0], TRANSLATE_DEVICE="cpu", TRANSLATE_PROFILE="1",
               TRANSLATE_KERNEL_CACHE="off", XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert proc.returncode == 0 and "kernel cache" not in proc.stderr
    assert not (tmp_path / "xdg" / "translate").exists()   # (PoCL keeps its own cache there)
    proc = run(exes[0], TRANSLATE_DEVICE="cpu", TRANSLATE_VERBOSE="1",
               XDG_CACHE_HOME=str(tmp_path / "xdg"))
    default = tmp_path / "xdg" / "translate" / "kernels"
    [entry] = _entries(default)
    assert f"translate runtime: kernel cache: stored {entry}" in proc.stderr
