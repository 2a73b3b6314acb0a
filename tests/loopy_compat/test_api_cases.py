"""loopy 2025.2's Fortran tests that are API-level in loopy (``lp.parse_fortran`` followed by
Python transforms, ``fuse_kernels``, ``find_instructions``, checks of the generated code),
through `translator.parse_fortran`; every kernel that runs is compared on the CPU OpenCL
device with its untransformed reference (`auto_test_vs_ref`)."""

from __future__ import annotations

import numpy as np

import transforms as tr
import translator
from tests.loopy_compat.cases import FILL
from translator.testing import auto_test_vs_ref

ASSIGN = """
subroutine assign_scalar(a)
  real*8 a(1)
  a(1) = {value}
end
"""

TWO_OUT = """
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a, out(n), out2(n), inp(n)
  integer n, i
  do i = 1, n
{body}
  end do
end
"""


def assign_code(value: str) -> str:
    knl = translator.parse_fortran(ASSIGN.format(value=value))["assign_scalar"]
    return translator.generate_code(knl).device_code


def test_fp_prec_comparison() -> None:
    """A default-real constant and a double one are different kernels."""
    double = translator.parse_fortran(ASSIGN.format(value="1.1d0"))
    single = translator.parse_fortran(ASSIGN.format(value="1.1"))
    assert double != single


def test_assign_precision_in_generated_code() -> None:
    """``1.1d0`` is the double 1.1; ``1.1`` is the single-precision value widened (loopy
    writes ``1.1f``; the exact widened value is the same number)."""
    assert "a[0] = 1.1;" in assign_code("1.1d0")
    assert "a[0] = 1.100000023841858;" in assign_code("1.1")


def test_assign_runs(ctx, queue) -> None:
    knl = translator.parse_fortran(ASSIGN.format(value="1.1d0") + ASSIGN.format(
        value="11").replace("assign_scalar", "as_rational").replace(
        "  a(1) = 11\n", "  a(1) = 11\n  a(1) = a(1) / 10\n"))
    for name in ("assign_scalar", "as_rational"):
        out = translator.compile(knl[name], ctx)(queue, a=np.zeros(1))
        assert abs(out["a"][0] - 1.1) < 1e-15


def test_fill_with_its_pragmas(ctx) -> None:
    """A text that marks its region: the kernel with the region's pragmas applied (loopy's
    parse_transformed_fortran)."""
    knl = translator.parse_fortran(FILL.split("program main")[0])["fill_k"]
    assert "i_inner" in knl.all_inames
    auto_test_vs_ref(knl, ctx, knl, parameters=dict(n=5, a=5))


def test_assignment_to_subst(ctx) -> None:
    knl = translator.parse_fortran(TWO_OUT.format(body="""\
    a = inp(i)
    out(i) = 5*a
    out2(i) = 6*a"""))["fill"]
    auto_test_vs_ref(knl, ctx, tr.assignment_to_subst(knl, "a", "i"), parameters=dict(n=5))


def test_assignment_to_subst_two_defs(ctx) -> None:
    knl = translator.parse_fortran(TWO_OUT.format(body="""\
    a = inp(i)
    out(i) = 5*a
    a = 3*inp(n)
    out2(i) = 6*a"""))["fill"]
    auto_test_vs_ref(knl, ctx, tr.assignment_to_subst(knl, "a"), parameters=dict(n=5))


def test_assignment_to_subst_indices(ctx) -> None:
    knl = translator.parse_fortran("""
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a(n), out(n), out2(n), inp(n)
  integer n, i
  do i = 1, n
    a(i) = 6*inp(i)
  enddo
  do i = 1, n
    out(i) = 5*a(i)
  end do
end
""")["fill"]
    knl = tr.fix_parameters(knl, n=5)
    # a procedure-local work array: a temporary once a pragma or call names it as one
    knl = tr.set_temporary_address_space(knl, "a", "private")
    assert "a" in knl.temporaries
    substituted = tr.assignment_to_subst(knl, "a")
    assert "a" not in substituted.temporaries
    auto_test_vs_ref(knl, ctx, substituted)


def test_if(ctx) -> None:
    knl = translator.parse_fortran(TWO_OUT.format(body="""\
    a = inp(i)
    if (a.ge.3) then
      b = 2*a
      do j = 1,3
        b = 3 * b
      end do
      out(i) = 5*b
    else
      out(i) = 4*a
    endif""").replace("integer n, i", "integer n, i, j\n  real*8 b"))["fill"]
    auto_test_vs_ref(knl, ctx, tr.assignment_to_subst(knl, "a"), parameters=dict(n=5))


def test_tagged() -> None:
    knl = translator.parse_fortran("""
subroutine rot_norm(out, alpha, out2, inp, inp2, n)
  implicit none
  real*8 a, b, r, out(n), out2(n), inp(n), inp2(n)
  real*8 alpha
  integer n, i
  do i = 1, n
    !$translate block tags(input)
    a = cos(alpha)*inp(i) + sin(alpha)*inp2(i)
    b = -sin(alpha)*inp(i) + cos(alpha)*inp2(i)
    !$translate end block
    r = sqrt(a**2 + b**2)
    a = a/r
    b = b/r
    out(i) = a
    out2(i) = b
  end do
end
""")["rot_norm"]
    assert len(tr.find_instructions(knl, "tag:input")) == 2


DERIV = """
subroutine {name}(nelements, ndofs, result, d, q)
  implicit none
  integer e, i, j, k
  integer nelements, ndofs
  real*8 result(nelements, ndofs, ndofs)
  real*8 q(nelements, ndofs, ndofs)
  real*8 d(ndofs, ndofs)
  real*8 prev
  do e = 1,nelements
    do i = 1,ndofs
      do j = 1,ndofs
        do k = 1,ndofs
{inner}
        end do
      end do
    end do
  end do
end subroutine
"""
XD = """          prev = result(e,i,j)
          result(e,i,j) = prev + d(i,k)*q(e,i,k)"""
YD = """          prev = result(e,i,j)
          result(e,i,j) = prev + d(i,k)*q(e,k,j)"""


def test_fuse_kernels(ctx) -> None:
    knls = translator.parse_fortran(DERIV.format(name="xderiv", inner=XD)
                                    + DERIV.format(name="yderiv", inner=YD)
                                    + DERIV.format(name="xyderiv", inner=XD + "\n" + YD))
    fused = tr.fuse_kernels((knls["xderiv"], knls["yderiv"]), data_flow=[("result", 0, 1)])
    fused = tr.prioritize_loops(fused, "e,i,j,k")
    assert fused.name == "xderiv_and_yderiv" and len(fused.temporaries) == 2
    auto_test_vs_ref(knls["xyderiv"], ctx, fused, parameters=dict(nelements=20, ndofs=4))


def test_parse_and_fuse_two_kernels(ctx, queue) -> None:
    knls = translator.parse_fortran("""
subroutine fill(out, a, n)
  implicit none
  real*8 a, out(n)
  integer n, i
  do i = 1, n
    out(i) = a
  end do
end

subroutine twice(out, n)
  implicit none
  real*8 out(n)
  integer n, i
  do i = 1, n
    out(i) = 2*out(i)
  end do
end
""")
    fused = tr.fuse_kernels((knls["fill"], knls["twice"]), data_flow=[("out", 0, 1)])
    out = translator.compile(fused, ctx)(queue, out=np.zeros(7), a=1.5, n=7)["out"]
    assert np.array_equal(out, np.full(7, 3.0))


def test_domain_fusion_imperfectly_nested() -> None:
    """With n > 0 and m == 0 one domain would be empty and `a` never set: two domains."""
    knl = translator.parse_fortran("""
subroutine imperfect(n, m, a, b)
  implicit none
  integer i, j, n, m
  real a(n), b(n,n)
  do i=1, n
    a(i) = i
    do j=1, m
      b(i,j) = i*j
    end do
  end do
end subroutine
""")["imperfect"]
    assert len(knl.domains) > 1


def test_parse_fortran_reports_bad_input_at_its_line() -> None:
    import pytest

    from translator.diagnostics import TranslatorError
    with pytest.raises(TranslatorError) as info:
        translator.parse_fortran("subroutine s(n)\n  integer n\n  n = = 1\nend\n", "bad.f90")
    assert info.value.span.file == "bad.f90" and info.value.span.line == 3


def test_spans_are_lines_of_the_given_text() -> None:
    """The directive lines parse_fortran adds do not shift statements, arguments or errors."""
    import pytest

    from translator.diagnostics import TranslatorError
    two = """\
      subroutine twice(n, a)
      integer n, i
      real*8 a(n)
      do 10 i = 1, n
         a(i) = 2*a(i)
   10 continue
      end

      subroutine other(n, b)
      integer n, i
      real*8 b(n)
      do i = 1, n
         b(i) = 3*b(i)
      end do
      end
"""
    knls = translator.parse_fortran(two, "legacy.f")
    assert [s.span.line for s in knls["twice"].statements] == [5]
    assert [s.span.line for s in knls["other"].statements] == [13]
    assert {a.name: a.span.line for a in knls["other"].args} == {"b": 11, "n": 10}
    with pytest.raises(TranslatorError) as info:
        translator.parse_fortran(two.replace("      do i = 1, n\n", "      do while (n > 0)\n"),
                                 "legacy.f")
    assert "DO WHILE" in info.value.message and str(info.value.span).startswith("legacy.f:12:")
