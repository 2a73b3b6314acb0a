"""Host glue: the C file (``src.host.c``) with one function per region that runs its kernel.

Each region becomes ``void translate_<region>(<params>)``, parameters in `GeneratedCode.params`
order (arrays by pointer, values by value), which calls the runtime in
``translator/runtime/translate_rt.h`` (its header comment documents the calling convention):

    tr_region_begin -> tr_arg_array / tr_arg_image / tr_arg_value per kernel argument
    -> tr_launch
    -> tr_region_end

The kernel's OpenCL source is embedded as a C string literal.  A region that runs as several
kernels (a `translator.codegen.program.HostProgramCode`) gets its glue from
`program_unit_text` (below).  Sizes and NDRange extents are
printed with `translator.codegen.cexpr.to_c`; integer value parameters are widened to
``long long`` first, so that products such as ``n*m`` cannot overflow ``int``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

import numpy as np
import pymbolic.primitives as p

from translator.codegen import images
from translator.codegen.cexpr import safe_name, to_c
from translator.codegen.group_updates import INT64_ATOMICS
from translator.codegen.program import HostLoopCode, HostProgramCode, KernelLaunch
from translator.codegen.result import GeneratedCode, KernelParam
from translator.diagnostics import CodegenError, readable_names
from translator.ir.expr import (Expression, IRIdentityMapper, dependencies, readable_condition,
                                substitute, typed_key)
from translator.ir.glue import DataGlue, DataGlueItem, GlueParam, GlueSignature
from translator.records import dataclass

#: Host-side (OpenCL API) scalar type of each numpy dtype the glue can pass.
HOST_TYPES: dict[str, str] = {
    "int8": "cl_char", "int16": "cl_short", "int32": "cl_int", "int64": "cl_long",
    "uint8": "cl_uchar", "uint16": "cl_ushort", "uint32": "cl_uint", "uint64": "cl_ulong",
    "float32": "cl_float", "float64": "cl_double", "float16": "cl_half",
    # The device side prints numpy bool as `char` (one byte): match it.
    "bool": "cl_char",
    # C99 complex: the layout of the kernel's float2/double2 and of Fortran's
    # complex(c_float_complex), and the same calling convention when passed by value.
    "complex64": "float _Complex", "complex128": "double _Complex",
}

_WIDE_PREFIX = "_tr_i_"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True, slots=True)
class HostUnit:
    """One region's glue: its name, C signature, generated kernel and ``"src.f90:12"``;
    `hint`, where not empty, is what `TRANSLATE_PROFILE` says when the region dominates the
    kernel time (how to make a sequential region parallel)."""

    region_name: str
    signature: GlueSignature
    generated: GeneratedCode
    where: str
    hint: str = ""
    #: ``kernel NAME async(N)``: the call runs on async queue N (-1: a bare ``async``).
    async_queue: int | None = None
    #: The source text of the values the frontend made up (``_tr_size_a_1``: ``size(a, 1)``),
    #: for messages (`source_names`).
    shown: tuple[tuple[str, str], ...] = ()


def host_type(dtype: np.dtype) -> str:
    """The OpenCL host type (``cl_double``, ...) of a numpy dtype; `CodegenError` if none."""
    found = _HOST_TYPE_OF.get(dtype)
    if found is None:
        name = np.dtype(dtype).name
        if name not in HOST_TYPES:
            raise CodegenError(f"the host glue cannot pass values of type {name}")
        found = _HOST_TYPE_OF[dtype] = HOST_TYPES[name]
    return found


#: `host_type` by dtype (numpy builds a dtype's name on each request).
_HOST_TYPE_OF: dict = {}


def glue_signature(region_name: str, generated: GeneratedCode) -> GlueSignature:
    """The C function that runs `generated`: ``translate_<region_name>``, params in kernel order."""

    # An image is passed by the caller as an ordinary (read-only) array.
    params = tuple(GlueParam(name=kp.name, kind="array" if kp.kind == "image" else kp.kind,
                             dtype=np.dtype(kp.dtype),
                             is_output=kp.is_output) for kp in generated.host_params)
    return GlueSignature(region=region_name, symbol=f"translate_{region_name}", params=params)


# ---------------------------------------------------------------------------------------------
# C text helpers

def c_string_literal(text: str, indent: str = "    ") -> str:
    """`text` as adjacent C string literals, one per source line; exact bytes, deterministic.

    Non-printable and non-ASCII bytes become 3-digit octal escapes (a hex escape would swallow
    following hex digits); ``?`` is escaped so that no trigraph can form.
    """
    data = text.encode("utf-8", "surrogateescape")   # a file name's non-UTF-8 bytes as given
    if not data:
        return indent + '""'
    chunks = data.splitlines(keepends=True)
    # latin-1 maps each byte to the code point of its value: one table lookup per byte
    return "\n".join(indent + '"' + chunk.decode("latin-1").translate(_BYTE_TEXT) + '"'
                      for chunk in chunks)


_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("?"): "\\?", ord("\n"): "\\n",
            ord("\t"): "\\t", ord("\r"): "\\r"}


def _escape_byte(b: int) -> str:
    if b in _ESCAPES:
        return _ESCAPES[b]
    if 0x20 <= b < 0x7F:
        return chr(b)
    return f"\\{b:03o}"


#: `_escape_byte` of every byte, for `str.translate` (the host file holds every kernel's
#: source).
_BYTE_TEXT = {b: _escape_byte(b) for b in range(256)}


def _c_ident(name: str) -> str:
    """`name` made into a C identifier fragment (region names normally are already)."""
    return name if _IDENT.match(name) else re.sub(r"\W", "_", name, flags=re.ASCII)


# ---------------------------------------------------------------------------------------------
# One region

def _check_unit(unit: HostUnit) -> None:
    gen = unit.generated
    names = tuple(kp.name for kp in gen.host_params)
    sig_names = tuple(gp.name for gp in unit.signature.params)
    if names != sig_names:
        raise CodegenError(f"region '{unit.region_name}': glue signature parameters "
                           f"{list(sig_names)} do not match the kernel's {list(names)}")
    if not 1 <= len(gen.global_size) <= 3 or len(gen.global_size) != len(gen.local_size):
        raise CodegenError(f"region '{unit.region_name}': bad NDRange sizes "
                           f"(global {len(gen.global_size)}-D, local {len(gen.local_size)}-D)")
    values = {kp.name for kp in gen.params if kp.kind == "value"}
    for kp in gen.params:
        if kp.kind in ("array", "image", "scratch") and kp.size is None:
            raise CodegenError(f"region '{unit.region_name}': array argument '{kp.name}' has "
                               "no size")
        if kp.kind not in ("array", "image", "value", "scratch"):
            raise CodegenError(f"region '{unit.region_name}': argument '{kp.name}' has "
                               f"unknown kind {kp.kind!r}")
    for expr in _host_expressions(gen):
        unknown = sorted(dependencies(expr) - values)
        if unknown:
            raise CodegenError(f"region '{unit.region_name}': host-side size expression "
                               f"uses {', '.join(unknown)}, which are not value arguments")


def _host_expressions(gen: GeneratedCode) -> list[Expression]:
    sizes = [kp.size for kp in gen.params if kp.kind in ("array", "scratch")]
    extents = [e for kp in gen.params if kp.kind == "image" for e in _image_extents(kp)]
    return sizes + extents + list(gen.global_size) + list(gen.local_size) + list(gen.assumptions)


def _image_extents(kp: KernelParam) -> tuple[Expression, ...]:
    """Width, height, depth of an image parameter (1 for the axes it does not have)."""
    return (*kp.image_extents, *(1,) * (3 - len(kp.image_extents)))


def _widened(gen: GeneratedCode) -> list[KernelParam]:
    """Integer value parameters that host-side expressions use (they get long long copies)."""
    used: set[str] = set()
    for expr in _host_expressions(gen):
        used |= dependencies(expr)
    return [kp for kp in gen.params
            if kp.kind == "value" and kp.name in used and np.dtype(kp.dtype).kind in "iub"]


class _HostPrinter:
    """Prints host-side expressions with integer parameters replaced by their wide copies."""

    def __init__(self, widened: Sequence[KernelParam]) -> None:
        self.mapping = {kp.name: p.Variable(_WIDE_PREFIX + kp.name) for kp in widened}
        self._names = frozenset(self.mapping)

    def __call__(self, expr: Expression) -> str:
        if isinstance(expr, int):
            return self._text(expr)
        try:
            key = (typed_key(expr), self._names)
        except TypeError:   # an unhashable leaf: print, do not remember
            return self._text(expr)
        text = _HOST_TEXTS.get(key)
        if text is None:
            text = self._text(expr)
            if len(_HOST_TEXTS) >= 4096:
                _HOST_TEXTS.clear()
            _HOST_TEXTS[key] = text
        return text

    def _text(self, expr: Expression) -> str:
        return to_c(_FloorDivision()(folded_constants(substitute(expr, self.mapping))))


#: Host texts of size expressions by structure and the names widened (`_HostPrinter`): a pure
#: function of both, and a file of many small regions prints the same sizes for each.
_HOST_TEXTS: dict[tuple, str] = {}


def folded_constants(expr: Expression) -> Expression:
    """`expr` with the integer constants of each sum and product folded into one (see
    `_FoldedConstants`): host size expressions print without int overflow."""
    return _FoldedConstants()(expr)


class _FoldedConstants(IRIdentityMapper):
    """The integer constants of each sum and product folded into one: every other operand of
    a host size expression is a ``long long`` copy, so no operation is left in int (C would
    compute ``50000 * 50000`` in int and overflow; the folded 2500000000 is a long literal)."""

    def map_sum(self, expr: p.Sum) -> Expression:
        return self._folded(p.Sum, [self.rec(c) for c in expr.children], sum, 0)

    def map_product(self, expr: p.Product) -> Expression:
        return self._folded(p.Product, [self.rec(c) for c in expr.children], math.prod, 1)

    @staticmethod
    def _folded(kind, children: list[Expression], combine, unit: int) -> Expression:
        ints = [c for c in children if type(c) is int]
        if len(ints) < 2 and unit not in ints:
            return kind(tuple(children))
        rest = [c for c in children if type(c) is not int]
        value = combine(ints)
        if value == 0 and kind is p.Product:
            return 0
        parts = rest if value == unit else [*rest, value]
        if not parts:
            return value
        return parts[0] if len(parts) == 1 else kind(tuple(parts))


class _FloorDivision(IRIdentityMapper):
    """Floor division and modulo by a positive constant in C's truncating operators, right for
    negative numerators too (a grid base such as ``n - (3*n + 3) // 4`` with ``n < 0``):
    ``a // d`` -> ``a >= 0 ? a / d : -((d - 1 - a) / d)``."""

    def map_floor_div(self, expr: p.FloorDiv) -> Expression:
        num, den = self.rec(expr.numerator), self.rec(expr.denominator)
        if not isinstance(den, int) or den <= 0 or (isinstance(num, int) and num >= 0):
            return p.FloorDiv(num, den)
        negative = p.Product((-1, p.FloorDiv(p.Sum((den - 1, p.Product((-1, num)))), den)))
        return p.If(p.Comparison(num, ">=", 0), p.FloorDiv(num, den), negative)

    def map_remainder(self, expr: p.Remainder) -> Expression:
        num, den = self.rec(expr.numerator), self.rec(expr.denominator)
        if not isinstance(den, int) or den <= 0 or (isinstance(num, int) and num >= 0):
            return p.Remainder(num, den)
        floor = self.map_floor_div(p.FloorDiv(num, den))
        return p.Sum((num, p.Product((-den, floor))))


def _param_decl(kp: KernelParam) -> str:
    ctype = host_type(kp.dtype)
    if kp.kind == "value":
        return f"{ctype} {safe_name(kp.name)}"
    qual = "" if kp.is_output else "const "
    return f"{qual}{ctype} *{safe_name(kp.name)}"


def _array_flags(kp: KernelParam) -> str:
    # an output is copied in too (a partial write must not clobber the rest on the way back),
    # unless codegen proved that every element is written
    overwrite = kp.is_output and kp.overwrites and not kp.is_input
    flags = [name for name, on in (("TR_IN", kp.is_input), ("TR_OUT", kp.is_output),
                                   ("TR_OVERWRITE", overwrite),
                                   ("TR_MAY_ALIAS", kp.may_alias)) if on]
    return " | ".join(flags) if flags else "0"


def _arg_lines(gen: GeneratedCode, show: _HostPrinter) -> list[str]:
    lines = []
    for index, kp in enumerate(gen.params):
        name, ctype = safe_name(kp.name), host_type(kp.dtype)
        if kp.kind == "array":
            lines.append(f"tr_arg_array(&_tr_call, {index}, {name}, {show(kp.size)}, "
                         f"sizeof({ctype}), {_array_flags(kp)});")
        elif kp.kind == "image":
            extents = ", ".join(show(e) for e in _image_extents(kp))
            lines.append(f"tr_arg_image(&_tr_call, {index}, {name}, {len(kp.shape)}, "
                         f"{extents}, sizeof({ctype}), {images.channel_type(kp.dtype)});")
        elif kp.kind == "scratch":
            lines.append(f"tr_arg_zeroed(&_tr_call, {index}, {show(kp.size)}, sizeof({ctype}));")
        else:
            lines.append(f"tr_arg_value(&_tr_call, {index}, &{name}, sizeof({ctype}));")
    return lines


def _names_line(names: Iterable[str]) -> str:
    """``tr_arg_names``: the arguments' source names for the runtime's messages (the check
    that two arrays of a call do not overlap names them)."""
    return f'tr_arg_names(&_tr_call, "{"".join(n + chr(92) + "0" for n in names)}");'


def _launch_lines(gen: GeneratedCode, show: _HostPrinter) -> list[str]:
    dims = len(gen.global_size)
    glob = ", ".join(show(e) for e in gen.global_size)
    loc = ", ".join(show(e) for e in gen.local_size)
    return [
        "{",
        f"    const long long _tr_global[{dims}] = {{{glob}}};",
        f"    const long long _tr_local[{dims}] = {{{loc}}};",
        f"    tr_launch(&_tr_call, {dims}, _tr_global, _tr_local);",
        "}",
    ]


def prototype(unit: HostUnit) -> str:
    params = ", ".join(_param_decl(kp) for kp in unit.generated.host_params) or "void"
    return f"void {unit.signature.symbol}({params})"


def _function_text(unit: HostUnit, region_var: str) -> str:
    gen = unit.generated
    widened = _widened(gen)
    show = _HostPrinter(widened)
    body = [f"const long long {_WIDE_PREFIX}{kp.name} = (long long){safe_name(kp.name)};"
            for kp in widened]
    body += assumption_checks(unit, show)
    body += ["tr_call _tr_call;", begin_line(unit, region_var, len(gen.params)),
             _names_line(kp.name for kp in gen.params), *hint_lines(unit)]
    body += _arg_lines(gen, show) + _launch_lines(gen, show) + ["tr_region_end(&_tr_call);"]
    inner = "\n".join("    " + line for line in body)
    return f"{prototype(unit)}\n{{\n{inner}\n}}\n"


def device_needs(code) -> int:
    """The ``uses_fp64`` field of a kernel's `tr_region` (`tr_kernel_source`): 1 where it
    needs double precision (cl_khr_fp64), plus 2 where it updates 64-bit data atomically
    (cl_khr_int64_base_atomics: a ``double`` or ``long`` atomic update); the runtime refuses a
    device without them, naming the extension."""
    return int(bool(code.uses_fp64)) | (2 if INT64_ATOMICS in code.device_code else 0)


def _unit_text(unit: HostUnit) -> str:
    if isinstance(unit.generated, HostProgramCode):
        return program_unit_text(unit)
    _check_unit(unit)
    ident = _c_ident(unit.region_name)
    src_var, region_var = f"_tr_source_{ident}", f"_tr_region_{ident}"
    gen = unit.generated
    strings = ", ".join(c_string_literal(s, "") for s in
                        (unit.region_name, unit.where, gen.kernel_name))
    title = f"{_comment_safe(unit.region_name)} ({_comment_safe(unit.where)})"
    return (f"/* region {title} */\n\n"
            f"static const char {src_var}[] =\n{c_string_literal(gen.device_code)};\n\n"
            f"static tr_region {region_var} =\n"
            f"    TR_REGION({strings}, {src_var}, {device_needs(gen)});\n\n"
            + _function_text(unit, region_var))


def begin_line(unit: HostUnit, region_var: str, nargs: int) -> str:
    """The call's ``tr_region_begin``, or ``tr_region_begin_async`` on the unit's queue."""
    if unit.async_queue is None:
        return f"tr_region_begin(&_tr_call, &{region_var}, {nargs});"
    return (f"tr_region_begin_async(&_tr_call, &{region_var}, {nargs}, "
            f"{_queue_text(unit.async_queue)});")


def _queue_text(queue: int) -> str:
    return "TR_ASYNC_NOVAL" if queue < 0 else f"{queue}LL"


def hint_lines(unit: HostUnit) -> list[str]:
    """``tr_region_hint`` with the unit's profile hint, if it has one."""
    return [f"tr_region_hint(&_tr_call, {c_string_literal(unit.hint, '')});"] if unit.hint \
        else []


def assumption_checks(unit: HostUnit, show: _HostPrinter) -> list[str]:
    """C statements that stop the program (exit status 1) when the values passed break one of
    the kernel's assumptions (`assume`): the kernel was generated trusting them."""
    gen = unit.generated
    kinds = {kp.name: np.dtype(kp.dtype).kind for kp in gen.params if kp.kind == "value"}
    lines = []
    shown = dict(unit.shown)
    for cond in gen.assumptions:
        names = sorted(n for n in dependencies(cond) if kinds.get(n) in ("i", "u"))
        said = readable_names(f"{unit.where}: error: translate runtime: region "
                              f"'{unit.region_name}' was generated assuming "
                              f"{assumption_text(cond)}, but ", shown)
        message = _printf_safe(said) + ", ".join(f"{_printf_safe(shown.get(n, n))} = %lld"
                                                 for n in names) + "\n"
        values = "".join(f", (long long){safe_name(n)}" for n in names)
        lines += _stop_unless(show(cond), message, values)
    return lines + fixed_checks(unit)


def fixed_checks(unit: HostUnit) -> list[str]:
    """C statements that stop the program (exit status 1) when a caller passes another value
    for a parameter that `fix_parameters` fixed: the kernel was generated for that value."""
    lines = []
    for fixed in unit.generated.fixed:
        name = fixed.param.name
        integer = np.dtype(fixed.param.dtype).kind in "iub"
        shown = "%lld" if integer else "%.17g"
        said = (f"{unit.where}: error: translate runtime: region '{unit.region_name}' was "
                f"generated assuming {name} = {fixed.value!r}, but ").replace("%", "%%")
        message = f"{said}{name} = {shown}\n"
        value = f", ({'long long' if integer else 'double'}){safe_name(name)}"
        lines += _stop_unless(f"{safe_name(name)} == {_c_number(fixed.value)}", message, value)
    return lines


def _c_number(value: int | float) -> str:
    """A fixed value as C text of its own type (an integer literal wide enough for any)."""
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "NAN"
    return f"{value}LL" if value >= 0 else f"({value + 1}LL - 1)"


def _stop_unless(cond: str, message: str, values: str) -> list[str]:
    return [f"if (!({cond})) {{",
            f"    fprintf(stderr, {c_string_literal(message, '')}{values});",
            "    exit(1);",
            "}"]


def _printf_safe(text: str) -> str:
    return text.replace("%", "%%")


def assumption_text(cond: Expression) -> str:
    """How an assumption reads in a message: ``n mod 128 = 0``, ``n >= 128``."""
    if isinstance(cond, p.Comparison) and cond.operator == "==" and cond.right == 0:
        terms = cond.left.children if isinstance(cond.left, p.Sum) else (cond.left,)
        for k, t in enumerate(terms):
            if (isinstance(t, p.Product) and len(t.children) == 2
                    and isinstance(t.children[1], p.FloorDiv)
                    and t.children[0] == t.children[1].denominator):
                rest = terms[:k] + terms[k + 1:]
                num = t.children[1].numerator
                if _negated(rest, num):
                    return f"{to_c(num)} mod {t.children[0]} = 0"
    return to_c(readable_condition(cond))


def _negated(terms: Sequence[Expression], expr: Expression) -> bool:
    """Whether the sum of `terms` is `-expr`, term by term."""
    wanted = expr.children if isinstance(expr, p.Sum) else (expr,)
    flipped = [t.children[1] if isinstance(t, p.Product) and len(t.children) == 2
               and t.children[0] == -1 else (-t if isinstance(t, int) else None) for t in terms]
    return len(flipped) == len(wanted) and all(f is not None for f in flipped) \
        and sorted(map(str, flipped)) == sorted(map(str, wanted))


# ---------------------------------------------------------------------------------------------
# A region that runs as several kernels (a `HostProgramCode`)
#
# The region's function gets one *buffer slot* per array parameter (``tr_arg_array``: the data
# moves in at entry and out at exit, as `translator.codegen.program` decided) and per
# device-only buffer (``tr_arg_scratch``), then runs the program: host loops are C ``for`` loops
# over ``long long`` counters (the kernels see the iname as a ``cl_int`` value argument), each
# launch chooses its kernel, points its array arguments at the slots and sets its values:
#
#     tr_region_begin -> tr_arg_array / tr_arg_scratch per slot
#     -> for (...) { tr_kernel -> tr_kernel_buffer / tr_kernel_value -> tr_launch } ...
#     -> tr_region_end
#
# Every kernel's OpenCL source is a separate string (each is its own program).



def program_unit_text(unit: HostUnit) -> str:
    """The static data and the function of one host-program region."""
    prog: HostProgramCode = unit.generated
    ident = _c_ident(unit.region_name)
    kernels = prog.kernels
    sources = []
    for k, code in enumerate(kernels):
        sources.append(f"static const char _tr_source_{ident}_{k}[] =\n"
                       f"{c_string_literal(code.device_code)};\n")
    table = ",\n".join(f"    {{{c_string_literal(code.kernel_name, '')}, _tr_source_{ident}_{k}, "
                       f"{device_needs(code)}}}" for k, code in enumerate(kernels))
    names = ", ".join(c_string_literal(s, "") for s in (unit.region_name, unit.where))
    title = f"{_comment_safe(unit.region_name)} ({_comment_safe(unit.where)})"
    return (f"/* region {title}: a host program of {len(kernels)} kernels */\n\n"
            + "\n".join(sources)
            + f"\nstatic const tr_kernel_source _tr_kernels_{ident}[] = {{\n{table}\n}};\n\n"
            f"static tr_region _tr_region_{ident} =\n"
            f"    TR_REGION_KERNELS({names}, {len(kernels)}, _tr_kernels_{ident});\n\n"
            + _function(unit, prog, f"_tr_region_{ident}"))


class _Printer:
    """Host expressions with integer values and host-loop counters as ``long long``."""

    def __init__(self, names) -> None:
        self.mapping = {n: p.Variable(_WIDE_PREFIX + n) for n in names}

    def __call__(self, expr: Expression) -> str:
        # floor divisions of possibly negative numerators as `_HostPrinter` prints them: a
        # bare ``-m / 3`` truncated, and an extent of fuzzer fortran:2014 came out too large
        # (parenthesised where it holds a conditional: the text is pasted into loop bounds)
        text = to_c(_FloorDivision()(folded_constants(substitute(expr, self.mapping))))
        return f"({text})" if "?" in text else text


def _function(unit: HostUnit, prog: HostProgramCode, region_var: str) -> str:
    arrays = [prm for prm in prog.params + prog.buffers if prm.kind == "array"]
    arrays += _scratch_params(prog)
    slots = {prm.name: k for k, prm in enumerate(arrays)}
    wide = _wide_values(prog)
    show = _Printer([*wide, *_loop_inames(prog.body)])
    lines = [f"const long long {_WIDE_PREFIX}{n} = (long long){safe_name(n)};" for n in wide]
    lines += assumption_checks(unit, show)
    lines += ["tr_call _tr_call;", begin_line(unit, region_var, len(slots)),
              _names_line(slots), *hint_lines(unit)]
    for prm in prog.params:
        if prm.kind == "array":
            lines.append(f"tr_arg_array(&_tr_call, {slots[prm.name]}, {safe_name(prm.name)}, "
                         f"{show(prm.size)}, sizeof({host_type(prm.dtype)}), "
                         f"{_array_flags(prm)});")
        elif prm.kind != "value":
            raise CodegenError(f"region '{unit.region_name}': argument '{prm.name}' of kind "
                               f"{prm.kind!r} cannot be passed to a region of several kernels")
    for prm in _scratch_params(prog):
        lines.append(f"tr_arg_zeroed(&_tr_call, {slots[prm.name]}, {show(prm.size)}, "
                     f"sizeof({host_type(prm.dtype)}));")
    for prm in prog.buffers:
        lines.append(f"tr_arg_scratch(&_tr_call, {slots[prm.name]}, {show(prm.size)}, "
                     f"sizeof({host_type(prm.dtype)}));")
    index = {id(code): k for k, code in enumerate(prog.kernels)}
    lines += _body(prog.body, slots, index, show)
    lines.append("tr_region_end(&_tr_call);")
    inner = "\n".join("    " + line for line in lines)
    return f"{prototype(unit)}\n{{\n{inner}\n}}\n"


def _body(body, slots: dict[str, int], index: dict[int, int], show: _Printer) -> list[str]:
    lines: list[str] = []
    for part in body:
        if isinstance(part, HostLoopCode):
            var = _WIDE_PREFIX + part.iname
            lines.append(f"for (long long {var} = {show(part.lower)}; {var} <= "
                         f"{show(part.upper)}; ++{var}) {{")
            lines.append(f"    const cl_int {safe_name(part.iname)} = (cl_int){var};")
            lines += ["    " + ln for ln in _body(part.body, slots, index, show)]
            lines.append("}")
        else:
            lines += _launch_text(part, slots, index[id(part.code)], show)
    return lines


def _launch_text(launch: KernelLaunch, slots: dict[str, int], k: int,
                 show: _Printer) -> list[str]:
    code = launch.code
    if not 1 <= len(code.global_size) <= 3 or len(code.global_size) != len(code.local_size):
        raise CodegenError(f"kernel '{code.kernel_name}': bad NDRange sizes")
    lines = [f"tr_kernel(&_tr_call, {k}, {len(code.params)});   /* {code.kernel_name} */"]
    for arg, prm in enumerate(code.params):
        if prm.kind in ("array", "scratch"):
            lines.append(f"tr_kernel_buffer(&_tr_call, {arg}, {slots[prm.name]});")
        elif prm.kind == "value":
            lines.append(f"tr_kernel_value(&_tr_call, {arg}, &{safe_name(prm.name)}, "
                         f"sizeof({host_type(prm.dtype)}));")
        else:
            raise CodegenError(f"kernel '{code.kernel_name}': argument '{prm.name}' of kind "
                               f"{prm.kind!r} cannot be passed by a host program")
    dims = len(code.global_size)
    glob = ", ".join(show(e) for e in code.global_size)
    loc = ", ".join(show(e) for e in code.local_size)
    return lines + [
        "{",
        f"    const long long _tr_global[{dims}] = {{{glob}}};",
        f"    const long long _tr_local[{dims}] = {{{loc}}};",
        f"    tr_launch(&_tr_call, {dims}, _tr_global, _tr_local);",
        "}",
    ]


def _loop_inames(body) -> list[str]:
    out = []
    for part in body:
        if isinstance(part, HostLoopCode):
            out += [part.iname, *_loop_inames(part.body)]
    return out


def _scratch_params(prog: HostProgramCode) -> list[KernelParam]:
    """The kernels' device-only zero-filled buffers, one slot each (zeroed when the runtime
    creates them: their kernels leave them zeroed for the next launch and the next call)."""
    return [prm for code in prog.kernels for prm in code.params if prm.kind == "scratch"]


def _program_expressions(prog: HostProgramCode) -> list[Expression]:
    exprs = [prm.size for prm in prog.params + prog.buffers if prm.kind == "array"]
    exprs += [prm.size for prm in _scratch_params(prog)]
    exprs += list(prog.assumptions)

    def walk(body) -> None:
        for part in body:
            if isinstance(part, HostLoopCode):
                exprs.extend((part.lower, part.upper))
                walk(part.body)
            else:
                exprs.extend(part.code.global_size + part.code.local_size)

    walk(prog.body)
    return exprs


def _wide_values(prog: HostProgramCode) -> list[str]:
    """Integer value parameters that host-side expressions use; errors for unknown names."""
    used: set[str] = set()
    for expr in _program_expressions(prog):
        if expr is None:
            raise CodegenError(f"region '{prog.name}': an array argument has no size")
        used |= dependencies(expr)
    values = {prm.name: prm for prm in prog.params if prm.kind == "value"}
    unknown = sorted(used - set(values) - set(_loop_inames(prog.body)))
    if unknown:
        raise CodegenError(f"region '{prog.name}': host-side expression uses "
                           f"{', '.join(unknown)}, which are not value arguments")
    return [n for n, prm in values.items()
            if n in used and np.dtype(prm.dtype).kind in "iub"]


# ---------------------------------------------------------------------------------------------
# The file

def generate_host_file(units: Iterable[HostUnit], *, source_name: str) -> str:
    """The whole ``src.host.c`` for the regions of `source_name`, in the order given.

    Compiles with ``gcc -c -Wall -I$RT``; byte-identical output for identical input.
    """
    units = tuple(units)
    seen: set[str] = set()
    for unit in units:
        ident = _c_ident(unit.region_name)
        if ident in seen:
            raise CodegenError(f"two regions named '{unit.region_name}' in {source_name}")
        seen.add(ident)
    header = (f"/* Host glue for {_comment_safe(source_name)}, generated by translate: "
              "do not edit.\n"
              " * Build: gcc -c -I\"$(translate --runtime-dir)\" this file, link with "
              "translate_rt.o -lOpenCL. */\n\n"
              "#include \"translate_rt.h\"\n")
    if any(unit.generated.assumptions or unit.generated.fixed for unit in units):
        header += "#include <stdio.h>\n#include <stdlib.h>\n"
    prototypes = "".join(prototype(unit) + ";\n" for unit in units)
    return "\n".join([header, prototypes] + [_unit_text(unit) for unit in units])


def _comment_safe(text: str) -> str:
    return text.replace("*/", "* /")


# ---------------------------------------------------------------------------------------------
# Data directives (data regions, enter/exit data, update)

_DATA_ACTIONS = {"copyin": "TR_DATA_COPYIN", "copyout": "TR_DATA_COPYOUT",
                 "copy": "TR_DATA_COPY", "create": "TR_DATA_CREATE",
                 "present": "TR_DATA_PRESENT", "delete": "TR_DATA_DELETE"}


def data_glue_prototype(glue: DataGlue) -> str:
    """``void <symbol>(const void *a0, long long first0, long long count0, long long size0,
    ...)``: four parameters per array of the directive, and for a section that need not be
    contiguous (`DataGlueItem.box`) its count and the array's extent per dimension."""
    params = [f"const void *_tr_a{k}, long long _tr_first{k}, long long _tr_count{k}, "
              f"long long _tr_size{k}" + _box_params(k, item)
              for k, item in enumerate(glue.items)]
    return f"void {glue.symbol}({', '.join(params) or 'void'})"


def _box_params(k: int, item: DataGlueItem) -> str:
    return "".join(f", long long _tr_c{k}_{d}, long long _tr_n{k}_{d}" for d in range(item.box))


def _data_item_call(glue: DataGlue, k: int, item: DataGlueItem) -> str:
    if item.box:
        return _data_box_call(glue, k, item)
    args = (f"&_tr_site, {c_string_literal(item.name, '')}, _tr_a{k}, _tr_first{k}, "
            f"_tr_count{k}, (size_t)_tr_size{k}")
    if glue.kind == "update":
        return f"tr_update_{item.action}({args});"
    fn = "tr_data_exit" if glue.kind == "exit_data" else "tr_data_enter"
    return f"{fn}({args}, {_data_action(glue, item)});"


def _data_action(glue: DataGlue, item: DataGlueItem) -> str:
    if item.action not in _DATA_ACTIONS:
        raise CodegenError(f"data directive at {glue.where}: unknown clause {item.action!r}")
    return _DATA_ACTIONS[item.action]


def _data_box_call(glue: DataGlue, k: int, item: DataGlueItem) -> str:
    """A section that need not be contiguous: the runtime moves exactly its elements."""
    box = ", ".join(f"_tr_c{k}_{d}, _tr_n{k}_{d}" for d in range(item.box))
    args = (f"&_tr_site, {c_string_literal(item.name, '')}, _tr_a{k}, _tr_first{k}, "
            f"(size_t)_tr_size{k}")
    if glue.kind == "update":
        call = f"tr_update_{item.action}_box({args}, {item.box}, _tr_box{k});"
    else:
        fn = "tr_data_exit_box" if glue.kind == "exit_data" else "tr_data_enter_box"
        call = f"{fn}({args}, {_data_action(glue, item)}, {item.box}, _tr_box{k});"
    return f"{{ const long long _tr_box{k}[] = {{{box}}}; {call} }}"


def _data_glue_text(glue: DataGlue) -> str:
    kind = glue.kind.replace("_", " ") + (" if_present" if glue.if_present else "")
    site = (f"    static tr_data_site _tr_site = TR_DATA_SITE({c_string_literal(kind, '')}, "
            f"{c_string_literal(glue.where, '')});\n")
    if glue.kind == "end_data":
        body = ["tr_data_end(&_tr_site);"]
    elif glue.kind == "wait":
        body = _wait_lines(glue)
    else:
        body = [("tr_data_begin(&_tr_site);" if glue.async_queue is None else
                 f"tr_data_begin_async(&_tr_site, {_queue_text(glue.async_queue)});")]
        body += [_data_item_call(glue, k, item) for k, item in enumerate(glue.items)]
        if glue.kind == "update":   # the items' copies were enqueued: wait once, if at all
            body.append("tr_update_end(&_tr_site);")
    inner = "".join("    " + line + "\n" for line in body)
    return (f"/* {kind} ({_comment_safe(glue.where)}) */\n"
            f"{data_glue_prototype(glue)}\n{{\n{site}{inner}}}\n")


def _wait_lines(glue: DataGlue) -> list[str]:
    """``wait`` (every queue) or ``wait(N, ...)``."""
    if not glue.queues:
        return ["tr_wait(&_tr_site, 0, NULL);"]
    ids = ", ".join(_queue_text(q) for q in glue.queues)
    return [f"static const long long _tr_queues[] = {{{ids}}};",
            f"tr_wait(&_tr_site, {len(glue.queues)}, _tr_queues);"]


def generate_data_glue(glues: Iterable[DataGlue]) -> str:
    """The glue functions of a file's data directives, to append to ``src.host.c`` (empty if
    there are none); deterministic."""
    glues = tuple(glues)
    if not glues:
        return ""
    prototypes = "".join(data_glue_prototype(g) + ";\n" for g in glues)
    return "\n" + prototypes + "\n" + "\n".join(_data_glue_text(g) for g in glues)
