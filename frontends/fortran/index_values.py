"""Index values: an integer scalar that a block sets from its loops' variables is read as that
value in the rest of the block.

NPB MG's restriction writes the fine-grid index of a coarse point into a scalar at the top of
each loop body, and subscripts a private work array with it::

    do j1 = 2, mk
       i1 = 2*j1 - d1
       x1(i1 - 1) = r(i1 - 1, i2 - 1, i3) + ...
    end do

Read as the variable ``i1``, the subscript is not affine, and ``x1`` can be proved neither
private nor free of races: the OpenMP loop around it was refused.  Read as ``2*j1 - d1``, it is
affine.  The assignment itself stays (the variable keeps its value for whatever reads it
elsewhere); only the reads after it in the same block take the expression, and only where
nothing in between can change the variable or what the expression reads (as the C frontend
binds ``int k = i*n + j;``: `frontends.c.build`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.build_support import loop_variables, nodes_of
from frontends.fortran.source import children, class_name, walk
from translator.ir import isl_glue
from translator.ir.expr import Expression, IRIdentityMapper, TypeCast, dependencies

#: Statements that jump: a block holding one may reach a read without the assignment.
_JUMPS = frozenset({"Goto_Stmt", "Computed_Goto_Stmt", "Assigned_Goto_Stmt",
                    "Arithmetic_If_Stmt"})
#: Operations an index value may not use (a call truncates or may do more).  A quotient by a
#: positive constant may stay (`_floored`).
_REFUSED_NODES = (p.Subscript, p.Call, p.FloorDiv, p.Remainder, p.If, TypeCast)


class IndexValueSupport:
    """The region builder's index values (`RegionBuilder` derives from it)."""

    def init_index_values(self) -> None:
        #: (name, value) of the index values in force, innermost block last.
        self.index_values: list[tuple[str, Expression]] = []

    def index_value(self, name: str) -> Expression | None:
        """The value `name` is read as here, or None (read the variable)."""
        if self.frame is not None or name in self.block_locals or name in self.block_arrays:
            return None   # an inlined callee's names are its own, a construct's local too
        for bound, value in reversed(self.index_values):
            if bound == name:
                return value
        return None

    def bind_index_value(self, node: Any, block: list[Any], rest: list[Any],
                         built: int) -> None:
        """After `node` of `block` was built (`built`: the statement count before it), read
        its target as its value in `rest`, where that is sound (module docstring)."""
        if (self.frame is not None or self.block_locals or self.block_arrays
                or class_name(node) != "Assignment_Stmt" or class_name(node.items[0]) != "Name"
                or len(self.statements) != built + 1):
            return
        name = str(node.items[0]).lower()
        stmt = self.statements[-1]
        if stmt.assignee != p.Variable(name) or not self._local_integer(name):
            return
        value = stmt.expression
        if nodes_of(value, _REFUSED_NODES) or any(class_name(n) in _JUMPS
                                                  for b in block for n in walk(b)):
            return
        if any(class_name(n) == "Call_Stmt" or "Implied_Do" in class_name(n)
               for r in rest for n in walk(r)):
            return   # a callee may assign it by host association; an implied DO rebinds it
        changed = set().union(*(self.assigned(n) for n in rest)) | loop_variables(rest)
        names = dependencies(value)
        inames = {f.iname for f in self.frames}
        if (name in changed or name in names or (names - inames) & changed
                or not isl_glue.is_affine(_floored(value), names)
                or _passed(name, rest, self.scope)):
            return
        self.index_values.append((name, value))

    def _local_integer(self, name: str) -> bool:
        """A scalar integer local of the region's procedure that nothing else can write."""
        sym = self.scope.lookup(name)
        return (sym is not None and not sym.is_array and not sym.is_parameter
                and sym.ftype is not None and sym.ftype.base == "integer"
                and sym.scope_kind == "local" and not sym.is_dummy and not sym.in_common
                and not sym.equivalenced and not sym.pointer and not sym.target)


class _Floored(IRIdentityMapper):
    """Fortran's truncating quotients by positive constants as floors (Livermore's ICCG
    excerpt: ``i = ipntp + 1 + (k - ipnt)/2``).  Only to ask whether a value is affine: the
    value read keeps its truncation, and the access analysis takes it for the floor only where
    it proves the numerator non-negative (`translator.analysis.access`)."""

    def map_quotient(self, expr: p.Quotient):
        den = expr.denominator
        if isinstance(den, int | np.integer) and not isinstance(den, bool) and den > 0:
            return p.FloorDiv(self.rec(expr.numerator), int(den))
        return expr


def _floored(value: Expression) -> Expression:
    return _Floored()(value) if nodes_of(value, p.Quotient) else value


def _passed(name: str, rest: list[Any], scope: Any) -> bool:
    """Whether `rest` passes `name` to a function (which might assign its argument):
    it appears in the argument list of a reference that is not to an array."""
    for n in (n for r in rest for n in walk(r)):
        if class_name(n) not in ("Part_Ref", "Function_Reference"):
            continue
        sym = scope.lookup(str(n.items[0]).lower())
        if sym is not None and sym.is_array:
            continue
        args = children(n)[1:]
        if any(class_name(a) == "Name" and str(a).lower() == name
               for arg in args for a in walk(arg)):
            return True
    return False

