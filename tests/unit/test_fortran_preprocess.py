"""Preprocessed Fortran (``.F90``, ``.F``, ``.FPP``, ``--cpp``): what the frontend reads, the
rewritten source, and diagnostics at the file's own lines.  Runs on PoCL: tests/e2e."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from frontends.fortran import FRONTEND
from frontends.fortran.preprocess import fixed_statements, free_statements
from translator.diagnostics import FrontendError, TranslatorError, UnsupportedConstructError
from translator.driver import translate_text

from tests.e2e.harness import past_stamp

KINDS = """\
subroutine s(n, a, b)
  implicit none
  integer :: n, i
#ifdef SP
  real(4) :: a(n), b(n)
#else
  real(8) :: a(n), b(n)
#endif
  !$translate kernel
  do i = 1, n
     b(i) = SCALE*a(i)
  end do
  !$translate end kernel
end subroutine
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return str(path)


def parse(path: str, **options):
    return FRONTEND.parse(path, Path(path).read_text(), options)


def dtypes(parsed) -> dict[str, str]:
    (reg,) = parsed.regions
    return {a.name: str(a.dtype) for a in reg.kernel.args if hasattr(a, "shape")}


@pytest.mark.parametrize("defines, expected", [(["-DSP"], "float32"), ([], "float64"),
                                               (["-DSP", "-USP"], "float64")])
def test_ifdef_chooses_the_kind(tmp_path, defines, expected):
    path = write(tmp_path, "k.F90", KINDS)
    got = dtypes(parse(path, cpp_args=[*defines, "-DSCALE=2"]))
    assert got == {"a": expected, "b": expected}


def test_cpp_option_preprocesses_any_suffix(tmp_path):
    path = write(tmp_path, "k.f90", KINDS.replace("SCALE*", "2*"))
    got = dtypes(parse(path, cpp_args=["-DSP"], preprocess=True))
    assert got == {"a": "float32", "b": "float32"}


@pytest.mark.parametrize("name, options", [("k.f90", {}), ("k.F90", {"preprocess": False})])
def test_directives_in_a_file_not_preprocessed_are_refused(tmp_path, name, options):
    """gfortran ignores them there (compiling both branches): never a kernel of either kind."""
    path = write(tmp_path, name, KINDS.replace("SCALE*", "2*"))
    err = error_of(path, cpp_args=["-DSP"], **options)
    assert err.message == (
        "preprocessor directive '#ifdef' in a file that is not preprocessed (gfortran "
        "preprocesses .F90, .F, .FPP ... files, or any file with -cpp): pass --cpp, or rename "
        "the file")
    assert (err.span.line, err.span.col) == (4, 1)


def test_no_cpp_option_leaves_a_preprocessed_suffix_alone(tmp_path):
    path = write(tmp_path, "k.F90", KINDS.replace("SCALE*", "2*").replace("#ifdef SP\n", "")
                 .replace("  real(4) :: a(n), b(n)\n#else\n", "").replace("#endif\n", ""))
    assert dtypes(parse(path, preprocess=False)) == {"a": "float64", "b": "float64"}


def test_rewritten_source_keeps_preprocessor_lines(tmp_path):
    path = write(tmp_path, "k.F90", KINDS)
    text = Path(path).read_text()
    result = translate_text(path, text, {"cpp_args": ["-DSP", "-DSCALE=2"]})
    rewritten = result.outputs["k.F90"]
    for line in text.splitlines()[:8]:
        assert line in rewritten.splitlines()
    assert "real(c_float) :: a(*)" in rewritten
    assert past_stamp(rewritten).startswith(text.split("#else")[0])
    guard = result.parsed.macro_guard   # after the last line: the macros checked again
    assert "!defined(SP) || (SP) != 1\n" in guard and "(SCALE) != 2\n" in guard
    assert rewritten.endswith("  call translate_s_0(b, a, n)\n# 14 \"%s\"\nend subroutine\n%s"
                              "# 15 \"%s\"\n" % (path, guard, path))
    assert "float" in result.outputs["k.cl"] and "double" not in result.outputs["k.cl"]


def test_include_and_macros_reach_the_region(tmp_path):
    write(tmp_path, "inc/params.h", """\
        ! sizes
          integer, parameter :: m = 16, &
                                half = m/2   ! a comment with a 'quote
        #include "factor.h"
        """)
    write(tmp_path, "inc/factor.h",
          "  real(8), parameter :: f = 2.5d0; integer, parameter :: q = 3\n")
    path = write(tmp_path, "m.F90", """\
        #define SQR(x) ((x)*(x))
        subroutine s(a, b)
          implicit none
        #include "params.h"
          real(8) :: a(m), b(m)
          integer :: i
          !$translate kernel
          do i = 1, half
             b(i) = f*SQR(a(i)) + q + OFFSET
          end do
          !$translate end kernel
        end subroutine
        """)
    (reg,) = parse(path, cpp_args=[f"-I{tmp_path / 'inc'}", "-DOFFSET=7"]).regions
    (stmt,) = reg.kernel.statements
    assert str(stmt.expression) == "2.5*a[i + -1]*a[i + -1] + 3.0 + 7.0"
    assert [str(d) for d in reg.kernel.domains] == ["{ [i] : 0 < i <= 8 }"]


def test_relative_include_dir_is_the_callers(tmp_path, monkeypatch):
    """-I DIR relative to where translate runs, as for the compiler (the preprocessor itself
    runs in the source's directory, so that #include "x" finds the source's neighbours)."""
    write(tmp_path, "inc/n.h", "  integer, parameter :: m = 12\n")
    write(tmp_path, "src/near.h", "  integer, parameter :: k = 2\n")
    path = write(tmp_path, "src/m.F90", """\
        subroutine s(a)
        #include "n.h"
        #include "near.h"
          real(8) :: a(m)
          integer :: i
          !$translate kernel
          do i = 1, m, k
             a(i) = 1
          end do
          !$translate end kernel
        end subroutine
        """)
    monkeypatch.chdir(tmp_path)
    (reg,) = parse(path, cpp_args=["-Iinc"]).regions
    assert [str(d) for d in reg.kernel.domains] == ["{ [i] : 0 <= i <= 5 }"]   # 1..12 by 2


def test_included_units_share_the_include_line(tmp_path):
    """An included procedure and module sit on one line with the #include: the module stays
    when the procedure is not needed (only units holding regions, and modules, are parsed)."""
    write(tmp_path, "units.inc", """\
        subroutine helper(x)
          real(8) :: x
          x = 1  ! set
        end subroutine helper

        module consts
          integer, parameter :: nn = 50
        end module consts
        """)
    path = write(tmp_path, "main.F90", """\
        #include "units.inc"
        program main
          use consts
          implicit none
          real(8) :: a(nn)
          integer :: i
          !$translate kernel
          do i = 1, nn
             a(i) = i
          end do
          !$translate end kernel
          print *, sum(a)
        end program
        """)
    (reg,) = parse(path).regions
    assert [str(d) for d in reg.kernel.domains] == ["{ [i] : 0 < i <= 50 }"]


@pytest.mark.parametrize("defines, expected", [(["-DSP"], "float32"), ([], "float64")])
def test_module_source_is_preprocessed_alike(tmp_path, defines, expected):
    write(tmp_path, "fields.F90", """\
        module fields
        #ifdef SP
          real(4) :: u(100)
        #else
          real(8) :: u(100)
        #endif
        end module fields
        """)
    path = write(tmp_path, "main.F90", """\
        subroutine s(n)
          use fields
          integer :: n, i
          !$translate kernel
          do i = 1, n
             u(i) = 2*u(i)
          end do
          !$translate end kernel
        end subroutine
        """)
    assert dtypes(parse(path, cpp_args=defines)) == {"u": expected}


def test_fixed_form_F(tmp_path):
    path = write(tmp_path, "f.F", """\
              subroutine s(n, a, b)
              integer n, i
        #ifdef SP
              real a(n), b(n)
        #else
              double precision a(n), b(n)
        #endif
        #define TWICE(x) (2*(x))
        c$translate kernel
              do 10 i = 1, n
                 b(i) = TWICE(a(i))
           10 continue
        c$translate end kernel
              end
        """)
    got = parse(path, cpp_args=["-DSP"])
    assert dtypes(got) == {"a": "float32", "b": "float32"}
    (reg,) = got.regions
    assert reg.span.line == 9 and reg.span.source_line == "c$translate kernel"


def test_region_in_an_inactive_branch_is_not_a_region(tmp_path):
    text = KINDS.replace("  !$translate kernel\n", "#ifdef GPU\n  !$translate kernel\n#endif\n")
    text = text.replace("  !$translate end kernel\n",
                        "#ifdef GPU\n  !$translate end kernel\n#endif\n")
    path = write(tmp_path, "k.F90", text)
    assert parse(path, cpp_args=["-DSCALE=1"]).regions == ()
    with pytest.raises(UnsupportedConstructError, match="preprocessor directive inside"):
        parse(path, cpp_args=["-DSCALE=1", "-DGPU"])


# ---------------------------------------------------------------------------------------------
# diagnostics: at the file's own lines, showing the line as written

def error_of(path: str, **options) -> FrontendError:
    with pytest.raises(TranslatorError) as info:
        parse(path, **options)
    assert isinstance(info.value, FrontendError), type(info.value)
    assert info.value.span is not None and info.value.span.file == path
    return info.value


def test_error_in_region_after_include_and_multiline_macro(tmp_path):
    write(tmp_path, "consts.h", "  integer, parameter :: m = 4\n  integer, parameter :: k = 2\n"
                                "  real(8), parameter :: c = 1.5d0\n")
    path = write(tmp_path, "e.F90", """\
        #define AXPY(y, x) \\
           y = c*x + \\
               y
        subroutine s(a, b)
          implicit none
        #include "consts.h"
          real(8) :: a(m), b(m)
          integer :: i
          !$translate kernel
          do i = 1, m
             AXPY(b(i), a(i))
             print *, b(i)
          end do
          !$translate end kernel
        end subroutine
        """)
    err = error_of(path)
    assert err.message == "I/O statement PRINT is not supported inside a kernel region"
    assert (err.span.line, err.span.col) == (12, 6)
    assert err.span.source_line == "     print *, b(i)"


def test_error_on_a_macro_line_shows_the_line_as_written(tmp_path):
    path = write(tmp_path, "e.F90", """\
        #define SHOW(x) print *, x
        subroutine s(a)
          real(8) :: a(4)
          integer :: i
          !$translate kernel
          do i = 1, 4
             SHOW(a(i))
          end do
          !$translate end kernel
        end subroutine
        """)
    err = error_of(path)
    assert err.message == "I/O statement PRINT is not supported inside a kernel region"
    assert err.span.line == 7 and err.span.source_line == "     SHOW(a(i))"


def test_syntax_error_from_an_included_file_points_at_the_include(tmp_path):
    write(tmp_path, "bad.h", "  integer, parameter :: = 4\n")
    path = write(tmp_path, "e.F90", "subroutine s(a)\n  real(8) :: a(4)\n"
                                    "#include \"bad.h\"\n  integer :: i\n  !$translate kernel\n"
                                    "  do i = 1, 4\n    a(i) = 1\n  end do\n"
                                    "  !$translate end kernel\nend subroutine\n")
    err = error_of(path)
    assert err.message.startswith("Fortran syntax error")
    assert err.span.line == 3 and err.span.source_line == '#include "bad.h"'


@pytest.mark.parametrize("line, message, col", [
    ("#error no configuration chosen", "Fortran preprocessor: #error no configuration chosen",
     2),
    ('#include "missing.h"', "Fortran preprocessor: cannot find include file 'missing.h'", 2),
    ("#if", "Fortran preprocessor: #if with no expression", 1),
    ('#line 40 "other.f90"', "#line directive in a preprocessed Fortran file: the translator "
     "reports and rewrites by the file's own line numbers and cannot follow it", 1),
])
def test_preprocessor_errors(tmp_path, line, message, col):
    closing = "#endif\n" if line == "#if" else ""
    path = write(tmp_path, "e.F90", f"subroutine s\n{line}\n{closing}  !$translate kernel\n"
                                    "  !$translate end kernel\nend subroutine\n")
    err = error_of(path)
    assert err.message == message
    assert (err.span.line, err.span.col) == (2, col)


def test_error_inside_an_included_file_names_it(tmp_path):
    write(tmp_path, "cfg.h", "#if\n#endif\n")
    path = write(tmp_path, "e.F90", "subroutine s\n  integer :: i\n#include \"cfg.h\"\n"
                                    "end subroutine\n")
    err = error_of(path)
    assert err.message == "Fortran preprocessor: cfg.h:1: #if with no expression"
    assert err.span.line == 3


def test_directive_in_an_included_file_is_refused(tmp_path):
    write(tmp_path, "body.h", "  !$translate kernel\n  do i = 1, 4\n    a(i) = 1\n  end do\n"
                              "  !$translate end kernel\n")
    path = write(tmp_path, "e.F90", "subroutine s(a)\n  real(8) :: a(4)\n  integer :: i\n"
                                    "#include \"body.h\"\nend subroutine\n")
    err = error_of(path)
    assert err.message == ("translate directive in the included file body.h: kernel regions "
                           "and their directives must be written in the translated file itself")
    assert (err.span.line, err.span.col) == (4, 2)


# ---------------------------------------------------------------------------------------------
# statements of included files

def test_free_statements():
    lines = ["! comment", "  integer, parameter :: a = 1, &  ! why", "     & b = 2",
             "  character(*), parameter :: s = 'x ! y'  ! not part", "", "  x = 1; y = 2"]
    assert free_statements(lines) == ["integer, parameter :: a = 1,b = 2",
                                      "character(*), parameter :: s = 'x ! y'", "x = 1; y = 2"]


def test_fixed_statements():
    lines = ["c comment", "      integer m,", "     &        k", "*", "   10 format(i4)",
             "      parameter (m = 3, k = 4) ! trailing"]
    assert fixed_statements(lines) == ["integer m,k", "10 format(i4)",
                                       "parameter (m = 3, k = 4)"]
