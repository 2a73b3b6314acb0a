"""The translator as a build step, as a user meets it (issue 15): it never writes over an input,
refuses colliding outputs, keeps every byte outside the regions (CRLF, byte order mark,
Latin-1), writes a file's outputs all or none, reports huge pragma numbers as errors, and the
rewritten sources carry line directives so compiler messages name the user's lines."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build.fuzzing import outside_regions_changed
from tests.build.helpers import SAXPY, must, run, translate

C_SCALE = """\
#include <stdio.h>
void scale(int n, double *x)
{
  int k = 0;
#pragma translate kernel scale_k
  for (int i = 0; i < n; i++)
    x[i] = 2 * x[i];
#pragma translate end kernel
  k = k + 1;
}
"""


def put(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# ---------------------------------------------------------------------------------------------
# never an input overwritten

def test_report_never_takes_the_next_source(tmp_path: Path) -> None:
    """``--report a.f90 b.f90``: the report goes to stderr, a.f90 is translated, not written."""
    a = put(tmp_path, "a.f90", SAXPY)
    put(tmp_path, "b.f90", SAXPY.replace("saxpy_k", "b_k"))
    r = translate("--report", "a.f90", "b.f90", "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert a.read_text() == SAXPY
    assert "region saxpy_k at a.f90:7" in r.stderr and "region b_k at b.f90:7" in r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "a.cl", "a.f90", "a.host.c", "b.cl", "b.f90", "b.host.c"]
    # the documented file form still works, and an abbreviation cannot take a word either
    r = translate("a.f90", "-o", "out", "--report=rep.txt", cwd=tmp_path)
    assert r.returncode == 0 and "region saxpy_k" in (tmp_path / "rep.txt").read_text()
    r = translate("--rep", "a.f90", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1 and "unrecognized arguments: --rep" in r.stderr
    assert a.read_text() == SAXPY


def test_translate_mk_flags_with_report_build(tmp_path: Path) -> None:
    """translate.mk's own example, TRANSLATE_FLAGS = -Werror --report, builds and keeps the
    source (it used to overwrite it with the report)."""
    put(tmp_path, "saxpy.f90", SAXPY)
    put(tmp_path, "Makefile", "FC = gfortran\nCC = gcc\n"
        "include $(shell translate --make-dir)/translate.mk\n"
        "TRANSLATE_FLAGS = -Werror --report\n"
        "all: $(call translate_objects,saxpy.f90)\n"
        "$(call translate_sources,saxpy.f90)\n")
    r = run(["make"], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "saxpy.f90").read_text() == SAXPY
    assert "region saxpy_k at saxpy.f90:7" in r.stderr
    assert (tmp_path / ".translate" / "saxpy.f90.o").exists()


@pytest.mark.parametrize("how", ["dot", "symlink", "report", "depfile"])
def test_no_output_over_an_input(tmp_path: Path, how: str) -> None:
    src = put(tmp_path, "saxpy.f90", SAXPY)
    args = {"dot": ["-o", "."], "symlink": ["-o", "link"],
            "report": ["-o", "out", "--report=saxpy.f90"],
            "depfile": ["-o", "out", "-MD", "-MF", "saxpy.f90"]}[how]
    (tmp_path / "link").symlink_to(".")
    r = translate("saxpy.f90", *args, cwd=tmp_path)
    assert r.returncode == 1
    assert "would overwrite the input saxpy.f90" in r.stderr, r.stderr
    assert r.stderr.startswith("translate: error: ")
    assert src.read_text() == SAXPY and not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "saxpy.f90"]


# ---------------------------------------------------------------------------------------------
# colliding outputs

@pytest.mark.parametrize("sources,clash", [
    (["heat.f90", "heat.c"], "heat.f90 and heat.c would both write out/heat.cl"),
    (["sub1/heat.f90", "sub2/heat.f90"],
     "sub1/heat.f90 and sub2/heat.f90 would both write out/heat.f90"),
])
def test_colliding_outputs_are_refused(tmp_path: Path, sources: list[str], clash: str) -> None:
    for name in sources:
        text = C_SCALE if name.endswith(".c") else SAXPY
        put(tmp_path, name, text.replace("_k", "_" + name.split("/")[0][-1] + "_k"))
    r = translate(*sources, "-o", "out", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert f"translate: error: {clash}" in r.stderr
    assert not (tmp_path / "out").exists()
    r = translate(sources[0], "-o", "out1", cwd=tmp_path)   # apart, each one translates
    assert r.returncode == 0 and translate(sources[1], "-o", "out2", cwd=tmp_path).returncode == 0


def test_unique_symbols_differ_per_file(tmp_path: Path) -> None:
    """Same-named regions of two files get different glue names with --unique-symbols."""
    for d in ("sub1", "sub2"):
        put(tmp_path, f"{d}/heat.f90", SAXPY)
        r = translate(f"{d}/heat.f90", "-o", f"o{d}", "--unique-symbols", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    texts = [(tmp_path / f"o{d}" / "heat.host.c").read_text() for d in ("sub1", "sub2")]
    names = [t.split("void translate_saxpy_k_", 1)[1][:8] for t in texts]
    assert names[0] != names[1]
    assert f"call translate_saxpy_k_{names[0]}(" in (tmp_path / "osub1/heat.f90").read_text()


# ---------------------------------------------------------------------------------------------
# bytes kept: CRLF, byte order mark, Latin-1

FORTRAN_PROGRAM = """\
program bytes_demo
  implicit none
  integer, parameter :: n = 100
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
    x(i) = i
    y(i) = 2*i
  end do
  !$translate kernel axpy_k
  do i = 1, n
    y(i) = 3*x(i) + y(i)
  end do
  !$translate end kernel
  print *, sum(y)
end program
"""

C_PROGRAM = """\
#include <stdio.h>
int main(void)
{
  double x[100], y[100], s = 0;
  for (int i = 0; i < 100; i++) { x[i] = i; y[i] = 2 * i; }
#pragma translate kernel axpy_k
  for (int i = 0; i < 100; i++)
    y[i] = 3 * x[i] + y[i];
#pragma translate end kernel
  for (int i = 0; i < 100; i++) s += y[i];
  printf("%g\\n", s);
  return 0;
}
"""


def variant(text: str, kinds: str, comment: bytes) -> bytes:
    """`text` with a Latin-1 comment line before the last line, CRLF ends, a byte order mark."""
    data = text.encode()
    if "latin1" in kinds:
        head, last = data.rstrip(b"\n").rsplit(b"\n", 1)
        data = head + b"\n" + comment + b"\n" + last + b"\n"
    if "crlf" in kinds:
        data = data.replace(b"\n", b"\r\n")
    if "bom" in kinds:
        data = b"\xef\xbb\xbf" + data
    return data


LANGUAGES = {"f90": (FORTRAN_PROGRAM, b"  ! caf\xe9 cr\xe8me", ["gfortran"]),
             "c": (C_PROGRAM, b"/* caf\xe9 cr\xe8me */", ["gcc", "-std=c99"])}


@pytest.mark.parametrize("kinds", ["crlf", "bom", "latin1", "crlf+bom+latin1"])
@pytest.mark.parametrize("suffix", ["f90", "c"])
def test_bytes_outside_regions_are_kept(tmp_path: Path, suffix: str, kinds: str) -> None:
    text, comment, compiler = LANGUAGES[suffix]
    data = variant(text, kinds, comment)
    put(tmp_path, f"prog.{suffix}", data)
    r = translate(f"prog.{suffix}", "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out" / f"prog.{suffix}").read_bytes()
    assert outside_regions_changed(data, out) == ""
    assert out.startswith(b"\xef\xbb\xbf") == ("bom" in kinds)
    if "crlf" in kinds:   # inserted lines end like the file's lines
        assert out.count(b"\n") == out.count(b"\r\n")
    else:
        assert b"\r" not in out
    assert (comment in out) == ("latin1" in kinds)
    must(run([*compiler, "-c", f"out/prog.{suffix}", "-o", "prog.o"], tmp_path))


@pytest.mark.parametrize("suffix", ["f90", "c"])
def test_crlf_bom_latin1_program_runs_and_matches(tmp_path: Path, suffix: str) -> None:
    """The translated program, built from the byte-kept source, runs on the OpenCL device and
    gives what the original gives (translate check builds and runs both)."""
    text, comment, _ = LANGUAGES[suffix]
    put(tmp_path, f"prog.{suffix}", variant(text, "crlf+bom+latin1", comment))
    r = translate("check", f"prog.{suffix}", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all 1 region executions match (axpy_k x1)" in r.stderr + r.stdout


def test_no_regions_copied_byte_for_byte(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbfprogram p\r\n  print *, 'h\xe9'\r\nend program\r\n\x0c\r\n"
    put(tmp_path, "plain.f90", data)
    r = translate("plain.f90", "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "plain.f90").read_bytes() == data
    raw = subprocess.run([sys.executable, "-m", "translator.cli", "plain.f90", "--emit",
                          "source"], cwd=tmp_path, capture_output=True, env=os.environ)
    assert raw.returncode == 0 and raw.stdout == data   # to stdout: the same bytes


# ---------------------------------------------------------------------------------------------
# compiler messages name the user's lines

def test_fortran_error_after_a_region_names_the_users_line(tmp_path: Path) -> None:
    src = SAXPY.replace("end subroutine", "  y(1) = undefined_name\nend subroutine")
    put(tmp_path, "saxpy.f90", src)
    line = src.splitlines().index("  y(1) = undefined_name") + 1
    must(translate("saxpy.f90", "-o", "out", cwd=tmp_path))
    rewritten = (tmp_path / "out" / "saxpy.f90").read_text()
    assert rewritten.splitlines().index("  y(1) = undefined_name") + 1 != line   # it moved
    r = run(["gfortran", "-c", "out/saxpy.f90", "-o", "x.o"], tmp_path)
    assert r.returncode == 1
    assert f"saxpy.f90:{line}:" in r.stderr and "undefined_name" in r.stderr, r.stderr


def test_c_error_after_a_region_names_the_users_line(tmp_path: Path) -> None:
    src = C_SCALE.replace("  k = k + 1;", "  k = undefined_name + 1;")
    put(tmp_path, "scale.c", src)
    line = src.splitlines().index("  k = undefined_name + 1;") + 1
    must(translate("scale.c", "-o", "out", cwd=tmp_path))
    r = run(["gcc", "-c", "out/scale.c", "-o", "x.o"], tmp_path)
    assert r.returncode == 1
    assert f"scale.c:{line}:7: error: 'undefined_name' undeclared" in r.stderr.replace(
        "\u2018", "'").replace("\u2019", "'"), r.stderr


def test_fixed_form_error_after_a_region_names_the_users_line(tmp_path: Path) -> None:
    src = ("      subroutine s(n, a)\n      implicit none\n      integer n, i\n"
           "      real a(n)\nc$translate kernel fk\n      do i = 1, n\n        a(i) = 1\n"
           "      end do\nc$translate end kernel\n      a(1) = undefined_name\n      end\n")
    put(tmp_path, "s.f", src)
    must(translate("s.f", "-o", "out", cwd=tmp_path))
    r = run(["gfortran", "-c", "out/s.f", "-o", "x.o"], tmp_path)
    assert r.returncode == 1 and "s.f:10:" in r.stderr, r.stderr


# ---------------------------------------------------------------------------------------------
# huge numbers; all or none

def test_huge_pragma_integer_is_an_error(tmp_path: Path) -> None:
    put(tmp_path, "saxpy.f90", SAXPY.replace('"i", 128', '"i", 9223372036854775808'))
    r = translate("saxpy.f90", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert ("saxpy.f90:8:3: error: integer 9223372036854775808 in a translate directive is "
            "out of range (pragma integers must fit in 64 bits)") in r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "out").exists()


def _limited(size: int):
    def limit() -> None:   # in the child: writes past `size` bytes fail with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_outputs_all_or_none_when_a_write_fails(tmp_path: Path) -> None:
    """A real write failure (the file size limit, EFBIG, as a full disk gives ENOSPC) while
    writing the third output: no output of the file is left, old outputs are unchanged."""
    put(tmp_path, "saxpy.f90", SAXPY)
    must(translate("saxpy.f90", "-o", "ref", cwd=tmp_path))
    sizes = {p.name: p.stat().st_size for p in (tmp_path / "ref").iterdir()}
    assert sizes["saxpy.host.c"] > max(sizes["saxpy.cl"], sizes["saxpy.f90"])
    limit = max(sizes["saxpy.cl"], sizes["saxpy.f90"]) + 1
    cmd = [sys.executable, "-m", "translator.cli", "saxpy.f90", "-o", "out"]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True,
                       preexec_fn=_limited(limit), env=os.environ)
    assert r.returncode == 1, r.stderr
    assert "error: cannot write out/saxpy.host.c: File too large (no output of saxpy.f90 " \
           "was written)" in r.stderr
    assert list((tmp_path / "out").iterdir()) == []   # no outputs, no temporary files
    # a later failure leaves the outputs of the earlier run exactly as they were
    must(translate("saxpy.f90", "-o", "out", cwd=tmp_path))
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    put(tmp_path, "saxpy.f90", SAXPY.replace("a*x(i)", "a*x(i)*2"))
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True,
                       preexec_fn=_limited(limit), env=os.environ)
    assert r.returncode == 1
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before
