"""Pragma mistakes that used to be accepted silently or reported misleadingly: each is an
error at the pragma's file:line:col, as the CLI prints it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

C_SOURCE = """\
void f(int n, double *restrict a, double *restrict b)
{
#pragma translate kernel
#pragma translate PRAGMA
  for (int i = 0; i < n; i++)
    a[i] = 2 * b[i];
#pragma translate end kernel
}
"""

FORTRAN_SOURCE = """\
subroutine f(n, a, b)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n)
  integer :: i
  !$translate kernel
  !$translate PRAGMA
  do i = 1, n
     a(i) = 2 * b(i)
  end do
  !$translate end kernel
end subroutine
"""


def _translate(tmp: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    src = tmp / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp / "out"), *flags], cwd=tmp, capture_output=True, text=True,
                          timeout=300)


def _first_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 1, proc.stderr
    return next(line for line in proc.stderr.splitlines() if ": error: " in line)


@pytest.mark.parametrize("pragma, message", [
    ('tag_inames({"i": "g.0"}, force="sure")',
     "tag_inames: force must be True or False, not 'sure'"),
    ('split_iname("i", 64, outer_tag="g.0", inner_tag="l.0", within={"id": "insn"})',
     "split_iname: within: match expression must be a string such as 'id:s1 or tag:t', not "
     "a dict ({'id': 'insn'})"),
    ('split_iname("i", 64, outer_tag="g.0", inner_tag="l.0", within="id:nothing")',
     "split_iname: within='id:nothing' matches no statement of region f_0 (its statements: "
     "insn; translate --emit ir shows their ids and tags)"),
    ('tag_instructions("t", within="tag:none_such")',
     "tag_instructions: within='tag:none_such' matches no statement of region f_0 (its "
     "statements: insn; translate --emit ir shows their ids and tags)"),
    ('split_iname("i", 64, outer_tga="g.0")',
     "split_iname: got an unexpected keyword argument 'outer_tga' (did you mean "
     "'outer_tag'?)"),
    ('split_iname("i", 100000, inner_tag="l.0")',
     "work groups of 100000 work items (100000) are larger than any OpenCL GPU accepts (at "
     "most 1024; the device's CL_DEVICE_MAX_WORK_GROUP_SIZE, often 256 to 1024): use a "
     "smaller inner length for the local axes"),
    ('tag_inames({"i": "l.0"})',
     "iname 'i' is tagged l.0 but its number of values (n) is not a constant: the work-group "
     "size must be known at translation (split the iname with a constant inner length and tag "
     "the inner one)"),
    # codegen finds these; they point at the pragma that tagged the iname, not the kernel line
    ('tag_inames({"i": "ilp"})',
     "iname 'i' is unrolled but its number of values is not a constant"),
    ('tag_inames({"i": "l.auto"})',
     "iname 'i' is tagged l.0 but its number of values (n) is not a constant: the work-group "
     "size must be known at code generation (split the iname with a constant inner length and "
     "tag the inner one)"),
])
def test_c_pragma_errors_at_the_pragma(tmp_path: Path, pragma: str, message: str):
    line = _first_error(_translate(tmp_path, "k.c", C_SOURCE.replace("PRAGMA", pragma)))
    assert line == f"{tmp_path / 'k.c'}:4:19: error: {message}"


def test_signature_note_names_the_parameters(tmp_path: Path):
    proc = _translate(tmp_path, "k.c", C_SOURCE.replace("PRAGMA", 'split_iname("i")'))
    assert f"{tmp_path / 'k.c'}:4:19: note: split_iname takes (split_iname, inner_length, *, " \
           in proc.stderr
    assert "split_iname(split_iname" not in proc.stderr


def test_work_group_over_1024_in_two_dimensions_blames_the_larger_axis(tmp_path: Path):
    text = C_SOURCE.replace(
        "#pragma translate PRAGMA\n",
        '#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")\n'
        '#pragma translate split_iname("j", 32, outer_tag="g.1", inner_tag="l.1")\n').replace(
        "  for (int i = 0; i < n; i++)\n    a[i] = 2 * b[i];\n",
        "  for (int j = 0; j < n; j++)\n    for (int i = 0; i < n; i++)\n"
        "      a[i] = 2 * b[j];\n")
    line = _first_error(_translate(tmp_path, "k.c", text))
    assert line.startswith(f"{tmp_path / 'k.c'}:4:19: error: work groups of 2048 work items "
                           "(64 x 32) are larger")


def test_report_names_the_device_limit(tmp_path: Path):
    pragma = 'split_iname("i", 512, outer_tag="g.0", inner_tag="l.0")'
    proc = _translate(tmp_path, "k.c", C_SOURCE.replace("PRAGMA", pragma), "--report")
    assert proc.returncode == 0, proc.stderr
    assert ("device limit: work groups of 512 work items; some devices accept at most 256"
            in proc.stderr)
    small = _translate(tmp_path, "k.c", C_SOURCE.replace("PRAGMA", pragma.replace("512", "256")),
                       "--report")
    assert "device limit" not in small.stderr


def test_fortran_noalias_is_an_error(tmp_path: Path):
    text = FORTRAN_SOURCE.replace("PRAGMA", 'noalias("a", "b")')
    line = _first_error(_translate(tmp_path, "k.f90", text))
    assert line == (f"{tmp_path / 'k.f90'}:6:3: error: noalias: Fortran arguments never alias "
                    "each other (a procedure may not modify an argument through another name), "
                    "so there is nothing to assert; noalias is for C pointers")


def test_fortran_flag_that_is_not_a_bool(tmp_path: Path):
    text = FORTRAN_SOURCE.replace("PRAGMA", 'tag_inames("i:g.0", ignore_nonexistent=1)')
    line = _first_error(_translate(tmp_path, "k.f90", text))
    assert line == (f"{tmp_path / 'k.f90'}:6:3: error: tag_inames: ignore_nonexistent must be "
                    "True or False, not 1")
