"""OpenMP directives as input (issue 22): every message of ``--directives openmp`` with its
text and file:line:col, the option's validation, and ``-Wno-error=directive-race``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

FORTRAN = """\
subroutine s(n, a, b, c)
  integer :: n, i, j
  real(8) :: a(n), b(n), c(n, n), t, acc
  {directive}
  do i = 2, n
     {body}
  end do
end subroutine
"""

C = """\
void f(int n, double *restrict a, double *restrict b, double *s)
{{
    double t, acc = 0;
{directive}
    for (int i = 1; i < n; i++) {{
        {body}
    }}
    *s = acc;
}}
"""


def translate(tmp: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    src = tmp / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp / "out"), "--directives", "openmp", *flags],
                          cwd=tmp, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("directive, body, message", [
    ("!$omp parallel do", "t = a(i)\n     b(i) = t",
     "4:3: error: '!$omp parallel do': shared variable 't' is written by every iteration of "
     "the parallel loop over i (a race): add private(t)"),
    ("!$omp parallel do", "acc = acc + a(i)",
     "shared variable 'acc' is written by every iteration of the parallel loop over i (a "
     "race): add reduction(+:acc)"),
    ("!$omp parallel do private(t)", "t = t + a(i)\n     b(i) = t",
     "private variable 't' is read before it is written in an iteration: its value is "
     "undefined in OpenMP; use firstprivate(t)"),
    ("!$omp parallel do private(t)", "b(i) = t",
     "private variable 't' is read but never written in the loop: its value is undefined in "
     "OpenMP; use firstprivate(t)"),
    ("!$omp parallel do", "a(i) = a(i-1) + 1",
     "4:3: error: '!$omp parallel do': the loop over i is declared parallel, but mapping i "
     "to g.0 races: iteration i=2 writes a[1], iteration i=3 reads a[1]"),
    ("!$omp parallel do firstprivate(t)", "t = t + a(i)\n     b(i) = t",
     "firstprivate variable 't' is read before it is written in an iteration"),
    ("!$omp parallel do reduction(+:acc)", "acc = acc * a(i)",
     "4:3: error: '!$omp parallel do': the loop multiplies acc, but reduction(+:acc) adds: "
     "use reduction(*:acc)"),
    ("!$omp parallel do lastprivate(t)", "if (a(i) > 0) t = a(i)\n     b(i) = 1",
     "4:3: error: '!$omp parallel do': lastprivate variable 't' is not written by the last "
     "iteration on every path: its value after the loop is then undefined in OpenMP (the "
     "sequential loop keeps an earlier iteration's value); write t on every path of the loop "
     "body"),
    ("!$omp parallel do lastprivate(t)", "do j = 2, i - 1\n        t = a(j)\n     end do",
     "lastprivate variable 't' is not written by the last iteration on every path"),
    ("!$omp parallel do lastprivate(t)", "b(i) = t\n     t = a(i)",
     "4:3: error: '!$omp parallel do': lastprivate variable 't' is read before it is written "
     "in an iteration: each iteration has its own copy, whose value is undefined there in "
     "OpenMP; write t before reading it"),
    ("!$omp parallel do reduction(+:acc)", "acc = max(acc, a(i))",
     "the loop takes the maximum of acc, but reduction(+:acc) adds: use reduction(max:acc)"),
])
def test_fortran_races_are_errors_at_the_directive(tmp_path: Path, directive: str, body: str,
                                                   message: str) -> None:
    done = translate(tmp_path, "s.f90", FORTRAN.format(directive=directive, body=body))
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
    assert f"s.f90:4:3: error: '{directive.split(' p')[0]} " in done.stderr
    assert "[-Werror=directive-race]" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("directive, body, message", [
    ("#pragma omp parallel for", "t = a[i];\n        b[i] = t;",
     "4:13: error: '#pragma omp parallel for': shared variable 't' is written by every "
     "iteration of the parallel loop over i (a race): add private(t)"),
    ("#pragma omp parallel for", "acc += a[i];",
     "add reduction(+:acc)"),
    ("#pragma omp parallel for", "a[i] = a[i - 1] + 1;",
     "the loop over i is declared parallel, but mapping i to g.0 races"),
    ("#pragma omp parallel for lastprivate(t)", "if (a[i] > 0)\n            t = a[i];",
     "4:13: error: '#pragma omp parallel for': lastprivate variable 't' is not written by the "
     "last iteration on every path"),
    ("#pragma omp parallel for lastprivate(t)", "t = t + a[i];\n        b[i] = t;",
     "4:13: error: '#pragma omp parallel for': lastprivate variable 't' is read before it is "
     "written in an iteration"),
    ("#pragma omp parallel for reduction(*:acc)", "acc -= a[i];",
     "4:13: error: '#pragma omp parallel for': the loop adds to acc, but reduction(*:acc) "
     "multiplies: use reduction(+:acc)"),
])
def test_c_races_are_errors_at_the_directive(tmp_path: Path, directive: str, body: str,
                                             message: str) -> None:
    done = translate(tmp_path, "f.c", C.format(directive=directive, body=body))
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
    assert "f.c:4:13: error:" in done.stderr


INNER_INDEX = """\
void f(int m, double u[m][m], double v[m][m])
{
  int j;
#pragma omp parallel
  {
    int k;
#pragma omp for
    for (int i = 0; i < m; i++)
      for (k = 0; k < m; k++)
        v[i][k] = u[i][k] + u[k][i];
  }
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < m; i++)
      for (j = 0; j < m; j++)
        v[i][j] = u[i][j] + u[j][i];
  }
#pragma omp parallel for collapse(2)
  for (int i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      v[i][j] = u[i][j] + u[j][i];
}
"""


def test_c_inner_index_declared_outside_is_shared(tmp_path: Path) -> None:
    """OpenMP C makes private only the indices of the loops a directive is associated with
    (and variables declared inside the construct): an inner loop over a ``j`` declared
    before the construct shares it.  In Fortran every DO index is private (the cases above)."""
    done = translate(tmp_path, "f.c", INNER_INDEX)
    assert done.returncode == 1
    assert ("f.c:14:13: error: '#pragma omp for': 'j' is the index of the loop at line 16 and "
            "is declared outside the construct, so OpenMP shares it: every iteration of the "
            "parallel loop over i writes it (a race): add private(j), or declare it in the "
            "for statement") in done.stderr
    assert done.stderr.count("error:") == 1   # k (declared inside) and collapse(2): private


PRIVATE_ARRAYS = """\
void f(int n, const double *restrict a, const double *restrict b, double *restrict c)
{
  double w[2];
#pragma omp parallel for private(w)
  for (int i = 0; i < n; i++) {
    w[0] = a[i];
    w[1] = b[i] * w[0];
    c[i] = w[1] - w[0];
  }
}
void g(int n, const double *restrict a, double *restrict c)
{
  double w[2] = {0, 0};
#pragma omp parallel for private(w)
  for (int i = 0; i < n; i++) {
    c[i] = w[1];
    w[1] = a[i];
  }
}
void h(int n, const double *restrict a, double *restrict c)
{
  double w[2];
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    w[1] = a[i];
    c[i] = w[1];
  }
}
"""


def test_private_arrays(tmp_path: Path) -> None:
    """``private(w)`` on a work array each iteration writes before reading: one copy per work
    item (f, no error); read first (g): its value comes from nowhere, a race; without the
    clause (h) the array is shared, and the error suggests the clause."""
    done = translate(tmp_path, "p.c", PRIVATE_ARRAYS)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if ": error: " in line]
    assert [e.split(": error:")[0].rsplit("/", 1)[-1] for e in errors] == ["p.c:14:13",
                                                                           "p.c:23:13"]
    assert "private(w)" not in errors[0]
    assert ("p.c:23:13: error: '#pragma omp parallel for': the loop over i is declared "
            "parallel, but mapping i to g.0 races: iteration i=1 writes w[1], iteration i=0 "
            "writes w[1] (") in errors[1]
    assert ("p.c:25) (w is shared, but every iteration writes what it reads of it first: add "
            "private(w)); the loop keeps its sequential meaning") in errors[1]
    alone = translate(tmp_path, "f.c", PRIVATE_ARRAYS.split("void g")[0], "--report")
    assert alone.returncode == 0, alone.stderr
    assert "private temporaries: w: float64[2]" in alone.stdout + alone.stderr


BOUNDS_C = """\
void g(int n, double c[n], double a[n])
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    c[i] = a[i + 1];
}
"""

LEGACY = """\
subroutine s(n, nmax, a, c, w, ix)
  integer, intent(in) :: n, nmax
  real(8), intent(inout) :: a(n), c(nmax), w(1)
  integer, intent(in) :: ix(n)
  integer :: i
  !$omp parallel do
  do i = 1, n
     c(i) = w(i + 1) + a(ix(i))
  end do
end subroutine
"""


@pytest.mark.parametrize("name, text, message", [
    ("s.f90", FORTRAN.format(directive="!$omp parallel do", body="b(i) = a(i + 1)"),
     "s.f90:4:3: error: '!$omp parallel do': a[i] (0-based) reaches index 2 of dimension 1 "
     "(extent 0..n-1) at i=2 when n=2: the loop reads outside the declared extent of 'a', "
     "which the program leaves undefined; bound the loop or declare the array larger"),
    ("s.f90", FORTRAN.format(directive="!$omp parallel do", body="c(i, 0) = a(i)"),
     "'!$omp parallel do': c[i - 1, -1] (0-based) reaches index -1 of dimension 2"),
    ("f.c", C.format(directive="#pragma omp parallel for", body="b[i] = a[i - 2];"),
     "f.c:4:13: error: '#pragma omp parallel for': a[i - 2] reaches index -1 at i=1 when n=2: "
     "the loop reads before the first element of 'a', which has no declared extent: the "
     "translator moves a pointer's elements from the one it points to on; pass a pointer to "
     "the first element the loop uses"),
    ("g.c", BOUNDS_C, "g.c:3:13: error: '#pragma omp parallel for': a[i + 1] reaches index 1 "
     "of dimension 1 (extent 0..n-1) at i=0 when n=1: the loop reads outside the declared "
     "extent of 'a'"),
])
def test_subscripts_outside_the_extent_are_errors(tmp_path: Path, name: str, text: str,
                                                   message: str) -> None:
    """Out-of-bounds neighbours: no -Wno-error makes them translate."""
    done = translate(tmp_path, name, text, "-Wno-error=directive-race")
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
    assert done.stderr.count("error:") == 1


def test_legacy_dummy_and_gathers_are_not_bounds_errors(tmp_path: Path) -> None:
    """``w(1)`` stands for ``w(*)`` in legacy code; ``a(ix(i))`` cannot be bounded;
    ``c(i)`` of ``c(nmax)`` over ``i = 1, n`` leaves the extent only if the caller passes
    ``n > nmax``."""
    done = translate(tmp_path, "s.f90", LEGACY)
    assert done.returncode == 0, done.stderr


def test_default_none_names_the_unlisted_variable(tmp_path: Path) -> None:
    done = translate(tmp_path, "s.f90", FORTRAN.format(
        directive="!$omp parallel do default(none) shared(a)", body="b(i) = a(i)"))
    assert done.returncode == 1
    assert ("s.f90:4:3: error: '!$omp parallel do': variable 'b' is used in the loop but not "
            "named in a data-sharing clause, and default(none) requires it (add shared(b) or "
            "private(b))") in done.stderr


@pytest.mark.parametrize("directive, message", [
    ("!$omp parallel do privat(t)", "s.f90:4:3: error: unknown OpenMP clause 'privat' on "
     "'parallel do' (did you mean 'private'?)"),
    ("!$omp parallel do reduction(foo:t)", "s.f90:4:3: error: reduction operator 'foo' on "
     "'parallel do' is not supported"),
    ("!$omp parallel do collapse(0)", "s.f90:4:3: error: collapse(0) needs a positive "
     "integer constant"),
    ("!$omp parallel do collapse(2)", "s.f90:4:3: error: '!$omp parallel do': collapse(2) "
     "needs 2 perfectly nested loops"),
    ("!$omp parallel do default(sometimes)", "s.f90:4:3: error: default(sometimes) is not an "
     "OpenMP data-sharing default"),
])
def test_malformed_directives(tmp_path: Path, directive: str, message: str) -> None:
    done = translate(tmp_path, "s.f90", FORTRAN.format(directive=directive,
                                                       body="b(i) = a(i)"))
    assert done.returncode == 1
    assert message in done.stderr


def test_directive_without_a_loop(tmp_path: Path) -> None:
    text = "subroutine s(a)\n  real(8) :: a\n  !$omp parallel do\n  a = 1\nend subroutine\n"
    done = translate(tmp_path, "s.f90", text)
    assert done.returncode == 1
    assert "s.f90:3:3: error: '!$omp parallel do' must be followed by a DO loop" in done.stderr


def test_unknown_model_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "s.f90"
    src.write_text("subroutine s\nend subroutine\n")
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "--directives",
                           "openmp,cuda"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    assert ("translate: error: --directives: unknown directive model 'cuda' (expected a "
            "comma-separated list of openmp, openacc, translate)") in done.stderr


def test_without_the_option_directives_are_comments(tmp_path: Path) -> None:
    text = FORTRAN.format(directive="!$omp parallel do", body="a(i) = a(i-1) + 1")
    src = tmp_path / "s.f90"
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "s.f90").read_text() == text


def test_unsupported_reduction_operator_keeps_the_loop_sequential(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        subroutine s(n, k, f)
          integer :: n, i, k(n), f
          !$omp parallel do reduction(ior:f)
          do i = 1, n
             f = ior(f, k(i))
          end do
        end subroutine
        """)
    done = translate(tmp_path, "s.f90", text, "--report")
    assert done.returncode == 0, done.stderr
    assert ("s.f90:3:3: warning: '!$omp parallel do': reduction(ior:f): the translator has no "
            "parallel reduction for operator 'ior'") in done.stderr
    assert "[-Wdirective-sequential]" in done.stderr


LASTPRIVATE_KEPT = """\
void f(int n, int m, double *restrict a, double *restrict b, double u[n][m], double *s)
{
  double t = 0, w = 0;
#pragma omp parallel
  {
#pragma omp for lastprivate(t)
    for (int i = 0; i < n; i++) {
      t = a[i];
      b[i] = t;
    }
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = t;
  }
#pragma omp parallel for collapse(2) lastprivate(w)
  for (int i = 0; i < n; i++)
    for (int j = i; j < m; j++) {
      w = u[i][j];
      u[i][j] = 2 * w;
    }
  *s = t + w;
}
"""


def test_lastprivate_kept_sequential_where_no_store_can_be_placed(tmp_path: Path) -> None:
    """A lastprivate variable the region also uses outside the loop, or whose last iteration
    is not one point of the parameters (here min(n, m) - 1): the loop keeps its sequential
    meaning, with the reason."""
    done = translate(tmp_path, "f.c", LASTPRIVATE_KEPT)
    assert done.returncode == 0, done.stderr
    assert ("f.c:6:13: warning: '#pragma omp for': lastprivate(t): 't' is also used outside "
            "the loops the directive declares parallel, in the same region; the loop keeps its "
            "sequential meaning [-Wdirective-sequential]") in done.stderr
    assert ("f.c:15:13: warning: '#pragma omp parallel for': lastprivate(w): the last "
            "iteration of the loops over i, j is not one point the translator can name (its "
            "bounds differ by cases); the loop keeps its sequential meaning "
            "[-Wdirective-sequential]") in done.stderr


def test_left_directives_are_reported(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        subroutine s(n, a)
          integer :: n, i
          real(8) :: a(n)
          !$omp parallel do
          do i = 1, n
             a(i) = 2*a(i)
          end do
          !$omp barrier
        end subroutine
        """)
    done = translate(tmp_path, "s.f90", text, "--report")
    assert done.returncode == 0, done.stderr
    assert "'!$omp parallel do' at line 4: proven: loops i parallel" in done.stderr
    assert ("s.f90:8: 'barrier' left as written: a barrier synchronises host "
            "threads") in done.stderr
    rewritten = (tmp_path / "out" / "s.f90").read_text()
    assert "  !$omp barrier\n" in rewritten and "!$omp parallel do" not in rewritten


RACY = """\
! translate-test: translate=--directives=openmp translate=-Wno-error=directive-race
program racy
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n)
  integer :: i
  a = 1
  !$omp parallel do
  do i = 2, n
     a(i) = a(i-1) + a(i)
  end do
  print *, a(n), sum(a)
end program
"""


def test_no_error_keeps_the_sequential_meaning(tmp_path: Path) -> None:
    """``-Wno-error=directive-race``: a warning, and the program gives the original's
    (sequential) result."""
    src = tmp_path / "racy.f90"
    src.write_text(RACY)
    check_sample(src, tmp_path)


@pytest.mark.parametrize("name, text, message", [
    ("s.f90", "subroutine s(n, a)\n  integer :: n, i\n  real(8) :: a(n)\n  !$omp parallel do\n"
     "  do i = 1, n\n     call g(a(i))\n  end do\n  !$omp parallel do\n  do i = 1, n\n"
     "     a(i) = 2*a(i)\n  end do\nend subroutine\n",
     "s.f90:4:3: warning: '!$omp parallel do' left as written: call of unknown external "
     "procedure 'g'"),
    ("f.c", "#include <stdio.h>\nvoid f(int n, double *a)\n{\n#pragma omp parallel for\n"
     "    for (int i = 0; i < n; i++)\n        printf(\"%g\\n\", a[i]);\n"
     "#pragma omp parallel for\n    for (int i = 0; i < n; i++)\n        a[i] *= 2;\n}\n",
     "f.c:4:13: warning: '#pragma omp parallel for' left as written:"),
])
def test_loop_that_cannot_be_a_region_is_left_as_written(tmp_path: Path, name: str, text: str,
                                                         message: str) -> None:
    """A loop holding a call or I/O keeps its directive and stays on the host; the file's
    other directives are still translated."""
    done = translate(tmp_path, name, text)
    assert done.returncode == 0, done.stderr
    assert message in done.stderr and "[-Wdirective-untranslated]" in done.stderr
    rewritten = (tmp_path / "out" / name).read_text()
    assert rewritten.count("parallel") == 1 and "translate_" in rewritten


def test_default_private_and_array_reduction(tmp_path: Path) -> None:
    """``default(private)`` makes the loop's unlisted scalars private (no race); a reduction
    over an array is refused with a warning and the loop keeps its sequential meaning."""
    text = textwrap.dedent("""\
        subroutine s(n, a, b, h)
          integer :: n, i, h(4)
          real(8) :: a(n), b(n), t, u
          !$omp parallel do default(private) shared(a, b)
          do i = 1, n
             t = a(i) * 2
             u = t + 1
             b(i) = u
          end do
          !$omp parallel do reduction(+:h)
          do i = 1, n
             h(mod(i, 4) + 1) = h(mod(i, 4) + 1) + 1
          end do
        end subroutine
        """)
    done = translate(tmp_path, "s.f90", text, "--report")
    assert done.returncode == 0, done.stderr
    assert "'!$omp parallel do' at line 4: proven: loops i parallel" in done.stderr
    assert ("s.f90:10:3: warning: '!$omp parallel do': reduction over the array 'h': the "
            "translator reduces scalars only; the loop keeps its sequential meaning "
            "[-Wdirective-sequential]") in done.stderr


def test_parallel_without_its_end(tmp_path: Path) -> None:
    text = ("subroutine s(n, a)\n  integer :: n, i\n  real(8) :: a(n)\n  !$omp parallel\n"
            "  !$omp do\n  do i = 1, n\n     a(i) = 1\n  end do\nend subroutine\n")
    done = translate(tmp_path, "s.f90", text)
    assert done.returncode == 1
    assert ("s.f90:4:3: error: '!$omp parallel' without a matching end directive ('end "
            "parallel')") in done.stderr


NOWAIT_F = """\
subroutine s(n, a, b, c)
  integer :: n, i
  real(8) :: a(n), b(n), c(n)
  !$omp parallel
  !$omp do
  do i = 1, n
     b(i) = 2*a(i)
  end do
  !$omp end do nowait
  !$omp do
  do i = 2, n
     c(i) = b(i-1)
  end do
  !$omp end parallel
end subroutine
"""

NOWAIT_C = """\
void f(int n, const double *restrict a, double *restrict b, double *restrict c)
{
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      b[i] = 2 * a[i];
#pragma omp for
    for (int i = 1; i < n; i++)
      c[i] = b[i - 1];
  }
}
"""


@pytest.mark.parametrize("name, text, where", [("s.f90", NOWAIT_F, "s.f90:5:3"),
                                               ("f.c", NOWAIT_C, "f.c:5:13")])
def test_nowait_between_dependent_loops_is_a_race(tmp_path: Path, name: str, text: str,
                                                  where: str) -> None:
    done = translate(tmp_path, name, text)
    assert done.returncode == 1
    assert (f"{where}: error: ") in done.stderr
    assert ("'nowait' lets the loop at line 10 start before this loop ends, and they touch the "
            "same memory (one of them writes it): remove nowait" if name == "s.f90" else
            "'nowait' lets the loop at line 8 start before") in done.stderr
    independent = text.replace("b(i-1)", "a(i)").replace("b[i - 1]", "a[i]")
    assert translate(tmp_path, name, independent).returncode == 0


def test_one_scanner_reads_each_sentinel_with_its_continuation_rule() -> None:
    """``!$translate`` continues only with ``!$translate&``; ``!$omp``/``!$acc`` with or
    without ``&``, in fixed form also with a column-6 mark, their trailing comments dropped."""
    from frontends.fortran.regions import scan_directives
    from frontends.fortran.source import SourceLines
    from translator.diagnostics import FrontendError
    fixed = SourceLines("s.f", "c$omp parallel do\nc$omp1 private(t)  ! why\n      x = 1\n"
                               "!$translate kernel k\n")
    omp = scan_directives(fixed, "fixed", "omp", continuation="openmp")
    assert [(d.line, d.last_line, d.text) for d in omp] == [(1, 2, "parallel do private(t)")]
    assert [d.text for d in scan_directives(fixed, "fixed")] == ["kernel k"]
    free = SourceLines("s.f90", "  !$acc loop &\n  !$acc independent\n"
                                "  !$translate kernel &\n  !$translate k\n")
    assert [d.text for d in scan_directives(free, "free", "acc", continuation="openmp")] == [
        "loop independent"]
    with pytest.raises(FrontendError, match="not a '!\\$translate&' continuation line"):
        scan_directives(free, "free")
