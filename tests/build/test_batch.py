"""Many files at once (-j N), output order, the progress line, and a fast --version."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.build.helpers import AUTO_C, BIN, SAXPY, env, translate, write
from translator.build.batch import Progress

BAD = SAXPY.replace('split_iname("i"', 'split_iname("q"')


def sources(tmp_path: Path) -> list[str]:
    files = [write(tmp_path, "src/a.f90", SAXPY), write(tmp_path, "src/bad.f90", BAD),
             write(tmp_path, "src/c.c", AUTO_C),
             write(tmp_path, "src/d.f90", SAXPY.replace("saxpy", "daxpy"))]
    return [str(f) for f in files]


def test_parallel_jobs_match_sequential(tmp_path: Path) -> None:
    srcs = sources(tmp_path)
    one = translate(*srcs, "-o", "out1", "--report", cwd=tmp_path)
    two = translate(*srcs, "-o", "out2", "--report", "-j", "3", cwd=tmp_path)
    assert one.returncode == two.returncode == 1
    assert one.stderr == two.stderr and one.stdout == two.stdout
    # diagnostics in source order: a's report, bad's error, then c's and d's reports
    err = two.stderr
    assert err.index("saxpy_k") < err.index("bad.f90:8:") < err.index("scale_k") \
        < err.index("daxpy_k")
    assert "\r" not in err   # no progress line when stderr is not a terminal
    for out in ("out1", "out2"):
        names = sorted(p.name for p in (tmp_path / out).iterdir())
        assert names == ["a.cl", "a.f90", "a.host.c", "c.c", "c.cl", "c.host.c", "d.cl",
                         "d.f90", "d.host.c"]
    for name in ("a.cl", "c.host.c", "d.f90"):
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes()


def test_progress_line_on_a_terminal(capsys) -> None:
    progress = Progress(3, enabled=True)
    progress.update(1, "b.f90")
    progress.clear()
    progress.clear()
    err = capsys.readouterr().err
    assert err == "\r\x1b[K[1/3] translating b.f90\r\x1b[K"
    Progress(1, enabled=True).update(0, "a.f90")
    assert capsys.readouterr().err == ""


def test_progress_through_a_pty(tmp_path: Path) -> None:
    import os
    import pty
    srcs = sources(tmp_path)
    srcs.remove(next(s for s in srcs if s.endswith("bad.f90")))
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "translator.cli", *srcs, "-o", "out",
                             "-j", "2"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=slave, env=env())
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=300) == 0
    text = b"".join(chunks).decode()
    assert "[0/3] translating" in text and text.endswith("\r\x1b[K")


def test_version_imports_nothing_heavy() -> None:
    code = ("import sys; from translator.cli import main; main(['--version']); "
            "heavy = [m for m in ('islpy', 'pymbolic', 'numpy', 'fparser', 'pycparser') "
            "if m in sys.modules]; print(heavy)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.splitlines()[-1] == "[]", proc.stdout


def test_bad_jobs_value(tmp_path: Path) -> None:
    r = translate(*sources(tmp_path)[:1], "-o", "o", "-j", "-2", cwd=tmp_path)
    assert r.returncode == 1 and "-j needs a number" in r.stderr
