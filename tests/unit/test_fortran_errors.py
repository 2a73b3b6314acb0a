"""Every user-facing error of the Fortran frontend: message text and file:line:col."""

from __future__ import annotations

import textwrap

import pytest

from frontends.fortran import FRONTEND
from translator.diagnostics import FrontendError, TranslatorError, UnsupportedConstructError


def error_of(src: str, path: str = "bad.f90", **options) -> TranslatorError:
    with pytest.raises(TranslatorError) as info:
        FRONTEND.parse(path, textwrap.dedent(src), options)
    err = info.value
    assert isinstance(err, FrontendError), type(err)
    assert err.span is not None and err.span.file == path
    return err


def body(statements: str, decls: str = "") -> str:
    """A subroutine whose region (line 6 on) holds `statements`."""
    return ("subroutine s(n, a, b)\n"
            "  integer :: n, i, j\n"
            "  real(8) :: a(n), b(n)\n"
            f"  real(8) :: x, y{decls}\n"
            "  !$translate kernel\n"
            + textwrap.indent(textwrap.dedent(statements), "  ")
            + "  !$translate end kernel\n"
            "end subroutine\n")


def where(err: TranslatorError) -> str:
    return f"{err.span.line}:{err.span.col}"


@pytest.mark.parametrize("stmt, what, col", [
    ("print *, a(1)\n", "I/O statement PRINT", 3),
    ("write(*, *) a(1)\n", "I/O statement WRITE", 3),
    ("read(*, *) x\n", "I/O statement READ", 3),
    ("stop\n", "STOP statement", 3),
    ("return\n", "RETURN statement", 3),
])
def test_unsupported_statements(stmt, what, col):
    err = error_of(body(stmt))
    assert isinstance(err, UnsupportedConstructError)
    assert err.message == f"{what} is not supported inside a kernel region"
    assert where(err) == f"6:{col}"
    assert err.span.source_line.strip() == stmt.strip()


def test_goto_outside_a_loop_says_what_to_write():
    err = error_of(body("go to 10\n"))
    assert isinstance(err, UnsupportedConstructError)
    assert err.message.startswith("GO TO 10 is not supported inside a kernel region: only a GO "
                                  "TO the CONTINUE that ends the innermost DO loop (a CYCLE) is")
    assert where(err) == "6:3"


def test_a_loop_of_constant_bounds_that_never_runs_is_accepted():
    """Before (h62): "empty bound (the domain may be empty)" at the kernel directive; then
    refused at the loop; now (h84) the pipeline leaves out the statements of a loop that never
    runs (tests/e2e/test_e2e_fuzz_third_round.py runs such regions)."""
    FRONTEND.parse("ok.f90", body("do i = 5, 1\n  a(i) = 1\nend do\n"), {})


def test_io_nested_in_a_loop_names_its_line():
    err = error_of(body("do i = 1, n\n  a(i) = 1\n  write(6, *) i\nend do\n"))
    assert err.message == "I/O statement WRITE is not supported inside a kernel region"
    assert str(err).startswith("bad.f90:8:5: ")


def test_call_names_the_routine():
    err = error_of(body("do i = 1, n\n  call helper(a(i))\nend do\n"))
    assert isinstance(err, UnsupportedConstructError)
    assert err.message.startswith("call of unknown external procedure 'helper': its source "
                                  "is not among the translator's inputs")
    assert where(err) == "7:10"


def test_pointer_assignment():
    src = """\
    subroutine s(n)
      integer :: n
      real, pointer :: p(:)
      real, target :: t(10)
      !$translate kernel
      p => t
      !$translate end kernel
    end subroutine
    """
    err = error_of(src)
    assert err.message == "pointer assignment is not supported inside a kernel region"
    assert where(err) == "6:3"


def test_exit_cycle_do_while():
    # h78: an EXIT of a counted loop is translated (tests/e2e/test_exit_search_hint.py); one
    # of a DO CONCURRENT is not
    err = error_of(body("do concurrent (i = 1:n)\n  if (a(i) < 0) exit\nend do\n"))
    assert err.message == (
        "EXIT of a DO CONCURRENT loop is not supported inside a kernel region; put the "
        "statements it skips under an IF")
    assert err.span.line == 7
    err = error_of(body("do while (x < 1)\n  x = x * 2\nend do\n"))
    assert err.message == "DO WHILE loop is not supported inside a kernel region"
    assert where(err) == "6:6"


def test_user_function_call():
    err = error_of(body("do i = 1, n\n  a(i) = f(b(i))\nend do\n"))
    assert err.message == (
        "call of unknown external procedure 'f': its source is not among the translator's "
        "inputs, so it cannot be offloaded (procedures of this file, of the other Fortran "
        "files of the command and of modules found by -I are inlined; or give the device a "
        "definition of the function with a register_function pragma)")
    assert where(err) == "7:12"


def test_syntax_error_reported_by_fparser():
    src = body("do i = 1, n\n  a(i) = (b(i) +\nend do\n")
    err = error_of(src)
    assert err.message.startswith("Fortran syntax error")
    assert err.span.line == 7 and err.span.col == 5


def test_directive_outside_a_procedure():
    src = """\
    module m
      !$translate kernel
      integer :: k
      !$translate end kernel
    end module
    """
    err = error_of(src)
    assert err.message.startswith("translate directive outside a procedure")
    assert where(err) == "2:3"


def test_unterminated_region():
    src = "subroutine s\n  integer :: i\n  !$translate kernel k\n  i = 1\nend subroutine\n"
    err = error_of(src)
    assert err.message.startswith("unterminated kernel region")
    assert where(err) == "3:3"


def test_nested_region():
    src = body("x = 1\n!$translate kernel inner\ny = 2\n!$translate end kernel\n")
    err = error_of(src)
    assert err.message.startswith("nested kernel region")
    assert "line 5" in err.message
    assert where(err) == "7:3"


def test_end_without_kernel():
    src = "subroutine s\n  integer :: i\n  i = 1\n  !$translate end kernel\nend subroutine\n"
    err = error_of(src)
    assert err.message == "'end kernel' directive without a matching 'kernel' directive"
    assert where(err) == "4:3"


def test_unknown_directive():
    src = body("!$translate frobnicate the loops\nx = 1\n")
    err = error_of(src)
    assert "malformed translate directive" in err.message or "unknown" in err.message
    assert where(err) == "6:3"
    err = error_of(body("x = 1\n").replace("!$translate kernel", "!$translate kernal"))
    assert err.message.startswith("malformed translate directive 'kernal'") or \
        err.message.startswith("unknown translate directive")
    assert where(err) == "5:3"


def test_transform_directive_placement():
    src = body("x = 1\n!$translate tag_inames('i:l.0')\n")
    err = error_of(src)
    assert err.message.startswith("transform directive 'tag_inames(...)' must come right after "
                                  "the 'kernel' directive")
    assert where(err) == "7:3"
    src = "subroutine s\n  !$translate split_iname('i', 4)\nend subroutine\n"
    err = error_of(src)
    assert err.message.startswith("transform directive 'split_iname(...)' outside a kernel "
                                  "region")
    assert where(err) == "2:3"


def test_broken_continuation():
    src = body("x = 1\n").replace("!$translate kernel", "!$translate kernel &")
    err = error_of(src)
    assert err.message.startswith("translate directive continued with '&'")
    assert where(err) == "5:3"


def test_duplicate_kernel_names():
    src = body("x = 1\n!$translate end kernel\n!$translate kernel k\ny = 2\n")
    src = src.replace("!$translate kernel\n", "!$translate kernel k\n", 1)
    err = error_of(src)
    assert err.message.startswith("duplicate kernel name 'k'")
    assert where(err) == "8:3"


def test_region_cutting_through_a_construct():
    src = body("do i = 1, n\n  a(i) = 1\n!$translate end kernel\nend do\n!$translate kernel\n")
    err = error_of(src)
    assert "cuts through" in err.message
    assert err.span.line == 6


def test_empty_region():
    err = error_of(body(""))
    assert err.message.startswith("empty kernel region")
    assert where(err) == "5:3"


def test_undeclared_name_with_implicit_none():
    src = body("x = zz + 1\n").replace("  integer :: n, i, j\n",
                                      "  implicit none\n  integer :: n, i, j\n")
    err = error_of(src)
    assert err.message == "undeclared name 'zz' (implicit none is in effect)"
    assert where(err) == "7:7"


def test_complex_power_with_a_real_exponent():
    err = error_of(body("z = z ** x\n", decls="\n  complex :: z"))
    assert err.message.startswith("complex power with a real exponent (complex(4) ** real(8)) "
                                  "is not supported")
    assert err.span.line == 7


def test_assignment_to_do_variable():
    err = error_of(body("do i = 1, n\n  i = 3\nend do\n"))
    assert err.message == "assignment to DO variable 'i' inside its loop"
    assert where(err) == "7:5"


def test_do_variable_used_after_its_loop():
    err = error_of(body("do i = 1, n\n  a(i) = 1\nend do\nx = i\n"))
    assert err.message.startswith("DO variable 'i' is used outside its loop")
    assert where(err) == "9:7"


def test_bound_written_in_region():
    src = body("n = 3\ndo i = 1, n\n  a(i) = 1\nend do\n")
    err = error_of(src)
    assert err.message.startswith("a loop bound or array section depends on 'n', which the "
                                  "region writes")
    assert err.span.line == 7


def test_non_constant_step():
    err = error_of(body("do i = 1, n, j\n  a(i) = 1\nend do\n"))
    assert err.message.startswith("the step of a DO loop inside a kernel region must be an "
                                  "integer constant")
    assert err.span.line == 6


def test_whole_array_in_scalar_context():
    err = error_of(body("x = a\n"))
    assert err.message.startswith("whole array 'a' used where a scalar is expected")
    assert where(err) == "6:7"


def test_overlapping_array_assignment():
    err = error_of(body("a(2:n) = a(1:n-1)\n"))
    assert err.message.startswith("array assignment to 'a' reads other elements of 'a'")
    assert where(err) == "6:3"


def test_rank_mismatch():
    src = body("c(:, :) = a(:)\n", decls="\n  real(8) :: c(n, n)")
    err = error_of(src)
    assert "rank" in err.message
    assert err.span.line == 7


def test_wrong_number_of_subscripts():
    err = error_of(body("a(1, 2) = 0\n"))
    assert err.message == "array 'a' has 1 dimension(s) but is subscripted with 2"
    assert where(err) == "6:3"


def test_non_convex_loop_bounds():
    err = error_of(body("do i = 1, max(n, j)\n  a(i) = 1\nend do\n"))
    assert "do not form a convex domain" in err.message
    assert err.span.line == 6


def test_unknown_form_option():
    with pytest.raises(FrontendError, match="unknown Fortran source form"):
        FRONTEND.parse("x.f90", body("x = 1\n"), {"form": "weird"})


def test_fixed_form_option_overrides_suffix():
    src = body("x = 1\n")
    # free-form text read as fixed form: the region lines start in column 3, a syntax error
    with pytest.raises(TranslatorError):
        FRONTEND.parse("x.f90", src.replace("  !$translate", "c$translate"), {"form": "fixed"})


@pytest.mark.parametrize("path", ["bad.F90", "bad.F08"])
@pytest.mark.parametrize("line, closing", [("#ifdef FAST", "#endif\n"),
                                           ("#define FAST 1", ""), ("#  undef FAST", "")])
def test_preprocessor_directive_inside_region(path, line, closing):
    src = body(f"do i = 1, n\n{line}\n  a(i) = 1\n{closing}end do\n").replace("  #", "#")
    err = error_of(src, path)
    assert err.message == (
        "preprocessor directive inside a kernel region: the rewritten source replaces the "
        "region's lines by a call, and this line would be lost with them (move it outside the "
        "region, e.g. put the whole region inside each branch of an #if)")
    assert where(err) == "7:1" and err.span.source_line == line


def test_where_mask_reading_assigned_array():
    err = error_of(body("where (a > 0)\n  a = -a\nend where\n"))
    assert err.message.startswith("WHERE mask reads 'a', which the WHERE construct assigns")
    assert where(err) == "6:10"


def test_named_constant_array_without_constant_values():
    src = body("x = c(2)\n", decls="\n  real(8), parameter :: c(3) = [1.0d0, 2.0d0]")
    err = error_of(src)
    assert err.message.startswith("named constant array 'c': only arrays of constants")
    assert err.span.line == 7


def test_region_holding_an_else_of_an_enclosing_if():
    src = ("subroutine s(n, a)\n  integer :: n\n  real :: a(n)\n  if (n > 1) then\n"
           "    !$translate kernel\n    a(1) = 1\n  else\n    a(1) = 2\n"
           "    !$translate end kernel\n  end if\nend subroutine\n")
    err = error_of(src)
    assert err.message.startswith("the kernel region cuts through a construct (its ELSE "
                                  "statement is inside the region")
    assert where(err) == "7:3"


@pytest.mark.parametrize("statement", ["a(1:n) = a(n:1:-1)\n", "a(1:n) = a(1:n) + a(2)\n",
                                       "a(1:n:2) = a(3:n:2)\n"])
def test_overlapping_array_assignment_neighbours(statement: str) -> None:
    """Sections isl cannot prove disjoint from the written one (a reversal, one element of
    it, a shifted stride) keep the refusal."""
    err = error_of(body(statement))
    assert err.message.startswith("array assignment to 'a' reads other elements of 'a'")
    assert where(err) == "6:3"


@pytest.mark.parametrize("statement", ["a(1:3) = a(4:6) + a(7)\n",
                                       "a(1:n:2) = a(2:n:2)\n", "a(:) = a(1:n) * 2\n"])
def test_disjoint_array_sections_are_accepted(statement: str) -> None:
    FRONTEND.parse("ok.f90", body(statement), {})


@pytest.mark.parametrize("call, hint", [
    ("maxloc(a, 1)", "write the loop it stands for (its first extreme): k = 1; do j = 2, n; "
     "if (a(j) > a(k)) k = j; end do (< for minloc)"),
    ("norm2(a)", "write sqrt(sum(x**2)) (gfortran's norm2 scales the sum against overflow: "
     "the last bits may differ)"),
])
def test_array_intrinsics_refused_with_their_rewrite(call: str, hint: str):
    """h71 hunt: the refusal said only "is not supported in a kernel region"."""
    err = error_of(body(f"do i = 1, n\n  b(i) = {call}\nend do\n"))
    name = call.split("(")[0]
    assert err.message == (f"intrinsic function {name!r} is not supported in a kernel region; "
                           + hint)
    assert where(err) == "7:12"
