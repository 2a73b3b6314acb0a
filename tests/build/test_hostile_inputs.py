"""Hostile command lines and sources (issue 15, "no input gives exit 2"): each is a located
error (exit 1) or a clean translation, never a traceback, and nothing is written over an input.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.build.helpers import SAXPY, translate

DEEP = 3000


def setup(folder: Path) -> None:
    (folder / "saxpy.f90").write_text(SAXPY)
    (folder / "empty.f90").write_text("")
    (folder / "sub").mkdir()
    (folder / "sub" / "blank.c").write_text("")
    (folder / "adir.f90").mkdir()
    (folder / "afile").write_text("x\n")
    (folder / "reports").mkdir()
    (folder / "dangling").symlink_to("nowhere")


@pytest.mark.parametrize("args, message", [
    (["adir.f90", "-o", "out"], "translate: error: adir.f90: cannot read: Is a directory"),
    (["missing.f90", "-o", "out"],
     "translate: error: missing.f90: cannot read: No such file or directory"),
    (["/dev/null", "-o", "out"], "translate: error: /dev/null: cannot tell the language from "
                                 "the suffix '' (use --language)"),
    (["saxpy.f90", "-o", "afile"],
     "translate: error: -o afile: not a directory (-o names the output directory)"),
    (["saxpy.f90", "-o", "saxpy.f90"],
     "translate: error: -o saxpy.f90: not a directory (-o names the output directory)"),
    (["saxpy.f90", "-o", "dangling"],
     "translate: error: -o dangling: not a directory (-o names the output directory)"),
    (["saxpy.f90", "-o", "afile/sub"], "translate: error: cannot write afile/sub/saxpy.cl: "
                                       "Not a directory (no output of saxpy.f90 was written)"),
    (["saxpy.f90", "-o", "out", "--report=reports"],
     "translate: error: --report=reports names a directory: give a file name"),
    (["saxpy.f90", "-o", "out", "--report=afile/r.txt"],
     "translate: error: cannot write the report afile/r.txt: Not a directory"),
    (["saxpy.f90", "-o", "out", "-j", "-3"], "translate: error: -j needs a number >= 0"),
    (["saxpy.f90", "-o", ""],
     "translate: error: -o needs an output directory (it was given an empty name)"),
    (["saxpy.f90", "-o", "out", "-j", "many"],
     "translate: error: argument -j/--jobs: invalid int value: 'many'"),
])
def test_bad_command_lines_are_user_errors(tmp_path: Path, args: list[str], message: str):
    setup(tmp_path)
    r = translate(*args, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert (tmp_path / "saxpy.f90").read_text() == SAXPY and (tmp_path / "afile").read_text() \
        == "x\n"


@pytest.mark.parametrize("args", [["empty.f90", "sub/blank.c", "-o", "out"],
                                  ["/dev/null", "--language", "c", "-o", "out"]])
def test_empty_inputs_translate_to_themselves(tmp_path: Path, args: list[str]):
    setup(tmp_path)
    r = translate(*args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for name in args[:-2]:
        if not name.startswith("-") and name != "c":
            assert (tmp_path / "out" / os.path.basename(name)).read_bytes() == b""


def test_report_file_write_failure_after_translation_is_exit_1(tmp_path: Path):
    """The report is written last; when that fails the command says so (it was exit 2)."""
    setup(tmp_path)
    r = translate("saxpy.f90", "-o", "out", "--report=afile/sub/r.txt", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.endswith("translate: error: cannot write the report afile/sub/r.txt: "
                             "Not a directory\n"), r.stderr


def _with_pragma(old: str, new: str) -> str:
    assert old in SAXPY
    return SAXPY.replace(old, new)


HUGE = "9" * 5000
SPLIT = '"i", 128, outer_tag="g.0", inner_tag="l.0"'


@pytest.mark.parametrize("source, where, message", [
    (_with_pragma(SPLIT, f'"i", {HUGE}, outer_tag="g.0", inner_tag="l.0"'), "8:3",
     "an integer in a translate directive is out of range (pragma integers must fit in 64 "
     "bits)"),
    (_with_pragma(SPLIT, f'"i", 128, outer_tag=({HUGE[:300]},), inner_tag="l.0"'), "8:3",
     f"integer {HUGE[:300]} in a translate directive is out of range"),
    (_with_pragma(SPLIT, '"i", 1e999, outer_tag="g.0", inner_tag="l.0"'), "8:3",
     "split_iname: inner_length must be a positive integer, got inf"),
    (_with_pragma(SPLIT, f'"i", 128, outer_tag="g.{HUGE}", inner_tag="l.0"'), "8:3",
     "split_iname: bad outer_tag: unknown iname tag 'g.999"),
    (_with_pragma(SPLIT, SPLIT + ', outer_tag="g.1"'), "8:3",
     "split_iname: keyword argument 'outer_tag' is given twice"),
    (_with_pragma(SPLIT, '"\u00e9", 128, outer_tag="g.0", inner_tag="l.0"'), "8:3",
     "split_iname: unknown iname '\u00e9'"),
    (_with_pragma("kernel saxpy_k", "kernel s\u00e9"), "7:3",
     "malformed kernel directive 'kernel s\u00e9': expected 'kernel [NAME] [async(N)]', NAME "
     "letters "
     "A-Z, a-z, digits and '_' (it names an OpenCL kernel and a C function)"),
    (_with_pragma("split_iname", "\uff53plit_iname"), "8:3",
     "name '\uff53plit_iname' in a translate directive is not ASCII (did you mean "
     "'split_iname'?)"),
    (_with_pragma("outer_tag", "\uff4futer_tag"), "8:3",
     "name '\uff4futer_tag' in a translate directive is not ASCII (did you mean "
     "'outer_tag'?)"),
    (_with_pragma(SPLIT, "(" * DEEP + "1" + ")" * DEEP), "8:3",
     "malformed translate directive 'split_iname(((((("),
    (_with_pragma("a*x(i)", "(" * DEEP + "x(i)" + ")" * DEEP), "10:213",
     "parentheses nested more than 200 deep (the Fortran parser's limit)"),
])
def test_hostile_pragmas_are_located_errors(tmp_path: Path, source: str, where: str,
                                            message: str):
    (tmp_path / "k.f90").write_text(source)
    r = translate("k.f90", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert f"k.f90:{where}: error: {message}" in r.stderr, r.stderr[:2000]
    assert "Traceback" not in r.stderr and not (tmp_path / "out").exists()


def test_c_nested_too_deeply(tmp_path: Path):
    """Past the bound of translator/deep.py (3,000 deep translates since issue 28)."""
    body = "(" * (10 * DEEP) + "x[i]" + ")" * (10 * DEEP)
    (tmp_path / "k.c").write_text("void f(int n, double *x)\n{\n#pragma translate kernel k\n"
                                  f"  for (int i = 0; i < n; i++) x[i] = {body};\n"
                                  "#pragma translate end kernel\n}\n")
    r = translate("k.c", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1 and "k.c:1:1: error: C source is nested too deeply to parse" \
        in r.stderr, r.stderr[:2000]


@pytest.mark.parametrize("name", [b"a b.f90", b'q"x.f90', b"nl\nx.f90", b"lat\xe9.f90",
                                  b"-dash.f90"])
def test_odd_file_names_translate_and_compile(tmp_path: Path, name: bytes):
    """Spaces, quotes, a newline, a byte that is not UTF-8 (it was exit 2), a leading dash
    (after ``--``): the outputs carry the same name and compile; the line markers name the
    file so that gfortran accepts them."""
    import subprocess
    import sys

    from tests.build.helpers import env
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(SAXPY.encode())
    r = subprocess.run([sys.executable.encode(), b"-m", b"translator.cli", b"-o", b"out",
                        b"-MD", b"--", name], cwd=tmp_path, capture_output=True, env=env())
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    stem = name[:-len(b".f90")]
    out = os.path.join(folder, b"out")
    assert sorted(os.listdir(out)) == sorted([name, stem + b".cl", stem + b".d",
                                              stem + b".host.c"])
    for cmd in ([b"gfortran", b"-c", b"./" + name, b"-o", b"a.o"],
                [b"gcc", b"-c", b"-I" + os.fsencode(_runtime()), b"./" + stem + b".host.c",
                 b"-o", b"b.o"]):
        c = subprocess.run(cmd, cwd=out, capture_output=True)
        assert c.returncode == 0, c.stderr.decode(errors="replace")


def _runtime() -> str:
    from translator.build.paths import runtime_dir
    return runtime_dir()


def test_wrapper_with_an_unbalanced_quote_in_translate_flags(tmp_path: Path):
    """TRANSLATE_FLAGS='"-Werror' was an internal error (exit 2) of translate-fc."""
    from tests.build.helpers import BIN, run
    (tmp_path / "saxpy.f90").write_text(SAXPY)
    r = run([str(BIN / "translate-fc"), "gfortran", "-c", "saxpy.f90"], tmp_path,
            TRANSLATE_FLAGS='"-Werror')
    assert r.returncode == 1, r.stderr
    assert r.stderr == "translate wrapper: error: TRANSLATE_FLAGS: No closing quotation\n"
    assert not (tmp_path / "saxpy.o").exists()


@pytest.mark.parametrize("args, message", [
    (["check"], "translate check: error: the following arguments are required: SRC"),
    (["check", "--rtol", "x", "saxpy.f90"],
     "translate check: error: argument --rtol: invalid float value: 'x'"),
    (["devices", "--bogus"], "translate devices: error: unrecognized arguments: --bogus"),
])
def test_subcommand_usage_errors_are_exit_1(tmp_path: Path, args: list[str], message: str):
    """A bad command line of `translate check` or `translate devices` is the user's error
    (argparse's own exit status, 2, is the translator's 'internal error')."""
    setup(tmp_path)
    r = translate(*args, cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.rstrip().endswith(message), r.stderr


def test_c_syntax_error_without_a_parser_location_is_placed_by_gcc(tmp_path: Path):
    """pycparser's "Invalid expression" has no line (it pointed at 1:1): the compiler's own
    first error gives the place."""
    (tmp_path / "k.c").write_text("void g(void) { }\nvoid f(int n, double *x)\n{\n"
                                  "#pragma translate kernel k\n  for (int i = 0; i < n; i++)\n"
                                  "    x[i] = 1;\n#pragma translate end kernel\n  n = );\n}\n")
    r = translate("k.c", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.startswith("k.c:8:7: error: C syntax error: expected expression before "
                               "')' token\n  n = );\n      ^\n"), r.stderr
