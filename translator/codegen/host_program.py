"""Host glue of a region that runs as several kernels (a `HostProgramCode`).

The region's function gets one *buffer slot* per array parameter (``tr_arg_array``: the data
moves in at entry and out at exit, as `translator.codegen.program` decided) and per
device-only buffer (``tr_arg_scratch``), then runs the program: host loops are C ``for`` loops
over ``long long`` counters (the kernels see the iname as a ``cl_int`` value argument), each
launch chooses its kernel, points its array arguments at the slots and sets its values::

    tr_region_begin -> tr_arg_array / tr_arg_scratch per slot
    -> for (...) { tr_kernel -> tr_kernel_buffer / tr_kernel_value -> tr_launch } ...
    -> tr_region_end

Every kernel's OpenCL source is a separate string (each is its own program); integer values
used in host-side sizes are widened to ``long long`` as in `translator.codegen.host`.
"""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p

from translator.codegen.cexpr import safe_name, to_c
from translator.codegen.host import (HostUnit, _array_flags, _c_ident, _comment_safe,
                                     c_string_literal, host_type, prototype)
from translator.codegen.program import HostLoopCode, HostProgramCode, KernelLaunch
from translator.codegen.result import GeneratedCode
from translator.diagnostics import CodegenError
from translator.ir.expr import Expression, dependencies, substitute

_WIDE = "_tr_i_"


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
                       f"{int(bool(code.uses_fp64))}}}" for k, code in enumerate(kernels))
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
        self.mapping = {n: p.Variable(_WIDE + n) for n in names}

    def __call__(self, expr: Expression) -> str:
        return to_c(substitute(expr, self.mapping))


def _function(unit: HostUnit, prog: HostProgramCode, region_var: str) -> str:
    arrays = [prm for prm in prog.params + prog.buffers if prm.kind == "array"]
    slots = {prm.name: k for k, prm in enumerate(arrays)}
    wide = _wide_values(prog)
    show = _Printer([*wide, *_loop_inames(prog.body)])
    lines = [f"const long long {_WIDE}{n} = (long long){safe_name(n)};" for n in wide]
    lines += ["tr_call _tr_call;", f"tr_region_begin(&_tr_call, &{region_var}, {len(slots)});"]
    for prm in prog.params:
        if prm.kind == "array":
            lines.append(f"tr_arg_array(&_tr_call, {slots[prm.name]}, {safe_name(prm.name)}, "
                         f"{show(prm.size)}, sizeof({host_type(prm.dtype)}), "
                         f"{_array_flags(prm)});")
        elif prm.kind != "value":
            raise CodegenError(f"region '{unit.region_name}': argument '{prm.name}' of kind "
                               f"{prm.kind!r} cannot be passed to a region of several kernels")
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
            var = _WIDE + part.iname
            lines.append(f"for (long long {var} = {show(part.lower)}; {var} <= "
                         f"{show(part.upper)}; ++{var}) {{")
            lines.append(f"    const cl_int {safe_name(part.iname)} = (cl_int){var};")
            lines += ["    " + ln for ln in _body(part.body, slots, index, show)]
            lines.append("}")
        else:
            lines += _launch(part, slots, index[id(part.code)], show)
    return lines


def _launch(launch: KernelLaunch, slots: dict[str, int], k: int, show: _Printer) -> list[str]:
    code = launch.code
    if not 1 <= len(code.global_size) <= 3 or len(code.global_size) != len(code.local_size):
        raise CodegenError(f"kernel '{code.kernel_name}': bad NDRange sizes")
    lines = [f"tr_kernel(&_tr_call, {k}, {len(code.params)});   /* {code.kernel_name} */"]
    for arg, prm in enumerate(code.params):
        if prm.kind == "array":
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


def _host_expressions(prog: HostProgramCode) -> list[Expression]:
    exprs = [prm.size for prm in prog.params + prog.buffers if prm.kind == "array"]

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
    for expr in _host_expressions(prog):
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


__all__ = ["program_unit_text", "GeneratedCode"]
