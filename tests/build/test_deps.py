"""Incremental builds: -MD/-MF/-MT/-MP dependency files, unchanged outputs keep their time,
--print-outputs, --all-outputs."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.build.helpers import AUTO_C, SAXPY, write
from translator.build.deps import depfile_text, parse_make_rule, toolchain_files
from translator.cli import main

FORTRAN_WITH_INCLUDE = SAXPY.replace("  integer :: i\n", "  integer :: i\n  include 'consts.inc'\n")
C_WITH_HEADER = '#include "scale.h"\n#include <stdio.h>\n' + AUTO_C.replace("s * x[i]",
                                                                           "s * x[i] + SHIFT")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def rule(path: Path) -> tuple[list[str], list[str]]:
    text = path.read_text()
    head = text.replace("\\\n", " ").split("\n", 1)[0]
    targets = head.split(":", 1)[0].split()
    return targets, parse_make_rule(text)


def test_fortran_include_and_toolchain(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "src/saxpy.f90", FORTRAN_WITH_INCLUDE)
    write(tmp_path, "inc/consts.inc", "  integer, parameter :: unused_k = 1\n")
    out = tmp_path / "out"
    code, _, err = run(capsys, str(src), "-o", str(out), "-I", str(tmp_path / "inc"), "-MD")
    assert code == 0, err
    targets, deps = rule(out / "saxpy.d")
    assert targets == [str(out / n) for n in ("saxpy.cl", "saxpy.f90", "saxpy.host.c")]
    assert deps[:2] == [str(src), str(tmp_path / "inc" / "consts.inc")]
    assert deps[2:] == list(toolchain_files())
    assert any(d.endswith("translator/driver.py") for d in deps)
    assert any(d.endswith("runtime/translate_rt.c") for d in deps)


def test_c_headers_via_gcc_with_defines(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "scale.c", C_WITH_HEADER)
    write(tmp_path, "hdr/scale.h", "#ifdef EXTRA\n#include \"extra.h\"\n#endif\n"
                                   "#define SHIFT 1.0\n")
    write(tmp_path, "hdr/extra.h", "/* only with -DEXTRA */\n")
    dep = tmp_path / "deps" / "scale.d"
    code, _, err = run(capsys, str(src), "-o", str(tmp_path / "out"), "-I",
                       str(tmp_path / "hdr"), "-DEXTRA", "-MF", str(dep), "-MT", "stamp",
                       "-MP")
    assert code == 0, err
    targets, deps = rule(dep)
    assert targets == ["stamp"]
    assert deps[:3] == [str(src), str(tmp_path / "hdr/scale.h"), str(tmp_path / "hdr/extra.h")]
    assert not any("stdio.h" in d for d in deps)
    text = dep.read_text()
    assert f"\n{tmp_path / 'hdr/scale.h'}:\n" in text   # -MP: header rules
    assert f"\n{src}:\n" not in text


def test_depfile_escapes_and_parses_back() -> None:
    text = depfile_text(["out dir/a.f90"], ["my src/a.f90", "x#1.h", "$d.h"], phony=True)
    assert text.startswith("out\\ dir/a.f90: \\\n my\\ src/a.f90 \\\n x\\#1.h \\\n $$d.h\n")
    assert parse_make_rule("t: a\\ b c \\\n d\n") == ["a b", "c", "d"]


def test_unchanged_outputs_keep_their_time(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "src/saxpy.f90", SAXPY)
    out = tmp_path / "out"
    assert run(capsys, str(src), "-o", str(out))[0] == 0
    old = 1_000_000_000
    for p in out.iterdir():
        os.utime(p, (old, old))
    # a change outside the region: only the rewritten source changes
    write(tmp_path, "src/saxpy.f90", SAXPY.replace("end subroutine", "end subroutine ! ok"))
    assert run(capsys, str(src), "-o", str(out))[0] == 0
    times = {p.name: p.stat().st_mtime for p in out.iterdir()}
    assert times["saxpy.cl"] == old and times["saxpy.host.c"] == old
    assert times["saxpy.f90"] > time.time() - 600
    assert (out / "saxpy.f90").stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_print_outputs_and_all_outputs(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "src/saxpy.f90", SAXPY)
    plain = write(tmp_path, "src/plain.c", "int main(void) { return 0; }\n")
    out = tmp_path / "out"
    code, stdout, _ = run(capsys, str(src), str(plain), "-o", str(out), "--print-outputs")
    assert code == 0
    assert stdout.split() == [str(out / n) for n in ("saxpy.cl", "saxpy.f90", "saxpy.host.c",
                                                      "plain.c")]
    code, stdout, _ = run(capsys, str(plain), "-o", str(out), "--print-outputs",
                          "--all-outputs")
    assert code == 0
    assert stdout.split() == [str(out / n) for n in ("plain.c", "plain.cl", "plain.host.c")]
    assert (out / "plain.c").read_text() == plain.read_text()


def test_placeholder_glue_compiles(tmp_path: Path, capsys) -> None:
    import subprocess
    plain = write(tmp_path, "src/plain.c", "int main(void) { return 0; }\n")
    assert run(capsys, str(plain), "-o", str(tmp_path / "out"), "--all-outputs")[0] == 0
    proc = subprocess.run(["gcc", "-std=c99", "-pedantic", "-Werror", "-c",
                           str(tmp_path / "out" / "plain.host.c"), "-o",
                           str(tmp_path / "p.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_depfile_usage_errors(tmp_path: Path, capsys) -> None:
    a = write(tmp_path, "a.c", AUTO_C)
    b = write(tmp_path, "b.c", AUTO_C.replace("scale", "scale2"))
    code, _, err = run(capsys, str(a), str(b), "-o", str(tmp_path / "o"), "-MF", "x.d")
    assert code == 1 and "-MF names one dependency file" in err
    code, out, err = run(capsys, str(a), "-MD")
    assert code == 1 and "-MD without -o needs -MF FILE" in err and out == ""


def test_unwritable_output_is_a_user_error(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "src/auto.c", AUTO_C)
    blocker = write(tmp_path, "file", "not a directory\n")
    code, _, err = run(capsys, str(src), "-o", str(blocker / "out"))
    assert code == 1 and f"cannot write {blocker / 'out'}" in err
    code, _, err = run(capsys, str(src), "-o", str(tmp_path / "o"), "-MF",
                       str(blocker / "x.d"))
    assert code == 1 and f"cannot write {blocker / 'x.d'}: " in err
