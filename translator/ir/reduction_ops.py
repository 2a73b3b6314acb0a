"""Reduction operations: what ``sum``, ``product``, ``max``, ``min`` and user reductions compute.

The one home of a reduction operation's meaning: its neutral element (`neutral_element`), how
two partial results combine (`combine`), and the user reductions (`UserReduction`) that a
kernel registers (stored in `Kernel.options.extra`, see `translator.ir.registrations`) or this
process registers (`register_reduction_operation`).  The names the kernel language accepts are
`translator.ir.expr.REDUCTION_NAMES` (the parser needs nothing above the expression nodes); a
user reduction registered here is added there.

Code generation prefers the kernel's own definition of an operation to the process-wide one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pymbolic.primitives as p
from pymbolic import evaluate

from translator.diagnostics import CodegenError, KernelLanguageError, TransformError
from translator.ir.expr import (BUILTIN_REDUCTIONS, REDUCTION_NAMES, Expression, IRStringifier,
                                dependencies, substitute)
from translator.ir.kernel import Kernel
from translator.ir.parse_expr import parse_expression
from translator.ir.registrations import REDUCTIONS_KEY, check_identifier, entries, with_entry
from translator.records import dataclass

#: The operand names of a user reduction's combine expression.
COMBINE_OPERANDS = ("a", "b")


# ---------------------------------------------------------------------------------------------
# user reductions

@dataclass(frozen=True, slots=True, kw_only=True)
class UserReduction:
    """``reduce(name, [i], e)``: start from `neutral`, fold terms with `combine`, an
    expression in the operands ``a`` (the value so far) and ``b`` (the next term).

    Sequential reductions keep the loop's order, so any combine works there.  A reduction across
    work items (a tree in local memory) regroups and reorders the terms: it needs `associative`
    and `commutative` to be true."""

    name: str
    neutral: str
    combine: str
    associative: bool = True
    commutative: bool = True

    @property
    def parallel(self) -> bool:
        return self.associative and self.commutative

    def to_literal(self) -> tuple:
        return (self.name, self.neutral, self.combine, self.associative, self.commutative)

    @classmethod
    def from_literal(cls, item: tuple) -> UserReduction:
        name, neutral, combine, associative, commutative = item
        return cls(name=name, neutral=neutral, combine=combine, associative=associative,
                   commutative=commutative)

    def neutral_element(self, dtype: np.dtype) -> Expression:
        """The neutral element as a constant of `dtype`."""
        value = evaluate(_parse(self.neutral, f"reduction {self.name!r}"), {})
        dt = np.dtype(dtype)
        try:
            with np.errstate(all="raise"):
                typed = dt.type(value)
        except (OverflowError, ValueError, TypeError, FloatingPointError):
            raise CodegenError(f"reduction {self.name!r}: neutral element {self.neutral} has "
                               f"no value of type {dt.name}") from None
        return typed

    def combine_template(self) -> Expression:
        """The combine expression, in the operands ``a`` and ``b``."""
        return _parse(self.combine, f"reduction {self.name!r}")

    def combine_expr(self, left: Expression, right: Expression) -> Expression:
        """The combine expression with ``a`` := `left` and ``b`` := `right`."""
        return substitute(self.combine_template(), dict(zip(COMBINE_OPERANDS, (left, right))))


def make_user_reduction(name: str, neutral: Any, combine: str, *, associative: bool = True,
                        commutative: bool = True) -> UserReduction:
    """A checked `UserReduction`; `neutral` is a number or kernel-language constant text,
    `combine` kernel-language text in ``a`` and ``b``."""
    check_identifier(name, "reduction name")
    if name in BUILTIN_REDUCTIONS or name in ("reduce", "simul_reduce"):
        raise TransformError(f"reduction {name!r} is built in and cannot be redefined")
    what = f"reduction {name!r}"
    neutral_expr = _parse(str(neutral), what) if isinstance(neutral, str) else neutral
    try:
        value = evaluate(neutral_expr, {})
        if not isinstance(value, (int, float, bool, np.number, np.bool_)):
            raise TypeError
    except Exception:
        raise TransformError(f"{what}: the neutral element {neutral!r} is not a real "
                             "constant") from None
    if not isinstance(combine, str):
        raise TransformError(f"{what}: combine must be expression text in a and b, such as "
                             "'a + b'")
    combine_expr = _parse(combine, what)
    stray = sorted(dependencies(combine_expr) - set(COMBINE_OPERANDS))
    if stray:
        raise TransformError(f"{what}: combine {combine!r} may use only the operands a and b, "
                             f"not {', '.join(stray)}")
    text = IRStringifier()
    return UserReduction(name=name, neutral=text(neutral_expr), combine=text(combine_expr),
                         associative=bool(associative), commutative=bool(commutative))


def _parse(text: str, what: str) -> Expression:
    try:
        return parse_expression(text)
    except KernelLanguageError as e:
        raise TransformError(f"{what}: {e.message}") from None


#: Reductions registered for the whole process (`register_reduction_operation`).
_PROCESS_REDUCTIONS: dict[str, UserReduction] = {}


def register_reduction_operation(name: str, neutral: Any, combine: str, *,
                                 associative: bool = True,
                                 commutative: bool = True) -> UserReduction:
    """Register a reduction for this process: the kernel language then accepts
    ``reduce(name, [i], e)``, and kernels that do not define `name` themselves use this
    definition.  A later registration of the same name replaces it.  Example::

        register_reduction_operation("bxor", 0, "a ^ b")
        make_kernel("{[i]: 0<=i<n}", "h[0] = reduce(bxor, [i], a[i])")
    """
    red = make_user_reduction(name, neutral, combine, associative=associative,
                              commutative=commutative)
    announce_reduction(red)
    return red


def announce_reduction(red: UserReduction) -> None:
    """Make the parser accept `red`'s name and record it as this process's definition."""
    _PROCESS_REDUCTIONS[red.name] = red
    REDUCTION_NAMES.add(red.name)


def reductions(kernel: Kernel) -> dict[str, UserReduction]:
    """The kernel's own registered reductions by name."""
    return {item[0]: UserReduction.from_literal(item)
            for item in entries(kernel, REDUCTIONS_KEY)}


def with_reduction(kernel: Kernel, red: UserReduction) -> Kernel:
    return with_entry(kernel, REDUCTIONS_KEY, red.to_literal())


def reduction_definition(kernel: Kernel, operation: str) -> UserReduction | None:
    """The user reduction `operation` (the kernel's, else the process's); None for built-ins
    and unknown names."""
    if operation in BUILTIN_REDUCTIONS:
        return None
    own = reductions(kernel).get(operation)
    return own if own is not None else _PROCESS_REDUCTIONS.get(operation)


# ---------------------------------------------------------------------------------------------
# every operation: neutral element and combining

def neutral_element(operation: str, dtype: np.dtype, kernel: Kernel | None = None
                    ) -> Expression:
    """The neutral element of `operation`, typed exactly (``max`` over ints starts at the
    smallest int); a user reduction's (the kernel's or this process's) when `kernel` is given
    and defines or sees one."""
    user = None if kernel is None else reduction_definition(kernel, operation)
    if user is not None:
        return user.neutral_element(dtype)
    dt = np.dtype(dtype)
    if operation == "sum":
        return dt.type(0)
    if operation == "product":
        return dt.type(1)
    if dt.kind == "f":
        return dt.type(-np.inf if operation == "max" else np.inf)
    if dt.kind == "b":
        return dt.type(operation == "min")
    info = np.iinfo(dt)
    return dt.type(info.min if operation == "max" else info.max)


def combine(operation: str, left: Expression, right: Expression,
            kernel: Kernel | None = None) -> Expression:
    """``left OP right`` as an IR expression (max/min as IR function calls); a user
    reduction's combine when `kernel` is given and defines or sees one."""
    user = None if kernel is None else reduction_definition(kernel, operation)
    if user is not None:
        return user.combine_expr(left, right)
    if operation == "sum":
        return p.Sum((left, right))
    if operation == "product":
        return p.Product((left, right))
    return p.Call(p.Variable(operation), (left, right))


__all__ = ["COMBINE_OPERANDS", "UserReduction", "announce_reduction", "combine",
           "make_user_reduction", "neutral_element", "reduction_definition", "reductions",
           "register_reduction_operation", "with_reduction"]
