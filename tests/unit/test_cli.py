"""The CLI contract: exit codes, gcc-style diagnostics, atomic and deterministic outputs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build.helpers import SAXPY

REPO = Path(__file__).resolve().parents[2]



def translate(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, **(env or {})})


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text)
    return p


def test_version_and_runtime_dir(tmp_path: Path) -> None:
    r = translate("--version", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("translate ")
    r = translate("--runtime-dir", cwd=tmp_path)
    rt = Path(r.stdout.strip())
    assert (rt / "translate_rt.h").is_file() and (rt / "translate_rt.c").is_file()


def test_file_without_regions_is_copied_unchanged(tmp_path: Path) -> None:
    text = "program p\n  print *, 'hi'   ! no regions here\nend program\n"
    src = write(tmp_path, "plain.f90", text)
    r = translate(str(src), "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "plain.f90").read_text() == text
    assert not (tmp_path / "out" / "plain.cl").exists()


def test_outputs_and_input_untouched(tmp_path: Path) -> None:
    src = write(tmp_path, "saxpy.f90", SAXPY)
    r = translate(str(src), "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["saxpy.cl", "saxpy.f90", "saxpy.host.c"]
    assert src.read_text() == SAXPY
    assert "translate_saxpy_k" in (tmp_path / "out" / "saxpy.f90").read_text()


def test_outputs_are_deterministic_across_hash_seeds(tmp_path: Path) -> None:
    src = write(tmp_path, "saxpy.f90", SAXPY)
    for seed in ("0", "1", "12345"):
        r = translate(str(src), "-o", f"out{seed}", cwd=tmp_path, env={"PYTHONHASHSEED": seed})
        assert r.returncode == 0, r.stderr
    for name in ("saxpy.cl", "saxpy.f90", "saxpy.host.c"):
        texts = {(tmp_path / f"out{s}" / name).read_bytes() for s in ("0", "1", "12345")}
        assert len(texts) == 1, name


def _fails_without_output(tmp_path: Path, text: str) -> str:
    src = write(tmp_path, "bad.f90", text)
    r = translate(str(src), "-o", "out", cwd=tmp_path)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    out = tmp_path / "out"
    assert not out.exists() or not any(out.iterdir()), "a failed translation wrote output"
    return r.stderr


def test_unterminated_region_is_an_error_at_its_line(tmp_path: Path) -> None:
    err = _fails_without_output(tmp_path, SAXPY.replace("  !$translate end kernel\n", ""))
    assert "bad.f90:7:" in err and "error:" in err and "unterminated" in err


def test_unknown_transform_is_an_error_at_the_pragma(tmp_path: Path) -> None:
    err = _fails_without_output(tmp_path, SAXPY.replace("split_iname(", "splt_iname("))
    assert "bad.f90:8:" in err and "unknown transform 'splt_iname'" in err
    assert "split_iname" in err  # the suggestion


def test_transform_naming_a_missing_iname(tmp_path: Path) -> None:
    err = _fails_without_output(tmp_path, SAXPY.replace('split_iname("i"', 'split_iname("q"'))
    assert "bad.f90:8:" in err and "'q'" in err


def test_missing_input_file(tmp_path: Path) -> None:
    r = translate(str(tmp_path / "nope.f90"), "-o", "out", cwd=tmp_path)
    assert r.returncode == 1 and "nope.f90" in r.stderr and "Traceback" not in r.stderr


def test_unknown_suffix(tmp_path: Path) -> None:
    src = write(tmp_path, "x.txt", "hello\n")
    r = translate(str(src), "-o", "out", cwd=tmp_path)
    assert r.returncode == 1 and "cannot tell the language" in r.stderr


def test_output_dir_equal_to_source_dir_is_refused(tmp_path: Path) -> None:
    src = write(tmp_path, "saxpy.f90", SAXPY)
    r = translate(str(src), "-o", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 1 and "overwrite the input" in r.stderr
    assert src.read_text() == SAXPY


@pytest.mark.parametrize("emit,name", [("cl", "saxpy.cl"), ("host", "saxpy.host.c"),
                                       ("source", "saxpy.f90"), ("ir", "saxpy.ir")])
def test_emit_selects_one_output(tmp_path: Path, emit: str, name: str) -> None:
    src = write(tmp_path, "saxpy.f90", SAXPY)
    r = translate(str(src), "-o", "out", "--emit", emit, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [name]


def test_build_system_dirs(tmp_path: Path) -> None:
    r = translate("--cmake-dir", cwd=tmp_path)
    assert r.returncode == 0 and (Path(r.stdout.strip()) / "Translator.cmake").is_file()
    r = translate("--make-dir", cwd=tmp_path)
    assert r.returncode == 0 and (Path(r.stdout.strip()) / "translate.mk").is_file()


def test_failed_emit_to_stdout_prints_nothing(tmp_path: Path) -> None:
    src = write(tmp_path, "bad.f90", SAXPY.replace("split_iname(", "splt_iname("))
    r = translate(str(src), "--emit", "cl", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == "" and "bad.f90:8:" in r.stderr


def test_python_translate_file(tmp_path: Path) -> None:
    import translator
    src = write(tmp_path, "saxpy.f90", SAXPY)
    written = translator.translate_file(str(src), str(tmp_path / "out"))
    assert sorted(Path(w).name for w in written) == ["saxpy.cl", "saxpy.f90", "saxpy.host.c"]
    bad = write(tmp_path, "bad.f90", SAXPY.replace("  !$translate end kernel\n", ""))
    with pytest.raises(translator.TranslatorError, match="unterminated"):
        translator.translate_file(str(bad), str(tmp_path / "out2"))
    assert not (tmp_path / "out2").exists() or not any((tmp_path / "out2").iterdir())


def test_reader_closing_the_pipe_is_quiet(tmp_path: Path) -> None:
    """`translate --emit all x.f90 | head -0`: no traceback, the status of a SIGPIPE death."""
    src = write(tmp_path, "saxpy.f90", SAXPY)
    proc = subprocess.Popen([sys.executable, "-m", "translator.cli", "--emit", "all", str(src)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()   # the reader goes away before translate writes anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "internal error" not in err
