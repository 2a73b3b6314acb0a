"""Fortran loop nests whose domain forest must follow the nest: sibling loops, bounds naming a
loop two levels out, array sections bounded by an enclosing loop.  Each program is built as
written and as translated and run on the CPU OpenCL device; the outputs must agree."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.driver import translate_text
from translator.ir import isl_glue

#: The issue's shape, unmapped: the region runs as one work item (mapping i races).
CHOLESKY_LIKE = """\
program chol
  implicit none
  integer, parameter :: n = 14
  real(8) :: a(n, n), l(n, n)
  integer :: i, j, k
  do j = 1, n
     do i = 1, n
        a(i, j) = 1.0d0 / (i + j - 1)
     end do
     a(j, j) = a(j, j) + n
  end do
  l = 0
  !$translate kernel ch
  do i = 1, n
     do j = 1, i - 1
        l(i, j) = a(i, j) * 2
     end do
     do j = i + 1, n
        do k = 1, i - 1
           l(j, i) = l(j, i) + a(j, k) * a(i, k)
        end do
     end do
  end do
  !$translate end kernel
  print '(3(1x, es23.15e3))', sum(l), l(n, 2), l(3, 1)
end program chol
"""

#: Array sections whose bounds name the enclosing loop, two axes at once and under an inner
#: loop, with the enclosing loop mapped.
SECTIONS = """\
subroutine tri(n, b, c)
  integer :: n, i, j
  real(8) :: b(n, n, n), c(n)
  !$translate kernel tri
  !$translate split_iname("i", 4, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     b(1:i, 2:i, i) = c(i)
     do j = 1, n
        b(i, j, 1:i) = b(i, j, 1:i) + j
     end do
  end do
  !$translate end kernel
end subroutine

program main
  integer, parameter :: n = 9
  real(8) :: b(n, n, n), c(n)
  integer :: i
  b = 0
  do i = 1, n
     c(i) = i * 0.5d0
  end do
  call tri(n, b, c)
  print '(3(1x, es23.15e3))', sum(b), b(2, 3, 4), b(5, 5, 5)
end program
"""


@pytest.mark.parametrize("name, text", [("chol.f90", CHOLESKY_LIKE), ("tri.f90", SECTIONS)])
def test_nest_matches_original(name: str, text: str, tmp_path: Path) -> None:
    src = tmp_path / name
    src.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    assert check_sample(src, work).strip()


@pytest.mark.parametrize("text", [CHOLESKY_LIKE, SECTIONS])
def test_forest_is_a_chain_along_the_nest(text: str) -> None:
    """Every statement's inames have a non-branching part of the forest, and every domain
    takes its parameters from its ancestors."""
    from frontends.fortran import FRONTEND
    (region,) = FRONTEND.parse("t.f90", textwrap.dedent(text), {}).regions
    kernel = region.kernel
    isl_glue.check_forest(kernel.domains)
    for stmt in kernel.statements:
        isl_glue.combined_domain(kernel.domains, stmt.within_inames)


def test_sibling_loops_keep_their_bounds() -> None:
    """The chain adds links, not constraints: k still runs 1..i-1 for every j_1."""
    from frontends.fortran import FRONTEND
    (region,) = FRONTEND.parse("t.f90", CHOLESKY_LIKE, {}).regions
    kernel = region.kernel
    dom = isl_glue.combined_domain(kernel.domains, ["i", "j_1", "k"])
    expected = isl_glue.parse_domain("{ [i, j_1, k] : 1 <= i <= 14 and i + 1 <= j_1 <= 14 "
                                     "and 1 <= k <= i - 1 }")
    assert dom.is_equal(expected), isl_glue.domain_str(dom)
    parents = isl_glue.domain_parents(kernel.domains)
    home = {n: k for k, d in enumerate(kernel.domains) for n in isl_glue.inames_of(d)}
    assert parents[home["k"]] == home["j_1"] and parents[home["j_1"]] == home["i"]
    assert parents[home["j"]] == home["i"]


def test_translates_like_c_when_unmapped() -> None:
    """Automatic mapping finds the same dependence as for the C version (mapping i races),
    so i becomes a host loop around the two parallel inner nests."""
    from translator.codegen.program import HostLoopCode
    result = translate_text("chol.f90", CHOLESKY_LIKE)
    (mapping,) = result.mappings
    assert mapping.auto_mapping and not mapping.sequential_reason
    loop, = mapping.code.body
    assert isinstance(loop, HostLoopCode) and loop.iname == "i"
