"""Programs of a size that once blew the translator up (issue 28, items 8-10), in C and
Fortran, each a whole program that prints its results (so that it can be run as written and
as translated): many statements on one pointer or assumed-size array, long sums and
products, deeply nested parentheses (inside a region, or only outside one).

Used by the CLI and end-to-end tests and by bench/fuzz_cli.py (``--shapes``).
"""

from __future__ import annotations

#: The kinds of shapes.
KINDS = ("statements", "sum", "product", "parens", "parens_outside")


def shape(kind: str, lang: str, size: int, *, header: str = "") -> tuple[str, str]:
    """(file name, program text) of shape `kind` in `lang` ("c" or "fortran") of `size`;
    `header` becomes a first comment line (``translate-test: rtol=...`` for the harness)."""
    name = f"{kind}_{size}.{'c' if lang == 'c' else 'f90'}"
    make = _C if lang == "c" else _FORTRAN
    first = "" if not header else f"/* {header} */\n" if lang == "c" else f"! {header}\n"
    return name, first + make[kind](size)


# -- C ---------------------------------------------------------------------------------------

def _c_program(params: str, body: str, call: str, xlen: str, ylen: str) -> str:
    return f"""#include <stdio.h>

static void f(int n, {params})
{{
#pragma translate kernel
  for (int i = 0; i < n; i++) {{
{body}
  }}
#pragma translate end kernel
}}

int main(void)
{{
  enum {{ N = 5 }};
  static double x[{xlen}], y[{ylen}];
  for (int k = 0; k < (int)(sizeof x / sizeof x[0]); k++)
    x[k] = 1.0 + (k % 7) * 0.125;
{call}
  for (int k = 0; k < (int)(sizeof y / sizeof y[0]); k++)
    printf("%.17g\\n", y[k]);
  return 0;
}}
"""


def _c_statements(count: int) -> str:
    body = "\n".join(f"    y[{k}*n + i] = x[i] * {k + 1}.0 + {k};" for k in range(count))
    return _c_program("const double *restrict x, double *restrict y", body,
                      "  f(N, x, y);", "N", f"{count} * N")


def _c_terms(count: int, op: str) -> str:
    ops = ("+", "-") if op == "+" else ("*", "*")
    expr = "x[i]"
    for k in range(1, count):
        term = f"x[i + {k % 50}]" if k % 2 else f"{1 + (k % 9) * 0.0625}"
        expr += f" {ops[k % 3 == 2]} {term}"
    return expr


def _c_sum(count: int) -> str:
    return _c_program("const double *restrict x, double *restrict y",
                      f"    y[i] = {_c_terms(count, '+')};", "  f(N, x, y);", "N + 50", "N")


def _c_product(count: int) -> str:
    return _c_program("const double *restrict x, double *restrict y",
                      f"    y[i] = {_c_terms(count, '*')};", "  f(N, x, y);", "N + 50", "N")


def _c_nest(depth: int, leaf: str) -> str:
    expr = leaf
    for k in range(depth):
        expr = f"({0.5 + (k % 4) * 0.125} + 0.5 * {expr})"
    return expr


def _c_parens(depth: int) -> str:
    return _c_program("const double *restrict x, double *restrict y",
                      f"    y[i] = {_c_nest(depth, 'x[i]')};", "  f(N, x, y);", "N", "N")


def _c_parens_outside(depth: int) -> str:
    call = f"  f(N, x, y);\n  y[0] += {_c_nest(depth, 'x[1]')};"
    return _c_program("const double *restrict x, double *restrict y",
                      "    y[i] = 2.0 * x[i];", call, "N", "N")


_C = {"statements": _c_statements, "sum": _c_sum, "product": _c_product,
      "parens": _c_parens, "parens_outside": _c_parens_outside}


# -- Fortran ---------------------------------------------------------------------------------

def _lines(text: str, indent: str) -> str:
    """`text` as free-form lines of at most about 100 characters, continued with ``&``."""
    out, line = [], ""
    for word in text.split(" "):
        if len(line) + len(word) > 100:
            out.append(line + " &")
            line = indent + "  "
        line += ("" if line.strip() == "" and line else " " if line else "") + word
    out.append(line)
    return "\n".join(indent + out[0].lstrip() if k == 0 else s for k, s in enumerate(out))


def _f_program(decls: str, body: str, outside: str, xlen: str, ylen: str) -> str:
    return f"""subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
{decls}
  integer :: i
  !$translate kernel
  do i = 1, n
{body}
  end do
  !$translate end kernel
{outside}end subroutine

program main
  implicit none
  integer, parameter :: n = 5
  real(8) :: x({xlen}), y({ylen})
  integer :: k
  do k = 1, size(x)
     x(k) = 1.0d0 + mod(k - 1, 7) * 0.125d0
  end do
  y = 0
  call f(n, x, y)
  do k = 1, size(y)
     print '(es25.17)', y(k)
  end do
end program
"""


def _f_statements(count: int) -> str:
    body = "\n".join(f"     y({k}*n + i) = x(i) * {k + 1}.0d0 + {k}" for k in range(count))
    return _f_program("  real(8), intent(in) :: x(n)\n  real(8), intent(inout) :: y(*)", body,
                      "", "n", f"{count}*n")


def _f_terms(count: int, op: str) -> str:
    ops = ("+", "-") if op == "+" else ("*", "*")
    expr = "x(i)"
    for k in range(1, count):
        term = f"x(i + {k % 50})" if k % 2 else f"{1 + (k % 9) * 0.0625}d0"
        expr += f" {ops[k % 3 == 2]} {term}"
    return expr


_F_DECLS = "  real(8), intent(in) :: x(n + 50)\n  real(8), intent(inout) :: y(n)"


def _f_sum(count: int) -> str:
    return _f_program(_F_DECLS, _lines(f"y(i) = {_f_terms(count, '+')}", "     "), "",
                      "n + 50", "n")


def _f_product(count: int) -> str:
    return _f_program(_F_DECLS, _lines(f"y(i) = {_f_terms(count, '*')}", "     "), "",
                      "n + 50", "n")


def _f_nest(depth: int, leaf: str) -> str:
    expr = leaf
    for k in range(depth):
        expr = f"({0.5 + (k % 4) * 0.125}d0 + 0.5d0 * {expr})"
    return expr


def _f_parens(depth: int) -> str:
    return _f_program(_F_DECLS, _lines(f"y(i) = {_f_nest(depth, 'x(i)')}", "     "), "",
                      "n + 50", "n")


def _f_parens_outside(depth: int) -> str:
    outside = _lines(f"y(1) = y(1) + {_f_nest(depth, 'x(2)')}", "  ") + "\n"
    return _f_program(_F_DECLS, "     y(i) = 2.0d0 * x(i)", outside, "n + 50", "n")


_FORTRAN = {"statements": _f_statements, "sum": _f_sum, "product": _f_product,
            "parens": _f_parens, "parens_outside": _f_parens_outside}
