"""BLOCK constructs inside a region: their local variables become private temporaries.

``block; real(8) :: t; t = a(i)*a(i); b(i) = t + 1; end block`` in a loop body declares `t`
afresh at each entry: a local scalar of the construct is a private temporary of the kernel
(``_tr_block_t``), as a local of an inlined callee is, and the statements of the construct
are the region's, seeing it under its name (it hides a variable of the procedure with that
name).  Legality proves each one private (written before read in each iteration).  Local
arrays, SAVEd locals (an initializer saves too) and data a kernel cannot hold are refused at
the declaration with what to write instead.
"""

from __future__ import annotations

from typing import Any

import pymbolic.primitives as p

from frontends.fortran.expressions import Typed
from frontends.fortran.scopes import declare
from frontends.fortran.source import children, class_name, is_comment, node_lines
from frontends.fortran.types import Scope, Symbol
from translator.diagnostics import UnsupportedConstructError
from translator.ir.data import TemporaryVariable


class BlockSupport:
    """The region builder's BLOCK constructs (`RegionBuilder` derives from it)."""

    def init_blocks(self) -> None:
        #: The local variables of the BLOCK constructs around the statement being built, by
        #: name: their temporaries (or values, for named constants).
        self.block_locals: dict[str, Typed] = {}

    def visit_Block_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        spec = next((k for k in kids if class_name(k) == "Specification_Part"), None)
        body = [k for k in children(node)[1:]
                if class_name(k) not in ("Specification_Part", "End_Block_Stmt")]
        saved = self.block_locals
        self.block_locals = {**saved, **self._block_locals(spec)}
        try:
            self.visit_block(body)
        finally:
            self.block_locals = saved

    def _block_locals(self, spec: Any) -> dict[str, Typed]:
        if spec is None:
            return {}
        scope = Scope(name=f"{self.scope.name}%block", kind="block", host=self.scope,
                      modules=self.scope.modules, implicit=None)
        declare(scope, spec, self.lines)
        saved = saved_names(spec)
        return {name: self._block_local(sym, name in saved or "*" in saved)
                for name, sym in sorted(scope.symbols.items(), key=lambda kv: kv[1].line)}

    def _block_local(self, sym: Symbol, saved: bool) -> Typed:
        """A private temporary for local `sym` of a BLOCK (a named constant: its value)."""
        self.line = sym.line or self.line
        if sym.is_parameter and not sym.is_array:
            return self.expr.parameter(sym)
        why = ("an array: declare it in the procedure (a kernel holds no local arrays of a "
               "BLOCK)" if sym.is_array else
               "SAVEd (SAVE, or an initializer in its declaration): work items cannot share "
               "it; assign it in the BLOCK instead" if saved else
               "of a type a kernel cannot hold (derived or character data)"
               if sym.ftype is None or sym.type_name is not None
               or not (sym.ftype.is_numeric or sym.ftype.base == "logical") else "")
        if why:
            raise UnsupportedConstructError(
                f"local variable {sym.name!r} of a BLOCK construct inside a kernel region is "
                f"{why}", self.span(sym.name))
        name = self.new_name(f"_tr_block_{sym.name}")
        self.temporaries[name] = TemporaryVariable(name=name, dtype=sym.ftype.dtype,
                                                   span=self.span(sym.name))
        return Typed(p.Variable(name), sym.ftype)


def saved_names(spec: Any) -> frozenset[str]:
    """Locals of a specification part with the SAVE attribute (explicit, or by an
    initializer); '*' for all."""
    from frontends.fortran.source import walk
    out: set[str] = set()
    for node in walk(spec) if spec is not None else ():
        cls = class_name(node)
        if cls == "Save_Stmt":
            names = [str(n).lower() for n in walk(node) if class_name(n) == "Name"]
            out |= set(names) if names else {"*"}
        elif cls == "Type_Declaration_Stmt":
            attrs = str(node.items[1] or "").upper()
            for ent in children(node.items[2]):
                if "SAVE" in attrs or (ent.items[3] is not None and "PARAMETER" not in attrs):
                    out.add(str(ent.items[0]).lower())
    return frozenset(out)


__all__ = ["BlockSupport", "saved_names"]
