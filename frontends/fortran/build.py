"""Region statements (fparser2 nodes) -> IR statements and loop domains.

`RegionBuilder` walks the statements of one region in source order.  Visitor methods are
named after fparser2 classes (``visit_Block_Nonlabel_Do_Construct``); anything without a
visitor is an "unsupported construct" error naming the class.  DO loops become domains (one
per loop, parameters = outer inames and value arguments: a forest), IF constructs become
statement predicates, array assignments get generated inames (prefix ``_tr_``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.blocks import BlockSupport
from frontends.fortran.build_support import (UNSUPPORTED_STATEMENTS, GeneratedValue,
                                             case_branches, floor_divisions, fortran_text,
                                             if_branches, nodes_of, reads_other_elements,
                                             subscripts)
from frontends.fortran.cycles import BranchSupport
from frontends.fortran.components import (component_of, data_ref_base, data_ref_parts,
                                          designator_text, host_subscript_names, text_parts)
from frontends.fortran.expressions import ExprBuilder, Layout, Typed, add_expr, cast, sub_expr
from frontends.fortran.index_values import IndexValueSupport
from frontends.fortran.inline import CallSupport, array_function, inline_call
from frontends.fortran.foralls import ForallSupport
from frontends.fortran.host_values import HostValueSupport, is_character
from frontends.fortran.loopvars import LoopRecord
from frontends.fortran.optionals import OptionalSupport
from frontends.fortran.packing import Packing
from frontends.fortran.scopes import type_spec
from frontends.fortran.searches import SearchSupport, search_shape
from frontends.fortran.source import (SourceLines, children, class_name, is_comment,
                                      node_lines, walk)
from frontends.fortran.types import INTEGER, FType, Scope, Symbol
from frontends.fortran.values import compare
from translator.diagnostics import (DomainError, FrontendError, SourceSpan, TranslatorError,
                                    UnsupportedConstructError, too_deep)
from translator.ir import isl_glue
from translator.ir.data import TemporaryVariable
from translator.ir.expr import Expression, TypeCast, dependencies, integer_casts_dropped
from translator.ir.statements import Assignment
from translator.ir.util import UniqueNameGenerator
from translator.records import dataclass


@dataclass(frozen=True)
class LoopFrame:
    """An enclosing DO loop: its variable, its iname and the variable's value in the iname."""

    var: str
    iname: str
    value: Expression


class RegionBuilder(CallSupport, BranchSupport, BlockSupport, OptionalSupport,
                    ForallSupport, HostValueSupport, SearchSupport, IndexValueSupport):
    """Builds the statements, domains and data uses of one region (an `ExprContext`)."""

    def __init__(self, scope: Scope, lines: SourceLines, region_name: str,
                 first_line: int, loop_vars: set[str]) -> None:
        self.scope = scope
        #: The region's procedure's scope (`scope` is a callee's while one is inlined).
        self.region_scope = scope
        self.lines = lines
        self.region_name = region_name
        self.line = first_line
        self.loop_vars = loop_vars
        #: functions the region declares with register_function pragmas (set by the caller)
        self.user_functions: dict = {}
        self.domains: list = []
        self.statements: list[Assignment] = []
        #: The names the first `_assigned_upto` statements assign (`_computed_scalars`: a
        #: loop bound asked them all again, quadratic in a region of many loops).
        self._assigned: set[str] = set()
        self._assigned_upto = 0
        self.frames: list[LoopFrame] = []
        #: Every loop of the region, in source order (`frontends.fortran.loopvars`).
        self.loops: list[LoopRecord] = []
        self._open_loops: list[LoopRecord] = []
        self.predicates: list[Expression] = []
        self.touched: dict[str, Symbol] = {}
        self.generated: dict[str, GeneratedValue] = {}
        self.temporaries: dict[str, TemporaryVariable] = {}
        self.bound_names: dict[str, SourceSpan] = {}
        #: Derived-type components the region uses, by designator (`component`).
        self.components: dict[str, Symbol] = {}
        #: Packed array components (`_packed_symbol`): component path -> designator, and
        #: kernel argument name -> what the call's BLOCK does.
        self.packings: dict[tuple[str, ...], str] = {}
        self.packing_plans: dict[str, Packing] = {}
        #: Component paths the region names with several different subscripts
        #: (`plan_packings`: ``blk(1)%u`` and ``blk(kb)%u`` may be one array), packed.
        self.shared_paths: set[tuple[str, ...]] = set()
        #: The names the region's statements may assign (`plan_packings`).
        self.region_assigned: set[str] = set()
        #: The element count of each section iname of stride 1 (which counts from 0): an
        #: array constructor's element is chosen by it (`ExprBuilder.visit_Array_Constructor`).
        self.section_counts: dict[str, Expression] = {}
        self._layouts: dict[str, Layout] = {}
        self._iname_counts: dict[str, int] = {}
        self._names = UniqueNameGenerator()
        self.expr = ExprBuilder(self)
        self.init_calls()
        self.init_branches()
        self.init_blocks()
        self.init_optionals()
        self.init_index_values()

    # -- ExprContext ----------------------------------------------------------------------

    def loop_value(self, name: str) -> Expression | None:
        for frame in reversed(self.frames[self._loop_base:]):
            if frame.var == name:
                return frame.value
        return None

    def check_name(self, name: str) -> None:
        if name in self.loop_vars:
            raise UnsupportedConstructError(
                f"DO variable {name!r} is used outside its loop in the region; its value there "
                "is not supported: use another variable there", self.span(name))

    def span(self, word: str | None = None) -> SourceSpan:
        span = self.lines.span(self.line, word=word)
        return replace(span, inlined_at=self._via) if self._via else span

    def touch(self, sym: Symbol) -> None:
        if sym.name in self.views or sym.name in self.temporaries:
            return   # a callee's view (its actual is touched) or a renamed local
        if sym.span is None:
            sym.span = self.span(sym.name)   # implicitly typed: where the region first uses it
        if sym.is_parameter and sym.parameter_values is not None:
            self._constant_table(sym)
            return
        if sym.name not in self.touched and sym.name not in self.generated:
            self.touched[sym.name] = sym

    def _constant_table(self, sym: Symbol) -> None:
        """A named constant array becomes a read-only temporary with its values."""
        if sym.name in self.temporaries:
            return
        extents = tuple(d.upper - d.lower + 1 for d in sym.dims)
        values = np.array(sym.parameter_values, dtype=sym.ftype.dtype).reshape(extents,
                                                                               order="F")
        # the initializer lists values in C order, so the table keeps the default C layout
        self.temporaries[sym.name] = TemporaryVariable(
            name=sym.name, dtype=sym.ftype.dtype, shape=extents, read_only=True,
            initializer=tuple(values.ravel(order="C").tolist()), span=sym.span)

    def component(self, node: Any) -> tuple[Symbol, Any]:
        """The data a component reference (``Data_Ref``) denotes, as a symbol of its own (its
        designator is the actual argument), and the last part's subscripts (None: none)."""
        parts = data_ref_parts(node)
        base_name = parts[0][0]
        if self.loop_value(base_name) is not None:
            raise FrontendError(f"loop variable {base_name!r} has no components",
                                self.span(base_name))
        base = self.expr.lookup(base_name)
        comp = component_of(self.scope, base, parts, self.span(parts[-1][0]))
        varying = host_subscript_names(parts) & (self.loop_vars | set(self.generated)
                                                 | self.region_assigned)
        packed = self._packed_symbol(parts, base, comp, bool(varying))
        if packed is not None:
            return packed
        if varying and _element_component(parts, base, comp) and self._plain_path(parts, base):
            return self._elements_symbol(parts, base, comp), parts[0][1]
        if varying:
            raise UnsupportedConstructError(
                f"the subscripts of {node} before its last component depend on "
                f"{sorted(varying)[0]!r}, which changes inside the region (only the last "
                "component can be subscripted by the region's loops)", self.span(base_name))
        return self._component_symbol(parts, base, comp), parts[-1][1]

    def _component_symbol(self, parts: list, base: Symbol, comp: Symbol) -> Symbol:
        designator = designator_text(parts)
        if designator not in self.components:
            self._check_distinct(parts, designator)
            name = "_".join(n for n, _ in parts)
            if self.region_scope.lookup_declared(name) is not None or self._names.is_taken(name) \
                    or any(s.name == name for s in self.components.values()):
                name = self._names(f"_tr_{name}")
            self._names.add(name)
            self.components[designator] = Symbol(
                name=name, ftype=comp.ftype, dims=comp.dims, allocatable=comp.allocatable,
                pointer=comp.pointer, is_dummy=base.is_dummy, scope=base.scope,
                scope_kind="component", line=self.line, span=self.span(parts[0][0]),
                designator=designator)
        return self.components[designator]

    def _packed_symbol(self, parts: list, base: Symbol, comp: Symbol, varying: bool
                       ) -> tuple[Symbol, Any] | None:
        """``sp(k)%v(i)``: an array component of the elements of an array of derived type,
        packed on the host (`frontends.fortran.packing`), as ``sp_v(i, k)``; used where the
        subscripts of ``sp`` change in the region, and for every use of a component path
        once one is packed.  None where the designator is not of that shape."""
        path = tuple(n for n, _ in parts)
        known = self.packings.get(path)
        if known is None and not varying and path not in self.shared_paths:
            return None
        at = [k for k, (_, subs) in enumerate(parts[:-1]) if subs is not None]
        if len(at) != 1 or not comp.is_array:
            return None
        j = at[0]
        outer = base if j == 0 else component_of(self.scope, base, parts[:j + 1],
                                                  self.span(parts[j][0]))
        if parts[-1][1] is None:
            raise UnsupportedConstructError(
                f"{designator_text(parts)}: subscript the array component of an element of "
                f"an array of derived type ({parts[-1][0]}(:) for all of it)",
                self.span(parts[-1][0]))
        if known is None:
            self._check_packable(parts, outer, comp)
            known = self._new_packing(parts, j, outer, comp)
        sym = self.components[known]
        return sym, [*parts[-1][1], *parts[j][1]]

    def plan_packings(self, statements: list[Any]) -> None:
        """Find the component paths of an array of derived type that `statements` name with
        different subscripts of that array (``blk(1)%u(i, j)`` and ``blk(kb)%u(i, j)``):
        packed (`_packed_symbol`), the dependence analysis compares their elements."""
        # a subscript naming a variable the region assigns (``k = i + 2; sp(k)%v(i)``) changes
        # inside it as a loop variable does: the host's value before the call is not its value
        self.region_assigned = set().union(*(self.assigned(stmt) for stmt in statements))
        seen: dict[tuple[str, ...], set[str]] = {}
        for node in (n for stmt in statements for n in walk(stmt)):
            if class_name(node) != "Data_Ref":
                continue
            parts = data_ref_parts(node)
            if sum(subs is not None for _, subs in parts[:-1]) != 1:
                continue
            path = tuple(n for n, _ in parts)
            seen.setdefault(path, set()).add(designator_text([*parts[:-1], (parts[-1][0], None)]))
        self.shared_paths = {path for path, texts in seen.items() if len(texts) > 1}

    def _check_packable(self, parts: list, outer: Symbol, comp: Symbol) -> None:
        shown = designator_text(parts)
        why = ("the component is a POINTER (elements may share it)" if comp.pointer else
               "it is of a derived type" if comp.type_name is not None else
               f"the array {parts[0][0]} is assumed-size" if any(
                   d.kind == "assumed_size" for d in outer.dims or ()) else
               "it is not numeric or logical" if not (comp.ftype.is_numeric
                                                       or comp.ftype.base == "logical")
               else "")
        if why:
            raise UnsupportedConstructError(
                f"{shown}: an array component of an array of derived type is packed into one "
                f"array around the call, but {why}; copy it into an array of its own before "
                "the region", self.span(parts[-1][0]))

    def _new_packing(self, parts: list, j: int, outer: Symbol, comp: Symbol) -> str:
        whole = [(n, None) for n, _ in parts]
        designator = designator_text(whole)
        self._check_distinct(whole, designator)
        name = "_".join(n for n, _ in parts)
        if self.region_scope.lookup_declared(name) is not None or self._names.is_taken(name) \
                or any(s.name == name for s in self.components.values()):
            name = self._names(f"_tr_{name}")
        self._names.add(name)
        packed = f"tr_pack_{name.lstrip('_')}"[:60]   # Fortran names: 63 characters
        taken = {plan.name for plan in self.packing_plans.values()}
        while self.region_scope.lookup_declared(packed) is not None or packed in taken:
            packed = packed[:-1] + chr(ord("a") + len(taken) % 26) if len(packed) >= 60 \
                else packed + "_"
            taken.add(packed)
        self.components[designator] = Symbol(
            name=name, ftype=comp.ftype, dims=(*comp.dims, *outer.dims), scope=outer.scope,
            scope_kind="component", line=self.line, span=self.span(parts[0][0]),
            designator=designator, packed=packed)
        self.packings[tuple(n for n, _ in parts)] = designator
        self.packing_plans[name] = Packing(
            name=packed, outer=designator_text(whole[:j + 1]), outer_rank=len(outer.dims),
            inner="%".join(n for n, _ in parts[j + 1:]), inner_rank=len(comp.dims),
            ftype=comp.ftype, allocatable=comp.allocatable, where=f"region {self.region_name}",
            outer_status="allocated" if outer.allocatable else
            "associated" if outer.pointer else "",
            type_key=(outer.type_name or "", "%".join(n for n, _ in parts[j + 1:])))
        return designator

    def _plain_path(self, parts: list, base: Symbol) -> bool:
        """Whether the components between the array and the last one (``q`` of
        ``p(i)%q%x``) are neither allocatable nor pointers: Fortran allows ``p%q%x`` then."""
        for k in range(2, len(parts)):
            middle = component_of(self.scope, base, parts[:k], self.span(parts[k - 1][0]))
            if middle.allocatable or middle.pointer:
                return False
        return True

    def _elements_symbol(self, parts: list, base: Symbol, comp: Symbol) -> Symbol:
        """``p(i)%x`` of an array of derived type with a scalar number component: an element
        of the array ``p%x`` (the actual argument; the compiler passes a contiguous copy of
        it and copies it back after the call, so no layout of the type is assumed), with
        p's bounds.  Each component is an array of its own for the analyses."""
        whole = [(parts[0][0], None), *parts[1:]]
        designator = designator_text(whole)
        if designator not in self.components:
            sym = self._component_symbol(whole, base, comp)
            self.components[designator] = replace(
                sym, dims=base.dims, allocatable=False, pointer=False,
                elements_of=base.name)
        return self.components[designator]

    def _check_distinct(self, parts: list, designator: str) -> None:
        """Two designators of one component that differ only in subscripts (``c%t(1)%rho``,
        ``c%t(k)%rho``) may be the same array: the analysis would take them for two."""
        path = [n for n, _ in parts]
        for other, sym in self.components.items():
            if [n for n, _ in text_parts(other) or ()] == path:
                raise UnsupportedConstructError(
                    f"'{designator}' and '{other}' may be the same array (their subscripts "
                    "may be equal); use one designator per component in a region",
                    self.span(parts[-1][0]))

    def type_spec(self, node: Any) -> FType:
        """The type of a type spec in the region (``real(dp)`` of ``[real(dp) :: 1, 2]``)."""
        ftype = type_spec(node, self.scope, self.lines, self.line)
        if not (ftype.is_numeric or ftype.base == "logical"):
            raise UnsupportedConstructError(f"{node} values in a kernel region",
                                            self.span())
        return ftype

    def layout(self, sym: Symbol) -> Layout:
        """Lower bounds and extents of an array; inquiry values become value arguments."""
        if sym.name not in self._layouts:
            self._layouts[sym.name] = self._make_layout(sym)
        return self._layouts[sym.name]

    def _make_layout(self, sym: Symbol) -> Layout:
        lowers, extents = [], []
        for k, dim in enumerate(sym.dims or ()):
            axis = k + 1
            lower = dim.lower
            bounded = sym.elements_of or sym.actual   # p for p%x: lbound(p%x) is 1
            if dim.kind == "deferred":
                lower = self.generated_value(f"_tr_lb_{sym.name}_{axis}",
                                             f"lbound({bounded}, {axis})")
            if dim.kind == "explicit":
                extent = add_expr(dim.upper, lower, 1, -1)
            elif dim.kind == "assumed_size":
                extent = None
            else:
                extent = self.generated_value(f"_tr_size_{sym.name}_{axis}",
                                              f"size({sym.actual}, {axis})")
            for e in (lower, extent):
                self._touch_names(e)
            lowers.append(lower)
            extents.append(extent)
        return Layout(tuple(lowers), tuple(extents))

    def _touch_names(self, e: Expression | None) -> None:
        for name in sorted(dependencies(e)) if e is not None else ():
            if name in self.generated:
                continue
            sym = self.region_scope.lookup(name)
            if sym is None:
                raise FrontendError(f"undeclared name {name!r} in an array bound", self.span())
            self.touch(sym)

    def generated_value(self, name: str, call_text: str) -> p.Variable:
        if name not in self.generated:
            self._names.add(name)
            self.generated[name] = GeneratedValue(name, call_text, INTEGER, self.span())
        return p.Variable(name)

    def reduction_inames(self, bounds: list[tuple[Expression, Expression, int]],
                         span: SourceSpan | None) -> tuple[str, ...]:
        return self.section_inames(bounds)

    # -- dispatch -------------------------------------------------------------------------

    def visit(self, node: Any) -> None:
        name = class_name(node)
        if is_comment(node):
            return
        rng = node_lines(node)
        if rng is not None:
            self.line = rng[0]
        if name in UNSUPPORTED_STATEMENTS:
            what, word = UNSUPPORTED_STATEMENTS[name]
            raise UnsupportedConstructError(f"{what} is not supported inside a kernel region",
                                            self.span(word))
        method = getattr(self, f"visit_{name}", None)
        if method is None:
            raise UnsupportedConstructError(
                f"unsupported construct {name} inside a kernel region", self.span())
        try:
            method(node)
        except TranslatorError as e:
            raise e.with_span(self.span())
        except RecursionError:
            raise too_deep(self.span()) from None
        # anything else is a bug in the translator: an internal error (exit 2), not hidden

    def visit_block(self, nodes: list[Any]) -> None:
        level = self.enter_level()
        bound = len(self.index_values)
        try:
            self._visit_statements(nodes, level)
            self.leave_level(level)
        finally:
            self.levels.pop()
            del self.index_values[bound:]   # an index value holds to the end of its block

    def _visit_statements(self, nodes: list[Any], level: Any) -> None:
        for k, n in enumerate(nodes):
            self.at_statement(level, n, list(nodes[k + 1:]))
            if class_name(n) == "Label_Do_Stmt":
                # DO loops sharing a terminal statement (DO 30 J / DO 30 I / 30 CONTINUE):
                # fparser nests the inner DO statement flat in the outer body
                self.line = self.statement_line(n)
                self.loop_with_body(n, list(nodes[k + 1:]))
                return
            if class_name(n) == "Arithmetic_If_Stmt" or self.forward_goto(n, list(nodes[k + 1:])):
                self.line = self.statement_line(n)
                self.forward_branches(list(nodes[k:]))   # it decides what the rest runs
                return
            built = len(self.statements)
            self.visit(n)
            self.bind_index_value(n, nodes, list(nodes[k + 1:]), built)

    def statement_line(self, node: Any) -> int:
        return (node_lines(node) or (self.line, 0))[0]

    def loop_with_body(self, do_stmt: Any, body: list[Any]) -> None:
        self._loop(do_stmt, body)

    def visit_Continue_Stmt(self, node: Any) -> None:
        return None

    visit_End_Do_Stmt = visit_Continue_Stmt

    def visit_Call_Stmt(self, node: Any) -> None:
        name = str(node.items[0]).lower()
        args = list(children(node.items[1])) if node.items[1] is not None else []
        inline_call(self, name, args, function=False)

    def push_section_frames(self, inames: tuple[str, ...]) -> None:
        """Make the inames of the array assignment being built enclosing loops (an elemental
        callee's statements run per element)."""
        for iname in inames:
            self.frames.append(LoopFrame("", iname, p.Variable(iname)))

    # -- assignments ----------------------------------------------------------------------

    def visit_Assignment_Stmt(self, node: Any) -> None:
        self._assign(node, [])

    def _assign(self, node: Any, masks: list[tuple[Any, bool]]) -> None:
        """An assignment; array assignments get inames, `masks` (WHERE conditions, negated
        where the flag says so) become predicates over the same elements."""
        lhs_node, _, rhs_node = node.items
        if not masks and array_function(self, lhs_node, rhs_node):
            return   # x = f(...) of an array-valued function: its result is x
        inames: tuple[str, ...] = ()
        rank = self.expr.section_rank(lhs_node)
        if rank:
            inames = self.section_inames(self.expr.section_bounds(lhs_node))
        elif masks:
            raise FrontendError("assignment to a scalar inside WHERE", self.span())
        self.expr.sections = inames or None
        first = len(self.statements)
        try:
            lhs = self._target(lhs_node)
            rhs = self.expr.visit(rhs_node)
            conds = [self._mask(m, negate) for m, negate in masks]
        finally:
            self.expr.sections = None
        if inames:
            # the reads of inlined elemental functions are the right-hand side's too
            for e in [rhs.expr, *(x for s in self.statements[first:]
                                  for x in (s.expression, *s.predicates))]:
                self._check_overlap(lhs.expr, e, inames)
        saved = len(self.predicates)
        self.predicates.extend(conds)
        try:
            self.add(lhs.expr, self._convert(rhs, lhs.ftype), inames)
        finally:
            del self.predicates[saved:]

    def _mask(self, node: Any, negate: bool) -> Expression:
        t = self.expr.visit(node)
        if t.ftype.base != "logical":
            raise FrontendError(f"WHERE mask {node} is not logical", self.span())
        return p.LogicalNot(t.expr) if negate else t.expr

    def visit_Where_Stmt(self, node: Any) -> None:
        mask, assignment = node.items
        self._where([(mask, [assignment], self.line)], node)

    def visit_Where_Construct(self, node: Any) -> None:
        branches: list[tuple[Any | None, list[Any], int]] = []
        for kid in children(node):
            name = class_name(kid)
            line = (node_lines(kid) or (self.line, 0))[0]
            if name in ("Where_Construct_Stmt", "Masked_Elsewhere_Stmt"):
                branches.append((kid.items[0], [], line))
            elif name == "Elsewhere_Stmt":
                branches.append((None, [], line))
            elif name != "End_Where_Stmt" and not is_comment(kid):
                branches[-1][1].append(kid)
        self._where(branches, node)

    def _where(self, branches: list[tuple[Any | None, list[Any], int]], node: Any) -> None:
        """WHERE: each assignment runs where its mask holds.  Masks are evaluated per
        statement, so they must not read what the construct assigns."""
        written = self.assigned(node)
        for cond, _, line in branches:
            read = {str(n).lower() for n in walk(cond) if class_name(n) == "Name"}
            if cond is not None and read & written:
                self.line = line
                name = sorted(read & written)[0]
                raise UnsupportedConstructError(
                    f"WHERE mask reads {name!r}, which the WHERE construct assigns; use a DO "
                    "loop with IF instead", self.span(name))
        prior: list[tuple[Any, bool]] = []
        for cond, body, _ in branches:
            masks = prior + ([(cond, False)] if cond is not None else [])
            for stmt in body:
                self.line = (node_lines(stmt) or (self.line, 0))[0]
                if class_name(stmt) != "Assignment_Stmt":
                    raise UnsupportedConstructError(f"{class_name(stmt)} inside WHERE is not "
                                                    "supported", self.span())
                self._assign(stmt, masks)
            if cond is not None:
                prior.append((cond, True))

    def _target(self, node: Any) -> Typed:
        if class_name(node) == "Data_Ref":
            return self.expr.visit(node)
        name = str(node if class_name(node) == "Name" else node.items[0]).lower()
        if self.loop_value(name) is not None:
            raise FrontendError(f"assignment to DO variable {name!r} inside its loop",
                                self.span(name))
        sym = self.scope.lookup(name)
        if sym is not None and sym.is_parameter:
            raise FrontendError(f"assignment to named constant {name!r}", self.span(name))
        if class_name(node) not in ("Name", "Part_Ref"):
            raise UnsupportedConstructError(f"assignment to {node} is not supported",
                                            self.span())
        return self.expr.visit(node)

    def _convert(self, rhs: Typed, target: FType) -> Expression:
        if (target.base == "logical") != (rhs.ftype.base == "logical"):
            raise FrontendError(f"cannot assign a {rhs.ftype.base} value to a {target.base} "
                                "variable", self.span())
        if target.base == "logical":
            if isinstance(rhs.expr, (p.Comparison, p.LogicalAnd, p.LogicalOr, p.LogicalNot)):
                return TypeCast(np.dtype(np.int32), rhs.expr)
            return rhs.expr
        return cast(rhs, target)

    def _check_overlap(self, lhs: Expression, rhs: Expression, sections: tuple[str, ...]
                       ) -> None:
        """Array assignments read the whole right-hand side first; element-wise execution is
        only equivalent when no section element reads what another one writes (disjoint
        sections, or the written elements themselves), which isl decides."""
        target = lhs.aggregate.name if isinstance(lhs, p.Subscript) else None
        inames = frozenset(f.iname for f in self.frames) | frozenset(sections)
        for node in subscripts(rhs):
            if node.aggregate.name == target and node.index_tuple != lhs.index_tuple and \
                    reads_other_elements(self.domains, inames, sections, lhs.index_tuple,
                                         node.index_tuple):
                raise UnsupportedConstructError(
                    f"array assignment to {target!r} reads other elements of {target!r} on its "
                    "right-hand side; write it as a DO loop (or copy through a temporary "
                    "array)", self.span(target))

    def add(self, assignee: Expression, expression: Expression,
            extra_inames: tuple[str, ...] = ()) -> Assignment:
        predicates = self.predicates + self.guards()
        settled = self.settled(predicates) if self.tested_optionals else predicates
        stmt = Assignment(
            id=f"s{len(self.statements)}",
            within_inames=frozenset(f.iname for f in self.frames) | frozenset(extra_inames),
            predicates=frozenset(settled or ()), assignee=assignee, expression=expression,
            span=self.span())
        if settled is not None:   # None: a branch of present() this build does not take
            self.statements.append(stmt)
        return stmt

    # -- loops ----------------------------------------------------------------------------

    def visit_Block_Nonlabel_Do_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        self._loop(kids[0], kids[1:])

    visit_Block_Label_Do_Construct = visit_Block_Nonlabel_Do_Construct
    visit_Action_Term_Do_Construct = visit_Block_Nonlabel_Do_Construct

    def _loop(self, do_stmt: Any, body: list[Any]) -> None:
        control = next((c for c in children(do_stmt) if class_name(c) == "Loop_Control"), None)
        if control is None:
            raise UnsupportedConstructError("DO loop without a loop control (an endless DO) is "
                                            "not supported inside a kernel region",
                                            self.span("do"))
        if control.items[0] is not None:
            raise UnsupportedConstructError("DO WHILE loop is not supported inside a kernel "
                                            "region", self.span("while"))
        if control.items[1] is None:
            self._concurrent(do_stmt, control, body)
            return
        var_node, bounds = control.items[1]
        self._integer_do_variable(str(var_node).lower())
        var = str(var_node).lower()
        search = search_shape(do_stmt, var, body) if self.frame is None else None
        if search is not None and self._positive_step(bounds) and \
                self.search_loop(var, bounds, *search):
            return
        flag = self.exit_flag(do_stmt, body)   # before the loop: an EXIT ends it
        saved, open_loops = len(self.frames), len(self._open_loops)
        self._enter(str(var_node).lower(), bounds[0], bounds[1],
                    bounds[2] if len(bounds) > 2 else None)
        record = self._open_loops[-1]
        self.open_cycle_scope(do_stmt, body, flag)
        try:
            self.visit_block(body)
        finally:
            del self.frames[saved:]
            del self._open_loops[open_loops:]
            self.cycle_scopes.pop()
        if flag is not None:   # its variable's value after it is not computed
            self.loops[self.loops.index(record)] = replace(record, exits=True)

    def _positive_step(self, bounds: list[Any]) -> bool:
        if len(bounds) < 3:
            return True
        try:
            return self.expr.constant_int(bounds[2], "the step of a DO loop", "") > 0
        except TranslatorError:
            return False

    def _integer_do_variable(self, var: str) -> None:
        """Refuse a REAL DO variable (deleted in Fortran 95): its trip count and values
        follow floating-point rounding of the bounds, which a loop domain cannot hold."""
        sym = self.scope.lookup(var)
        if sym is not None and sym.ftype is not None and sym.ftype.base != "integer":
            raise UnsupportedConstructError(
                f"DO variable {var!r} is of type {sym.ftype.base} (a REAL DO variable, deleted "
                "in Fortran 95) inside a kernel region; loop over an integer and compute it: "
                f"do k = 0, n; {var} = first + k*step", self.span(var))

    def _concurrent(self, do_stmt: Any, control: Any, body: list[Any]) -> None:
        """DO CONCURRENT (i = a:b[:s], j = ..., mask): nested loops, the mask a predicate."""
        header = next((c for c in children(control) if class_name(c) == "Forall_Header"), None)
        if header is None:
            raise UnsupportedConstructError(f"DO loop control {control} is not supported",
                                            self.span("do"))
        saved, saved_preds = len(self.frames), len(self.predicates)
        open_loops, scopes = len(self._open_loops), len(self.cycle_scopes)
        try:
            for spec in children(header.items[0]):
                var, lo, hi, step = spec.items
                self._enter(str(var).lower(), lo, hi, step, concurrent=True)
            if len(header.items) > 1 and header.items[1] is not None:
                written = set().union(*(self.assigned(b) for b in body)) if body else set()
                self.predicates.append(self.condition(header.items[1], written))
            self.open_cycle_scope(do_stmt, body)
            self.visit_block(body)
        finally:
            del self.frames[saved:]
            del self.predicates[saved_preds:]
            del self._open_loops[open_loops:]
            del self.cycle_scopes[scopes:]

    def _enter(self, var: str, lo_node: Any, hi_node: Any, step_node: Any | None,
               concurrent: bool = False) -> None:
        """Push the frame of a counted loop (its domain goes to the forest)."""
        if self.loop_value(var) is not None:
            raise FrontendError(f"nested DO loops over the same variable {var!r}",
                                self.span(var))
        step = 1
        if step_node is not None:
            step = self.expr.constant_int(step_node, "the step of a DO loop inside a kernel "
                                                     "region", _VARIABLE_STEP)
            if step == 0:
                raise FrontendError("DO loop with a zero step", self.span(var))
        lo = self.bound(self._integer(lo_node, "lower bound"))
        hi = self.bound(self._integer(hi_node, "upper bound"))
        iname = self.new_iname(var)
        self.add_domain(iname, lo, hi, step)
        self._record_loop(self._iname_prefix.replace("_", "%", 1) + var if self._iname_prefix
                          else var, lo, hi, step, concurrent, iname)
        value = p.Variable(iname) if step == 1 else add_expr(lo, p.Product((step,
                                                                            p.Variable(iname))))
        self.frames.append(LoopFrame(var, iname, value))

    def _record_loop(self, var: str, lo: Expression, hi: Expression, step: int,
                     concurrent: bool, iname: str = "") -> None:
        record = LoopRecord(var=var, lo=lo, hi=hi, step=step,
                            enclosing=tuple(self._open_loops),
                            enclosing_inames=frozenset(f.iname for f in self.frames),
                            predicated=bool(self.predicates or self.guards()), span=self.span(var),
                            concurrent=concurrent, iname=iname)
        self.loops.append(record)
        self._open_loops.append(record)

    def _integer(self, node: Any, what: str) -> Expression:
        saved, self._no_calls = self._no_calls, f"a DO loop {what}"
        try:
            t = self.expr.visit(node)
        finally:
            self._no_calls = saved
        if t.ftype.base != "integer":
            raise FrontendError(f"DO loop {what} {node} is not an integer", self.span())
        return t.expr

    def new_iname(self, var: str) -> str:
        """The loop variable itself; later loops over it get `var_1`, `var_2`, ..."""
        stem = self._iname_prefix + var   # a callee's loop: <callee>_<var>
        k = self._iname_counts.get(stem, 0)
        while True:
            name = stem if k == 0 else f"{stem}_{k}"
            k += 1
            taken = self._names.is_taken(name) or (
                (k > 1 or bool(self._iname_prefix))
                and self.region_scope.lookup_declared(name) is not None)
            if not taken:
                break
        self._iname_counts[stem] = k
        self._names.add(name)
        return name

    def add_domain(self, iname: str, lo: Expression, hi: Expression, step: int,
                   inner: tuple[str, ...] = ()) -> None:
        """The domain of a loop over `iname`, inside the enclosing loops and the section
        inames `inner` already made for the same statement."""
        try:
            domain = isl_glue.make_loop_domain(iname, lo, hi, step)
        except DomainError as e:
            if not e.message.startswith("truncating division"):
                raise FrontendError(f"loop over {iname!r}: {e.message}", self.span()) from None
            # Fortran's truncating quotient of a value that may be negative: computed by the
            # caller where possible (exact), an error where it involves loop variables
            domain = isl_glue.make_loop_domain(iname, self._computed(lo, e.message),
                                               self._computed(hi, e.message), step)
        for name in isl_glue.params_of(domain):
            if not any(f.iname == name for f in self.frames) and name not in self.temporaries:
                self.bound_names.setdefault(name, self.span())
        enclosing = [f.iname for f in self.frames] + [*inner]
        if enclosing and set(isl_glue.params_of(domain)) & set(self.temporaries):
            # a data-dependent loop: its bounds are temporaries set inside the enclosing loop
            domain = _with_param(domain, enclosing[-1])
        self.domains.append(self._chained(domain, enclosing))

    def _chained(self, domain: Any, enclosing: list[str]) -> Any:
        """Keep the forest a chain along the loop nest.

        A domain's parent is the nearest earlier domain defining one of its parameters, so a
        loop whose bounds name only a more distant enclosing loop (``k = 1, i - 1`` inside
        ``j`` inside ``i``) would become a sibling of the loops between them, and statements
        inside it would need a branching part of the forest.  Every domain from the outermost
        enclosing iname the bounds use down to this one gets its enclosing loop's iname as an
        (unconstrained) parameter: the sets are unchanged, only the parent links follow the
        nest.
        """
        used = [k for k, n in enumerate(enclosing) if n in isl_glue.params_of(domain)]
        if not used:
            return domain
        for k in range(used[0] + 1, len(enclosing)):
            home = next(j for j, d in enumerate(self.domains)
                        if enclosing[k] in isl_glue.inames_of(d))
            self.domains[home] = _with_param(self.domains[home], enclosing[k - 1])
        return _with_param(domain, enclosing[-1])

    def _computed(self, e: Expression, why: str) -> Expression:
        if not nodes_of(e, p.Quotient):
            return e
        if dependencies(e) & set(self.generated_inames()):
            raise FrontendError(f"{why}; rewrite the bound so that the divided value is "
                                "non-negative", self.span())
        return self._value_for(e)

    def bound(self, e: Expression) -> Expression:
        """A loop bound as an affine expression (integer quotients stay truncating); a
        non-affine bound in value arguments only becomes a value argument the caller computes."""
        e = integer_casts_dropped(e, self._is_integer)
        names = dependencies(e)
        computed = self._computed_scalars(names)
        if computed and self.frames:
            return self._bound_temporary(e, computed)
        if isl_glue.is_affine(floor_divisions(e), names):
            return e
        if names & set(self.generated_inames()):
            return self._bound_temporary(e)
        return self._value_for(e)

    def _computed_scalars(self, names: set[str]) -> set[str]:
        """The scalars among `names` that a statement of the region before this point sets
        (``length = rowend - rowstart`` before ``do j = 1, length``)."""
        done = self._assigned_upto
        for stmt in self.statements[done:]:   # statements are only appended
            self._assigned.update(stmt.assignee_names())
        self._assigned_upto = len(self.statements)
        return {n for n in names & self._assigned
                if n in self.touched and not self.touched[n].is_array}

    def _bound_temporary(self, e: Expression, computed: set[str] = frozenset()
                         ) -> p.Variable:
        """A bound that reads data at the enclosing loops' values (``rowptr(i+1) - 1``) or
        scalars the region computes (`computed`): a private integer temporary set just
        before the loop, so the loop's domain is data-dependent (its trip count unknown,
        fixed per iteration of the enclosing loops, as Fortran evaluates it once on entry).
        The arrays it reads must not be written by the region."""
        for name in dependencies(e) - set(self.generated_inames()) - computed:
            self.bound_names.setdefault(name, self.span())
        name = self._names("_tr_bound")
        self.temporaries[name] = TemporaryVariable(name=name, dtype=np.int32, span=self.span())
        self.add(p.Variable(name), TypeCast(np.dtype(np.int32), e))
        return p.Variable(name)

    def _is_integer(self, name: str) -> bool:
        """Whether `name` (an iname, a generated value or a declared name) is an integer."""
        if name in self.generated or name in self.generated_inames():
            return True
        if name in self.temporaries:
            return self.temporaries[name].dtype.kind == "i"
        sym = self.region_scope.lookup(name)
        return sym is not None and sym.ftype is not None and sym.ftype.base == "integer"

    def _value_for(self, e: Expression) -> p.Variable:
        """A value argument holding `e`, evaluated by the caller in Fortran."""
        for name in dependencies(e):
            self.bound_names.setdefault(name, self.span())
        text = fortran_text(e, self.generated)
        for g in self.generated.values():
            if g.call_text == text and g.name.startswith("_tr_bound"):
                return p.Variable(g.name)
        return self.generated_value(self._names("_tr_bound"), text)

    def generated_inames(self) -> list[str]:
        return [n for d in self.domains for n in isl_glue.inames_of(d)]

    def section_inames(self, bounds: list[tuple[Expression, Expression, int]],
                       ) -> tuple[str, ...]:
        """One generated iname per section axis: 0 <= t, first + stride*t within last."""
        out = []
        for k, (first, last, stride) in enumerate(bounds):
            iname = self._names(f"_tr_{'ijklmnop'[k]}")
            first, last = self.bound(first), self.bound(last)
            if stride == 1:
                self.section_counts[iname] = add_expr(last, first, 1, -1)
                self.add_domain(iname, 0, sub_expr(last, first), 1, tuple(out))
            else:
                self.add_domain(iname, first, last, stride, tuple(out))
            out.append(iname)
        return tuple(out)

    # -- IF -------------------------------------------------------------------------------

    def visit_If_Stmt(self, node: Any) -> None:
        cond_node, action = node.items
        cond = self.condition(cond_node, self.assigned(action))
        if _is_false(cond):
            return   # present() of an absent argument: the branch is not built
        self.predicates.append(cond)
        try:
            self.visit(action)
        finally:
            self.predicates.pop()

    def visit_If_Construct(self, node: Any) -> None:
        written = self.assigned(node)
        prior: list[Expression] = []
        for cond_node, body, line in if_branches(node):
            if any(_is_true(c) for c in prior):
                break   # an earlier branch is taken whenever this one could be
            saved = len(self.predicates)
            self.predicates.extend(p.LogicalNot(c) for c in prior)
            try:
                if cond_node is not None:
                    self.line = line
                    cond = self.condition(cond_node, written)
                    prior.append(cond)
                    self.predicates.append(cond)
                    if _is_false(cond):
                        continue   # never taken in this build: not built
                self.visit_block(body)
            finally:
                del self.predicates[saved:]

    def read_names(self, e: Expression) -> set[str]:
        """The names `e` reads, as `assigned` names what a construct writes: a component
        (``c%x``, the kernel's ``c_x``) also reads its base variable ``c``."""
        names = dependencies(e)
        for designator, sym in self.components.items():
            if sym.name in names:
                names = names | self.kernel_names({data_ref_base(designator)})
        return names

    def condition(self, node: Any, written: set[str]) -> Expression:
        """The condition as a predicate; hoisted into a private temporary first when the
        construct writes something it reads (predicates are evaluated per statement)."""
        t = self.expr.visit(node)
        if t.ftype.base != "logical":
            raise FrontendError(f"IF condition {node} is not logical", self.span())
        decided = self.decided(t.expr) if self.deciding() else None
        if decided is not None:   # present() decides it in this build
            return decided
        if not (self.read_names(t.expr) & written):
            return t.expr
        name = self._names("_tr_cond")
        self.temporaries[name] = TemporaryVariable(name=name, dtype=np.int32, span=self.span())
        self.add(p.Variable(name), TypeCast(np.dtype(np.int32), t.expr))
        return p.Variable(name)

    # -- SELECT CASE ------------------------------------------------------------------------

    def visit_Case_Construct(self, node: Any) -> None:
        """SELECT CASE as an IF ... ELSE IF chain (the CASEs in order, DEFAULT last): each
        CASE's values become a condition on the selector, which is evaluated once, before the
        construct (into a temporary where a branch writes a name it reads)."""
        selector = children(node)[0].items[0]
        if is_character(selector, self.scope):
            # the caller tests each CASE of character data (`frontends.fortran.host_values`)
            self._case_chain(case_branches(node), [
                None if values is None else self.host_case(selector, values)
                for values, _, _ in case_branches(node)])
            return
        sel = self.expr.visit(selector)
        if sel.ftype.base != "integer":
            raise UnsupportedConstructError(
                f"SELECT CASE on a {sel.ftype.base} selector is not supported inside a kernel "
                "region (integer selectors are); write it as an IF ... ELSE IF chain",
                self.span("select"))
        if self.read_names(sel.expr) & self.assigned(node):
            name = self._names("_tr_case")
            self.temporaries[name] = TemporaryVariable(name=name, dtype=sel.ftype.dtype,
                                                       span=self.span())
            self.add(p.Variable(name), sel.expr)
            sel = Typed(p.Variable(name), sel.ftype)
        branches = case_branches(node)
        self._case_chain(branches, [None if values is None else self._case_condition(sel, values)
                                    for values, _, _ in branches])

    def _case_chain(self, branches: list, conds: list[Expression | None]) -> None:
        """The CASE bodies under their conditions: each under the negations of those before
        it, CASE DEFAULT (None) under the negations of all."""
        others = [c for c in conds if c is not None]
        seen = 0
        for (_, body, line), cond in zip(branches, conds):
            self.line = line
            prior = others if cond is None else others[:seen]
            guard = [p.LogicalNot(c) for c in prior] + ([cond] if cond is not None else [])
            seen += cond is not None
            saved = len(self.predicates)
            self.predicates.extend(guard)
            try:
                self.visit_block(body)
            finally:
                del self.predicates[saved:]

    def _case_condition(self, sel: Typed, values: Any) -> Expression:
        """The condition of one CASE: the selector equals a value or lies in a range."""
        parts: list[Expression] = []
        for item in values.items:
            if class_name(item) != "Case_Value_Range":
                parts.append(compare(sel, "==", self.expr.visit(item)).expr)
                continue
            lo, hi = item.items
            ends = [compare(sel, op, self.expr.visit(v)).expr
                    for op, v in ((">=", lo), ("<=", hi)) if v is not None]
            parts.append(ends[0] if len(ends) == 1 else p.LogicalAnd(tuple(ends)))
        return parts[0] if len(parts) == 1 else p.LogicalOr(tuple(parts))


#: What to write instead of a DO loop whose step is a variable (``do j = jst, jend, jstep``).
_VARIABLE_STEP = ("write one loop per sign of the step, each with a constant step (if (jstep > "
                  "0) then; do j = jst, jend; ...; else; do j = jst, jend, -1; ...; end if)")


def _is_false(cond: Expression) -> bool:
    """Whether a condition is the constant false (``present`` decided it)."""
    return isinstance(cond, (int, np.integer)) and not isinstance(cond, bool) and cond == 0


def _is_true(cond: Expression) -> bool:
    return isinstance(cond, (int, np.integer)) and not isinstance(cond, bool) and cond != 0


def _with_param(domain: Any, name: str) -> Any:
    """`domain` with the parameter `name` (unconstrained if it was not one already)."""
    if name in isl_glue.params_of(domain):
        return domain
    return isl_glue.add_dim(domain, name, param=True)


__all__ = ["LoopFrame", "RegionBuilder"]


def _element_component(parts: list, base: Symbol, comp: Symbol) -> bool:
    """Whether a designator is ``p(i)%x`` (or ``p(i)%q%x``): an element of an array of
    derived type, the array alone subscripted, and a last component that is one number or
    logical (no array, allocatable or pointer component, no component of derived type)."""
    return (base.is_array and parts[0][1] is not None
            and all(subs is None for _, subs in parts[1:]) and not comp.is_array
            and not comp.allocatable
            and not comp.pointer and comp.type_name is None
            and (comp.ftype.is_numeric or comp.ftype.base == "logical"))
