"""BLOCK and ASSOCIATE constructs inside a region: the names they introduce.

``block; real(8) :: t; t = a(i)*a(i); b(i) = t + 1; end block`` in a loop body declares `t`
afresh at each entry: a local scalar of the construct is a private temporary of the kernel
(``_tr_block_t``), as a local of an inlined callee is, and the statements of the construct
are the region's, seeing it under its name (it hides a variable of the procedure with that
name).  Legality proves each one private (written before read in each iteration).  Local
arrays, SAVEd locals (an initializer saves too) and data a kernel cannot hold are refused at
the declaration with what to write instead.

An ASSOCIATE name of a scalar variable (``c => u(i, j)``) stands for that element, its
subscripts evaluated at the construct's entry (reads and writes go to it); one of a scalar
expression (``r => a(i) * 2``) is its value at entry, a private temporary.  Array selectors
are refused with the selector to write.
"""

from __future__ import annotations

from typing import Any

import pymbolic.primitives as p

from frontends.fortran.expressions import Typed
from frontends.fortran.scopes import declare
from frontends.fortran.source import children, class_name, is_comment, walk
from frontends.fortran.types import Scope, Symbol
from translator.diagnostics import UnsupportedConstructError
from translator.ir.data import TemporaryVariable
from translator.ir.expr import dependencies


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

    def visit_Associate_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        stmt = kids[0]
        names: dict[str, Typed] = {}
        written = set().union(*(self.assigned(k) for k in kids[1:]))
        for assoc in walk(stmt):
            if class_name(assoc) == "Association":
                name = str(assoc.items[0]).lower()
                names[name] = self._associated(name, assoc.items[2], written)
        saved = self.block_locals
        self.block_locals = {**saved, **names}
        try:
            self.visit_block([k for k in children(node)[1:]
                              if class_name(k) != "End_Associate_Stmt"])
        finally:
            self.block_locals = saved

    def _associated(self, name: str, selector: Any, written: set[str]) -> Typed:
        """What associate name `name` stands for: the selected element, or the value of an
        expression at the construct's entry (`written`: what the construct assigns)."""
        word = str(selector.items[0] if class_name(selector) == "Part_Ref" else selector)
        sym = self.scope.lookup_declared(word.lower()) if class_name(selector) in (
            "Name", "Part_Ref") else None
        if self.expr.section_rank(selector) or (class_name(selector) == "Name" and sym
                                                is not None and sym.is_array):
            raise UnsupportedConstructError(
                f"associate name {name!r} of the array {selector} inside a kernel region is not "
                f"supported (scalar selectors are); write {selector} instead", self.span(name))
        value = self.expr.visit(selector)
        if class_name(selector) in ("Name", "Part_Ref", "Data_Ref") and \
                isinstance(value.expr, (p.Variable, p.Subscript)):
            index = value.expr.index_tuple if isinstance(value.expr, p.Subscript) else ()
            moved = {n for e in index for n in dependencies(e)} & written
            if moved:
                raise UnsupportedConstructError(
                    f"the ASSOCIATE construct assigns {sorted(moved)[0]!r}, which the subscripts "
                    f"of {name!r} => {selector} read (they are evaluated once, on entry); "
                    "write the element inside the construct instead", self.span(name))
            return value   # a variable: the name is an alias of it
        temp = self.new_name(f"_tr_assoc_{name}")
        self.temporaries[temp] = TemporaryVariable(name=temp, dtype=value.ftype.dtype,
                                                   span=self.span(name))
        self.add(p.Variable(temp), value.expr)
        return Typed(p.Variable(temp), value.ftype)

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
