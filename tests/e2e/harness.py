"""Build a sample as written and as translated, run both on the CPU OpenCL device, compare.

A sample's first lines may carry options in a comment: ``translate-test: rtol=1e-12
cppflags=-DN=100 translate=-DN=100``.  Without rtol the outputs must be identical.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TRANSLATE = [sys.executable, "-m", "translator.cli"]
FORTRAN_SUFFIXES = {".f90", ".F90", ".f95", ".f03", ".f08", ".f", ".F", ".for", ".f77"}


@dataclass
class SampleOptions:
    rtol: float = 0.0
    cppflags: tuple[str, ...] = ()
    translate_flags: tuple[str, ...] = ()


def sample_options(src: Path) -> SampleOptions:
    head = "".join(src.read_text().splitlines(keepends=True)[:5])
    m = re.search(r"translate-test:(.*)", head)
    opts = SampleOptions()
    if not m:
        return opts
    for word in shlex.split(m.group(1).replace("*/", "")):
        key, _, value = word.partition("=")
        if key == "rtol":
            opts.rtol = float(value)
        elif key == "cppflags":
            opts.cppflags += (value,)
        elif key == "translate":
            opts.translate_flags += (value,)
    return opts


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: int = 300) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    if proc.returncode != 0:
        raise AssertionError(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}\n"
                             f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc.stdout


def is_fortran(src: Path) -> bool:
    return src.suffix in FORTRAN_SUFFIXES


def build_original(src: Path, work: Path, opts: SampleOptions) -> Path:
    exe = work / "original"
    if is_fortran(src):
        run(["gfortran", "-O1", *opts.cppflags, str(src), "-o", str(exe)], work)
    else:
        run(["gcc", "-O1", "-std=c99", *opts.cppflags, str(src), "-o", str(exe), "-lm"], work)
    return exe


def translate(src: Path, out: Path, opts: SampleOptions, extra: tuple[str, ...] = ()) -> None:
    run([*TRANSLATE, str(src), "-o", str(out), *opts.translate_flags, *extra], REPO)


def runtime_dir() -> Path:
    return REPO / "translator" / "runtime"


#: ``translate_rt.o`` by the hash of the runtime's text, compiled in this process.
_RUNTIME_OBJECTS: dict[str, Path] = {}


def runtime_object() -> Path:
    """The runtime compiled as the tests link it (``gcc -c -O1``), once per test process and
    runtime text: it costs about twenty times the host glue of a program, and every program
    built as translated links it."""
    rt = runtime_dir()
    key = hashlib.sha256(b"".join((rt / name).read_bytes()
                                  for name in ("translate_rt.c", "translate_rt.h"))).hexdigest()
    obj = _RUNTIME_OBJECTS.get(key)
    if obj is None:
        folder = Path(tempfile.mkdtemp(prefix="translate-rt-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        obj = folder / f"translate_rt-{key[:16]}.o"
        run(["gcc", "-c", "-O1", f"-I{rt}", str(rt / "translate_rt.c"), "-o", str(obj)], folder)
        _RUNTIME_OBJECTS[key] = obj
    return obj


def build_translated(src: Path, work: Path, opts: SampleOptions,
                     extra: tuple[str, ...] = ()) -> Path:
    out = work / "out"
    translate(src, out, opts, extra)
    rt = runtime_dir()
    stem = src.stem
    exe = work / "translated"
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{stem}.host.c")], work)
    objs = [str(work / f"{stem}.host.o"), str(runtime_object())]
    if is_fortran(src):
        run(["gfortran", "-O1", *opts.cppflags, str(out / src.name), *objs, "-lOpenCL", "-o",
             str(exe)], work)
    else:
        run(["gcc", "-O1", "-std=c99", *opts.cppflags, str(out / src.name), *objs, "-lOpenCL",
             "-lm", "-o", str(exe)], work)
    return exe


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?")


def compare_outputs(expected: str, actual: str, rtol: float) -> None:
    """Token-wise comparison; numbers within `rtol` (0: identical text)."""
    if rtol == 0.0:
        assert actual == expected, _diff(expected, actual)
        return
    e_tok, a_tok = expected.split(), actual.split()
    assert len(e_tok) == len(a_tok), _diff(expected, actual)
    for k, (e, a) in enumerate(zip(e_tok, a_tok)):
        if e == a:
            continue
        if NUMBER.fullmatch(e) and NUMBER.fullmatch(a):
            ev, av = float(e.replace("D", "E").replace("d", "e")), float(
                a.replace("D", "E").replace("d", "e"))
            if abs(ev - av) <= rtol * max(abs(ev), abs(av), 1e-300):
                continue
        raise AssertionError(f"token {k} differs: expected {e!r}, got {a!r}\n"
                             + _diff(expected, actual))


def _diff(expected: str, actual: str) -> str:
    import difflib
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        "original", "translated"))


def check_sample(src: Path, work: Path, extra: tuple[str, ...] = ()) -> str:
    """Build and run both programs; assert they agree.  Returns the original's output."""
    opts = sample_options(src)
    orig = build_original(src, work, opts)
    tran = build_translated(src, work, opts, extra)
    expected = run([str(orig)], work)
    actual = run([str(tran)], work, env={"TRANSLATE_DEVICE": "cpu"})
    compare_outputs(expected, actual, opts.rtol)
    return expected


def past_stamp(rewritten: str) -> str:
    """The rewritten source after its generation stamp (the lines before the first line
    marker, `# 1 "name"` in Fortran, `#line 1 "name"` in C): the user's own text."""
    marker = re.search(r'^#(?:line)? 1 "[^"\n]*"\n', rewritten, re.M)
    return rewritten if marker is None else rewritten[marker.end():]


#: Leaks inside the OpenCL implementation are not ours.
SANITIZER_SUPPRESSIONS = ("leak:libpocl\nleak:libOpenCL\nleak:libLLVM\nleak:libclang\n"
                          "leak:libhwloc\n")


def run_c_sanitized(work: Path, stem: str, sanitizer: str, env: dict | None = None) -> str:
    """Build the translated C program `work`/out/`stem`.c with its host glue and the runtime
    under ``-fsanitize=sanitizer``, run it on the CPU device (`env` added), assert that it
    exits 0 and that the sanitizer said nothing (leaks in the OpenCL implementation
    suppressed); return its stdout."""
    out, rt = work / "out", runtime_dir()
    exe = work / f"san_{sanitizer}"
    subprocess.run(["gcc", "-std=c99", "-g", f"-fsanitize={sanitizer}", f"-I{rt}",
                    str(out / f"{stem}.c"), str(out / f"{stem}.host.c"),
                    str(rt / "translate_rt.c"), "-lOpenCL", "-lm", "-o", str(exe)],
                   check=True, cwd=work, capture_output=True, text=True)
    (work / "lsan.supp").write_text(SANITIZER_SUPPRESSIONS)
    full = {**os.environ, "TRANSLATE_DEVICE": "cpu", "ASAN_OPTIONS": "detect_leaks=1",
            "LSAN_OPTIONS": f"suppressions={work / 'lsan.supp'}:print_suppressions=0",
            **(env or {})}
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env=full, cwd=work,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    return proc.stdout
