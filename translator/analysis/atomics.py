"""Atomic updates of array elements (statements with `Assignment.atomicity`: the kernel
language's ``atomic`` attribute, the ``atomic`` pragma, OpenMP/OpenACC ``atomic`` inside a
loop directive).

Updates of one element with one commutative operator give the same result in any order (up
to rounding, for floating-point sums and products), so two work items may update the same
element when both do it atomically.  That holds only where *every* access to the array in
the kernel is such an update with the same operator: a plain read or write of it, or an
update with another operator, sees or makes an order.  `atomic_only` names the arrays the
legality check may then leave out of its conflict search; any other array is checked as
usual, atomic updates included.  `check_atomic_forms` refuses a statement marked atomic that
the device cannot update atomically.
"""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p

from translator.analysis.access import shared_variables
from translator.analysis.reductions import Update, match_update, unwidened
from translator.diagnostics import LegalityError
from translator.ir.expr import TypeCast, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement

#: The operations an atomic update may have (`match_update`'s names): "sum" also stands for
#: a subtraction (``x[i] -= e`` adds ``-e``).
ATOMIC_OPERATIONS = ("sum", "product", "max", "min", "bitor", "bitand", "bitxor")

_SHOWN = {"sum": "+", "product": "*", "max": "max", "min": "min", "bitor": "|",
          "bitand": "&", "bitxor": "^"}

#: Bitwise updates of integers (``h[k] |= m``), by the expression node they take.
_BITWISE = {p.BitwiseOr: "bitor", p.BitwiseAnd: "bitand", p.BitwiseXor: "bitxor"}


def atomic_update(stmt: Assignment, dtype: np.dtype | None) -> Update | None:
    """The update ``x[i] = x[i] OP e`` that `stmt` makes (`match_update`), or, for a
    floating-point `x` of type `dtype` (given), ``x[i] = cast(T, x[i] OP e)`` with a wider
    term (C's ``float h[]; h[k] += 0.5 * q`` computes in double and rounds each update to
    float): the term is then converted to T and the update made in T, another rounding of
    the same sum (as for reductions, `translator.analysis.reductions`)."""
    update = match_update(stmt.expression, stmt.assignee) or _bitwise_update(stmt)
    expr = stmt.expression
    if update is None and dtype is not None and np.dtype(dtype).kind == "f" \
            and isinstance(expr, TypeCast) and np.dtype(expr.dtype) == np.dtype(dtype):
        update = match_update(unwidened(expr.child, stmt.assignee, np.dtype(dtype)),
                              stmt.assignee)
    return update


def _bitwise_update(stmt: Assignment) -> Update | None:
    """``x[i] = x[i] | e`` (``&``, ``^``; the element among the operands once) as an
    update."""
    expr = stmt.expression
    op = _BITWISE.get(type(expr))
    if op is None:
        return None
    hits = [k for k, c in enumerate(expr.children) if c == stmt.assignee]
    rest = [c for k, c in enumerate(expr.children) if k not in hits[:1]]
    if len(hits) != 1 or not rest:
        return None
    return Update(op, rest[0] if len(rest) == 1 else type(expr)(tuple(rest)))


def atomic_operation(kernel: Kernel, stmt: Statement) -> str | None:
    """The operation of an atomic update ``x[i] = x[i] OP e`` (`ATOMIC_OPERATIONS`,
    `atomic_update`), or None when `stmt` is not one (not marked atomic, another form, or
    ``e`` reading ``x``)."""
    if not isinstance(stmt, Assignment) or not stmt.atomicity:
        return None
    name = stmt.assignee_names()[0]
    update = atomic_update(stmt, _dtype(kernel, name))
    if name not in stmt.atomicity or update is None \
            or update.operation not in ATOMIC_OPERATIONS or name in dependencies(update.term):
        return None
    return update.operation


def check_atomic_forms(kernel: Kernel) -> None:
    """Raise `LegalityError` at the first statement marked atomic that is not an update the
    device can do atomically (`atomic_form_problem`)."""
    for stmt in kernel.statements:
        problem = atomic_form_problem(kernel, stmt)
        if problem:
            raise LegalityError(f"this statement is marked atomic, but {problem}", stmt.span)


def atomic_form_problem(kernel: Kernel, stmt: Statement) -> str:
    """Why `stmt`, marked atomic, is no update the device can do atomically ("" when it is,
    or when it is not marked): it must be ``x[i] = x[i] OP e`` of a 32- or 64-bit integer or
    floating-point array in global memory, OP one of + - * max min, ``e`` not reading ``x``."""
    if not getattr(stmt, "atomicity", None):
        return ""
    operation = atomic_operation(kernel, stmt)
    if operation is None:
        return ("an atomic update must have the form x[i] = x[i] OP e (x[i] += e, x[i]++; "
                "OP one of + - * max min | & ^), e not reading x, computed in the type of x")
    name = stmt.assignee_names()[0]
    dtype = _dtype(kernel, name)
    if isinstance(stmt.expression, p.If) and dtype is not None and dtype.kind == "f":
        return (f"the conditional maximum or minimum of {name!r} is of floating-point data, "
                "where the device's fmax/fmin differ from the comparison (a NaN on either "
                "side): only integers are compared and set atomically")
    global_ = shared_variables(kernel).get(name) == "global"
    if not global_ or dtype is None or dtype.kind not in "iuf" or dtype.itemsize not in (4, 8):
        what = f"{dtype.name} data" if dtype is not None and global_ \
            else "a variable outside global memory"
        return (f"the device has no atomic update of {name!r} ({what}): atomic updates are "
                "of 32- and 64-bit integer and floating-point arrays")
    return ""


def _dtype(kernel: Kernel, name: str) -> np.dtype | None:
    arg = next((a for a in kernel.args if a.name == name), None) \
        or kernel.temporaries.get(name)
    dtype = getattr(arg, "dtype", None)
    return None if dtype is None else np.dtype(dtype)


def atomic_only(kernel: Kernel) -> frozenset[str]:
    """The global arrays of `kernel` whose every access is an atomic update (`atomic_operation`)
    with one operation, and that no other argument may alias: their updates may conflict
    between work items."""
    return frozenset(name for name, (ops, plain) in _uses(kernel).items()
                     if len(ops) == 1 and not plain)


def mixed_atomic(kernel: Kernel) -> list[tuple[str, str]]:
    """(array, why) for each array updated atomically somewhere in `kernel` that `atomic_only`
    does not name: why its updates may not conflict (a plain access at a line, another
    operator, an alias)."""
    out = []
    for name, (ops, plain) in sorted(_uses(kernel).items()):
        if not ops:
            continue
        if plain:
            out.append((name, plain[0]))
        elif len(ops) > 1:
            shown = " and ".join(_SHOWN[o] for o in ATOMIC_OPERATIONS if o in ops)
            out.append((name, f"it is updated atomically with {shown}, which do not commute "
                              "with each other"))
    return out


def _uses(kernel: Kernel) -> dict[str, tuple[set[str], list[str]]]:
    """Per global array touched by an atomic update: the operations of its atomic updates
    and why any other access is plain (first first)."""
    kinds = shared_variables(kernel)
    if not any(getattr(s, "atomicity", None) for s in kernel.statements):
        return {}
    aliases = {a.name: getattr(a, "may_alias", frozenset()) for a in kernel.args}
    found: dict[str, tuple[set[str], list[str]]] = {}
    plain: dict[str, list[str]] = {}

    def plainly(name: str, stmt: Statement, verb: str) -> None:
        line = f"line {stmt.span.line}" if stmt.span is not None else f"statement {stmt.id}"
        plain.setdefault(name, []).append(f"{line} {verb} it outside an atomic update")

    for stmt in kernel.statements:
        op = atomic_operation(kernel, stmt)
        reads: set[str] = set()
        if op is not None:
            name = stmt.assignee_names()[0]
            found.setdefault(name, (set(), []))[0].add(op)
            update = atomic_update(stmt, _dtype(kernel, name))
            reads |= dependencies(update.term)
            for e in stmt.read_expressions()[1:]:   # subscripts and conditions
                reads |= dependencies(e)
        else:
            for name in stmt.assignee_names():
                plainly(name, stmt, "writes")
            for e in stmt.read_expressions():
                reads |= dependencies(e)
        for name in reads:
            plainly(name, stmt, "reads")
    for name, (ops, why) in found.items():
        why += plain.get(name, [])
        if kinds.get(name) != "global":
            why.append("it is not in global memory")
        if aliases.get(name):
            why.append(f"it may overlap {', '.join(sorted(aliases[name]))}")
    return found
