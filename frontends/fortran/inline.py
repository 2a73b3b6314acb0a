"""Calls of user procedures inside a region (Fortran): the callee's statements, inlined.

``call twice(n, a(1:n, i))`` and ``b(i) = sq(a(i))`` are built as if the callee's body were
written at the call: the region builder visits the callee's statements with its names bound
to the caller's data (a `Frame`), so legality, privatisation and codegen see ordinary
statements (spans in the callee's file, each with the call it was inlined at).

- A scalar dummy is its actual: a designator (``s``, ``a(i)``) stands for itself, so the
  callee reads and writes the caller's variable (Fortran passes by reference); an expression
  that reads data is evaluated once at the call into a private temporary (``_tr_<callee>_<x>``);
  a constant or an expression of scalars is substituted.  A dummy the callee writes needs a
  variable of its own type.
- An array dummy is a view of its actual: the actual's element at the dummy's 0-based indices
  (``a(1:n, i)`` passed to ``x(n)``: ``x(k)`` is ``a(k, i)``).  Ranks must agree, except an
  array element passed to a rank-1 dummy (sequence association: the elements that follow it).
  The dummy's extents are its declared ones (assumed shape: the actual's).
- A local scalar of the callee becomes a private temporary ``_tr_<callee>_<name>``: every call
  site has its own.  Legality proves each one private (`translator.analysis.private_flow`).
- Loops of the callee get inames ``<callee>_<var>``.
- A function's value is its result variable; an elemental function in an array assignment runs
  per element (its statements inside the assignment's inames).  A function whose result is an
  array is inlined where it is the whole right-hand side of an array assignment (``b(:, j) =
  twice(a(:, j))``): its result is a view of the left-hand side, as an array dummy is of its
  actual (lower bounds its declared ones, extents the left-hand side's), where its arguments
  and the callee cannot see the assigned array (Fortran evaluates the right-hand side first).
- Refused, naming the callee, at the call: I/O, STOP, RETURN before the end, recursion, an
  unknown external procedure, local arrays and SAVEd locals, module or host variables the caller
  does not see, derived-type and absent optional dummies, rank changes of an array actual.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.blocks import saved_names
from frontends.fortran.build_support import View, assigned_names, loop_variables, nodes_of
from frontends.fortran.callees import Callee, CalleeIndex
from frontends.fortran.expressions import Layout, Typed, add_expr, cast
from frontends.fortran.source import children, class_name, node_lines, walk
from frontends.fortran.stmt_functions import StatementFunction, expanded
from frontends.fortran.types import FType, Scope, Symbol
from frontends.fortran.values import linear_terms
from translator.diagnostics import FrontendError, Note, SourceSpan, UnsupportedConstructError
from translator.ir.data import TemporaryVariable
from translator.ir.expr import Expression, dependencies, substitute
from translator.patterns import LazyPattern
from translator.records import dataclass

if TYPE_CHECKING:
    from frontends.fortran.build import RegionBuilder

#: Statements a callee cannot hold (the region's own are refused by the builder).
_DEVICE_UNSAFE = {
    "Write_Stmt": "an I/O statement (WRITE)", "Print_Stmt": "an I/O statement (PRINT)",
    "Read_Stmt": "an I/O statement (READ)", "Open_Stmt": "an I/O statement (OPEN)",
    "Close_Stmt": "an I/O statement (CLOSE)", "Inquire_Stmt": "an I/O statement (INQUIRE)",
    "Flush_Stmt": "an I/O statement (FLUSH)", "Rewind_Stmt": "an I/O statement (REWIND)",
    "Backspace_Stmt": "an I/O statement (BACKSPACE)", "Stop_Stmt": "a STOP statement",
    "Error_Stop_Stmt": "an ERROR STOP statement", "Pause_Stmt": "a PAUSE statement",
    "Allocate_Stmt": "an ALLOCATE statement", "Deallocate_Stmt": "a DEALLOCATE statement",
}


@dataclass
class Frame:
    """The names of one inlined call: what each callee name stands for."""

    callee: Callee
    scope: Scope
    site: SourceSpan
    scalars: dict[str, Typed] = field(default_factory=dict)
    views: dict[str, Symbol] = field(default_factory=dict)
    renamed: dict[str, Symbol | Typed] = field(default_factory=dict)
    saved: frozenset[str] | None = None
    #: OPTIONAL dummies the call leaves absent.
    absent: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.callee.proc.name


class InlineScope(Scope):
    """The callee's scope as the builder sees it inside a frame: lookups go through
    `resolve` (array dummies are views, locals renamed, host and module data the caller's)."""

    inner: Scope
    frame: Frame
    builder: RegionBuilder

    @classmethod
    def of(cls, inner: Scope, frame: Frame, builder: RegionBuilder) -> InlineScope:
        out = cls(name=inner.name, kind=inner.kind, host=inner.host, uses=inner.uses,
                  use_lines=inner.use_lines, dummies=inner.dummies, result=inner.result,
                  modules=inner.modules, types=inner.types, implicit=inner.implicit,
                  implicit_declared=inner.implicit_declared, line=inner.line,
                  end_line=inner.end_line)
        out.inner, out.frame, out.builder = inner, frame, builder
        return out

    def lookup(self, name: str) -> Symbol | None:
        if name in self.frame.views:   # an array-valued function's result: read or not
            return self.frame.views[name]
        sym = self.inner.lookup(name)
        return None if sym is None else _as_symbol(resolve(self.builder, self.frame, name, sym))

    def lookup_declared(self, name: str, _seen: frozenset[str] = frozenset()) -> Symbol | None:
        sym = self.inner.lookup_declared(name, _seen)
        return None if sym is None else _as_symbol(resolve(self.builder, self.frame, name, sym))


def _as_symbol(found: Symbol | Typed) -> Symbol:
    if isinstance(found, Typed):   # a renamed local scalar: its symbol for declarations
        return Symbol(name=found.expr.name, ftype=found.ftype)
    return found


class CallSupport:
    """The region builder's side of inlining (`RegionBuilder` derives from it): the frame
    being built, the views of array dummies, the hooks the expression builder calls."""

    def init_calls(self) -> None:
        #: Where the sources of called procedures are (`frontends.fortran.callees`; set by
        #: the caller; None: calls are refused as unknown).
        self.callees: CalleeIndex | None = None
        #: The inlined call being built (None: the region's own statements), the calls
        #: around it, and the views of its array dummies.
        self.frame: Frame | None = None
        self.call_stack: list[Callee] = []
        self.views: dict[str, View] = {}
        self._via: tuple[tuple[str, SourceSpan], ...] = ()
        self._loop_base = 0
        self._iname_prefix = ""
        self._no_calls = ""
        #: The statement functions of the region's procedure (`frontends.fortran.stmt_functions`).
        self.statement_functions: dict[str, StatementFunction] = {}

    def inline_function(self, name: str, args: list[Any]) -> Typed:
        """The value of a call of user function `name`, its body inlined before the
        statement being built (a statement function of the region's procedure: its
        expression)."""
        if self._no_calls:
            raise UnsupportedConstructError(f"call of function {name!r} in {self._no_calls} "
                                            "is not supported", self.span(name))
        found = self.statement_functions.get(name) if self.frame is None else None
        if found is not None:
            return self._statement_function_value(found, args)
        return inline_call(self, name, args, function=True)

    def _statement_function_value(self, function: StatementFunction, args: list[Any]
                                  ) -> Typed:
        if len(args) != len(function.dummies):
            raise FrontendError(f"statement function {function.name!r} (line {function.line}) "
                                f"takes {len(function.dummies)} argument(s), not {len(args)}",
                                self.span(function.name))
        value = self.expr.visit(expanded(function, args))
        sym = self.scope.lookup(function.name)
        ftype = value.ftype if sym is None else sym.ftype
        return Typed(cast(value, ftype), ftype)

    def bound_value(self, name: str) -> Typed | None:
        """A local of a BLOCK construct (`frontends.fortran.blocks`), or a callee's scalar
        dummy or local inside an inlined call."""
        local = self.block_locals.get(name)
        if local is not None:
            return local
        return None if self.frame is None else bound_value(self, self.frame, name)

    def element(self, sym: Symbol, index: tuple[Expression, ...]) -> Expression:
        """The element of `sym` at 0-based `index` (of the actual, for a callee's view)."""
        view = self.views.get(sym.name)
        if view is None:
            return p.Subscript(p.Variable(sym.name), index)
        return substitute(view.template, dict(zip(view.placeholders, index)))

    def add_view(self, name: str, view: View, layout: Layout) -> None:
        self._names.add(name)
        self.views[name] = view
        self._layouts[name] = layout

    def new_name(self, base: str) -> str:
        """A fresh name (generated names have the reserved prefix ``_tr_``)."""
        return self._names(base)

    def enter_callee(self, frame: Frame, build: Callable[[], None]) -> None:
        """Run `build` with the names, lines and loops of the callee of `frame`."""
        saved = (self.scope, self.lines, self.line, self.loop_vars, self.frame, self._via,
                 self._loop_base, self._iname_prefix, self.expr.sections, self.block_locals,
                 self.block_arrays)
        # the callee does not see the caller's BLOCK locals
        self.block_locals, self.block_arrays = {}, {}
        self._via = (*self._via, (frame.callee.proc.name, replace(frame.site, inlined_at=())))
        self.scope, self.lines, self.frame = frame.scope, frame.callee.lines, frame
        self.loop_vars = loop_variables(list(children(frame.callee.proc.exec_part))
                                         if frame.callee.proc.exec_part is not None else [])
        self._loop_base, self._iname_prefix = len(self.frames), f"{frame.callee.proc.name}_"
        self.expr.sections = None
        self.call_stack.append(frame.callee)
        try:
            build()
        finally:
            self.call_stack.pop()
            (self.scope, self.lines, self.line, self.loop_vars, self.frame, self._via,
             self._loop_base, self._iname_prefix, self.expr.sections, self.block_locals,
             self.block_arrays) = saved

    def assigned(self, node: Any) -> set[str]:
        """The kernel names `node` may assign (a construct holding a CALL: every name it
        mentions, as the callee may assign its arguments)."""
        names = assigned_names(node)
        if any(class_name(n) == "Call_Stmt" for n in walk(node)):
            names |= {str(n).lower() for n in walk(node) if class_name(n) == "Name"}
        return self.kernel_names(names)

    def kernel_names(self, names: set[str]) -> set[str]:
        """The kernel names that the names `names` of the procedure being built stand for."""
        if self.frame is None and not self.block_locals and not self.block_arrays:
            return names
        out = set()
        for name in names:
            local = self.block_locals.get(name)
            if local is not None:
                out |= dependencies(local.expr)
                continue
            array = self.block_arrays.get(name)
            if array is not None:   # a BLOCK's array, or an ASSOCIATE name of an array
                view = self.views.get(array.name)
                out |= ({array.name} if view is None else
                        dependencies(view.template) - set(view.placeholders))
                continue
            if self.frame is None:
                out.add(name)
                continue
            value = self.bound_value(name)
            out |= dependencies(value.expr) if value is not None else {name}
            sym = self.scope.lookup_declared(name) if value is None else None
            if sym is not None and sym.name in self.views:
                out |= dependencies(self.views[sym.name].template)
        return out



# ---------------------------------------------------------------------------------------------
# the call

def inline_call(rb: RegionBuilder, name: str, args: list[Any], *, function: bool,
                result_target: Any = None) -> Typed | None:
    """Inline the call of `name` with actual argument nodes `args` at the builder's current
    statement; a function's value is returned (with `result_target`, the node of an array
    that an array-valued function's result is: nothing)."""
    site = rb.span(name)
    callee = _find(rb, name, site, function)
    kind = callee.proc.kind
    if function != (kind == "function"):
        raise FrontendError(f"{kind} {name!r} is "
                            + ("called as a function" if function else "not a subroutine: "
                               "CALL names subroutines"), site)
    _check_recursion(rb, callee, site)
    _check_routine(rb, callee, site)
    _check_body(callee, site)
    frame = Frame(callee=callee, scope=callee.proc.scope, site=site,
                  saved=_saved_names(callee))
    frame.scope = InlineScope.of(callee.proc.scope, frame, rb)
    elemental = "ELEMENTAL" in callee.attributes and rb.expr.sections is not None
    depth = len(rb.frames)
    if elemental:   # its statements run per element of the array assignment
        rb.push_section_frames(rb.expr.sections)
    try:
        _bind(rb, frame, args, elemental)
        if result_target is not None:
            _bind_result(rb, frame, result_target)
        rb.enter_callee(frame, lambda: rb.visit_block(_body(callee)))
    finally:
        del rb.frames[depth:]
    return _result(rb, frame) if function and result_target is None else None


def array_function(rb: RegionBuilder, target: Any, value: Any) -> bool:
    """Build ``target = f(...)`` where `f` is a function whose result is an array (not
    ELEMENTAL): its result a view of `target`; False (nothing built) for another
    assignment."""
    if class_name(value) not in ("Part_Ref", "Function_Reference") or rb.callees is None:
        return False
    name = str(value.items[0]).lower()
    sym = rb.scope.lookup_declared(name)
    if (sym is not None and (sym.is_array or sym.external)) or name in rb.user_functions:
        return False
    caller = rb.frame.callee.proc.scope if rb.frame is not None else rb.region_scope
    callee = rb.callees.find(caller, name)
    if callee is None or callee.proc.kind != "function" or "ELEMENTAL" in callee.attributes:
        return False
    result = callee.proc.scope.result or callee.proc.name
    declared = callee.proc.scope.symbols.get(result)
    if declared is None or not declared.is_array:
        return False
    _check_result_target(rb, callee, target, value)
    args = list(children(value.items[1])) if value.items[1] is not None else []
    inline_call(rb, name, args, function=True, result_target=target)
    return True


def _check_result_target(rb: RegionBuilder, callee: Callee, target: Any, value: Any) -> None:
    """The array assigned must be one the call cannot read: the right-hand side is evaluated
    before it is assigned, the view writes it while the callee runs."""
    base = str(target if class_name(target) == "Name" else
               target.items[0] if class_name(target) == "Part_Ref" else "").lower()
    fname = callee.proc.name
    if not base or not rb.expr.section_rank(target):
        raise UnsupportedConstructError(
            f"the result of array-valued function {fname!r} is assigned to {target}, which is "
            "not an array or array section of a variable; assign it to an array variable "
            "first", rb.span(fname))
    read = {str(n).lower() for n in walk(value.items[1])
            if class_name(n) == "Name"} if value.items[1] is not None else set()
    seen = callee.proc.scope.lookup_declared(base)
    if base in read or (seen is not None and seen is rb.scope.lookup_declared(base)):
        raise UnsupportedConstructError(
            f"array-valued function {fname!r} may read {base!r}, which the assignment of its "
            f"result writes (the result is written into {base!r} while {fname!r} runs); "
            f"assign the result to another array first", rb.span(fname))


def _bind_result(rb: RegionBuilder, frame: Frame, target: Any) -> None:
    """The result of an array-valued function: a view of the array `target` it is assigned
    to, with the result's declared lower bounds and the target's extents."""
    result = frame.callee.proc.scope.result or frame.name
    sym = frame.callee.proc.scope.symbols[result]
    kind = f"function {frame.name!r}"
    if rb.expr.section_rank(target) != len(sym.dims):
        raise _rank_error(kind, result, target, len(sym.dims), rb.expr.section_rank(target),
                          frame.site)
    holders = tuple(rb.new_name("_tr_arg") for _ in sym.dims)
    saved, rb.expr.sections = rb.expr.sections, None
    try:
        bounds = rb.expr.section_bounds(target)
        rb.expr.sections = holders
        template = rb.expr.visit(target).expr
    finally:
        rb.expr.sections = saved
    lowers = []
    for dim in sym.dims:
        # an allocatable result is allocated by its assignment (lower bounds 1); bounds that
        # could not be read (``w(size(v))``) have their lower bound if the spec gives none
        lower = 1 if sym.allocatable else dim.lower
        if dim.kind not in ("explicit", "deferred") or lower is None:
            raise UnsupportedConstructError(
                f"{kind}: the lower bounds of its result {result!r} cannot be read; declare "
                f"them with constants or its dummy arguments", frame.site)
        lowers.append(_caller_expr(rb, frame, lower))
    extents = tuple(_section_extent(kind, result, b, frame.site) for b in bounds)
    name = rb.new_name(f"_tr_{frame.name}_{result}")
    # its shape is the target's: a declaration the translator could not read is not used
    frame.views[result] = replace(sym, name=name, is_dummy=False, allocatable=False,
                                  error=None)
    rb.add_view(name, View(template, holders), Layout(tuple(lowers), extents))


def _find(rb: RegionBuilder, name: str, site: SourceSpan, function: bool) -> Callee:
    callees = rb.callees
    caller = rb.frame.callee.proc.scope if rb.frame is not None else rb.region_scope
    callee = callees.find(caller, name) if callees is not None else None
    entry = callees.entry_of(name) if callee is None and callees is not None else None
    if entry is not None:
        raise UnsupportedConstructError(
            f"{name!r} is an ENTRY of {entry.kind} {entry.name!r}: ENTRY statements are not "
            "supported in a kernel region; make it a procedure of its own", site)
    if callee is None:
        extra = ("; or give the device a definition of the function with a register_function "
                 "pragma" if function else "")
        raise UnsupportedConstructError(
            f"call of unknown external procedure {name!r}: its source is not among the "
            "translator's inputs, so it cannot be offloaded (procedures of this file, of the "
            f"other Fortran files of the command and of modules found by -I are inlined{extra})",
            site)
    return callee


def _check_recursion(rb: RegionBuilder, callee: Callee, site: SourceSpan) -> None:
    chain = [c.proc.name for c in rb.call_stack]
    if any(c.key == callee.key for c in rb.call_stack):
        path = " -> ".join([*chain[chain.index(callee.proc.name):], callee.proc.name])
        raise UnsupportedConstructError(
            f"recursive call of {callee.proc.name!r} ({path}) cannot be offloaded: a kernel "
            "cannot recurse, and inlining it would not end", site)


#: An OpenACC directive line in any source form (free: any column; fixed: c, C, * or !).
_ACC_LINE = LazyPattern(r"^\s*!\$acc\s+(.*)$|^[cC*]\$acc\s+(.*)$", re.IGNORECASE)


def _check_routine(rb: RegionBuilder, callee: Callee, site: SourceSpan) -> None:
    """With OpenACC directives read, a callee declared ``!$acc routine gang`` (``worker``,
    ``vector``) in its specification part is refused at the call: its loops belong to the
    caller's gangs, not to one work item.  ``routine seq`` procedures are inlined."""
    if rb.callees is None or not rb.callees.openacc:
        return
    from frontends.directives.openacc import routine_level, routine_refusal   # with OpenACC only
    proc = callee.proc
    for k in range(proc.first_line + 1, proc.body_last_line + 1):
        m = _ACC_LINE.match(callee.lines.line(k))
        found = routine_level(m.group(1) or m.group(2)) if m else None
        if found is None or found[0] not in ("", proc.name) or found[1] == "seq":
            continue
        raise UnsupportedConstructError(
            routine_refusal(proc.name, found[1]), site,
            notes=(Note(f"{proc.name!r} is declared 'routine {found[1]}' here",
                        callee.lines.span(k)),))


def _check_body(callee: Callee, site: SourceSpan) -> None:
    """Statements that cannot run on a device, reported at the call with the callee's line."""
    body = list(children(callee.proc.exec_part)) if callee.proc.exec_part is not None else []
    last = body[-1] if body else None
    for node in walk(callee.proc.exec_part) if body else ():
        what = _DEVICE_UNSAFE.get(class_name(node))
        if what is None and class_name(node) == "Return_Stmt" and node is not last:
            what = "a RETURN statement before its end"
        if what is not None:
            line = (node_lines(node) or (callee.proc.first_line, 0))[0]
            raise UnsupportedConstructError(
                f"{callee.proc.kind} {callee.proc.name!r} cannot be offloaded: it has {what}",
                site, notes=(Note(f"in {callee.proc.name!r} here", callee.lines.span(line)),))


def _body(callee: Callee) -> list[Any]:
    """The callee's executable statements (a final RETURN dropped)."""
    body = [n for n in children(callee.proc.exec_part)] if callee.proc.exec_part else []
    if body and class_name(body[-1]) == "Return_Stmt":
        body.pop()
    return body


def _result(rb: RegionBuilder, frame: Frame) -> Typed:
    result = frame.callee.proc.scope.result or frame.name
    found = frame.renamed.get(result)
    if not isinstance(found, Typed):
        raise FrontendError(f"function {frame.name!r} does not assign its result "
                            f"{result!r}", frame.site)
    return found


def _saved_names(callee: Callee) -> frozenset[str]:
    """Locals with the SAVE attribute (explicit, or by an initializer); '*' for all."""
    return saved_names(callee.proc.spec_part)


# ---------------------------------------------------------------------------------------------
# names inside the callee

def resolve(rb: RegionBuilder, frame: Frame, name: str, sym: Symbol) -> Symbol | Typed:
    """What callee name `name` (declared as `sym`) stands for at this call."""
    if name not in frame.renamed:
        frame.renamed[name] = _resolved(rb, frame, name, sym)
    return frame.renamed[name]


def bound_value(rb: RegionBuilder, frame: Frame, name: str) -> Typed | None:
    """The value of a scalar callee name that is not a symbol of the kernel (a dummy, a
    renamed local); None for the others."""
    if name in frame.scalars:
        return frame.scalars[name]
    if name in frame.views:
        return None   # an array
    sym = frame.callee.proc.scope.lookup(name)
    if sym is None:
        return None
    found = resolve(rb, frame, name, sym)
    return found if isinstance(found, Typed) else None


def _resolved(rb: RegionBuilder, frame: Frame, name: str, sym: Symbol) -> Symbol | Typed:
    own = frame.callee.proc.scope
    if name in frame.views:
        return frame.views[name]
    if sym.is_parameter:
        if sym.parameter_values is None:
            return sym
        return replace(sym, name=rb.new_name(f"_tr_{frame.name}_{name}"))
    if name in own.symbols and own.symbols[name] is sym:
        if sym.is_dummy and name in frame.absent:
            raise UnsupportedConstructError(
                f"{frame.callee.proc.kind} {frame.name!r} uses its OPTIONAL dummy {name!r}, "
                "which the call leaves absent, outside an if (present(...)) it can be told "
                "from", frame.site)
        if sym.is_dummy:
            return sym
        if sym.external:
            return sym
        if not sym.in_common:
            return _local(rb, frame, name, sym)
    seen = rb.region_scope.lookup_declared(name)
    if seen is sym or (seen is not None and seen.scope_kind == "module" == sym.scope_kind
                       and seen.scope == sym.scope and seen.name == sym.name):
        return seen
    if seen is not None and _same_common_member(own, sym, rb.region_scope, seen):
        return seen
    if sym.in_common:
        block = f"common block /{sym.common_block}/" if sym.common_block else "blank COMMON"
        raise UnsupportedConstructError(
            f"{frame.callee.proc.kind} {frame.name!r} uses {name!r} of {block}, which the "
            f"region's procedure does not declare as the same member (same name, type, shape "
            f"and place): it cannot be passed to the kernel; declare {block} in the region's "
            f"procedure as {frame.name!r} does", frame.site)
    where = (f"module {sym.scope!r}" if sym.scope_kind == "module" else f"host {sym.scope!r}")
    raise UnsupportedConstructError(
        f"{frame.callee.proc.kind} {frame.name!r} uses {name!r} of {where}, which the region's "
        f"procedure does not see under that name: it cannot be passed to the kernel",
        frame.site)


def _same_common_member(scope: Scope, sym: Symbol, other_scope: Scope, other: Symbol) -> bool:
    """Whether `sym` of `scope` and `other` of `other_scope` (one name) are one member of one
    COMMON block: the same block, type and extents, at the same byte offset."""
    if not (sym.in_common and other.in_common and sym.common_block == other.common_block
            and sym.ftype == other.ftype and _extents(sym) == _extents(other) is not None):
        return False
    mine = _common_offset(scope, sym)
    return mine is not None and mine == _common_offset(other_scope, other)


def _common_offset(scope: Scope, sym: Symbol) -> int | None:
    """The byte offset of `sym` in its COMMON block of `scope` (None: a size not known)."""
    offset = 0
    for name in scope.commons.get(sym.common_block or "", ()):
        if name == sym.name:
            return offset
        member = scope.symbols.get(name)
        extents = _extents(member) if member is not None else None
        if extents is None or member.ftype is None or member.ftype.dtype is None:
            return None
        offset += int(np.prod(extents, dtype=np.int64)) * member.ftype.dtype.itemsize
    return None


def _extents(sym: Symbol) -> tuple[int, ...] | None:
    """The constant extents of `sym` (() for a scalar); None when one is not constant."""
    out = []
    for dim in sym.dims or ():
        if dim.kind != "explicit" or not all(isinstance(b, (int, np.integer))
                                              for b in (dim.lower, dim.upper)):
            return None
        out.append(int(dim.upper) - int(dim.lower) + 1)
    return tuple(out)


def _local(rb: RegionBuilder, frame: Frame, name: str, sym: Symbol) -> Typed:
    """A local scalar of the callee: a private temporary of this call site."""
    kind = f"{frame.callee.proc.kind} {frame.name!r}"
    if sym.is_array and name == (frame.callee.proc.scope.result or frame.name):
        raise UnsupportedConstructError(
            f"{kind} returns an array: in a kernel region an array-valued function can only be "
            f"the whole right-hand side of an array assignment (x = {frame.name}(...)); assign "
            f"its result to an array first, or make it a subroutine with the result as an "
            f"argument (call {frame.name}(..., result))", frame.site)
    if sym.is_array:
        raise UnsupportedConstructError(
            f"{kind} has a local array {name!r}: local arrays of called procedures are not "
            "supported in a kernel region (pass the array as an argument)", frame.site)
    if frame.saved and ("*" in frame.saved or name in frame.saved):
        raise UnsupportedConstructError(
            f"{kind} keeps {name!r} between calls (SAVE, or an initializer in its "
            "declaration): work items cannot share it", frame.site)
    ftype = _scalar_type(sym, kind, name, frame.site)
    new = rb.new_name(f"_tr_{frame.name}_{name}")
    rb.temporaries[new] = TemporaryVariable(name=new, dtype=ftype.dtype, span=sym.span)
    return Typed(p.Variable(new), ftype)


def _scalar_type(sym: Symbol, kind: str, name: str, site: SourceSpan) -> FType:
    if sym.ftype is None or sym.type_name is not None or not (
            sym.ftype.is_numeric or sym.ftype.base == "logical"):
        raise UnsupportedConstructError(
            f"{kind}: {name!r} has a type that a kernel cannot hold (derived or character "
            "data)", site)
    return sym.ftype


# ---------------------------------------------------------------------------------------------
# arguments

def _bind(rb: RegionBuilder, frame: Frame, args: list[Any], elemental: bool) -> None:
    """Bind every dummy to its actual, evaluated in the caller's context (scalars first:
    the extents of array dummies use them)."""
    pairs = _match(frame, args)
    written = _written_dummies(frame.callee)
    arrays = []
    for dummy, node in pairs:
        sym = frame.callee.proc.scope.symbols[dummy]
        if sym.is_array:
            arrays.append((dummy, sym, node))
            continue
        saved = rb.expr.sections
        rb.expr.sections = saved if elemental else None
        try:
            frame.scalars[dummy] = _scalar(rb, frame, dummy, sym, node, dummy in written)
        finally:
            rb.expr.sections = saved
    for dummy, sym, node in arrays:
        frame.views[dummy] = _view(rb, frame, dummy, sym, node)
    _check_fixed_subscripts(rb, frame, pairs, written)


def _check_fixed_subscripts(rb: RegionBuilder, frame: Frame, pairs: list[tuple[str, Any]],
                            written: set[str]) -> None:
    """An actual is associated at the call: its subscripts must not read a variable the
    callee assigns through a scalar dummy (``call f(a(k), k)``), as the callee's uses of the
    dummy re-evaluate them."""
    assigned = {_base_name(frame.scalars[d].expr) for d in written if d in frame.scalars}
    for dummy, node in pairs:
        found = frame.scalars.get(dummy)
        expr = found.expr if found is not None else rb.views[frame.views[dummy].name].template
        index = expr.index_tuple if isinstance(expr, p.Subscript) else ()
        clash = set().union(*(dependencies(i) for i in index)) & assigned
        if clash:
            raise UnsupportedConstructError(
                f"{frame.callee.proc.kind} {frame.name!r}: the subscripts of actual argument "
                f"{node} read {sorted(clash)[0]!r}, which the call assigns through another "
                "argument; copy the subscript into a variable of its own first", frame.site)


def _base_name(e: Expression) -> str | None:
    """The variable a designator (``s``, ``a(i)``) names."""
    e = e.aggregate if isinstance(e, p.Subscript) else e
    return e.name if isinstance(e, p.Variable) else None


def _match(frame: Frame, args: list[Any]) -> list[tuple[str, Any]]:
    """(dummy, actual node) pairs: positional, then keyword arguments."""
    dummies = frame.callee.proc.scope.dummies
    kind = f"{frame.callee.proc.kind} {frame.name!r}"
    out: dict[str, Any] = {}
    for k, arg in enumerate(args):
        if class_name(arg) in ("Actual_Arg_Spec", "Component_Spec"):
            key = str(arg.items[0]).lower()
            if key not in dummies:
                raise FrontendError(f"{kind} has no dummy argument {key!r}", frame.site)
            out[key] = arg.items[1]
        elif k >= len(dummies):
            raise FrontendError(f"{kind} takes {len(dummies)} argument(s), not {len(args)}",
                                frame.site)
        else:
            out[dummies[k]] = arg
    missing = [d for d in dummies if d not in out]
    scope = frame.callee.proc.scope
    required = [d for d in missing if scope.symbols.get(d) is None
                or not scope.symbols[d].optional]
    if required:
        raise UnsupportedConstructError(
            f"call of {kind} leaves dummy argument {required[0]!r} absent, which is not "
            "OPTIONAL", frame.site)
    frame.absent = frozenset(missing)   # present() is false; a use is refused
    return [(d, out[d]) for d in dummies if d in out]


def _written_dummies(callee: Callee) -> set[str]:
    """Dummies the callee assigns, or passes on to a CALL (which may assign them)."""
    body = callee.proc.exec_part
    out = assigned_names(body) if body is not None else set()
    for node in walk(body) if body is not None else ():
        if class_name(node) == "Call_Stmt" and node.items[1] is not None:
            for arg in children(node.items[1]):
                value = arg.items[1] if class_name(arg) == "Actual_Arg_Spec" else arg
                if class_name(value) == "Name":
                    out.add(str(value).lower())
    return out & set(callee.proc.scope.dummies)


def _scalar(rb: RegionBuilder, frame: Frame, dummy: str, sym: Symbol, node: Any,
            written: bool) -> Typed:
    kind = f"{frame.callee.proc.kind} {frame.name!r}"
    ftype = _scalar_type(sym, kind, dummy, frame.site)
    t = rb.expr.visit(node)
    if written:
        target = t.expr.aggregate.name if isinstance(t.expr, p.Subscript) else getattr(
            t.expr, "name", None)
        if class_name(node) not in ("Name", "Part_Ref", "Data_Ref") or target is None \
                or target in rb.generated_inames():
            raise FrontendError(f"{kind} assigns its dummy argument {dummy!r}, but the actual "
                                f"argument {node} is not a variable", frame.site)
        if t.ftype != ftype:
            raise FrontendError(f"{kind} assigns its dummy argument {dummy!r} of type {ftype}, "
                                f"but the actual argument {node} is {t.ftype}", frame.site)
        return t
    value = t if t.ftype == ftype else Typed(cast(t, ftype), ftype)
    if isinstance(t.expr, p.Subscript) or not _reads_data(value.expr):
        return value
    temp = rb.new_name(f"_tr_{frame.name}_{dummy}")
    rb.temporaries[temp] = TemporaryVariable(name=temp, dtype=ftype.dtype, span=frame.site)
    rb.add(p.Variable(temp), value.expr)
    return Typed(p.Variable(temp), ftype)


def _reads_data(e: Expression) -> bool:
    """Whether `e` reads array elements or calls a function (then it is evaluated once)."""
    return bool(nodes_of(e, p.Subscript) or nodes_of(e, p.Call))


def _view(rb: RegionBuilder, frame: Frame, dummy: str, sym: Symbol, node: Any) -> Symbol:
    """The view symbol of array dummy `dummy` bound to the actual `node`."""
    kind = f"{frame.callee.proc.kind} {frame.name!r}"
    rank = len(sym.dims)
    saved, rb.expr.sections = rb.expr.sections, None
    try:
        actual_rank = rb.expr.section_rank(node)
        holders = tuple(rb.new_name("_tr_arg") for _ in range(rank))
        bounds = None
        if actual_rank == rank:
            bounds = rb.expr.section_bounds(node)
            rb.expr.sections = holders
            template = rb.expr.visit(node).expr
        elif actual_rank == 0 and rank == 1 and class_name(node) in ("Part_Ref", "Data_Ref"):
            element = rb.expr.visit(node).expr   # sequence association: from that element on
            if not isinstance(element, p.Subscript):
                raise _rank_error(kind, dummy, node, rank, 0, frame.site)
            index = element.index_tuple
            template = p.Subscript(element.aggregate,
                                   (add_expr(index[0], p.Variable(holders[0])), *index[1:]))
        else:
            raise _rank_error(kind, dummy, node, rank, actual_rank, frame.site)
    finally:
        rb.expr.sections = saved
    name = rb.new_name(f"_tr_{frame.name}_{dummy}")
    view = replace(sym, name=name, is_dummy=False)
    rb.add_view(name, View(template, holders), _layout(rb, frame, dummy, sym, bounds))
    return view


def _rank_error(kind: str, dummy: str, node: Any, rank: int, actual: int,
                site: SourceSpan) -> FrontendError:
    return UnsupportedConstructError(
        f"{kind}: actual argument {node} (rank {actual}) is passed to dummy {dummy!r} of rank "
        f"{rank}; reshaping an array through an argument is not supported in a kernel region",
        site)


def _layout(rb: RegionBuilder, frame: Frame, dummy: str, sym: Symbol,
            bounds: list | None) -> Layout:
    """The dummy's lower bounds and extents, in the caller's names."""
    kind = f"{frame.callee.proc.kind} {frame.name!r}"
    lowers, extents = [], []
    for k, dim in enumerate(sym.dims):
        lower = _caller_expr(rb, frame, dim.lower)
        if dim.kind == "explicit":
            extent = _caller_expr(rb, frame, add_expr(dim.upper, dim.lower, 1, -1))
            if bounds is not None and k < len(sym.dims) - 1:
                _check_same_extent(kind, dummy, extent, bounds[k], frame.site)
        elif dim.kind == "assumed_size":
            extent = None
        elif dim.kind == "assumed_shape" and bounds is not None:
            extent = _section_extent(kind, dummy, bounds[k], frame.site)
        else:
            raise UnsupportedConstructError(
                f"{kind}: the shape of dummy {dummy!r} cannot be derived from its actual "
                "argument (allocatable or pointer dummies, or an assumed shape given an array "
                "element, are not supported in a kernel region)", frame.site)
        lowers.append(lower)
        extents.append(extent)
    return Layout(tuple(lowers), tuple(extents))


def _section_extent(kind: str, dummy: str, bound: tuple, site: SourceSpan) -> Expression:
    first, last, stride = bound
    if stride == 1:
        return add_expr(last, first, 1, -1)
    span = add_expr(last, first, 0, -1)
    if isinstance(span, (int, np.integer)):
        return max(0, int(span) // stride + 1)
    raise UnsupportedConstructError(
        f"{kind}: the extent of assumed-shape dummy {dummy!r} is that of a strided section "
        "with non-constant bounds, which is not supported", site)


def _check_same_extent(kind: str, dummy: str, extent: Expression, bound: tuple,
                       site: SourceSpan) -> None:
    """A rank-2+ dummy sees the actual's axes only if its leading extents are the actual's
    (otherwise Fortran's sequence association reshapes the data)."""
    actual = _section_extent(kind, dummy, bound, site) if bound[2] == 1 else None
    if actual is None or linear_terms(extent) is None or \
            linear_terms(add_expr(extent, actual, 0, -1)) not in ({1: 0}, {}):
        raise UnsupportedConstructError(
            f"{kind}: the extents of dummy {dummy!r} may differ from those of its actual "
            "argument (the dummy would reshape it); reshaping an array through an argument is "
            "not supported in a kernel region", site)


def _caller_expr(rb: RegionBuilder, frame: Frame, e: Expression) -> Expression:
    """A declaration expression of the callee (an array bound) in the caller's names."""
    if e is None or isinstance(e, (int, np.integer)):
        return e
    mapping: dict[str, Expression] = {}
    for name in sorted(dependencies(e)):
        if name in frame.scalars:
            mapping[name] = frame.scalars[name].expr
            continue
        sym = frame.callee.proc.scope.lookup(name)
        found = resolve(rb, frame, name, sym) if sym is not None else None
        if not isinstance(found, Symbol) or found.is_array:
            raise UnsupportedConstructError(
                f"{frame.callee.proc.kind} {frame.name!r}: an array bound uses {name!r}, which "
                "is not available at the call", frame.site)
        rb.touch(found)
        mapping[name] = p.Variable(found.name)
    out = substitute(e, mapping)
    return add_expr(out, 0) if isinstance(out, (p.Sum, p.Product, p.Variable)) else out


__all__ = ["Frame", "InlineScope", "View", "array_function", "bound_value", "inline_call",
           "resolve"]
