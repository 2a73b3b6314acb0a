"""The text-level scan of top-level Fortran units (only needed units are parsed)."""

from __future__ import annotations

import pytest

from frontends.fortran import FRONTEND
from frontends.fortran.units import Unit, blank_unneeded_units, top_level_units
from translator.diagnostics import FrontendError

FILE = """\
module m
  real(8) :: p(10)
contains
  subroutine inner(x)
    real(8) :: x
    interface
      subroutine ext(y)
        real(8) :: y
      end subroutine ext
    end interface
  end subroutine inner
end module m

pure real(8) function f(x) result(r)
  real(8), intent(in) :: x
  r = x; return
end

subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n)
  character(len=20) :: msg = 'end subroutine s'  ! end
  do i = 1, n
    a(i) = 0
  end do
end subroutine

program main
  call s(1, [1d0])
end program main
"""


def test_units_of_a_mixed_file():
    assert top_level_units(FILE, "free") == [
        Unit("module", 1, 12), Unit("function", 14, 17), Unit("subroutine", 19, 26),
        Unit("program", 28, 30)]


def test_fixed_form_and_implicit_main_program():
    text = ("c     a comment\n      subroutine s(a)\n      real a\n     1  , b\n"
            "      end\n      x = 1\n      end\n")
    assert top_level_units(text, "fixed") == [Unit("subroutine", 2, 5), Unit("program", 6, 7)]


def test_uncertain_scans_give_up():
    assert top_level_units("subroutine s\nend\nend\n", "free") is None
    assert top_level_units("subroutine s\n x = 'open &\n", "free") is None
    assert top_level_units("subroutine s\n", "free") is None


def test_blanking_keeps_modules_and_region_units_and_line_numbers():
    out = blank_unneeded_units(FILE, "free", [22])
    assert out.count("\n") == FILE.count("\n")
    kept = [k + 1 for k, line in enumerate(out.splitlines()) if line]
    assert kept == list(range(1, 13)) + list(range(19, 27))


def test_region_in_a_large_file_translates_as_before():
    plain = "".join(f"subroutine p{k}(x)\n  real :: x\n  x = x + {k}\nend subroutine\n"
                    for k in range(50))
    region = ("subroutine r(n, a)\n  integer :: n, i\n  real(8) :: a(n)\n"
              "  !$translate kernel\n  do i = 1, n\n    a(i) = 2*a(i)\n  end do\n"
              "  !$translate end kernel\nend subroutine r\n")
    parsed = FRONTEND.parse("big.f90", plain + region + plain, {})
    assert [r.name for r in parsed.regions] == ["r_0"]
    assert parsed.regions[0].span.line == 204


def test_syntax_error_in_a_unit_without_region_is_left_to_the_compiler():
    text = ("subroutine bad\n  x = (1 +\nend subroutine\n"
            "subroutine r(n, a)\n  integer :: n, i\n  real(8) :: a(n)\n"
            "  !$translate kernel\n  do i = 1, n\n    a(i) = 2*a(i)\n  end do\n"
            "  !$translate end kernel\nend subroutine r\n")
    assert len(FRONTEND.parse("x.f90", text, {}).regions) == 1


NESTED = """\
module mm
contains
  subroutine first(n, a)
    integer :: n, i
    real(8) :: a(n)
    !$translate kernel
    do i = 1, n
      a(i) = 1
    end do
    !$translate end kernel
    call helper(n, a)
  contains
    subroutine helper(n, a)
      integer :: n, i
      real(8) :: a(n)
      !$translate kernel
      do i = 1, n
        a(i) = a(i) + 1
      end do
      !$translate end kernel
    end subroutine helper
  end subroutine first
  subroutine second(n, a)
    integer :: n, i
    real(8) :: a(n)
    !$translate kernel
    do i = 1, n
      a(i) = 2
    end do
    !$translate end kernel
    call tail(n, a)
  contains
    subroutine tail(n, a)
      integer :: n
      real(8) :: a(n)
    end subroutine tail
  end subroutine second
end module mm

subroutine third(n, a)
  integer :: n, i
  real(8) :: a(n)
  !$translate kernel
  do i = 1, n
    a(i) = 3
  end do
  !$translate end kernel
end subroutine third
"""


def test_each_region_is_named_after_its_innermost_procedure():
    """Host, internal, module and external procedures in file order: each region's default
    name comes from the innermost procedure whose body holds it (`innermost_procedure`)."""
    parsed = FRONTEND.parse("nested.f90", NESTED, {})
    assert [r.name for r in parsed.regions] == ["first_0", "helper_0", "second_0", "third_0"]


def test_a_directive_between_procedures_is_outside_every_body():
    text = NESTED.replace("    call tail(n, a)\n  contains\n", "    call tail(n, a)\n  contains\n"
                          "    !$translate kernel\n    !$translate end kernel\n")
    with pytest.raises(FrontendError, match="translate directive outside a procedure") as err:
        FRONTEND.parse("nested.f90", text, {})
    assert err.value.render().startswith("nested.f90:33:5: error: translate directive outside")
