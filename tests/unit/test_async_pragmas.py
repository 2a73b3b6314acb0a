"""`async(N)` on `kernel` and `update` directives and the `wait` directive (issue 25): how they
parse, the glue they produce, and their mistakes, each an error at the directive's
file:line:col."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from frontends.pragmas import ASYNC_NOVAL, directive_async, parse_directive
from translator.diagnostics import FrontendError, SourceSpan

SPAN = SourceSpan(file="k.c", line=3, col=19)

C_SOURCE = """\
void f(int n, double *restrict a)
{
#pragma translate KERNEL
  for (int i = 0; i < n; i++)
    a[i] = 2 * a[i];
#pragma translate end kernel
#pragma translate DIRECTIVE
}
"""

FORTRAN_SOURCE = """\
subroutine f(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate KERNEL
  do i = 1, n
     a(i) = 2 * a(i)
  end do
  !$translate end kernel
  !$translate DIRECTIVE
end subroutine
"""


@pytest.mark.parametrize("text, name, queue", [
    ("kernel k async(3)", "k", 3),
    ("kernel async(0)", None, 0),
    ("kernel k async", "k", ASYNC_NOVAL),
    ("KERNEL k ASYNC ( 7 )", "k", 7),
    ("kernel k", "k", None),
])
def test_kernel_async_parses(text: str, name: str | None, queue: int | None) -> None:
    d = parse_directive(text, SPAN)
    assert (d.kind, d.name, directive_async(d)) == ("kernel", name, queue)


def test_update_async_and_wait_parse() -> None:
    d = parse_directive("update host(u[0:n][1:1], u[0:n][m:1]) async(1)", SPAN)
    assert d.kind == "update" and directive_async(d) == 1 and len(d.args[0].items) == 2
    d = parse_directive("update async(2) device(v)", SPAN)
    assert directive_async(d) == 2 and d.args[0].items[0].name == "v"
    assert parse_directive("wait", SPAN).kwargs == ()
    assert dict(parse_directive("wait(1, 2)", SPAN).kwargs) == {"queues": (1, 2)}


@pytest.mark.parametrize("text, message", [
    ("kernel k async(q)", "malformed queue id in 'async(q)': expected a non-negative integer "
                          "literal (at most 2147483647)"),
    ("kernel k async(-1)", "malformed queue id in 'async(-1)': expected a non-negative integer "
                           "literal (at most 2147483647)"),
    ("kernel k async(1) async(2)", "'async' is given twice in one directive"),
    ("kernel k extra async(1)", "malformed kernel directive 'kernel k extra async(1)': expected "
                                "'kernel [NAME] [async(N)]', NAME letters A-Z, a-z, digits and "
                                "'_' (it names an OpenCL kernel and a C function)"),
    ("update host(a) async(x)", "malformed queue id in 'async(x)': expected a non-negative "
                                "integer literal (at most 2147483647)"),
    ("wait(1, x)", "malformed queue id in 'wait(1, x)': expected a non-negative integer "
                   "literal (at most 2147483647)"),
    ("wait(99999999999)", "malformed queue id in 'wait(99999999999)': expected a non-negative "
                          "integer literal (at most 2147483647)"),
    ("data copy(a) async(1)", "unknown clause 'async' in this 'data' directive (expected "
                              "copyin(...), copyout(...), copy(...), create(...), "
                              "present(...))"),
])
def test_malformed_async_and_wait(text: str, message: str) -> None:
    with pytest.raises(FrontendError) as info:
        parse_directive(text, SPAN)
    assert info.value.message == message and info.value.span == SPAN


def _translate(tmp: Path, name: str, text: str) -> subprocess.CompletedProcess:
    src = tmp / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp / "out")], cwd=tmp, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("name, source, line, col", [
    ("k.c", C_SOURCE, 7, 19), ("k.f90", FORTRAN_SOURCE, 10, 3)])
def test_cli_errors_at_the_directive(tmp_path: Path, name: str, source: str, line: int,
                                     col: int) -> None:
    text = source.replace("KERNEL", "kernel k").replace("DIRECTIVE", "wait(one)")
    proc = _translate(tmp_path, name, text)
    assert proc.returncode == 1, proc.stderr
    assert (f"{tmp_path / name}:{line}:{col}: error: malformed queue id in 'wait(one)': "
            "expected a non-negative integer literal (at most 2147483647)") in proc.stderr
    text = source.replace("KERNEL", "kernel k async(z)").replace("DIRECTIVE", "wait")
    proc = _translate(tmp_path, name, text)
    assert proc.returncode == 1, proc.stderr
    assert (f"{tmp_path / name}:{line - 4 if name == 'k.c' else line - 5}:{col}: error: "
            "malformed queue id in 'async(z)'") in proc.stderr


@pytest.mark.parametrize("name, source", [("k.c", C_SOURCE), ("k.f90", FORTRAN_SOURCE)])
def test_glue_of_async_kernel_and_wait(tmp_path: Path, name: str, source: str) -> None:
    text = source.replace("KERNEL", "kernel k async(4)").replace("DIRECTIVE", "wait(4, 5)")
    proc = _translate(tmp_path, name, text)
    assert proc.returncode == 0, proc.stderr
    glue = (tmp_path / "out" / "k.host.c").read_text()
    assert "tr_region_begin_async(&_tr_call, &_tr_region_k, 1, 4LL);" in glue \
        or "tr_region_begin_async(&_tr_call, &_tr_region_k, 2, 4LL);" in glue, glue
    assert "static const long long _tr_queues[] = {4LL, 5LL};" in glue
    assert "tr_wait(&_tr_site, 2, _tr_queues);" in glue


STALE_C = """\
#include <stdio.h>
void f(int n, double *restrict u)
{
#pragma translate data copy(u[0:n])
#pragma translate kernel twice
  for (int i = 0; i < n; i++)
    u[i] = 2 * u[i];
#pragma translate end kernel
#pragma translate update host(u[0:n]) async(1)
WAIT
  printf("%g\\n", u[0]);
#pragma translate end data
}
"""


@pytest.mark.parametrize("wait, warns", [
    ("", True), ("#pragma translate wait(2)", True), ("#pragma translate wait(1)", False),
    ("#pragma translate wait", False), ("#pragma translate wait(2, 1)", False)])
def test_async_update_host_counts_at_its_wait(tmp_path: Path, wait: str, warns: bool) -> None:
    """-Wstale-host-access: the host sees what `update host ... async(1)` brings only after a
    `wait` that covers queue 1."""
    proc = _translate(tmp_path, "s.c", STALE_C.replace("WAIT", wait))
    assert proc.returncode == 0, proc.stderr
    message = (f"{tmp_path / 's.c'}:11:18: warning: host code reads or writes 'u', which region "
               "'twice' last wrote on the device (data region at line 4): add '#pragma "
               "translate update host(u)' before this statement [-Wstale-host-access]")
    assert (message in proc.stderr) == warns, proc.stderr
