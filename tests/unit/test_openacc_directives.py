"""OpenACC directives read as claims (frontends/directives/openacc.py): what each directive
and clause becomes, and the errors for what is not supported, at the directive's line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from frontends.directives import DataClaim, EndDirective, LoopClaim, ParallelOpen, Untouched
from frontends.directives.openacc import parse_openacc, resolve_constructs
from translator.directive_proof import bind_hints
from translator.diagnostics import FrontendError, SourceSpan, TranslatorWarning

SPAN = SourceSpan(file="x.f90", line=3, col=3)


def claim(text: str, language: str = "fortran"):
    return parse_openacc(text, SPAN, language)


@pytest.mark.parametrize("text, name, parallel", [
    ("parallel loop", "parallel loop", 1),
    ("parallel loop collapse(2)", "parallel loop", 2),
    ("parallel loop seq", "parallel loop", 0),
    ("parallel loop auto", "parallel loop", 0),
    ("kernels loop", "kernels loop", 0),
    ("kernels loop independent collapse(3)", "kernels loop", 3),
    ("serial loop", "serial loop", 0),
    ("loop", "loop", 1),
    ("loop independent", "loop independent", 1),
    ("loop seq", "loop seq", 0),
    ("loop auto", "loop auto", 0),
    ("parallel loop tile(8, 4)", "parallel loop", 2),
    ("loop gang worker vector collapse(force:2)", "loop", 2),
])
def test_loop_directives(text: str, name: str, parallel: int) -> None:
    c = claim(text)
    assert isinstance(c, LoopClaim) and c.model == "openacc"
    assert (c.name, c.parallel) == (name, parallel)


def test_data_sharing_clauses() -> None:
    c = claim("parallel loop private(t, W) firstprivate(x) reduction(+:s, q) "
              "reduction(max:m) copyin(a(1:n), b) pcopy(c) present(D) default(present)")
    assert c.private == ("t", "w") and c.firstprivate == ("x",)
    assert c.reductions == (("+", "s"), ("+", "q"), ("max", "m"))
    assert c.shared == ("a", "b", "c", "d")        # arrays in data clauses: shared
    assert c.default == "present"
    c = claim("parallel loop copy(a[0:n]) private(T)", "c")
    assert c.shared == ("a",) and c.private == ("T",)   # C names keep their case


def test_clauses_without_effect_are_listed() -> None:
    c = claim("parallel loop gang worker num_workers(4) async(2) wait if(n > 100)")
    assert c.ignored == ("gang", "worker", "num_workers(4)", "async(2)", "wait",
                         "if(n > 100)")
    assert c.hints == ()


@pytest.mark.parametrize("text, splits", [
    ("parallel loop vector_length(128)", [("@loop1", 128, ("g.0", "l.0"))]),
    ("parallel loop gang vector(64)", [("@loop1", 64, ("g.0", "l.0"))]),
    ("parallel loop collapse(2) tile(16, 8)",
     [("@loop1", 16, ("g.0", "l.0")), ("@loop2", 8, ("g.1", "l.1"))]),
    ("parallel loop num_gangs(1) vector_length(32)", [("@loop1", 32, ("l.0",))]),
    ("parallel loop vector_length(n)", []),           # not a constant: not used
    ("parallel loop vector_length(4096)", []),        # larger than a work group may be
    ("kernels loop vector_length(64)", []),           # automatic: the mapper chooses
])
def test_mapping_hints(text: str, splits: list) -> None:
    c = claim(text)
    got = [(h.args[0], h.args[1], tuple(v for _, v in h.kwargs)) for h in c.hints]
    assert got == splits
    if not splits:
        assert any(i.startswith(("vector_length", "num_gangs")) for i in c.ignored)


def test_hints_bound_to_declared_loops() -> None:
    c = claim("parallel loop collapse(2) tile(16, 8)")
    calls = bind_hints(c, (("j", "j"), ("i", "i_1")))      # outermost first
    assert [(h.name, h.args) for h in calls] == [("split_iname", ("i_1", 16)),
                                                  ("split_iname", ("j", 8))]
    # a hint for a loop the claim does not declare parallel is dropped
    assert [h.args for h in bind_hints(c, (("j", "j"),))] == [("j", 16)]


@pytest.mark.parametrize("text, translate", [
    ("data copyin(a) copy(b(1:n)) copyout(c) create(d) present(e)",
     "data copyin(a) copy(b(1:n)) copyout(c) create(d) present(e)"),
    ("data pcopyin(a) present_or_copy(b) pcopyout(c) present_or_create(d)",
     "data copyin(a) copy(b) copyout(c) create(d)"),
    ("enter data copyin(a[0:n]) pcreate(b[0:n]) async(1)",
     "enter data copyin(a[0:n]) create(b[0:n])"),
    ("exit data copyout(a) delete(b) finalize", "exit data copyout(a) delete(b)"),
    # every OpenACC update leaves data that is not present alone (h70: `declare`d data)
    ("update self(a) host(b(1:2)) device(c) if_present", "update self(a) host(b(1:2)) "
     "device(c) if_present"),
    ("update device(c)", "update device(c) if_present"),
])
def test_data_directives(text: str, translate: str) -> None:
    c = claim(text)
    assert isinstance(c, DataClaim) and c.translate_text == translate


def test_other_directives() -> None:
    assert isinstance(claim("end parallel loop"), EndDirective)
    assert claim("end kernels").words == ("kernels",)
    for text in ("routine seq", "routine(f) seq", "declare create(a)", "wait", "wait(1)",
                 "cache(a(i:i+3))", "atomic update", "init", "shutdown", "set device_num(0)"):
        assert isinstance(claim(text), Untouched), text
    for construct in ("kernels", "parallel num_gangs(4)", "serial"):
        c = claim(construct)
        assert isinstance(c, ParallelOpen) and c.claim.model == "openacc"


def test_a_bare_loop_inside_kernels_is_automatic() -> None:
    lines = ["!$acc kernels", "!$acc loop", "do i = 1, n", "end do", "!$acc end kernels",
             "!$acc parallel", "!$acc loop", "do i = 1, n", "end do", "!$acc end parallel",
             "!$acc kernels", "!$acc loop independent", "do i = 1, n", "end do",
             "!$acc end kernels"]
    items = [(k + 1, k + 1, claim(t.removeprefix("!$acc ")))
             for k, t in enumerate(lines) if t.startswith("!$acc")]
    out = resolve_constructs(items, lines, "fortran")
    loops = [c for c in out if isinstance(c, LoopClaim)]
    assert [(c.name, c.parallel) for c in loops] == [("loop", 0), ("loop", 1),
                                                     ("loop independent", 1)]


def test_loops_take_the_sizes_of_their_construct() -> None:
    lines = ["!$acc parallel vector_length(64)", "!$acc loop", "do i = 1, n", "end do",
             "!$acc loop vector(32)", "do i = 1, n", "end do", "!$acc loop seq",
             "do i = 1, n", "end do", "!$acc end parallel"]
    items = [(k + 1, k + 1, claim(t.removeprefix("!$acc ")))
             for k, t in enumerate(lines) if t.startswith("!$acc")]
    out = resolve_constructs(items, lines, "fortran")
    assert [[h.args[1] for h in c.hints] for c in out[1:4]] == [[64], [32], []]


def test_bare_loop_in_a_c_kernels_block() -> None:
    lines = ["#pragma acc kernels", "{", "#pragma acc loop", "for (;;) ;", "}",
             "#pragma acc loop", "for (;;) ;"]
    items = [(1, 1, claim("kernels", "c")), (3, 3, claim("loop", "c")),
             (6, 6, claim("loop", "c"))]
    out = resolve_constructs(items, lines, "c")
    assert [c.parallel for c in out[1:]] == [0, 1]


@pytest.mark.parametrize("text, message", [
    ("parallel loop seq independent", "'parallel loop' has clauses independent and seq: a "
                                      "loop is either independent, seq or auto"),
    ("parallel loop reduction(-:s)", "reduction operator '-' on 'parallel loop' is not an "
                                     "OpenACC reduction operator"),
    ("parallel loop reduction(s)", "malformed reduction clause 'reduction(s)'"),
    ("parallel loop shared(a)", "unknown OpenACC clause 'shared' on 'parallel loop'"),
    ("parallel loop collapse(n)", "collapse(n) needs a positive integer constant"),
    ("parallel loop default(shared)", "default(shared) is not an OpenACC default"),
    ("parallel loop private", "OpenACC clause 'private' on 'parallel loop' needs a list"),
    ("parallel loop private(a(1:2))", "'private' on 'parallel loop' takes variable names"),
    ("parallel loop deviceptr(p)", "'deviceptr' on 'parallel loop' is not supported"),
    ("enter data copyout(a)", "clause 'copyout' is not allowed on OpenACC 'enter data' "
                              "(allowed: copyin, create, pcopyin, pcreate, "
                              "present_or_copyin, present_or_create)"),
    ("data no_create(a)", "'data' moves no data the translator can manage"),
    ("update copy(a)", "clause 'copy' on OpenACC 'update' is not supported"),
    ("host_data use_device(x)", "'host_data use_device' is not supported"),
])
def test_errors(text: str, message: str) -> None:
    with pytest.raises(FrontendError) as err:
        claim(text)
    assert message in err.value.message
    assert err.value.span == SPAN


def test_unknown_directive_is_left_with_a_warning() -> None:
    with pytest.warns(TranslatorWarning) as seen:
        c = claim("paralel loop gang")
    assert isinstance(c, Untouched)
    assert seen[0].message.warning_id == "unknown-directive"
    assert "unknown OpenACC directive 'paralel' (did you mean 'parallel'?); it is left as " \
        "written" in seen[0].message.message


FORTRAN = """\
subroutine f(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$acc parallel loop &
  !$acc& deviceptr(a)
  do i = 1, n
     a(i) = 2 * a(i)
  end do
end subroutine
"""

C = """\
void f(int n, double *a)
{
#pragma acc parallel loop \\
    reduction(-:s)
  for (int i = 0; i < n; i++)
    a[i] = 2 * a[i];
}
"""

WRONG_OPERATOR_F = """\
subroutine p(n, a, s)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(inout) :: s
  !$acc parallel loop reduction(+:s)
  do i = 1, n
     s = s * a(i)
  end do
end subroutine
"""

PRIVATE_ARRAY_F = """\
subroutine pw(n, a, c)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: c(n)
  real(8) :: w(2)
  integer :: i
  !$acc parallel loop
  do i = 1, n
     w(1) = a(i)
     w(2) = 2 * w(1)
     c(i) = w(2) - w(1)
  end do
end subroutine
"""

WRONG_OPERATOR_C = """\
void p(int n, const double *a, double *r)
{
  double s = *r;
#pragma acc parallel loop reduction(max:s)
  for (int i = 0; i < n; i++)
    s = s < a[i] ? s : a[i];
  *r = s;
}
"""


@pytest.mark.parametrize("name, text, where, message", [
    ("f.f90", FORTRAN, "f.f90:5:3", "'deviceptr' on 'parallel loop' is not supported: the "
                                    "translator moves host arrays itself"),
    ("f.c", C, "f.c:3:13", "reduction operator '-' on 'parallel loop' is not an OpenACC "
                           "reduction operator"),
    ("p.f90", WRONG_OPERATOR_F, "p.f90:5:3", "'!$acc parallel loop': the loop multiplies s, "
                                             "but reduction(+:s) adds: use reduction(*:s)"),
    ("w.f90", PRIVATE_ARRAY_F, "w.f90:7:3", "'!$acc parallel loop': the loop over i is "
                                           "declared parallel, but mapping i to g.0 races: "
                                           "iteration i=2 writes w[0], iteration i=1 writes "
                                           "w[0] (w.f90:9) (w is shared, but every iteration "
                                           "writes what it reads of it first: add private(w))"),
    ("p.c", WRONG_OPERATOR_C, "p.c:4:13", "'#pragma acc parallel loop': the loop takes the "
                                          "minimum of s, but reduction(max:s) takes the "
                                          "maximum: use reduction(min:s)"),
])
def test_cli_errors_at_the_directive(name: str, text: str, where: str, message: str,
                                     tmp_path: Path) -> None:
    (tmp_path / name).write_text(text)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "--directives", "openacc",
                           name, "-o", "out"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1
    assert f"{where}: error: {message}" in proc.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
