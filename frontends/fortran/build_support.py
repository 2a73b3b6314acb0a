"""Helpers of `frontends.fortran.build`: unsupported statements, IF/WHERE branch lists, and
the integer expressions of loop bounds (floor division for isl, Fortran text for the caller).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.components import data_ref_parts
from frontends.fortran.source import children, class_name, is_comment, node_lines, walk
from frontends.fortran.types import FType
from translator.diagnostics import DomainError, SourceSpan, UnsupportedConstructError
from translator.ir import isl_glue
from translator.ir.expr import Expression, IRIdentityMapper, TypeCast, substitute
from translator.ir.mappers import nodes_of
from translator.records import dataclass

#: Statements that cannot run on a device, with the words the error message uses.
UNSUPPORTED_STATEMENTS = {
    "Write_Stmt": ("I/O statement WRITE", "write"), "Print_Stmt": ("I/O statement PRINT", "print"),
    "Read_Stmt": ("I/O statement READ", "read"), "Open_Stmt": ("I/O statement OPEN", "open"),
    "Close_Stmt": ("I/O statement CLOSE", "close"),
    "Inquire_Stmt": ("I/O statement INQUIRE", "inquire"),
    "Rewind_Stmt": ("I/O statement REWIND", "rewind"),
    "Backspace_Stmt": ("I/O statement BACKSPACE", "backspace"),
    "Flush_Stmt": ("I/O statement FLUSH", "flush"), "Format_Stmt": ("FORMAT statement", "format"),
    "Computed_Goto_Stmt": ("computed GOTO", "go"),
    "Assigned_Goto_Stmt": ("assigned GOTO", "go"),
    "Stop_Stmt": ("STOP statement", "stop"), "Error_Stop_Stmt": ("ERROR STOP statement", "error"),
    "Return_Stmt": ("RETURN statement", "return"),
    "Pointer_Assignment_Stmt": ("pointer assignment", None),
    "Allocate_Stmt": ("ALLOCATE statement", "allocate"),
    "Deallocate_Stmt": ("DEALLOCATE statement", "deallocate"),
    "Nullify_Stmt": ("NULLIFY statement", "nullify"),
    "Entry_Stmt": ("ENTRY statement", "entry"), "Pause_Stmt": ("PAUSE statement", "pause"),
}


@dataclass(frozen=True)
class View:
    """An array seen through another's elements (an inlined callee's array dummy, an
    ASSOCIATE name of a section): `template` is the element at the view's 0-based indices,
    the variables `placeholders` (one per axis)."""

    template: Expression
    placeholders: tuple[str, ...]


@dataclass(frozen=True)
class GeneratedValue:
    """A value argument the frontend invents: its call text and type."""

    name: str
    call_text: str
    ftype: FType
    span: SourceSpan | None


def subscripts(e: Expression) -> list[p.Subscript]:
    return nodes_of(e, p.Subscript)


def assigned_names(node: Any) -> set[str]:
    out = set()
    for n in walk(node):
        if class_name(n) == "Assignment_Stmt":
            lhs = n.items[0]
            if class_name(lhs) == "Data_Ref":   # c(1)%x(i) = ...: the variable c
                out.add(data_ref_parts(lhs)[0][0])
            else:
                out.add(str(lhs if class_name(lhs) == "Name" else lhs.items[0]).lower())
    return out


def loop_variables(statements: list[Any]) -> set[str]:
    """The DO (and DO CONCURRENT) variables of `statements` (assignments are not searched:
    their expressions hold no loop control)."""
    out = set()
    stack = list(statements)
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, str):
            continue
        name = class_name(n)
        if name == "Assignment_Stmt":
            continue
        if name == "Loop_Control" and n.items[1] is not None:
            out.add(str(n.items[1][0]).lower())
        elif name == "Forall_Triplet_Spec":
            out.add(str(n.items[0]).lower())
        for c in children(n):
            stack.extend(c if isinstance(c, (tuple, list)) else (c,))
    return out


def if_branches(node: Any) -> list[tuple[Any | None, list[Any], int]]:
    """(condition or None for ELSE, body statements, line) of each branch of an IF."""
    out: list[tuple[Any | None, list[Any], int]] = []
    for kid in children(node):
        name = class_name(kid)
        line = (node_lines(kid) or (0, 0))[0]
        if name in ("If_Then_Stmt", "Else_If_Stmt"):
            out.append((kid.items[0], [], line))
        elif name == "Else_Stmt":
            out.append((None, [], line))
        elif name == "End_If_Stmt" or is_comment(kid):
            continue
        else:
            out[-1][1].append(kid)
    return out


def case_branches(node: Any) -> list[tuple[Any | None, list[Any], int]]:
    """(case selector or None for CASE DEFAULT, body statements, line) of each branch of a
    SELECT CASE construct; the selector node is the ``Case_Value_Range_List``."""
    out: list[tuple[Any | None, list[Any], int]] = []
    for kid in children(node):
        name = class_name(kid)
        line = (node_lines(kid) or (0, 0))[0]
        if name == "Case_Stmt":
            out.append((kid.items[0].items[0], [], line))
        elif name in ("Select_Case_Stmt", "End_Select_Stmt") or is_comment(kid):
            continue
        else:
            out[-1][1].append(kid)
    return out


def floor_divisions(e: Expression) -> Expression:
    """Integer quotients by positive constants in loop bounds -> floor division (isl).

    Exact when the numerator is non-negative; with a lower bound >= 1 a negative upper bound
    gives an empty loop either way."""
    return _FloorDivisions()(e)


class _FloorDivisions(IRIdentityMapper):
    def map_quotient(self, expr, *args, **kwargs):
        num = self.rec(expr.numerator)
        den = expr.denominator
        if isinstance(den, (int, np.integer)) and int(den) > 0:
            return p.FloorDiv(num, int(den))
        return p.Quotient(num, self.rec(den))

    def map_numpy_scalar(self, expr, *args, **kwargs):
        return int(expr) if isinstance(expr, np.integer) else expr

    def map_constant(self, expr, *args, **kwargs):
        return int(expr) if isinstance(expr, np.integer) else expr


def fortran_text(e: Expression, generated: dict[str, GeneratedValue]) -> str:
    """Fortran source text of an integer expression (for values the caller computes)."""
    if isinstance(e, (int, np.integer)):
        return str(int(e)) if int(e) >= 0 else f"({int(e)})"
    if isinstance(e, p.Variable):
        g = generated.get(e.name)
        return f"({g.call_text})" if g is not None else e.name
    if isinstance(e, p.Sum):
        return "(" + " + ".join(fortran_text(c, generated) for c in e.children) + ")"
    if isinstance(e, p.Product):
        return "(" + "*".join(fortran_text(c, generated) for c in e.children) + ")"
    if isinstance(e, p.Quotient):
        num, den = fortran_text(e.numerator, generated), fortran_text(e.denominator, generated)
        return f"({num} / {den})"
    if isinstance(e, p.Power):
        return f"({fortran_text(e.base, generated)}**{fortran_text(e.exponent, generated)})"
    if isinstance(e, p.Call) and e.function.name in ("min", "max", "abs", "rem"):
        fn = "mod" if e.function.name == "rem" else e.function.name
        return f"{fn}(" + ", ".join(fortran_text(c, generated) for c in e.parameters) + ")"
    if isinstance(e, p.Remainder):
        return f"modulo({fortran_text(e.numerator, generated)}, " \
               f"{fortran_text(e.denominator, generated)})"
    if isinstance(e, TypeCast) and np.dtype(e.dtype).kind == "i":
        return f"int({fortran_text(e.child, generated)})"
    raise UnsupportedConstructError(f"cannot compute {e} before the region")


def reads_other_elements(domains: list, inames: frozenset[str], sections: tuple[str, ...],
                         written: tuple[Expression, ...], read: tuple[Expression, ...]) -> bool:
    """Whether an array assignment over the section inames `sections` (inside the loops of
    `inames`) reads, at one section element, an element it writes at another one: then
    element-wise execution differs from Fortran's "right-hand side first".

    Decided with isl: ``a(2:n) = a(1:n-1)`` overlaps; ``s(-1:0, k, 2) = s(-1:0, k, 1)``,
    ``a(1:m) = a(m+1:2*m)`` and ``a(1:n) = a(1:n)`` do not.  Non-affine subscripts and
    domains isl cannot build count as overlapping (the caller refuses).
    """
    primed = {t: f"{t}__rd" for t in sections}
    reread = tuple(substitute(e, {t: p.Variable(n) for t, n in primed.items()}) for e in read)
    try:
        here = isl_glue.instance_set(domains, inames)
        there = isl_glue.instance_set(domains, inames, rename=primed)
        return isl_glue.find_conflict(here, there, list(zip(written, reread)),
                                      list(primed.items())) is not None
    except DomainError:
        return True
