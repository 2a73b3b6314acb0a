"""The Fortran frontend: kernel structure, differential runs against gfortran, the rewrite.

Differential tests compile the original subroutine with gfortran into a shared library, call it
through ctypes, run the region's kernel on the PoCL CPU device with the same inputs, and compare
every output.  Each case's region covers the whole subroutine body, so the two must agree.
"""

from __future__ import annotations

import ctypes
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pymbolic.primitives as p
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontends.base import GlueParam, GlueSignature
from frontends.fortran import FRONTEND
from translator.ir.data import ArrayArg, NestingTag, ValueArg


def parse(text: str, path: str = "t.f90", **options):
    return FRONTEND.parse(path, textwrap.dedent(text), options)


def region(text: str, path: str = "t.f90", **options):
    (reg,) = parse(text, path, **options).regions
    return reg


def stmt_text(reg) -> list[str]:
    return [f"{s.assignee} = {s.expression}" for s in reg.kernel.statements]


# ---------------------------------------------------------------------------------------------
# structure

SAXPY = """\
subroutine saxpy(n, a, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel saxpy_k
  !$translate split_iname("i", 128, outer_tag="g.0", &
  !$translate& inner_tag="l.0")
  do i = 1, n
     y(i) = a*x(i) + y(i)
  end do
  !$translate end kernel
end subroutine
"""


def test_saxpy_kernel_structure():
    reg = region(SAXPY)
    k = reg.kernel
    assert reg.name == k.name == "saxpy_k"
    assert reg.procedure == "saxpy"
    assert [c.name for c in reg.transform_calls] == ["split_iname"]
    assert reg.transform_calls[0].args == ("i", 128)
    assert dict(reg.transform_calls[0].kwargs) == {"outer_tag": "g.0", "inner_tag": "l.0"}
    assert k.options.source_language == "fortran"
    assert [str(d) for d in k.domains] == ["[n] -> { [i] : 0 < i <= n }"]
    (s,) = k.statements
    assert s.within_inames == {"i"}
    assert str(s.assignee) == "y[i + -1]"
    assert s.span.line == 10 and s.span.col == 6 and "y(i) = a*x(i)" in s.span.source_line
    args = {a.name: a for a in k.args}
    assert isinstance(args["n"], ValueArg) and args["n"].dtype == np.int32
    assert isinstance(args["a"], ValueArg) and args["a"].dtype == np.float64
    assert isinstance(args["x"], ArrayArg) and args["x"].shape == (p.Variable("n"),)
    assert all(a.span is not None and a.span.line in (2, 3, 4) for a in k.args)
    text = SAXPY
    assert text[reg.start:reg.end].startswith("  !$translate kernel saxpy_k")
    assert text[reg.start:reg.end].endswith("!$translate end kernel\n")
    assert reg.indent == "  " and reg.span.line == 6 and reg.span.col == 3


def test_default_names_inames_and_steps():
    src = """\
    subroutine s(n, a, b)
      integer :: n, i, j
      real :: a(n), b(n, n)
      !$translate kernel
      do i = 1, n
        a(i) = 0
      end do
      do i = n, 1, -2
        do j = 1, i
          b(i, j) = a(j) + i
        end do
      end do
      do i = 1, n, 3
        a(i) = 1
      end do
      !$translate end kernel
      !$translate kernel
      do j = 1, n
        a(j) = 2
      end do
      !$translate end kernel
    end subroutine
    """
    r0, r1 = parse(src).regions
    assert (r0.name, r1.name) == ("s_0", "s_1")
    doms = [str(d) for d in r0.kernel.domains]
    assert doms[0] == "[n] -> { [i] : 0 < i <= n }"
    # the stepped loops count trips from 0; the variable is lo + step*counter
    assert doms[1] == "[n] -> { [i_1] : i_1 >= 0 and 2i_1 < n }"
    assert doms[2] == "[i_1, n] -> { [j] : 0 < j <= -2i_1 + n }"
    assert doms[3] == "[n] -> { [i_2] : i_2 >= 0 and 3i_2 < n }"
    s1 = r0.kernel.statements[1]
    assert s1.within_inames == {"i_1", "j"}
    assert str(s1.assignee) == "b[n + (-2)*i_1 + -1, j + -1]"
    assert [str(d) for d in r1.kernel.domains] == ["[n] -> { [j] : 0 < j <= n }"]


def test_fortran_layout_lower_bounds_and_assumed_shapes():
    src = """\
    subroutine s(n, m, u, v, w)
      integer :: n, m, i, j
      real(8) :: u(0:n+1, -1:m), v(:, 2:), w(n, *)
      !$translate kernel
      do j = 1, m
        do i = 1, n
          u(i, j) = v(i, j + 1) + w(i, j + 2)
        end do
      end do
      !$translate end kernel
    end subroutine
    """
    reg = region(src)
    args = {a.name: a for a in reg.kernel.args}
    u, v, w = args["u"], args["v"], args["w"]
    assert u.dim_tags == (NestingTag(level=0), NestingTag(level=1))
    assert [str(e) for e in u.shape] == ["n + 2", "m + 2"]
    assert [str(e) for e in v.shape] == ["_tr_size_v_1", "_tr_size_v_2"]
    # assumed size: the last extent is the footprint of w(i, j+2) for j <= m
    assert [str(e) for e in w.shape] == ["n", "m + 2"]
    assert str(reg.kernel.statements[0].assignee) == "u[i, j + 1]"
    assert str(reg.kernel.statements[0].expression) == "v[i + -1, j + -1] + w[i + -1, j + 1]"
    call = dict(reg.call_args)
    assert call["_tr_size_v_1"] == "size(v, 1)" and call["u"] == "u"


def test_scalars_private_written_and_values():
    src = """\
    subroutine s(n, x, total, flag)
      integer :: n, i
      real(8) :: x(n), total, t
      logical :: flag
      !$translate kernel
      total = 0
      do i = 1, n
        t = x(i) * 2
        if (flag) total = total + t
      end do
      !$translate end kernel
      print *, total
    end subroutine
    """
    reg = region(src)
    k = reg.kernel
    assert set(k.temporaries) == {"t"}
    assert reg.written_scalars == {"total"}
    args = {a.name: a for a in k.args}
    assert isinstance(args["total"], ArrayArg) and args["total"].shape == (1,)
    assert isinstance(args["flag"], ValueArg) and args["flag"].dtype == np.int32
    assert dict(reg.call_args)["flag"] == "merge(1, 0, flag)"
    assert stmt_text(reg)[0] == "total[0] = 0.0"
    assert [str(e) for e in k.statements[2].predicates] == ["flag"]
    # source order is kept where statements share data
    deps = {s.id: set(s.depends_on) for s in k.statements}
    assert deps == {"s0": set(), "s1": set(), "s2": {"s0", "s1"}}


def test_scalar_used_after_region_is_not_private():
    src = """\
    subroutine s(n, x)
      integer :: n, i
      real(8) :: x(n), t
      !$translate kernel
      do i = 1, n
        t = x(i)
        x(i) = t * t
      end do
      !$translate end kernel
      x(1) = t
    end subroutine
    """
    reg = region(src)
    assert not reg.kernel.temporaries
    assert reg.written_scalars == {"t"}


def test_else_branches_negate_and_conditions_are_hoisted():
    src = """\
    subroutine s(n, x, y)
      integer :: n, i
      real(8) :: x(n), y(n)
      !$translate kernel
      do i = 1, n
        if (y(i) > 0) then
          x(i) = 1
        else if (y(i) < -1) then
          x(i) = 2
        else
          x(i) = 3
        end if
        if (x(i) > 1) then
          x(i) = 0
          y(i) = x(i)
        end if
      end do
      !$translate end kernel
    end subroutine
    """
    k = region(src).kernel
    preds = [sorted(str(e) for e in s.predicates) for s in k.statements]
    assert preds[:3] == [["y[i + -1] > 0.0"],
                         ["not (y[i + -1] > 0.0)", "y[i + -1] < -1.0"],
                         ["not (y[i + -1] < -1.0)", "not (y[i + -1] > 0.0)"]]
    # the second IF writes x, which its condition reads: evaluated once, before the branch
    assert str(k.statements[3].assignee) == "_tr_cond"
    assert preds[4] == preds[5] == ["_tr_cond"]
    assert "_tr_cond" in k.temporaries


def test_types_follow_fortran_promotion():
    src = """\
    subroutine s(n, x, z)
      integer :: n, i
      real :: x(n)
      real(8) :: z(n)
      integer, parameter :: dp = kind(1.0d0)
      !$translate kernel
      do i = 1, n
        x(i) = x(i) * i + 0.1
        z(i) = x(i) + 1.0_dp + 2.5e-1_8 + 3.0d0 + i / 2 + mod(i, 3) + modulo(i, 3)
      end do
      !$translate end kernel
    end subroutine
    """
    k = region(src).kernel
    e0 = k.statements[0].expression
    # int * real(4) -> real(4): the integer is converted, the literal is float32
    assert "cast(float32, i)" in str(e0)
    consts = [c for c in e0.children if isinstance(c, np.generic)]
    assert consts and consts[0].dtype == np.float32 and consts[0] == np.float32("0.1")
    e1 = str(k.statements[1].expression)
    assert "cast(float64, i / int32(2))" in e1 and "rem(i, int32(3))" in e1 and "% int32(3)" in e1


def test_fixed_form_directives_and_labeled_loops():
    src = (
        "      subroutine leg(n, a, b)\n"
        "      integer n, i, j\n"
        "      double precision a(n), b(n, *)\n"
        "C$TRANSLATE KERNEL legk\n"
        "*$translate tag_inames( &\n"
        "*$translate&  \"i:l.0\")\n"
        "      do 10 i = 1, n\n"
        "         t = b(i, 1)\n"
        "         a(i) = t\n"
        "         do 20 j = 2, 3\n"
        "            a(i) = a(i) + b(i, j) *\n"
        "     &             j\n"
        "   20    continue\n"
        "   10 continue\n"
        "!$translate end kernel\n"
        "      end\n")
    reg = region(src, "leg.f")
    assert reg.name == "legk" and [c.name for c in reg.transform_calls] == ["tag_inames"]
    assert reg.transform_calls[0].args == ("i:l.0",)
    k = reg.kernel
    assert k.temporaries["t"].dtype == np.float32  # implicit typing: t is real
    assert [str(e) for e in k.arg("b").shape] == ["n", "3"]
    assert k.statements[2].span.line == 11


def test_module_procedures_and_use():
    src = """\
    module consts
      integer, parameter :: dp = selected_real_kind(15)
      integer, parameter :: nx = 4
    end module
    module grid
      use consts
      implicit none
      real(dp) :: field(nx)
      real(dp) :: scale = 2
    contains
      subroutine smooth(out)
        real(dp), intent(out) :: out(nx)
        integer :: i
        !$translate kernel
        do i = 2, nx - 1
          out(i) = scale * (field(i - 1) + field(i + 1))
        end do
        !$translate end kernel
      end subroutine
    end module
    """
    reg = region(src)
    assert reg.name == "smooth_0"
    args = {a.name: a for a in reg.kernel.args}
    assert args["field"].shape == (4,) and args["field"].dtype == np.float64
    assert isinstance(args["scale"], ValueArg)
    assert [str(d) for d in reg.kernel.domains] == ["{ [i] : 2 <= i <= 3 }"]


def test_non_affine_bound_becomes_value_argument():
    src = """\
    subroutine s(n, m, a)
      integer :: n, m, i
      real :: a(n*m)
      !$translate kernel
      do i = 1, n*m
        a(i) = i
      end do
      !$translate end kernel
    end subroutine
    """
    reg = region(src)
    call = dict(reg.call_args)
    assert call["_tr_bound"] == "(n*m)"
    assert [str(d) for d in reg.kernel.domains] == ["[_tr_bound] -> { [i] : 0 < i <= _tr_bound }"]


def test_preprocessor_lines_outside_regions_and_where():
    src = """\
    subroutine s(n, a, b)
      integer :: n
      real :: a(n), b(n)
    #ifdef DEBUG
      a = 0
    #endif
      !$translate kernel
      where (a > 0)
        b = a
      elsewhere
        b = 0
      end where
      !$translate end kernel
    end subroutine
    """.replace("    #", "#")
    k = region(src, "w.F90").kernel
    assert [sorted(str(e) for e in s.predicates) for s in k.statements] == [
        ["a[_tr_i] > 0.0"], ["not (a[_tr_i_0] > 0.0)"]]


def test_no_regions_no_parse():
    parsed = parse("this is not Fortran at all\n")
    assert parsed.regions == ()


# ---------------------------------------------------------------------------------------------
# differential: gfortran vs the kernel on the OpenCL device

def _reference(tmp_path: Path, src: str, path: str, symbol: str, args: list) -> dict:
    source = tmp_path / path
    source.write_text(src)
    lib = tmp_path / (source.stem + ".so")
    subprocess.run(["gfortran", "-shared", "-fPIC", "-O0", str(source), "-o", str(lib)],
                   check=True, cwd=tmp_path, capture_output=True)
    fn = getattr(ctypes.CDLL(str(lib)), symbol)
    store = {name: np.array(value, order="F", copy=True, ndmin=1) for name, value in args}
    fn(*[store[name].ctypes.data_as(ctypes.c_void_p) for name, _ in args])
    return store


def _device(reg, args: list, ctx, queue) -> dict:
    """Run the region's kernel, its transform pragmas applied, on the OpenCL device."""
    from translator.execution import compile as compile_kernel
    from translator.pipeline import KERNEL_STAGES, apply_transform_calls
    kernel = apply_transform_calls(reg.kernel, reg.transform_calls)
    for _, stage in KERNEL_STAGES:
        kernel = stage(kernel)
    values = dict(args)
    kwargs = {}
    for a in kernel.args:
        if a.name in values:
            v = values[a.name]
            kwargs[a.name] = np.array(v, order="F", ndmin=1) if isinstance(a, ArrayArg) else v
    return compile_kernel(kernel, ctx)(queue, **kwargs)


def _compare(tmp_path, ctx, queue, src, symbol, args, path="case.f90", rtol=0.0, extra=()):
    """`extra`: values of generated kernel arguments (the caller computes them in Fortran)."""
    src = textwrap.dedent(src)
    (reg,) = FRONTEND.parse(path, src, {}).regions
    ref = _reference(tmp_path, src, path, symbol, args)
    out = _device(reg, list(args) + list(extra), ctx, queue)
    assert out, "the kernel has no outputs"
    for name, value in out.items():
        expected = ref[name].reshape(value.shape, order="F")
        if rtol:
            np.testing.assert_allclose(value, expected, rtol=rtol, err_msg=name)
        else:
            np.testing.assert_array_equal(value, expected, err_msg=name)
    return reg


RNG = np.random.default_rng(1234)


def test_diff_triangular_branches_and_written_scalar(tmp_path, ctx, queue):
    src = """\
    subroutine tri(n, a, x, y, s, flag)
      implicit none
      integer, intent(in) :: n
      real(8), intent(in) :: a(n, n), x(n)
      real(8), intent(out) :: y(n)
      real(8), intent(inout) :: s
      logical, intent(in) :: flag
      integer :: i, j
      real(8) :: t
      integer, parameter :: half = 2
      !$translate kernel
      do i = 1, n
         t = 0.0d0
         do j = 1, i
            t = t + a(i, j) * x(j)
         end do
         if (t > 1.0d0 .and. flag) then
            y(i) = t
         else if (t < -1) then
            y(i) = -t
         else
            y(i) = 0
         end if
      end do
      do i = n, 1, -half
         s = s + y(i) / half + mod(i, 3)
      end do
      !$translate end kernel
    end subroutine
    """
    n = 9
    args = [("n", np.int32(n)), ("a", RNG.standard_normal((n, n))),
            ("x", RNG.standard_normal(n)), ("y", np.zeros(n)), ("s", np.float64(0.5)),
            ("flag", np.int32(1))]
    # the device may contract a*b + c into a fused multiply-add: last-bit differences
    _compare(tmp_path, ctx, queue, src, "tri_", args, rtol=1e-14)


def test_diff_steps_integer_division_and_sign(tmp_path, ctx, queue):
    src = """\
    subroutine steps(n, m, a, b)
      integer :: n, m
      integer :: a(n), b(0:m)
      integer :: i, k
      !$translate kernel
      do i = n, 1, -3
         a(i) = i * 10 + (i - 7) / 2 + mod(i - 7, 3) + modulo(i - 7, 3) + (7 - i) / (-2)
      end do
      do k = 0, min(m, n/2), 2
         b(k) = sign(k, -1) + isign(3, k - 2) + abs(k - 5) + 2**k + k**3 + max(k, 3, m - k)
      end do
      do i = max(1, n - 2), n
         a(i) = a(i) + 1000 + dim(i, 11)
      end do
      !$translate end kernel
    end subroutine
    """
    n, m = 13, 8
    args = [("n", np.int32(n)), ("m", np.int32(m)), ("a", np.zeros(n, np.int32)),
            ("b", np.full(m + 1, -5, np.int32))]
    # k's upper bound truncates n/2 (n may be negative): the caller computes it exactly
    reg = _compare(tmp_path, ctx, queue, src, "steps_", args,
                   extra=[("_tr_bound", np.int32(min(m, n // 2)))])
    assert dict(reg.call_args)["_tr_bound"] == "min(m, (n / 2))"


def test_diff_mixed_kinds_and_conversions(tmp_path, ctx, queue):
    src = """\
    subroutine mixed(n, x, y, z)
      integer :: n
      real :: x(n), y(n)
      real(8) :: z(n)
      integer :: i
      !$translate kernel
      do i = 1, n
        y(i) = x(i) * i + 0.1 + 2 * x(i) / 3
        z(i) = x(i) * 0.1d0 + i / 3 + real(i, 8) / 3 + dble(x(i)) * 1.0e-3_8 + nint(x(i) * 10) &
             + int(-x(i)*7) + floor(x(i)*3) + ceiling(x(i)*3) + sign(1.5d0, dble(x(i)))
        y(i) = y(i) + sqrt(abs(x(i))) + x(i) ** 2 + x(i) ** 3 + aint(x(i) * 5) + anint(x(i) * 5)
        z(i) = z(i) + merge(1.0d0, 2.0d0, x(i) > 0) + modulo(dble(x(i)), 0.75d0) &
             + abs(x(i)) ** 1.5d0 + 2.0d0 ** i + (x(i) + 1) ** (-2)
      end do
      !$translate end kernel
    end subroutine
    """
    n = 11
    args = [("n", np.int32(n)), ("x", (RNG.standard_normal(n) * 3).astype(np.float32)),
            ("y", np.zeros(n, np.float32)), ("z", np.zeros(n))]
    _compare(tmp_path, ctx, queue, src, "mixed_", args, rtol=1e-6)


def test_diff_array_syntax(tmp_path, ctx, queue):
    src = """\
    subroutine arrs(n, a, b, c)
      integer :: n
      real(8) :: a(n), b(0:n+1), c(n, 3)
      !$translate kernel
      a = 0
      a(2:n-1) = b(1:n-2) + b(3:n) * 0.5d0
      c(:, 2) = a + 1
      c(1:n:2, 1) = sqrt(abs(b(1:n:2)))
      a(n:1:-1) = c(:, 2) * 2
      c(:, 3) = c(:, 3) * a
      where (a > 0) c(:, 1) = a ** 0.5d0
      where (b(1:n) > 0.5d0)
        a = 1
      elsewhere (b(1:n) < -0.5d0)
        a = 2
      elsewhere
        a = a * b(2:n+1)
      end where
      !$translate end kernel
    end subroutine
    """
    n = 10
    args = [("n", np.int32(n)), ("a", RNG.standard_normal(n)),
            ("b", RNG.standard_normal(n + 2)), ("c", RNG.standard_normal((n, 3)))]
    _compare(tmp_path, ctx, queue, src, "arrs_", args, rtol=1e-15)


def test_diff_reductions_and_hoisted_conditions(tmp_path, ctx, queue):
    src = """\
    subroutine red(n, x, y, total, big, cnt)
      integer :: n, cnt
      real(8) :: x(n), y(n), total, big
      integer :: i
      real(8) :: t
      !$translate kernel
      total = 0
      cnt = 0
      big = -huge(big)
      do i = 1, n
        t = x(i) * 2
        total = total + t
        if (t > big) big = t
        if (x(i) > 0) cnt = cnt + 1
        if (x(i) < 0) then
          x(i) = -x(i)
          y(i) = x(i) * 2
        else if (x(i) < 0.5d0) then
          y(i) = 1
        end if
      end do
      total = total + sum(x) + sum(x(1:n:2)) + dot_product(x, y) + maxval(x) + minval(y)
      !$translate end kernel
    end subroutine
    """
    n = 12
    args = [("n", np.int32(n)), ("x", RNG.standard_normal(n)), ("y", np.zeros(n)),
            ("total", np.float64(0)), ("big", np.float64(0)), ("cnt", np.int32(0))]
    _compare(tmp_path, ctx, queue, src, "red_", args, rtol=1e-13)


def test_diff_fixed_form_legacy(tmp_path, ctx, queue):
    src = (
        "      subroutine leg(n, a, b)\n"
        "      integer n, i, j\n"
        "      double precision a(n), b(n, *)\n"
        "c$translate kernel legk\n"
        "      do 10 i = 1, n\n"
        "         t = b(i, 1)\n"
        "         a(i) = t\n"
        "         do 20 j = 2, 3\n"
        "            a(i) = a(i) + b(i, j) * j\n"
        "   20    continue\n"
        "   10 continue\n"
        "      do 30 j = 1, 3\n"
        "      do 30 i = 1, n, 2\n"
        "   30 b(i, j) = b(i, j) - a(i) ** j\n"
        "c$translate end kernel\n"
        "      end\n")
    n = 6
    args = [("n", np.int32(n)), ("a", np.zeros(n)), ("b", RNG.standard_normal((n, 3)))]
    reg = _compare(tmp_path, ctx, queue, src, "leg_", args, path="leg.f", rtol=1e-14)
    # DO loops sharing their terminal statement nest
    assert reg.kernel.statements[-1].within_inames == {"i_1", "j_1"}


def test_diff_internal_procedure_assumed_shape(tmp_path, ctx, queue):
    src = """\
    subroutine outer(n, a)
      integer :: n
      real(8) :: a(n)
      call inner(a)
    contains
      subroutine inner(v)
        real(8) :: v(:)
        integer :: i
        !$translate kernel
        do i = 1, size(v)
          v(i) = v(i) * n + lbound(v, 1) + ubound(v, 1)
        end do
        !$translate end kernel
      end subroutine
    end subroutine
    """
    n = 5
    src = textwrap.dedent(src)
    (reg,) = FRONTEND.parse("o.f90", src, {}).regions
    args = [("n", np.int32(n)), ("a", RNG.standard_normal(n))]
    ref = _reference(tmp_path, src, "o.f90", "outer_", args)
    out = _device(reg, [("n", np.int32(n)), ("v", args[1][1])], ctx, queue)
    np.testing.assert_array_equal(out["v"], ref["a"])


def test_diff_do_concurrent(tmp_path, ctx, queue):
    src = """\
    subroutine conc(n, m, a, b)
      integer :: n, m, i, j
      real(8) :: a(n, m), b(n, m)
      !$translate kernel
      !$translate tag_inames("i:g.0, j:g.1")
      do concurrent (i = 1:n, j = m:1:-1, a(i, j) > 0)
        b(i, j) = sqrt(a(i, j)) + i * j
        a(i, j) = -a(i, j)
      end do
      !$translate end kernel
    end subroutine
    """
    n, m = 6, 5
    args = [("n", np.int32(n)), ("m", np.int32(m)), ("a", RNG.standard_normal((n, m))),
            ("b", np.zeros((n, m)))]
    reg = _compare(tmp_path, ctx, queue, src, "conc_", args)
    assert [str(d) for d in reg.kernel.domains] == [
        "[n] -> { [i] : 0 < i <= n }", "[m] -> { [j] : 0 <= j < m }"]


def test_diff_named_constant_arrays(tmp_path, ctx, queue):
    src = """\
    subroutine tab(n, a, b)
      integer :: n, i, k
      real(8), parameter :: w(-1:1) = [0.25d0, 0.5d0, 0.25d0]
      integer, parameter :: m(2, 3) = reshape((/ 1, 2, 3, 4, 5, 6 /), (/ 2, 3 /))
      real(8) :: a(0:n+1), b(n)
      !$translate kernel
      do i = 1, n
        b(i) = m(mod(i, 2) + 1, mod(i, 3) + 1)
        do k = -1, 1
          b(i) = b(i) + w(k) * a(i + k)
        end do
      end do
      !$translate end kernel
    end subroutine
    """
    n = 8
    args = [("n", np.int32(n)), ("a", RNG.standard_normal(n + 2)), ("b", np.zeros(n))]
    reg = _compare(tmp_path, ctx, queue, src, "tab_", args, rtol=1e-14)
    assert reg.kernel.temporaries["w"].read_only
    assert reg.kernel.temporaries["m"].initializer == (1, 3, 5, 2, 4, 6)


# ---------------------------------------------------------------------------------------------
# rewrite

def _glue(parsed) -> dict[str, GlueSignature]:
    glue = {}
    for reg in parsed.regions:
        params = tuple(GlueParam(name=a.name, kind="array" if isinstance(a, ArrayArg)
                                 else "value", dtype=a.dtype) for a in reg.kernel.args)
        glue[reg.name] = GlueSignature(region=reg.name, symbol=f"translate_{reg.name}",
                                       params=params)
    return glue


def test_rewrite_free_form_keeps_other_bytes_and_compiles(tmp_path):
    src = SAXPY.replace("end subroutine\n", "  ! trailing comment\nend subroutine\n") + \
        "! file trailer with odd spacing   \n"
    parsed = FRONTEND.parse("saxpy.f90", src, {})
    out = FRONTEND.rewrite(parsed, _glue(parsed))
    assert "  call translate_saxpy_k(n, y, a, x)\n" in out
    assert "bind(C, name=\"translate_saxpy_k\")" in out
    assert "      real(c_double), value :: a\n" in out
    assert "      real(c_double) :: x(*)\n" in out
    assert "      integer(c_int), value :: n\n" in out
    head, tail = out.split("  interface\n", 1)
    assert head == src[:src.index("  !$translate kernel")]
    assert tail.split("  end interface\n", 1)[1] == (
        "  call translate_saxpy_k(n, y, a, x)\n  ! trailing comment\nend subroutine\n"
        "! file trailer with odd spacing   \n")
    (tmp_path / "saxpy.f90").write_text(out)
    subprocess.run(["gfortran", "-c", "-Wall", "saxpy.f90"], cwd=tmp_path,
                   check=True, capture_output=True)


def test_rewrite_written_scalars_logicals_and_generated_values(tmp_path):
    src = textwrap.dedent("""\
    module m
    contains
      subroutine s(n, x, total, flag, mask)
        integer :: n, i
        real(8) :: x(:), total
        logical :: flag, mask(n)
        !$translate kernel
        do i = 1, size(x)
          if (flag .and. mask(i)) total = total + x(i)
          mask(i) = x(i) > 0
        end do
        !$translate end kernel
      end subroutine
    end module
    """)
    parsed = FRONTEND.parse("m.f90", src, {})
    out = FRONTEND.rewrite(parsed, _glue(parsed))
    assert "real(c_double) :: total\n" in out
    assert "logical :: mask(*)\n" in out
    assert "integer(c_int), value :: flag\n" in out
    assert "integer(c_int), value :: tr_size_x_1\n" in out
    assert "merge(1, 0, flag)" in out and "size(x, 1)" in out
    (tmp_path / "m.f90").write_text(out)
    subprocess.run(["gfortran", "-c", "m.f90"], cwd=tmp_path, check=True, capture_output=True)


def test_rewrite_fixed_form_columns(tmp_path):
    names = ", ".join(f"arr{k}" for k in range(12))
    decl = "\n".join(f"      double precision arr{k}(n)" for k in range(12))
    body = " + ".join(f"arr{k}(i)" for k in range(1, 12))
    body_lines = []
    while len(body) > 50:
        cut = body.index(" + ", 40)
        body_lines.append(body[:cut])
        body = body[cut:]
    body_lines.append(body)
    stmt = "         arr0(i) = " + body_lines[0] + "\n" + "".join(
        f"     &   {b}\n" for b in body_lines[1:])
    half = names.index("arr6")
    src = (f"      subroutine wide(n,\n     &  {names[:half]}\n     &  {names[half:]})\n"
           f"      integer n, i\n{decl}\n"
           "c$translate kernel a_rather_long_kernel_name_for_wrapping_and_more_x\n"
           "      do 10 i = 1, n\n" + stmt +
           "   10 continue\n"
           "c$translate end kernel\n"
           "      end\n")
    parsed = FRONTEND.parse("wide.f", src, {})
    out = FRONTEND.rewrite(parsed, _glue(parsed))
    for line in out.splitlines():
        assert len(line) <= 72, line
        if line and line[0] not in "cC*!":
            assert line[:5].strip() == "" or line[:5].strip().isdigit(), line
    assert "      call translate_a_rather_long_kernel_name_for_wrapping_and_more_x(" in out
    assert "\n     &" in out
    (tmp_path / "wide.f").write_text(out)
    subprocess.run(["gfortran", "-c", "wide.f"], cwd=tmp_path, check=True, capture_output=True)
    assert out.startswith(src[:src.index("c$translate")].rsplit("      end\n", 1)[0][:40])


def test_rewrite_several_regions_one_interface_block():
    src = """\
    subroutine s(n, a)
      integer :: n, i
      real :: a(n)
      !$translate kernel one
      do i = 1, n
        a(i) = 1
      end do
      !$translate end kernel
      a(1) = 5
      !$translate kernel two
      do i = 1, n
        a(i) = a(i) + 1
      end do
      !$translate end kernel
    end subroutine
    """
    parsed = parse(src)
    out = FRONTEND.rewrite(parsed, _glue(parsed))
    assert out.count("interface\n") == 2  # 'interface' and 'end interface'
    assert "subroutine translate_one(" in out and "subroutine translate_two(" in out
    assert out.index("call translate_one") < out.index("a(1) = 5") < out.index(
        "call translate_two")


# ---------------------------------------------------------------------------------------------
# end to end: translate, build with gfortran + the glue, run, compare with the original

MAIN_PROGRAM = """\
! translate-test: rtol=1e-12
program alloc
  implicit none
  real(8), allocatable :: a(:), b(:, :)
  logical, allocatable :: mask(:)
  integer :: n, i, j, cnt
  real(8) :: s
  n = 37
  allocate(a(0:n), b(n, 3), mask(n))
  do i = 0, n
    a(i) = cos(0.3d0 * i)
  end do
  b = 1.0d0
  !$translate kernel
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
    mask(i) = a(i) > 0
    do j = 1, 3
      if (mask(i)) then
        b(i, j) = a(i - 1) * j + a(i)
      else
        b(i, j) = -1
      end if
    end do
  end do
  !$translate end kernel
  cnt = 0
  s = 0
  !$translate kernel counting
  do i = 1, n
    if (mask(i)) cnt = cnt + 1
    s = s + sum(b(i, :))
  end do
  !$translate end kernel
  print '(a, i6, 1x, es23.15e3)', 'count, sum = ', cnt, s
  print '(3(1x, es23.15e3))', b(1, 1), b(n, 3), sum(b)
end program
"""


def test_end_to_end_main_program_allocatables_logicals(tmp_path):
    from tests.e2e.harness import check_sample
    src = tmp_path / "alloc.f90"
    src.write_text(MAIN_PROGRAM)
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    assert out.startswith("count, sum =     17")


# ---------------------------------------------------------------------------------------------
# loop bounds and steps, any signs: the order of iterations is recorded and compared

LOOPS = """\
subroutine loops(lo, hi, cnt, rec)
  integer :: lo, hi, cnt, i, j
  integer :: rec(600)
  !$translate kernel
  cnt = 0
  do i = lo, hi
    cnt = cnt + 1
    rec(cnt) = i
  end do
  do i = hi, lo, -1
    cnt = cnt + 1
    rec(cnt) = i
  end do
  do i = lo, hi, 3
    cnt = cnt + 1
    rec(cnt) = i
  end do
  do i = hi, lo, -2
    cnt = cnt + 1
    rec(cnt) = i
  end do
  do i = lo / 2, hi / 3
    cnt = cnt + 1
    rec(cnt) = i
  end do
  do i = max(lo, -3), min(hi, 5), 2
    do j = i, hi, 4
      cnt = cnt + 1
      rec(cnt) = 100 * i + j
    end do
  end do
  !$translate end kernel
end subroutine
"""


@pytest.fixture(scope="module")
def loops_case(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("loops")
    (tmp / "loops.f90").write_text(LOOPS)
    subprocess.run(["gfortran", "-shared", "-fPIC", "-O0", "loops.f90", "-o", "loops.so"],
                   check=True, cwd=tmp, capture_output=True)
    (reg,) = FRONTEND.parse("loops.f90", LOOPS, {}).regions
    return ctypes.CDLL(str(tmp / "loops.so")).loops_, reg


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


@settings(max_examples=40, deadline=None)
@given(lo=st.integers(-12, 12), hi=st.integers(-12, 12))
def test_loop_bounds_and_steps_keep_fortran_order(loops_case, ctx, queue, lo, hi):
    fn, reg = loops_case
    # the truncating quotients of possibly negative bounds are computed by the caller
    generated = {"(lo / 2)": _trunc_div(lo, 2), "(hi / 3)": _trunc_div(hi, 3)}
    extra = [(name, np.int32(generated[text])) for name, text in reg.call_args
             if name.startswith("_tr_")]
    assert len(extra) == 2
    store = {"lo": np.array([lo], np.int32), "hi": np.array([hi], np.int32),
             "cnt": np.zeros(1, np.int32), "rec": np.zeros(600, np.int32)}
    fn(*[store[k].ctypes.data_as(ctypes.c_void_p) for k in ("lo", "hi", "cnt", "rec")])
    args = [("lo", np.int32(lo)), ("hi", np.int32(hi)), ("cnt", np.int32(0)),
            ("rec", np.zeros(600, np.int32))] + extra
    out = _device(reg, args, ctx, queue)
    assert out["cnt"][0] == store["cnt"][0]
    np.testing.assert_array_equal(out["rec"], store["rec"])
