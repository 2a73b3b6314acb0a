"""The updates that end a reduction over work groups (emitted by `translator.codegen.emit`
for statements with `atomicity`; `translator.codegen.parallel_reductions` makes them).

Where every launched group runs the update once, each group stores its value in a buffer of
per-group values and the last group to finish combines them (``_tr_finish_<op>_<type>``,
`finish_helper`): every work item of that group takes the values ``l, l + size, l + 2*size,
...`` in order, then the group folds them in a fixed tree, so the result depends on the
number of groups only, never on which group finishes last.  Consecutive finishes that every
work item runs (the values of a multi-value reduction, `translator.codegen.emit`) are one call
of one helper (``_tr_finish_sum_float64_x5``, ``_tr_finish_max_float64_sum_int32``): one
arrival count for all values and one loop of barrier steps folding them all, which keeps the
device compiler's work (barriers in loops) independent of the number of values.  Elsewhere
each group updates the destination atomically (``_tr_atomic_<op>_<type>``): ``atomic_add``/
``atomic_max``/``atomic_min`` on 32-bit integers, ``atom_add`` on 64-bit ones, otherwise a
compare-and-swap loop on the value's bits (``cl_khr_int64_base_atomics`` for 8-byte types).
"""

from __future__ import annotations

import numpy as np

from translator.analysis.atomics import atomic_update
from translator.codegen.cexpr import c_type_name
from translator.diagnostics import CodegenError
from translator.ir.expr import Expression
from translator.ir.statements import Assignment

#: OpenCL C: the number of work groups `ng`, this group's flat number `g`, the group's size
#: `size` and the work item's flat local id `l` (for the finishes of group reductions).
FLAT_GROUP_INDICES = (
    "  const uint ng = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);\n"
    "  const uint g = get_group_id(0) + get_num_groups(0) * (get_group_id(1)\n"
    "                 + get_num_groups(1) * get_group_id(2));\n"
    "  const uint size = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
    "  const uint l = get_local_id(0) + get_local_size(0) * (get_local_id(1)\n"
    "                 + get_local_size(1) * get_local_id(2));\n")

_OPERATIONS = ("sum", "product", "max", "min", "bitor", "bitand", "bitxor")
_INT32_BUILTINS = {"sum": "atomic_add", "max": "atomic_max", "min": "atomic_min",
                   "bitor": "atomic_or", "bitand": "atomic_and", "bitxor": "atomic_xor"}
_BIT_OPERATORS = {"bitor": "|", "bitand": "&", "bitxor": "^"}

#: Prefix of the per-group value buffers of group reductions (kernel arguments that exist on
#: the device only, zero-filled when new: `translator.codegen.opencl.kernel_params`
#: makes them parameters of kind "scratch").
SCRATCH_PREFIX = "_tr_part_"
#: Prefix of the local-memory buffer (one slot per work item, and a flag) the last group
#: combines the per-group values in.
FINISH_PREFIX = "_tr_fin_"


def scratch_name(statement_id: str) -> str:
    """The per-group value buffer of the group reduction finished by `statement_id`."""
    return SCRATCH_PREFIX + statement_id


def finish_buffer_name(statement_id: str) -> str:
    """The local buffer the last group combines the values of `statement_id` in."""
    return FINISH_PREFIX + statement_id


def atomic_update_text(stmt: Assignment, assignee: Expression, printer, dtype: np.dtype,
                       helpers: set[tuple[str, str]], arg_names=()) -> str:
    """``_tr_atomic_<op>_<type>(&x[i], value);`` for ``x[i] = x[i] OP value`` marked atomic,
    or ``_tr_finish_<op>_<type>(&x[i], value, partials, local buffer);`` where the statement
    has a buffer of per-group values among `arg_names` (every work item of the group calls
    it); records the helper it needs in `helpers`."""
    operation, dt, target, value = _update_parts(stmt, assignee, printer, dtype)
    if scratch_name(stmt.id) in arg_names:
        return finish_call_text([(stmt.id, operation, dt, target, value)], helpers)
    helpers.add((operation, dt.name))
    return f"_tr_atomic_{operation}_{dt.name}({target}, {value});"


def is_group_finish(stmt, arg_names) -> bool:
    """Whether `stmt` ends a group reduction with a last-group finish (`finish_call_text`)."""
    return (isinstance(stmt, Assignment) and bool(stmt.atomicity)
            and scratch_name(stmt.id) in arg_names)


def _update_parts(stmt: Assignment, assignee: Expression, printer, dtype: np.dtype
                  ) -> tuple[str, np.dtype, str, str]:
    """(operation, type, ``&x[i]``, value text) of the atomic update ``x[i] = x[i] OP value``."""
    if not isinstance(stmt, Assignment):
        raise CodegenError(f"statement {stmt.id!r}: atomic calls are not supported", stmt.span)
    name = stmt.assignee_names()[0]
    update = atomic_update(stmt, np.dtype(dtype))
    if name not in stmt.atomicity or update is None or update.operation not in _OPERATIONS:
        raise CodegenError(f"statement {stmt.id!r}: an atomic update must have the form "
                           "x[i] = x[i] + e (or *, max, min, |, &, ^)", stmt.span)
    dt = np.dtype(dtype)
    if dt.kind not in "iuf" or dt.itemsize not in (4, 8):
        raise CodegenError(f"statement {stmt.id!r}: atomic updates of {dt.name} data are not "
                           "supported (32- and 64-bit integers and floats are)", stmt.span)
    return update.operation, dt, f"&{printer(assignee)}", printer(update.term, ctx=dt)


def finish_update_parts(stmt: Assignment, assignee: Expression, printer, dtype: np.dtype
                        ) -> tuple[str, str, np.dtype, str, str]:
    """(statement id, operation, type, ``&x[i]``, value text) of a group finish, for
    `finish_call_text`."""
    return (stmt.id, *_update_parts(stmt, assignee, printer, dtype))


def finish_call_text(parts: list[tuple[str, str, np.dtype, str, str]],
                     helpers: set[tuple[str, str]]) -> str:
    """One call that finishes the group reductions `parts` (`finish_update_parts` of each,
    consecutive statements that every work item runs): each group stores all its values
    and counts its arrival once, and the last group combines every value in the same
    barrier steps (`finish_helper`).  Records the helper in `helpers`."""
    signature = tuple((op, dt.name) for _, op, dt, _, _ in parts)
    helpers.add(("finish:" + _signature_text(signature), parts[0][2].name))
    args = ", ".join(f"{target}, {value}, {scratch_name(sid)}, {finish_buffer_name(sid)}"
                     for sid, _, _, target, value in parts)
    return f"{_finish_name(signature)}({args});"


def _signature_text(signature: tuple[tuple[str, str], ...]) -> str:
    return ",".join(f"{op}/{dt}" for op, dt in signature)


def _finish_name(signature: tuple[tuple[str, str], ...]) -> str:
    """``_tr_finish_sum_float64`` for one value, ``_tr_finish_sum_float64_x5`` for five of a
    kind, ``_tr_finish_sum_float64_min_int32`` for a mix."""
    if len(set(signature)) == 1:
        op, dt = signature[0]
        count = len(signature)
        return f"_tr_finish_{op}_{dt}" + (f"_x{count}" if count > 1 else "")
    return "_tr_finish_" + "_".join(f"{op}_{dt}" for op, dt in signature)


#: The extension a 64-bit atomic update needs (`parallel_reductions.atomic_preamble`).
INT64_ATOMICS = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n\n"


def helper_definition(op: str, dt: str) -> str:
    """The definition of one atomic update or group finish helper (keys of
    `parallel_reductions.atomic_preamble`)."""
    if op.startswith("finish:"):
        return finish_helper(_parse_signature(op[7:]))
    return _atomic_helper(op, dt)


def _combined(operation: str, dt: np.dtype, a: str, b: str) -> str:
    fn = {"max": "fmax", "min": "fmin"} if dt.kind == "f" else {"max": "max", "min": "min"}
    if operation in _BIT_OPERATORS:
        return f"{a} {_BIT_OPERATORS[operation]} {b}"
    return {"sum": f"{a} + {b}", "product": f"{a} * {b}"}.get(operation,
                                                                 f"{fn.get(operation)}({a}, {b})")


def _parse_signature(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(tuple(item.split("/")) for item in text.split(","))  # type: ignore[misc]


def finish_helper(signature: tuple[tuple[str, str], ...]) -> str:
    """The helper every work item of every group calls with its group's values ``v0, v1,
    ...`` (module docstring), one (operation, type) of `signature` each.  Work item 0 stores
    every ``vN`` in ``partN[1 + g]`` and counts the group's arrival once (an atomic
    increment of a counter in ``part0[0]``: at the same place whatever the number of
    groups, so the zero one launch leaves there serves the next); in the last group to
    arrive, work item ``l`` combines values ``l, l + size, ...`` of each buffer into
    ``redN[l]``, the group folds ``redN[r + s]`` into ``redN[r]`` for every value in the
    same barrier steps (``r < s``, ``r + s < used``, s running down the powers of two), and
    work item 0 updates the destinations and resets the counter.  ``red0[size]`` passes the
    "last" flag to the group."""
    values = range(len(signature))
    types = [(op, np.dtype(dt), c_type_name(np.dtype(dt))) for op, dt in signature]
    params = ",\n    ".join(f"__global {t} *p{k}, {t} v{k}, volatile __global {t} *part{k}, "
                            f"__local {t} *red{k}" for k, (_, _, t) in zip(values, types))

    def each(line, indent: str) -> str:
        """`line`(k, C type, combine(a, b)) for every value, one a line."""
        return "".join(indent + line(k, t, lambda a, b, o=o, d=d: _combined(o, d, a, b))
                       + "\n" for k, (o, d, t) in zip(values, types))

    return (
        f"static inline void {_finish_name(signature)}({params})\n{{\n"
        "  /* the last work group to finish combines every group's values in a fixed order */\n"
        + FLAT_GROUP_INDICES +
        "  volatile __global uint *count = (volatile __global uint *) part0;\n"
        "  if (l == 0) {\n"
        + each(lambda k, t, op: f"part{k}[1 + g] = v{k};", "    ") +
        "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        "    red0[size] = atomic_inc(count) == ng - 1 ? 1 : 0;\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
        "  /* no early return in the other groups: PoCL copies the code after one per path */\n"
        "  const uint used = red0[size] != 0 ? min(ng, size) : 0;\n"
        "  if (l < used) {\n"
        + each(lambda k, t, op: f"{t} acc{k} = part{k}[1 + l];", "    ") +
        "    for (uint k = l + size; k < ng; k += size) {\n"
        + each(lambda k, t, op: f"acc{k} = {op(f'acc{k}', f'part{k}[1 + k]')};",
               "      ") +
        "    }\n"
        + each(lambda k, t, op: f"red{k}[l] = acc{k};", "    ") +
        "  }\n"
        "  uint s = 1;\n"
        "  while (2 * s < used)\n    s *= 2;\n"
        "  for (; s > 0; s /= 2) {\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (l < s && l + s < used) {\n"
        + each(lambda k, t, op: f"red{k}[l] = {op(f'red{k}[l]', f'red{k}[l + s]')};",
               "      ") +
        "    }\n"
        "  }\n"
        "  if ((l == 0) & (used != 0)) {\n"
        + each(lambda k, t, op: f"*p{k} = {op(f'*p{k}', f'red{k}[0]')};", "    ") +
        "    *count = 0;\n"
        "  }\n"
        "}\n\n")


def _atomic_helper(operation: str, dtype_name: str) -> str:
    dt = np.dtype(dtype_name)
    t = c_type_name(dt)
    head = (f"static inline void _tr_atomic_{operation}_{dtype_name}"
            f"(volatile __global {t} *p, {t} v)\n{{\n")
    if dt.kind in "iu" and dt.itemsize == 4 and operation in _INT32_BUILTINS:
        return head + f"  {_INT32_BUILTINS[operation]}(p, v);\n}}\n\n"
    if dt.kind in "iu" and operation == "sum":
        return head + "  atom_add(p, v);\n}\n\n"
    bits = "uint" if dt.itemsize == 4 else "ulong"
    cas = "atomic_cmpxchg" if dt.itemsize == 4 else "atom_cmpxchg"
    new = _combined(operation, dt, "old.v", "v")
    body = (f"  /* compare-and-swap on the bits: retry until no other work item intervened */\n"
            f"  union {{ {bits} u; {t} v; }} old, new_;\n"
            "  old.v = *p;\n"
            "  for (;;) {\n"
            f"    new_.v = {new};\n"
            f"    {bits} seen = {cas}((volatile __global {bits} *) p, old.u, new_.u);\n"
            "    if (seen == old.u)\n      break;\n"
            "    old.u = seen;\n"
            "  }\n")
    return head + body + "}\n\n"


__all__ = ["FINISH_PREFIX", "INT64_ATOMICS", "SCRATCH_PREFIX", "atomic_update_text",
           "helper_definition", "finish_buffer_name", "finish_call_text", "finish_helper", "finish_update_parts",
           "is_group_finish", "scratch_name"]
