"""Costs that are per function or per file, paid once however many regions a file has (issue
24): the C frontend walks a function once for its references and once for its pointers' names
(not once per region, or twice); a region's kernel is printed only for ``--emit ir``.  The
translated program of a function of several regions still runs as the original does."""

from __future__ import annotations

from pathlib import Path

from frontends.c import FRONTEND as C_FRONTEND
from frontends.c import liveness, provenance
from tests.e2e.harness import check_sample
from translator import driver
from translator.ir import printer

REGIONS = 12


def _c_function(regions: int) -> str:
    """One function of `regions` regions: copies through a local pointer of known origin, a
    scalar read after the last region, a local array."""
    body = []
    for k in range(regions):
        body.append(f"""#pragma translate kernel
  for (int i = 0; i < n - 1; i++)
    q[i] = q[i] + {k + 1}.0 * x[i];
#pragma translate end kernel
""")
    return f"""/* translate-test: rtol=1e-12 */
#include <stdio.h>

static double work(int n, const double *restrict x, double *restrict y)
{{
  double *q = y + 1;
  double t[64];
  double s = 0.0;
{''.join(body)}#pragma translate kernel
  for (int i = 0; i < n; i++) {{
    t[i] = 2.0 * y[i];
    y[i] = t[i] + 1.0;
  }}
#pragma translate end kernel
#pragma translate kernel
#pragma translate set_options(reassociate=True)
  for (int i = 0; i < n; i++)
    s = s + y[i];
#pragma translate end kernel
  return s;
}}

int main(void)
{{
  double x[64], y[64];
  for (int i = 0; i < 64; i++) {{
    x[i] = 0.25 * i;
    y[i] = 1.0 / (1 + i);
  }}
  double s = work(64, x, y);
  for (int i = 0; i < 64; i += 7)
    printf("%d %.17g\\n", i, y[i]);
  printf("sum %.17g\\n", s);
  return 0;
}}
"""


def _counting(monkeypatch, owner, name: str) -> list[int]:
    calls = [0]
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_c_function_is_walked_once_for_all_its_regions(monkeypatch):
    """Before: References were built per region (``dict.setdefault`` evaluates its default)
    and the pointer names walked twice per region (builder and assembler): 14 and 84 walks
    for these 14 regions."""
    references = _counting(monkeypatch, liveness.References, "_walk")
    walks = _counting(monkeypatch, provenance, "_function_names")
    top = []
    original = liveness.References.__init__

    def init(self, func):
        top.append(func)
        original(self, func)
    monkeypatch.setattr(liveness.References, "__init__", init)
    parsed = C_FRONTEND.parse("many.c", _c_function(REGIONS), {})
    assert len(parsed.regions) == REGIONS + 2
    assert len(top) == 1 and references[0] > 0
    assert walks[0] == 1


def test_kernels_are_printed_only_when_the_ir_is_asked(monkeypatch):
    calls = _counting(monkeypatch, printer, "print_kernel")
    monkeypatch.setattr(driver, "print_kernel", printer.print_kernel, raising=False)
    result = driver.translate_text("many.c", _c_function(3))
    assert calls[0] == 0
    assert result.ir.count("kernel ") >= 5 and calls[0] == 5


def test_a_function_of_many_regions_runs_as_written(tmp_path: Path):
    src = tmp_path / "many.c"
    src.write_text(_c_function(REGIONS))
    out = check_sample(src, tmp_path)
    assert "sum " in out


def _fortran_file(units: int) -> str:
    """`units` subroutines of one region each (as bench_scale's ``regions``), then one whose
    dummy is declared ``x(1)`` and used as ``x(n)`` (legacy: the footprint is the extent), and
    a main program calling them all."""
    subs = "".join(f"""subroutine reg{k}(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     y(i) = y(i) + {k + 1}.0d0 * x(i)
  end do
  !$translate end kernel
end subroutine reg{k}
""" for k in range(units))
    calls = "".join(f"  call reg{k}(n, x, y)\n" for k in range(units))
    return f"""{subs}subroutine legacy(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(1), y(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     y(i) = y(i) + x(i)
  end do
  !$translate end kernel
end subroutine legacy
program main
  implicit none
  integer, parameter :: n = 50
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
     x(i) = 0.5d0 * i
     y(i) = 1.0d0 / i
  end do
{calls}  call legacy(n, x, y)
  do i = 1, n, 7
     print '(i4, es25.17)', i, y(i)
  end do
end program main
"""


def test_fortran_regions_ask_each_extent_question_once(monkeypatch):
    """Whether ``y(i)`` stays within the declared ``y(n)``: asked of isl once per distinct
    question in the file (before: once per region and array, 2 x 12 + 2 times here)."""
    import importlib

    from frontends.fortran import FRONTEND as F_FRONTEND
    from translator.ir import isl_glue
    getattr(importlib.import_module("frontends.fortran.assemble"), "_WITHIN", {}).clear()
    calls = _counting(monkeypatch, isl_glue, "is_nonnegative")
    parsed = F_FRONTEND.parse("many.f90", _fortran_file(REGIONS), {})
    assert len(parsed.regions) == REGIONS + 1
    assert calls[0] <= 3, calls[0]
    legacy = parsed.regions[-1].kernel
    assert str(legacy.arg("x").shape[-1]) != "1"   # the footprint, not the declared 1


def test_fortran_regions_run_as_written(tmp_path: Path):
    src = tmp_path / "many.f90"
    src.write_text(_fortran_file(REGIONS))
    out = check_sample(src, tmp_path)
    assert "es" not in out and len(out.splitlines()) == 8


def test_a_region_of_many_loops_reads_each_statement_once(monkeypatch):
    """A region of 60 one-statement loops (bench_scale's ``loops``): each loop bound asked
    which scalars the statements before it assign (1,800 reads of assignees before), and each
    array argument scanned every statement for its users."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from bench_scale import fortran_loops

    from frontends.fortran import FRONTEND as F_FRONTEND
    from translator.ir.statements import Assignment
    calls = _counting(monkeypatch, Assignment, "assignee_names")
    parsed = F_FRONTEND.parse("loops.f90", fortran_loops(60), {})
    assert len(parsed.regions[0].kernel.statements) == 61
    assert calls[0] < 10 * 61, calls[0]


def test_regions_of_one_shape_build_their_loop_domains_once(monkeypatch):
    """The isl questions a region's frontend asks (its loop domains; in C the footprint of a
    pointer) are asked once per distinct question in the file: before, once per region
    (14 loop domains and 24 footprints for the C function, 13 domains for the Fortran file)."""
    from frontends.fortran import FRONTEND as F_FRONTEND
    from translator.ir.isl_glue import loops
    monkeypatch.setattr(loops, "_ANSWERS", {})
    c_domains = _counting(monkeypatch, loops, "_c_loop_domain")
    c_ends = _counting(monkeypatch, loops, "_c_union_end")
    f_domains = _counting(monkeypatch, loops, "_make_loop_domain")
    parsed = C_FRONTEND.parse("many.c", _c_function(REGIONS), {})
    assert len(parsed.regions) == REGIONS + 2
    assert c_domains[0] <= 2 and c_ends[0] <= 4, (c_domains[0], c_ends[0])
    parsed = F_FRONTEND.parse("many.f90", _fortran_file(REGIONS), {})
    assert len(parsed.regions) == REGIONS + 1
    assert f_domains[0] <= 2, f_domains[0]


def test_loops_over_one_variable_build_their_domain_once(monkeypatch):
    """bench_scale's ``loops``: 61 loops over ``i`` (inames ``i``, ``i_1`` ... ``i_60``) of
    the same bounds: one domain built, renamed for each loop (before: 61 built)."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from bench_scale import fortran_loops

    from frontends.fortran import FRONTEND as F_FRONTEND
    from translator.ir.isl_glue import loops
    monkeypatch.setattr(loops, "_ANSWERS", {})
    built = _counting(monkeypatch, loops, "_make_loop_domain")
    parsed = F_FRONTEND.parse("loops.f90", fortran_loops(60), {})
    domains = parsed.regions[0].kernel.domains
    assert [str(d) for d in domains[:2]] == ["[m] -> { [i] : 0 < i <= m }",
                                             "[m] -> { [i_1] : 0 < i_1 <= m }"]
    assert len(domains) == 61 and built[0] == 1, built[0]
