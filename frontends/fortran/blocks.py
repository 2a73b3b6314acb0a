"""BLOCK and ASSOCIATE constructs inside a region: the names they introduce.

``block; real(8) :: t; t = a(i)*a(i); b(i) = t + 1; end block`` in a loop body declares `t`
afresh at each entry: a local scalar of the construct is a private temporary of the kernel
(``_tr_block_t``), as a local of an inlined callee is, and the statements of the construct
are the region's, seeing it under its name (it hides a variable of the procedure with that
name).  A local array with constant bounds (``real(8) :: tmp(3)``, at most
`MAX_BLOCK_ELEMENTS` elements) is a private array temporary likewise.  Legality proves each
one private (every element read in an iteration written before in that iteration).  Local
arrays with bounds that are not constant, SAVEd locals (an initializer saves too) and data a
kernel cannot hold are refused at the declaration with what to write instead.

An ASSOCIATE name of a scalar variable (``c => u(i, j)``) stands for that element, its
subscripts evaluated at the construct's entry (reads and writes go to it); one of a scalar
expression (``r => a(i) * 2``) is its value at entry, a private temporary.  One of an array
(``col => a(:, j)``, ``v => obj%arr``, ``w => a``) stands for its elements: a whole array or
component is the array itself (its bounds too); a section is a view, as an inlined callee's
array dummy is, with lower bounds 1 (`frontends.fortran.inline.View`).  Array expressions as
selectors are refused with what to write.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.build_support import View
from frontends.fortran.construct_names import aliased
from frontends.fortran.expressions import Layout, Typed, add_expr
from frontends.fortran.scopes import declare
from frontends.fortran.source import children, class_name, is_comment, walk
from frontends.fortran.types import Dim, Scope, Symbol
from translator.diagnostics import UnsupportedConstructError
from translator.ir.data import TemporaryVariable
from translator.ir.expr import dependencies

#: The most elements a local array of a BLOCK may have (each work item holds its own copy).
MAX_BLOCK_ELEMENTS = 1024


class ConstructScope(Scope):
    """The arrays a BLOCK or ASSOCIATE construct declares, over the names of the scope around
    it (`symbols`: by source name, each a symbol of the kernel)."""

    def lookup(self, name: str) -> Symbol | None:
        found = self.symbols.get(name)
        return found if found is not None else self.host.lookup(name)

    def lookup_declared(self, name: str, _seen: frozenset[str] = frozenset()) -> Symbol | None:
        found = self.symbols.get(name)
        return found if found is not None else self.host.lookup_declared(name, _seen)


def block_scope(scope: Scope, constructs: list[Any], lines: Any) -> Scope:
    """The scope of a region inside the BLOCK `constructs` (outermost first): their
    declarations over `scope`'s, as the procedure's own (the region's call is inside them)."""
    for construct in constructs:
        spec = next((k for k in children(construct)
                     if class_name(k) == "Specification_Part"), None)
        if spec is None:
            continue
        inner = ConstructScope(name=scope.name, kind="block", host=scope,
                               modules=scope.modules, line=scope.line)
        declare(inner, spec, lines)
        scope = inner
    return scope


class BlockSupport:
    """The region builder's BLOCK constructs (`RegionBuilder` derives from it)."""

    def init_blocks(self) -> None:
        #: The local variables of the BLOCK constructs around the statement being built, by
        #: name: their temporaries (or values, for named constants).
        self.block_locals: dict[str, Typed] = {}
        #: The arrays of those constructs (BLOCK locals, ASSOCIATE names of arrays), by name:
        #: the symbol of the kernel each stands for (`ConstructScope`).
        self.block_arrays: dict[str, Symbol] = {}

    def visit_Block_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        spec = next((k for k in kids if class_name(k) == "Specification_Part"), None)
        body = [k for k in children(node)[1:]
                if class_name(k) not in ("Specification_Part", "End_Block_Stmt")]
        self._visit_construct(self._block_locals(spec), body)

    def visit_within(self, constructs: list[Any], statements: list[Any]) -> None:
        """Visit a region's `statements` inside the ASSOCIATE `constructs` that hold it
        (outermost first, each with the names that hold their values from its start to the
        region): their associate names of whole variables and components (``u => grid%u``)
        and of sections and elements whose subscripts read only such names are aliases of
        them in the region (`construct_names` refuses the region's uses of the others)."""
        if not constructs:
            self.visit_block(statements)
            return
        construct, held = constructs[0]
        names: dict[str, Typed | Symbol] = {}
        written = set().union(*(self.assigned(k) for k in statements))
        for assoc in walk(children(construct)[0]):
            if class_name(assoc) == "Association" and aliased(
                    assoc, lambda n: self.region_scope.lookup_declared(n) is not None, held):
                name = str(assoc.items[0]).lower()
                names[name] = self._associated(name, assoc.items[2], written)
        self._in_construct(names, lambda: self.visit_within(constructs[1:], statements))

    def _visit_construct(self, names: dict[str, Typed | Symbol], body: list[Any]) -> None:
        """Visit `body` with the scalars and arrays `names` of a construct in scope."""
        self._in_construct(names, lambda: self.visit_block(body))

    def _in_construct(self, names: dict[str, Typed | Symbol], visit: Any) -> None:
        """Run `visit` with the scalars and arrays `names` of a construct in scope."""
        saved = self.block_locals, self.block_arrays, self.scope
        self.block_locals = {**saved[0], **{n: v for n, v in names.items()
                                             if isinstance(v, Typed)}}
        arrays = {n: v for n, v in names.items() if isinstance(v, Symbol)}
        self.block_locals = {n: v for n, v in self.block_locals.items() if n not in arrays}
        if arrays:
            self.block_arrays = {**saved[1], **arrays}
            self.scope = ConstructScope(name=self.scope.name, kind="block", host=self.scope,
                                        symbols=arrays, modules=self.scope.modules)
        try:
            visit()
        finally:
            self.block_locals, self.block_arrays, self.scope = saved

    def visit_Associate_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        stmt = kids[0]
        names: dict[str, Typed | Symbol] = {}
        written = set().union(*(self.assigned(k) for k in kids[1:]))
        for assoc in walk(stmt):
            if class_name(assoc) == "Association":
                name = str(assoc.items[0]).lower()
                names[name] = self._associated(name, assoc.items[2], written)
        self._visit_construct(names, [k for k in children(node)[1:]
                                      if class_name(k) != "End_Associate_Stmt"])

    def _associated(self, name: str, selector: Any, written: set[str]) -> Typed | Symbol:
        """What associate name `name` stands for: the selected element, the value of an
        expression at the construct's entry, or the selected array (`written`: what the
        construct assigns)."""
        if class_name(selector) in ("Name", "Part_Ref", "Data_Ref") and \
                self.expr.section_rank(selector):
            return self._associated_array(name, selector, written)
        if _reads_sections(self, selector):
            raise UnsupportedConstructError(
                f"associate name {name!r} of the array expression {selector} inside a kernel "
                "region is not supported (variables, array sections and scalar expressions "
                "are); assign it to an array before the region, or associate the arrays it "
                "reads", self.span(name))
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

    def _associated_array(self, name: str, selector: Any, written: set[str]) -> Symbol:
        """The array an associate name of an array selector stands for: a whole array or
        component itself, a section as a view (lower bounds 1) of its elements."""
        whole = class_name(selector) == "Name" or (
            class_name(selector) == "Data_Ref" and self.component(selector)[1] is None)
        if whole:
            sym = (self.component(selector)[0] if class_name(selector) == "Data_Ref"
                   else self.expr.lookup(str(selector).lower()))
            if sym.is_parameter:
                raise UnsupportedConstructError(
                    f"associate name {name!r} of the named constant array {selector} inside a "
                    f"kernel region is not supported; write {selector} instead",
                    self.span(name))
            return sym
        rank = self.expr.section_rank(selector)
        holders = tuple(self.new_name("_tr_assoc_axis") for _ in range(rank))
        saved = self.expr.sections
        self.expr.sections = None
        try:
            bounds = self.expr.section_bounds(selector)
            self.expr.sections = holders
            selected = self.expr.visit(selector)
        finally:
            self.expr.sections = saved
        template = selected.expr
        index = template.index_tuple if isinstance(template, p.Subscript) else ()
        moved = {n for e in (*index, *(x for b in bounds for x in b[:2]))
                 for n in dependencies(e)} & written
        if moved:
            raise UnsupportedConstructError(
                f"the ASSOCIATE construct assigns {sorted(moved)[0]!r}, which the section "
                f"{selector} of {name!r} reads (it is fixed on entry); write the section inside "
                "the construct instead", self.span(name))
        extents = tuple(_section_extent(first, last, stride, name, self.span(name))
                        for first, last, stride in bounds)
        view = self.new_name(f"_tr_assoc_{name}")
        sym = Symbol(name=view, ftype=selected.ftype,
                     dims=tuple(Dim("explicit", 1, e) for e in extents), span=self.span(name))
        self.add_view(view, View(template, holders), Layout((1,) * rank, extents))
        return sym

    def _block_locals(self, spec: Any) -> dict[str, Typed | Symbol]:
        if spec is None:
            return {}
        scope = Scope(name=f"{self.scope.name}%block", kind="block", host=self.scope,
                      modules=self.scope.modules, implicit=None)
        declare(scope, spec, self.lines)
        saved = saved_names(spec)
        return {name: self._block_local(sym, name in saved or "*" in saved)
                for name, sym in sorted(scope.symbols.items(), key=lambda kv: kv[1].line)}

    def _block_local(self, sym: Symbol, saved: bool) -> Typed | Symbol:
        """A private temporary for local `sym` of a BLOCK (a named constant: its value; an
        array: the symbol of its private array temporary)."""
        self.line = sym.line or self.line
        if sym.is_parameter and not sym.is_array:
            return self.expr.parameter(sym)
        if sym.is_parameter:   # a named constant array: a table, as the procedure's are
            return replace(sym, name=self.new_name(f"_tr_block_{sym.name}"))
        why = ("SAVEd (SAVE, or an initializer in its declaration): work items cannot share "
               "it; assign it in the BLOCK instead" if saved else
               "of a type a kernel cannot hold (derived or character data)"
               if sym.ftype is None or sym.type_name is not None
               or not (sym.ftype.is_numeric or sym.ftype.base == "logical") else
               _array_refusal(sym) if sym.is_array else "")
        if why:
            raise UnsupportedConstructError(
                f"local variable {sym.name!r} of a BLOCK construct inside a kernel region is "
                f"{why}", self.span(sym.name))
        name = self.new_name(f"_tr_block_{sym.name}")
        extents = tuple(int(d.upper) - int(d.lower) + 1 for d in sym.dims or ())
        self.temporaries[name] = TemporaryVariable(name=name, dtype=sym.ftype.dtype,
                                                   shape=extents, span=self.span(sym.name))
        if sym.is_array:
            return replace(sym, name=name, span=self.span(sym.name))
        return Typed(p.Variable(name), sym.ftype)


def _array_refusal(sym: Symbol) -> str:
    """Why local array `sym` of a BLOCK cannot be a private array ("" where it can)."""
    if not all(d.kind == "explicit" and isinstance(d.lower, (int, np.integer))
               and isinstance(d.upper, (int, np.integer)) for d in sym.dims):
        return ("an array whose bounds are not constant: each work item holds its own copy, "
                "so give it constant bounds (named constants), or declare it in the "
                "procedure")
    size = int(np.prod([int(d.upper) - int(d.lower) + 1 for d in sym.dims]))
    if size > MAX_BLOCK_ELEMENTS:
        return (f"an array of {size} elements: each work item holds its own copy, at most "
                f"{MAX_BLOCK_ELEMENTS} elements; declare it in the procedure")
    return ""


def _section_extent(first: Any, last: Any, stride: int, name: str, span: Any) -> Any:
    """The extent of a section axis ``first:last:stride``."""
    if stride == 1:
        return add_expr(last, first, 1, -1)
    span_ = add_expr(last, first, 0, -1)
    if isinstance(span_, (int, np.integer)):
        return max(0, int(span_) // stride + 1)
    raise UnsupportedConstructError(
        f"associate name {name!r}: a strided section with bounds that are not constant is not "
        "supported inside a kernel region; index the array itself", span)


def _reads_sections(rb: Any, selector: Any) -> bool:
    """Whether an expression selector holds an array section or a whole array (it is an
    array expression)."""
    nodes = list(walk(selector))
    heads = {id(n.items[0]) for n in nodes if class_name(n) in ("Part_Ref", "Data_Ref")}
    for node in nodes:
        if class_name(node) == "Subscript_Triplet":
            return True
        if class_name(node) == "Name" and id(node) not in heads:
            sym = rb.scope.lookup_declared(str(node).lower())
            if sym is not None and sym.is_array:
                return True
    return False


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
