"""The errors of inlined calls (`frontends.fortran.inline`, `frontends.c.inline`): message
text and file:line:col, at the call that cannot be inlined."""

from __future__ import annotations

import pytest

from frontends.c import FRONTEND as C
from frontends.fortran import FRONTEND as FORTRAN
from translator.diagnostics import TranslatorError

MODULE = """\
module m
  implicit none
  real(8) :: g
contains
  subroutine local_array(x)
    real(8), intent(inout) :: x
    real(8) :: w(3)
    w = x
    x = w(1)
  end subroutine
  subroutine saved(x)
    real(8), intent(inout) :: x
    integer :: calls = 0
    calls = calls + 1
    x = x + calls
  end subroutine
  subroutine module_var(x)
    real(8), intent(inout) :: x
    x = x + g
  end subroutine
  subroutine opt(x, y)
    real(8), intent(inout) :: x
    real(8), intent(in), optional :: y
    x = 2 * x + y
  end subroutine
  subroutine flat(k, x)
    integer, intent(in) :: k
    real(8), intent(inout) :: x(k)
    x(1) = 0
  end subroutine
  subroutine square(k, x)
    integer, intent(in) :: k
    real(8), intent(inout) :: x(k, k)
    x(1, 1) = 0
  end subroutine
  subroutine shaped(x)
    real(8), intent(inout) :: x(:)
    x(1) = 0
  end subroutine
  subroutine setter(x)
    real(8), intent(out) :: x
    x = 1
  end subroutine
  real(8) function nothing(x)
    real(8), intent(in) :: x
  end function
  integer function nb(k)
    integer, intent(in) :: k
    nb = k + 1
  end function
end module m
"""


def _fortran(stmt: str, use: str = "use m") -> TranslatorError:
    text = (MODULE + "subroutine s(n, a, b)\n  " + use + "\n  implicit none\n"
            "  integer :: n, i\n  real(8) :: a(n), b(n, n)\n  !$translate kernel\n"
            "  do i = 1, n\n    " + stmt + "\n  end do\n  !$translate end kernel\n"
            "end subroutine\n")
    with pytest.raises(TranslatorError) as info:
        FORTRAN.parse("bad.f90", text, {})
    return info.value


#: The line of the statement (its first column is 5).
LINE = MODULE.count("\n") + 8


@pytest.mark.parametrize("stmt, message, col", [
    ("call local_array(a(i))", "subroutine 'local_array' has a local array 'w': local arrays "
     "of called procedures are not supported in a kernel region (pass the array as an "
     "argument)", 10),
    ("call saved(a(i))", "subroutine 'saved' keeps 'calls' between calls (SAVE, or an "
     "initializer in its declaration): work items cannot share it", 10),
    ("call opt(a(i))", "subroutine 'opt' uses its OPTIONAL dummy 'y', which the call leaves "
     "absent, outside an if (present(...)) it can be told from", 10),
    ("call setter()", "call of subroutine 'setter' leaves dummy argument 'x' absent, which is "
     "not OPTIONAL", 10),
    ("call flat(n, b)", "subroutine 'flat': actual argument b (rank 2) is passed to dummy 'x' "
     "of rank 1; reshaping an array through an argument is not supported in a kernel region",
     10),
    ("call square(n - 1, b)", "subroutine 'square': the extents of dummy 'x' may differ from "
     "those of its actual argument (the dummy would reshape it); reshaping an array through "
     "an argument is not supported in a kernel region", 10),
    ("call shaped(a(i))", "subroutine 'shaped': the shape of dummy 'x' cannot be derived from "
     "its actual argument (allocatable or pointer dummies, or an assumed shape given an array "
     "element, are not supported in a kernel region)", 10),
    ("call setter(2 * a(i))", "subroutine 'setter' assigns its dummy argument 'x', but the "
     "actual argument 2 * a(i) is not a variable", 10),
    ("a(i) = nothing(a(i))", "function 'nothing' does not assign its result 'nothing'", 12),
    ("a(i) = setter(a(i))", "subroutine 'setter' is called as a function", 12),
    ("call nb(i)", "function 'nb' is not a subroutine: CALL names subroutines", 10),
    ("call setter(a(i), a(i))", "subroutine 'setter' takes 1 argument(s), not 2", 10),
    ("call setter(z=a(i))", "subroutine 'setter' has no dummy argument 'z'", 10),
])
def test_fortran_calls_that_cannot_be_inlined(stmt: str, message: str, col: int):
    err = _fortran(stmt)
    assert err.message == message
    assert (err.span.file, err.span.line) == ("bad.f90", LINE)
    assert err.span.col == col


def test_module_variable_the_caller_does_not_see():
    err = _fortran("call module_var(a(i))", use="use m, only: module_var")
    assert err.message == ("subroutine 'module_var' uses 'g' of module 'm', which the "
                           "region's procedure does not see under that name: it cannot be "
                           "passed to the kernel")
    assert (err.span.line, err.span.col) == (LINE, 10)


def test_function_in_a_loop_bound():
    text = (MODULE + "subroutine s(n, a)\n  use m\n  integer :: n, i\n  real(8) :: a(n)\n"
            "  !$translate kernel\n  do i = 1, nb(n) - 1\n    a(i) = 0\n  end do\n"
            "  !$translate end kernel\nend subroutine\n")
    with pytest.raises(TranslatorError) as info:
        FORTRAN.parse("bad.f90", text, {})
    assert info.value.message == ("call of function 'nb' in a DO loop upper bound is not "
                                  "supported")
    assert (info.value.span.line, info.value.span.col) == (LINE - 2, 13)


C_HEAD = """\
double g;
static void rank2(int n, double x[n][n]) { x[0][0] = 0; }
static void uses_g(double *x) { x[0] = g; }
static void ptr(double *x) { x[0] = 1; }
static int one(int n) { return n - 1; }
void f(int n, double *a, double g)
{
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    STMT
  }
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("stmt, message, col", [
    ("rank2(n, 0);", "function 'rank2': parameter 'x' (an array of rank 2) cannot be inlined: "
     "only numbers and pointers to numbers (or one-dimensional arrays, or an array whose "
     "extents after the first are constants its actual argument shares: pass the array "
     "itself)", 5),
    ("uses_g(&a[i]);", "function 'uses_g' uses 'g', which is not a variable of the file that "
     "the region's function sees", 40),
    ("ptr(a[i] + 1);", "function 'ptr': the argument of pointer parameter 'x' must point into "
     "an array of the region (x, &x[k], x + k) or be the address of a variable (&s)", 5),
    ("ptr(a, a);", "ptr takes 1 argument(s), not 2", 5),
    ("for (int k = 0; k < one(n); k++) a[k] = 0;", "call of function 'one' in a loop bound "
     "is not supported", 25),
])
def test_c_calls_that_cannot_be_inlined(stmt: str, message: str, col: int):
    with pytest.raises(TranslatorError) as info:
        C.parse("bad.c", C_HEAD.replace("STMT", stmt), {})
    err = info.value
    assert err.message == message
    line = 3 if "uses 'g'" in message else 10
    assert (err.span.file, err.span.line, err.span.col) == ("bad.c", line, col)


def test_actual_whose_subscript_the_call_assigns():
    """``call f(a(ks(i)), ks(i))`` with f assigning its second dummy: the first actual is
    associated at the call, the inlined uses would read the new ``ks(i)``."""
    text = ("subroutine f(x, k)\n  real, intent(in) :: x\n  integer, intent(inout) :: k\n"
            "  k = k + int(x)\nend subroutine\nsubroutine s(n, a, ks)\n"
            "  integer :: n, i, ks(n)\n  real :: a(n)\n  !$translate kernel\n  do i = 1, n\n"
            "    call f(a(ks(i)), ks(i))\n  end do\n  !$translate end kernel\nend subroutine\n")
    with pytest.raises(TranslatorError) as info:
        FORTRAN.parse("bad.f90", text, {})
    assert info.value.message == (
        "subroutine 'f': the subscripts of actual argument a(ks(i)) read 'ks', which the call "
        "assigns through another argument; copy the subscript into a variable of its own first")
    assert (info.value.span.line, info.value.span.col) == (11, 10)


def test_entry_of_a_procedure():
    """h71: a call of an ENTRY name was "call of unknown external procedure 'twice'"."""
    text = ("subroutine s(n, a)\n  integer :: n, i\n  real(8) :: a(n)\n  !$translate kernel\n"
            "  do i = 1, n\n    call twice(a(i))\n  end do\n  !$translate end kernel\n"
            "end subroutine\nsubroutine scale(x)\n  real(8) :: x\n  x = 3 * x\n  return\n"
            "  entry twice(x)\n  x = 2 * x\nend subroutine\n")
    with pytest.raises(TranslatorError) as info:
        FORTRAN.parse("bad.f90", text, {})
    assert info.value.message == ("'twice' is an ENTRY of subroutine 'scale': ENTRY "
                                  "statements are not supported in a kernel region; make it "
                                  "a procedure of its own")
    assert (info.value.span.line, info.value.span.col) == (6, 10)


def test_array_valued_function():
    """h71: an array result was "function 'twice' has a local array 'w'".  h78: it is
    translated as the whole right-hand side of an array assignment
    (tests/e2e/test_array_functions.py); inside an expression it is refused."""
    text = ("module avf\ncontains\n  function twice(v) result(w)\n    real(8), intent(in) :: "
            "v(:)\n    real(8) :: w(size(v))\n    w = 2 * v\n  end function\nend module\n"
            "subroutine s(n, a, b)\n  use avf\n  integer :: n, j\n  real(8) :: a(n, n), "
            "b(n, n)\n  !$translate kernel\n  do j = 1, n\n    b(:, j) = 1 + twice(a(:, j))\n"
            "  end do\n  !$translate end kernel\nend subroutine\n")
    with pytest.raises(TranslatorError) as info:
        FORTRAN.parse("bad.f90", text, {})
    assert info.value.message == (
        "function 'twice' returns an array: in a kernel region an array-valued function can "
        "only be the whole right-hand side of an array assignment (x = twice(...)); assign its "
        "result to an array first, or make it a subroutine with the result as an argument "
        "(call twice(..., result))")
    assert (info.value.span.line, info.value.span.col) == (15, 19)
