"""Comparisons of CHARACTER data in a region, evaluated by the caller.

A kernel holds no character data, but ``if (scheme == 'upwind')`` and ``if (trim(bc) ==
'periodic')`` in a loop body compare data the region never changes: the caller evaluates the
comparison at the call (a value argument ``merge(1, 0, <comparison>)``) and the kernel tests
it.  Only comparisons of the region's procedure's own scalars and named constants qualify;
one that reads a loop variable, an array or a callee's dummy is refused with what to write.
"""

from __future__ import annotations

from typing import Any

import pymbolic.primitives as p

from frontends.fortran.source import class_name, walk
from frontends.fortran.types import LOGICAL
from frontends.fortran.values import Typed
from translator.diagnostics import UnsupportedConstructError
from translator.ir.expr import Expression


def is_character(node: Any, scope: Any) -> bool:
    """Whether the operand `node` is character data (a literal, or names a character
    variable)."""
    for n in walk(node):
        if class_name(n) == "Char_Literal_Constant":
            return True
        if class_name(n) == "Name":
            sym = scope.lookup_declared(str(n).lower())
            if sym is not None and sym.ftype is not None and sym.ftype.base == "character":
                return True
    return False


class HostValueSupport:
    """The region builder's host-evaluated comparisons (`RegionBuilder` derives from it)."""

    def host_comparison(self, node: Any) -> Typed:
        """The comparison `node` of character data as a flag the caller computes."""
        return self._host_flag(str(node), [node])

    def host_case(self, selector: Any, values: Any) -> Expression:
        """The condition of one CASE of a character `selector`, as a flag the caller
        computes (``sel == 'a' .or. (sel >= 'c' .and. sel <= 'f')``)."""
        parts = []
        for item in values.items:
            if class_name(item) != "Case_Value_Range":
                parts.append(f"{selector} == {item}")
                continue
            lo, hi = item.items
            ends = [f"{selector} {op} {v}" for op, v in ((">=", lo), ("<=", hi))
                    if v is not None]
            parts.append("(" + " .and. ".join(ends) + ")")
        return self._host_flag(" .or. ".join(parts), [selector, values]).expr

    def _host_flag(self, text: str, nodes: list[Any]) -> Typed:
        """A flag the caller computes from the Fortran condition `text` (made of `nodes`)."""
        for n in (n for node in nodes for n in walk(node)):
            if class_name(n) != "Name":
                continue
            name = str(n).lower()
            sym = self.scope.lookup_declared(name) if self.frame is None else None
            if self.frame is not None or sym is None or name in self.loop_vars or \
                    self.loop_value(name) is not None or (sym.is_array and
                                                          not sym.is_parameter):
                raise UnsupportedConstructError(
                    f"comparison of character data {text} inside a kernel region: only "
                    "scalars of the region's procedure that the region does not change can be "
                    "compared (the caller evaluates it); compare before the region into a "
                    "logical variable or array", self.span(name))
        text = f"merge(1, 0, {text})"
        found = next((g for g in self.generated.values() if g.call_text == text), None)
        name = found.name if found is not None else self.generated_value(
            self.new_name("_tr_cmp"), text).name
        return Typed(p.Comparison(p.Variable(name), "!=", 0), LOGICAL)


__all__ = ["HostValueSupport", "is_character"]
