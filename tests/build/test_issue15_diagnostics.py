"""Issue 15's misleading diagnostics, as a user meets them on the command line: each message
says what is true, at the right place, and following its advice gives a program that runs
like the original (``translate check`` builds both and compares them on the OpenCL device).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import SAXPY, must, translate

# ---------------------------------------------------------------------------------------------
# a race on a scalar names the mapped loop, and says why the scalar is shared

FORTRAN_SHARED = """\
subroutine rowsum(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: b(n)
  real(8) :: t
  integer :: i, j
  t = 0
  !$translate kernel rowsum_k
  !$translate tag_inames({"i": "g.0"})
  do i = 1, n
     t = 0
     do j = 1, m
        t = t + a(j, i)
     end do
     b(i) = t
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  real(8) :: a(7, 5), b(5)
  integer :: i, j
  do i = 1, 5
     do j = 1, 7
        a(j, i) = i * 10 + j
     end do
  end do
  call rowsum(5, 7, a, b)
  print '(5f10.1)', b
end program
"""

C_SHARED = """\
#include <stdio.h>
double rowsum(int n, int m, const double *restrict a, double *restrict b)
{
  double t = 0;
#pragma translate kernel rowsum_k
#pragma translate tag_inames({"i": "g.0"})
  for (int i = 0; i < n; i++) {
    t = 0;
    for (int j = 0; j < m; j++)
      t = t + a[i * m + j];
    b[i] = t;
  }
#pragma translate end kernel
  return t;
}
int main(void)
{
  double a[35], b[5];
  for (int k = 0; k < 35; k++) a[k] = k;
  rowsum(5, 7, a, b);
  for (int i = 0; i < 5; i++) printf("%g\\n", b[i]);
  return 0;
}
"""


def _error_and_detail(stderr: str) -> tuple[str, list[str]]:
    lines = stderr.splitlines()
    k = next(k for k, line in enumerate(lines) if ": error: " in line)
    return lines[k], lines[k + 3:]


@pytest.mark.parametrize("name, text, where, why, fixed", [
    ("rowsum.f90", FORTRAN_SHARED, "rowsum.f90:12:6",
     "t is one variable for every iteration of i, not a copy per work item: rowsum also uses "
     "it outside the region (rowsum.f90:8), so its value after the region must be the last "
     "iteration's",
     FORTRAN_SHARED.replace("  t = 0\n  !$translate kernel", "  !$translate kernel")),
    ("rowsum.c", C_SHARED, "rowsum.c:8:5",
     "t is one variable for every iteration of i, not a copy per work item: its value is used "
     "after the region, so it must be the last iteration's",
     C_SHARED.replace("  return t;\n", "  return 0;\n")),
])
def test_race_on_a_shared_scalar_says_why_it_is_shared(tmp_path: Path, name: str, text: str,
                                                        where: str, why: str, fixed: str):
    """The scalar t is the inner loop's sum, reset in every iteration of i; it races on i only
    because the procedure keeps it.  The message names i (the mapped loop, at t's first write)
    and the reason, not a reduction hint that does not apply."""
    (tmp_path / name).write_text(text)
    r = translate(name, "-o", "out", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    error, detail = _error_and_detail(r.stderr)
    assert error.startswith(f"{where}: error: mapping i to g.0 races: iteration i=")
    assert "writes t[0]" in error
    assert f"  {why}" in detail, r.stderr
    assert "reduction" not in r.stderr
    (tmp_path / name).write_text(fixed)   # the advice followed: t is no longer kept
    r = translate("check", name, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all 1 region executions match (rowsum_k x1)" in r.stdout + r.stderr


def test_scalar_carried_by_the_mapped_loop_keeps_the_reduction_hint(tmp_path: Path):
    """A scalar read before it is written (a running sum) names the loop that carries it."""
    src = ("void f(int n, double *restrict a, double *restrict c)\n{\n  double s = 0;\n"
           "#pragma translate kernel k\n#pragma translate tag_inames({\"i\": \"g.0\", "
           "\"j\": \"g.0\"})\n  for (int i = 0; i < n; i++)\n    a[i] = 2 * a[i];\n"
           "  for (int j = 0; j < n; j++) {\n    s = s + c[j];\n    c[j] = s;\n  }\n"
           "#pragma translate end kernel\n}\n")
    (tmp_path / "k.c").write_text(src)
    r = translate("k.c", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1
    error, detail = _error_and_detail(r.stderr)
    assert error.startswith("k.c:9:5: error: mapping j to g.0 races: iteration j=")
    assert "  different iterations of j write the same element; a reduction needs the " \
           "accumulator to be read only as its accumulator inside the loop" in detail


# ---------------------------------------------------------------------------------------------
# the same region name in two inputs of one command

def test_same_region_name_in_two_inputs_warns(tmp_path: Path):
    for d in ("sub1", "sub2"):
        (tmp_path / d).mkdir()
    (tmp_path / "sub1" / "a.f90").write_text(SAXPY)
    (tmp_path / "sub2" / "b.f90").write_text(SAXPY)
    r = translate("sub1/a.f90", "sub2/b.f90", "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == (
        "sub2/b.f90:7:3: warning: the host function translate_saxpy_k of this region is also "
        "the one of the region at sub1/a.f90:7: the two files cannot be linked into one "
        "program (rename one region, or pass --unique-symbols) [-Wduplicate-region]\n"
        "  !$translate kernel saxpy_k\n  ^\n")
    r = translate("-j", "2", "sub1/a.f90", "sub2/b.f90", "-o", "outw", "-Werror", cwd=tmp_path)
    assert r.returncode == 1
    assert "sub2/b.f90:7:3: error: the host function translate_saxpy_k" in r.stderr
    assert "[-Werror=duplicate-region]" in r.stderr
    # the failed file leaves nothing behind; the first file's outputs stay
    left = sorted(p.name for p in (tmp_path / "outw").iterdir())
    assert "a.f90" in left and not [n for n in left if n.startswith("b.")], left
    for flags in (["--unique-symbols"], ["-Wno-duplicate-region"]):
        r = translate("sub1/a.f90", "sub2/b.f90", "-o", "out", *flags, cwd=tmp_path)
        assert r.returncode == 0 and r.stderr == ""


# ---------------------------------------------------------------------------------------------
# --report judges the whole mapping; the indirect-subscript hint names the source loop

SIBLINGS = """\
void f(double *restrict a, const double *restrict b, double *restrict c)
{
#pragma translate kernel siblings_k
#pragma translate tag_inames({"i": "l.0", "j": "l.0"})
  for (int i = 0; i < 64; i++)
    a[i] = 2 * b[i];
  for (int j = 0; j < 64; j++)
    c[j] = a[j] + 1;
#pragma translate end kernel
}
"""


def test_report_shows_no_race_for_a_region_that_translates(tmp_path: Path):
    """Two loops on one local axis share the work items: each is legal in that mapping (the
    report used to judge each alone and list them as races)."""
    (tmp_path / "s.c").write_text(SIBLINGS)
    r = translate("s.c", "-o", "out", "-Werror", "--report", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "    i  l.0  legal\n" in r.stderr and "    j  l.0  legal\n" in r.stderr
    assert "race" not in r.stderr


INDIRECT = """\
#include <stdio.h>
void scatter(int n, double a[n], const double b[n], const int idx[n])
{
#pragma translate kernel scatter_k
PRAGMAS
  for (int i = 0; i < n; i++)
    a[idx[i]] = b[i];
#pragma translate end kernel
}
int main(void)
{
  double a[200], b[200];
  int idx[200];
  for (int i = 0; i < 200; i++) { b[i] = i * 0.5; idx[i] = (i * 7) % 200; a[i] = 0; }
  scatter(200, a, b, idx);
  for (int i = 0; i < 200; i += 37) printf("%g\\n", a[i]);
  return 0;
}
"""

SPLIT = '#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")'


def test_indirect_subscript_hint_works_when_followed(tmp_path: Path):
    (tmp_path / "s.c").write_text(INDIRECT.replace("PRAGMAS", SPLIT))
    r = translate("s.c", "-o", "out", cwd=tmp_path)
    assert r.returncode == 1
    error, detail = _error_and_detail(r.stderr)
    assert error.startswith("s.c:7:5: error: mapping i_inner to l.0 may race (a subscript is "
                            "not affine")
    hint = ('  if the iterations of loop i really are independent, say so with '
            'independent("i") in the region, before the split_iname that made i_inner')
    assert detail[-1] == hint, r.stderr
    (tmp_path / "s.c").write_text(INDIRECT.replace(
        "PRAGMAS", '#pragma translate independent("i")\n' + SPLIT))
    r = translate("check", "s.c", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all 1 region executions match (scatter_k x1)" in r.stdout + r.stderr
    must(translate("s.c", "-o", "out", "-Werror", cwd=tmp_path))


def test_time_passes_shows_parsing_and_rewriting(tmp_path: Path):
    """--time-passes names the time spent outside the engine too: parse, host-glue, rewrite (the
    host glue comes first: the rewritten source names its generation symbol)."""
    (tmp_path / "saxpy.f90").write_text(SAXPY)
    r = translate("saxpy.f90", "-o", "out", "--time-passes", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    passes = [line.split()[2].rstrip(":") for line in r.stderr.splitlines()
              if line.startswith("translate: pass ")]
    assert passes[0] == "parse" and passes[-2:] == ["host-glue", "rewrite"], passes
    assert {"transforms", "legality", "codegen"} <= set(passes)
