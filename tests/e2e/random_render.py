"""C and Fortran text of the random programs of tests/e2e/random_programs.py.

`render(case, reversed_=False)` gives the source of one case file: the procedure ``p<k>`` with
its regions and the driver ``run<k>`` that fills its arrays, calls it and prints every output
(``@case <k>`` first, then each array and the results element by element, floats exactly:
C as hexadecimal, Fortran with 9 or 17 significant digits).  `main_program(lang, indices)` is
the main program that runs the cases of a batch: all of them, or the one its first argument
names.
"""

from __future__ import annotations

from tests.e2e.random_programs import C_TYPE, F_TYPE, IX_EXTENT, Array, Assign, Case, Cycle, If, \
    Loop, is_float

RES_ARRAYS = (Array("ires", "i64", 1, "res"), Array("fres", "f64", 1, "res"))



# ---------------------------------------------------------------------------------------------
# expressions

def _const(value, dtype: str, lang: str) -> str:
    if is_float(dtype):
        text = repr(float(value))
        if lang == "c":
            text += "f" if dtype == "f32" else ""
        else:
            text += "" if dtype == "f32" else "d0"
        return f"({text})" if value < 0 else text
    text = str(value) + ("_8" if dtype == "i64" and lang == "fortran" else "")
    return f"({text})" if value < 0 else text


C_CALLS = {("abs", "f32"): "fabsf", ("abs", "f64"): "fabs", ("abs", "i32"): "abs",
           ("abs", "i64"): "labs", ("sqrt", "f32"): "sqrtf", ("sqrt", "f64"): "sqrt",
           ("min", "f32"): "fminf", ("min", "f64"): "fmin", ("max", "f32"): "fmaxf",
           ("max", "f64"): "fmax", ("exp", "f32"): "expf", ("exp", "f64"): "exp",
           ("log", "f32"): "logf", ("log", "f64"): "log", ("sin", "f32"): "sinf",
           ("sin", "f64"): "sin", ("cos", "f32"): "cosf", ("cos", "f64"): "cos",
           ("floor", "f32"): "floorf", ("floor", "f64"): "floor", ("fmod", "f32"): "fmodf",
           ("fmod", "f64"): "fmod", ("pow", "f32"): "powf", ("pow", "f64"): "pow",
           ("atan2", "f32"): "atan2f", ("atan2", "f64"): "atan2"}
F_KIND = {"f32": "4", "f64": "8", "i32": "4", "i64": "8"}


def expr(e: tuple, lang: str) -> str:
    """The text of expression `e` in `lang`."""
    kind = e[0]
    if kind == "const":
        return _const(e[1], e[2], lang)
    if kind == "var":
        return e[1]
    if kind == "elem":
        return element(e, lang)
    if kind == "bin":
        a, b = expr(e[2], lang), expr(e[3], lang)
        if e[1] == "%" and lang == "fortran":
            return f"mod({a}, {b})"
        if e[1] == "mod":               # the sign of the divisor
            return f"modulo({a}, {b})" if lang == "fortran" else f"((({a} % {b}) + {b}) % {b})"
        return f"({a} {e[1]} {b})"
    if kind == "call":
        return _call(e[1], [expr(a, lang) for a in e[2]], e[3], lang)
    if kind == "cast":
        if len(e) > 3:                  # a conversion the language makes itself
            return expr(e[1], lang)
        return _cast(expr(e[1], lang), e[2], lang)
    raise ValueError(kind)


def _call(name: str, args: list[str], dtype: str, lang: str) -> str:
    if name == "pow" and lang == "fortran":
        return f"({args[0]} ** {args[1]})"
    if lang == "fortran" and name == "floor":
        return f"real(floor({args[0]}), {F_KIND[dtype]})"
    if lang == "fortran" and name == "fmod":
        return f"mod({', '.join(args)})"
    if lang == "fortran" or (name, dtype) in C_CALLS:
        fname = name if lang == "fortran" else C_CALLS[(name, dtype)]
        return f"{fname}({', '.join(args)})"
    a, b = args                      # integer min and max in C
    return f"({a} {'<' if name == 'min' else '>'} {b} ? {a} : {b})"


def _cast(text: str, dtype: str, lang: str) -> str:
    if lang == "c":
        return f"(({C_TYPE[dtype]}) {text})"
    kind = {"f32": "4", "f64": "8", "i32": "4", "i64": "8"}[dtype]
    return f"{'real' if is_float(dtype) else 'int'}({text}, {kind})"


def element(e: tuple, lang: str) -> str:
    arr: Array = e[1]
    subs = list(e[2])
    if lang == "c":
        return arr.name + "".join(f"[{expr(s, 'c')}]" for s in subs)
    subs = [expr(_shift(s, arr.lbound), 'fortran') for s in subs]
    if arr.component:
        return f"{arr.name}({subs[-1]})%v({', '.join(subs[:-1])})"
    return f"{arr.name}({', '.join(subs)})"


def _f_module(case: Case) -> list[str]:
    """The module of the derived types of arrays passed as components (none: no lines)."""
    parts = [a for a in case.arrays if a.component]
    if not parts:
        return []
    out = [f"module m{case.index}", "  implicit none"]
    for a in parts:
        dims = ", ".join(f"{a.lbound}:{a.lbound + e - 1}" for e in a.extents[:-1])
        out += [f"  type t_{a.name}", f"    {F_TYPE[a.dtype]} :: v({dims})",
                f"  end type t_{a.name}"]
    return out + [f"end module m{case.index}", ""]


def _f_use(case: Case) -> list[str]:
    return [f"  use m{case.index}"] if any(a.component for a in case.arrays) else []


def _f_param(a: Array, intent: str) -> str:
    if a.component:
        last = a.extents[-1]
        return f"  type(t_{a.name}), intent({intent}) :: {a.name}({a.lbound}:{a.lbound + last - 1})"
    return f"  {F_TYPE[a.dtype]}, intent({intent}) :: {a.name}({_f_dims(a)})"


def _shift(sub: tuple, lbound: int) -> tuple:
    """`sub` + `lbound`, folded into a trailing constant."""
    if lbound == 0:
        return sub
    if sub[0] == "const":
        return ("const", sub[1] + lbound, sub[2])
    if sub[0] == "bin" and sub[1] in "+-" and sub[3][0] == "const":
        k = sub[3][1] if sub[1] == "+" else -sub[3][1]
        k += lbound
        if k == 0:
            return sub[2]
        return ("bin", "+" if k > 0 else "-", sub[2], ("const", abs(k), "i32"), "i32")
    return ("bin", "+" if lbound > 0 else "-", sub, ("const", abs(lbound), "i32"), "i32")


def condition(cond: tuple, lang: str) -> str:
    op = "/=" if cond[1] == "!=" and lang == "fortran" else cond[1]
    return f"{expr(cond[2], lang)} {op} {expr(cond[3], lang)}"


# ---------------------------------------------------------------------------------------------
# statements

def statements(stmts: list, lang: str, indent: str, rev: bool, out: list[str],
               decl_in_for: set[str]) -> None:
    for s in stmts:
        if isinstance(s, Loop):
            _loop(s, lang, indent, rev, out, decl_in_for)
        elif isinstance(s, If):
            _if(s, lang, indent, rev, out, decl_in_for)
        elif isinstance(s, Cycle):
            out.append(indent + ("continue;" if lang == "c" else "cycle"))
        elif s.atomic:
            out += _atomic(s, lang, indent)
        else:
            out.append(indent + assignment(s, lang))


_F_BITS = {"|": "ior", "&": "iand", "^": "ieor"}


def _atomic(s: Assign, lang: str, indent: str) -> list[str]:
    """An atomic update (``x op= e``, Fortran ``x = x op e`` / ``ior(x, e)``) or compare
    (C ``if (e > x) x = e;`` / ``x = e < x ? e : x;``, Fortran ``x = max(x, e)``)."""
    target, value = expr(s.target, lang), s.value
    if lang == "fortran":
        head = f"{indent}!$omp atomic" + (" update" if s.compound else "")
        if value[0] == "call":
            e = expr(value[2][1], lang)
            return [head, f"{indent}{target} = {value[1]}({target}, {e})"]
        e = expr(value[3], lang)
        if value[1] in _F_BITS:
            return [head, f"{indent}{target} = {_F_BITS[value[1]]}({target}, {e})"]
        return [head, f"{indent}{target} = {target} {value[1]} {e}"]
    if value[0] == "call":
        e = expr(value[2][1], lang)
        if value[1] == "max":
            return [f"#pragma omp atomic compare", f"{indent}if ({e} > {target}) {target} = {e};"]
        return [f"#pragma omp atomic compare", f"{indent}{target} = {e} < {target} ? {e} : "
                f"{target};"]
    return [f"#pragma omp atomic" + (" update" if s.compound else ""),
            f"{indent}{target} {value[1]}= {expr(value[3], lang)};"]


def assignment(s: Assign, lang: str) -> str:
    target = expr(s.target, lang)
    value = s.value
    if lang == "c" and s.compound and value[0] == "bin" and value[2] == s.target:
        return f"{target} {value[1]}= {expr(value[3], lang)};"
    return f"{target} = {expr(value, lang)}" + (";" if lang == "c" else "")


def _if(s: If, lang: str, indent: str, rev: bool, out: list[str], decl: set[str]) -> None:
    if lang == "c":
        out.append(f"{indent}if ({condition(s.cond, lang)}) {{")
        statements(s.then, lang, indent + "  ", rev, out, decl)
        if s.orelse:
            out.append(f"{indent}}} else {{")
            statements(s.orelse, lang, indent + "  ", rev, out, decl)
        out.append(f"{indent}}}")
        return
    out.append(f"{indent}if ({condition(s.cond, lang)}) then")
    statements(s.then, lang, indent + "  ", rev, out, decl)
    if s.orelse:
        out.append(f"{indent}else")
        statements(s.orelse, lang, indent + "  ", rev, out, decl)
    out.append(f"{indent}end if")


def _loop(lp: Loop, lang: str, indent: str, rev: bool, out: list[str], decl: set[str]) -> None:
    s, t, st = expr(lp.start, lang), expr(lp.stop, lang), lp.step
    v = lp.var
    if rev and lp.reverse:       # the same iterations, backwards
        a = abs(st)
        if st > 0:
            s, t, st = f"{s} + ({t} - {s} + {a}) / {a} * {a} - {a}", s, -a
        else:
            s, t, st = f"{s} - ({s} - {t} + {a}) / {a} * {a} + {a}", s, a
    if lang == "fortran":
        out.append(f"{indent}do {v} = {s}, {t}" + ("" if st == 1 else f", {st}"))
        statements(lp.body, lang, indent + "  ", rev, out, decl)
        out.append(f"{indent}end do")
        return
    head = f"int {v}" if v in decl else v
    cmp = "<=" if st > 0 else ">="
    inc = {1: f"{v}++", -1: f"{v}--"}.get(st, f"{v} += {st}" if st > 0 else f"{v} -= {-st}")
    out.append(f"{indent}for ({head} = {s}; {v} {cmp} {t}; {inc}) {{")
    statements(lp.body, lang, indent + "  ", rev, out, decl)
    out.append(f"{indent}}}")


# ---------------------------------------------------------------------------------------------
# the procedure

def _region_lines(case: Case, region, rev: bool, decl: set[str]) -> list[str]:
    lang, out = case.lang, []
    ind = "  "
    statements(region.host_init, lang, ind, rev, out, decl)
    if region.omp is None:
        sentinel = "#pragma translate" if lang == "c" else "!$translate"
        out.append(f"{sentinel} kernel {region.name}")
        out += [f"{sentinel} {p}" for p in region.pragmas]
    else:
        statements(region.init, lang, ind, rev, out, decl)
        out.append(f"#pragma omp parallel for {region.omp}" if lang == "c" else
                   f"{ind}!$omp parallel do {region.omp}")
    if region.omp is None:
        statements(region.init, lang, ind, rev, out, decl)
    statements([region.nest], lang, ind, rev, out, decl)
    if region.omp is not None:
        if lang == "fortran":
            out.append(f"{ind}!$omp end parallel do")
        statements(region.after, lang, ind, rev, out, decl)
    else:
        statements(region.after, lang, ind, rev, out, decl)
        out.append(("#pragma translate" if lang == "c" else "!$translate") + " end kernel")
    statements(region.host_after, lang, ind, rev, out, decl)
    return out


def _loop_vars(case: Case) -> list[str]:
    from tests.e2e.random_programs import _walk
    names: list[str] = []
    for r in all_regions(case):
        for s in _walk([r.nest]):
            if isinstance(s, Loop) and s.var not in names:
                names.append(s.var)
    return names


def _params(case: Case) -> list[Array]:
    return list(case.arrays) + list(RES_ARRAYS)


def _c_decl(a: Array, const: bool = False, param: bool = False) -> str:
    if param and a.pointer:
        return f"{'const ' if const else ''}{C_TYPE[a.dtype]} *restrict {a.name}"
    dims = "".join(f"[{e}]" for e in a.extents)
    return f"{'const ' if const else ''}{C_TYPE[a.dtype]} {a.name}{dims}"


def _f_dims(a: Array) -> str:
    return ", ".join(f"{a.lbound}:{a.lbound + e - 1}" for e in a.extents)


def _c_procedure(case: Case, rev: bool, sequential: frozenset = frozenset()) -> list[str]:
    args = ", ".join(["int n", "int m"] + [_c_decl(a, a.role in ("in", "ix", "unit"), True)
                                          for a in _params(case)])
    out = [f"void p{case.index}({args})", "{"]
    loop_vars = _loop_vars(case)
    read_after = {s.value[1][1] for r in case.regions for s in r.host_after
                  if s.value[1][0] == "var" and s.value[1][1] in loop_vars}
    decl = {v for v in loop_vars if v not in read_after}
    omp = any(r.omp is not None for r in case.regions)
    if omp:
        decl = set(loop_vars)
    top = [v for v in loop_vars if v not in decl]
    if top:
        out.append(f"  int {', '.join(top)};")
    for name, dtype in case.scalars.items():
        out.append(f"  {C_TYPE[dtype]} {name};")
    body = []
    for k, region in enumerate(all_regions(case)):
        body += _region_lines(case, region, rev and k not in sequential, decl)
    if case.data_region:
        out += [f"#pragma translate data create(tw[0:{IX_EXTENT}])", "  {"]
        out += ["  " + line if line.startswith(" ") else line for line in body]
        out += ["  }", "#pragma translate end data"]
    else:
        out += body
    return out + ["}"]


def all_regions(case: Case) -> list:
    return ([case.table_fill] if case.table_fill is not None else []) + list(case.regions)


def _f_procedure(case: Case, rev: bool, sequential: frozenset = frozenset()) -> list[str]:
    params = _params(case)
    out = [f"subroutine p{case.index}(n, m, {', '.join(a.name for a in params)})",
           *_f_use(case), "  implicit none", "  integer, intent(in) :: n, m"]
    for a in params:
        intent = "in" if a.role in ("in", "ix", "unit") else "inout"
        out.append(_f_param(a, intent))
    loop_vars = _loop_vars(case)
    if loop_vars:
        out.append(f"  integer :: {', '.join(loop_vars)}")
    for name, dtype in case.scalars.items():
        out.append(f"  {F_TYPE[dtype]} :: {name}")
    if case.data_region:
        out.append("!$translate data create(tw)")
    for k, region in enumerate(all_regions(case)):
        out += _region_lines(case, region, rev and k not in sequential, set())
    if case.data_region:
        out.append("!$translate end data")
    return out + [f"end subroutine p{case.index}"]


# ---------------------------------------------------------------------------------------------
# the driver

def _fill(a: Array) -> tuple[str, bool]:
    """The value of element q (0-based, in memory order) and whether it is a float."""
    if a.role == "ix":
        return "mod(q*3 + 1, 8)", False
    if a.role == "tab":              # the procedure fills it: values it must not read
        return "q*5 + 100", False
    if a.role == "unit":
        return "1 - 2*mod(q/3, 2)", is_float(a.dtype)
    if a.role == "res":
        return "0", is_float(a.dtype)
    if a.role == "in":
        return "mod(q*7 + 3, 17) - 8", is_float(a.dtype)
    return "mod(q*3 + 1, 13) - 6", is_float(a.dtype)


def _size(a: Array) -> int:
    size = 1
    for e in a.extents:
        size *= e
    return size


def _c_driver(case: Case) -> list[str]:
    k = case.index
    out = [f"void run{k}(void)", "{", "  int q;"]
    params = _params(case)
    for a in params:
        out.append(f"  static {_c_decl(a)};")
    for a in params:
        value, flt = _fill(a)
        value = value.replace("mod(q*", "((q*").replace(", 17)", ") % 17)").replace(
            ", 13)", ") % 13)").replace(", 8)", ") % 8)").replace("mod(q/3, 2)", "((q/3) % 2)")
        if flt and a.role == "in":
            value = f"({value}) / 4.0"
        elif flt and a.role == "out":
            value = f"({value}) / 2.0"
        ptr = f"(({C_TYPE[a.dtype]} *) {a.name})"
        out.append(f"  for (q = 0; q < {_size(a)}; q++) {ptr}[q] = {value};")
    out.append(f"  p{k}({case.n}, {case.m}, {', '.join(a.name for a in params)});")
    out.append(f'  printf("@case {k}\\n");')
    for a in params:
        if a.role not in ("out", "res", "hist"):
            continue
        ptr = f"(({C_TYPE[a.dtype]} *) {a.name})"
        fmt, cast = ('"%a\\n"', "(double) ") if is_float(a.dtype) else ('"%ld\\n"', "(long) ")
        out.append(f'  printf("{a.name}\\n");')
        out.append(f"  for (q = 0; q < {_size(a)}; q++) printf({fmt}, {cast}{ptr}[q]);")
    return out + ["}"]


def _f_driver(case: Case) -> list[str]:
    k = case.index
    params = _params(case)
    out = [f"subroutine run{k}()", *_f_use(case), "  implicit none", "  integer :: q"]
    for a in params:
        out.append(f"  {F_TYPE[a.dtype]} :: {a.name}({_f_dims(a)})")
    parts = [a for a in params if a.component]
    for a in parts:
        out.append(f"  type(t_{a.name}) :: {a.name}_s({a.lbound}:{a.lbound + a.extents[-1] - 1})")
    for a in params:
        value, flt = _fill(a)
        if flt and a.role == "in":
            value = f"real({value}, 8) / 4"
        elif flt and a.role == "out":
            value = f"real({value}, 8) / 2"
        kind = {"f32": "real", "f64": "real", "i32": "int", "i64": "int"}[a.dtype]
        width = "4" if a.dtype in ("f32", "i32") else "8"
        out.append(f"  {a.name} = reshape([({kind}({value}, {width}), q = 0, {_size(a) - 1})],"
                   f" shape({a.name}))")
    loop = [f"  do q = {a.lbound}, {a.lbound + a.extents[-1] - 1}" for a in parts]
    axes = {a.name: ":, " * (a.rank - 1) for a in parts}
    for a, head in zip(parts, loop):
        out += [head, f"    {a.name}_s(q)%v = {a.name}({axes[a.name]}q)", "  end do"]
    names = [f"{a.name}_s" if a.component else a.name for a in params]
    out.append(f"  call p{k}({case.n}, {case.m}, {', '.join(names)})")
    for a, head in zip(parts, loop):
        if a.role == "out":
            out += [head, f"    {a.name}({axes[a.name]}q) = {a.name}_s(q)%v", "  end do"]
    out.append(f"  write(*, '(A)') '@case {k}'")
    for a in params:
        if a.role not in ("out", "res", "hist"):
            continue
        fmt = {"f32": "(ES16.8E3)", "f64": "(ES25.16E3)"}.get(a.dtype, "(I0)")
        out.append(f"  write(*, '(A)') '{a.name}'")
        out.append(f"  write(*, '{fmt}') {a.name}")
    return out + [f"end subroutine run{k}"]


def render(case: Case, reversed_: bool = False, sequential: frozenset = frozenset()) -> str:
    """The case file: procedure and driver (`reversed_`: claimed loops run backwards, but for
    the regions numbered in `sequential`, in the order of `all_regions`: those whose claim the
    translator did not take)."""
    if case.lang == "c":
        lines = ["#include <stdio.h>", "#include <stdlib.h>", "#include <math.h>", ""]
        lines += _c_procedure(case, reversed_, sequential) + [""] + _c_driver(case)
    else:
        lines = [x for line in _f_module(case) + _f_procedure(case, reversed_, sequential) +
                 [""] + _f_driver(case) for x in _wrap(line)]
    return "\n".join(lines) + "\n"


def _wrap(line: str, width: int = 100) -> list[str]:
    """A long Fortran statement continued with ``&`` (free form: 132 columns at most)."""
    if len(line) <= width or line.lstrip().startswith("!"):
        return [line]
    cut = line.rindex(" ", 0, width)
    return [line[:cut] + " &"] + _wrap("      & " + line[cut + 1:], width)


def main_program(lang: str, indices: list[int]) -> str:
    """A main program running cases `indices`: all, or the one named by its argument."""
    if lang == "c":
        lines = ["#include <stdlib.h>"] + [f"void run{k}(void);" for k in indices]
        lines += ["int main(int argc, char **argv)", "{",
                  "  int which = argc > 1 ? atoi(argv[1]) : -1;"]
        lines += [f"  if (which < 0 || which == {k}) run{k}();" for k in indices]
        return "\n".join(lines + ["  return 0;", "}", ""])
    lines = ["program main", "  implicit none", "  integer :: which, status",
             "  character(len=16) :: word", "  which = -1",
             "  call get_command_argument(1, word, status=status)",
             "  if (status == 0) read(word, *) which"]
    lines += [f"  if (which < 0 .or. which == {k}) call run{k}()" for k in indices]
    return "\n".join(lines + ["end program main", ""])
