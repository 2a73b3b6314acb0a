"""A region's statements (pycparser) -> raw IR statements, loops and temporaries.

`RegionBuilder` is a visitor whose methods are named after pycparser's statement classes
(`visit_For`, `visit_If`, ...); expressions go to `ExpressionBuilder`.  What it produces is
still "raw": scalars declared outside the region are plain variables whatever their fate (value
argument, written scalar, private temporary); `frontends.c.assemble` decides and builds the
kernel.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import field, replace
from functools import reduce

import numpy as np
import pymbolic.primitives as p
from pycparser import c_ast
from pycparser.c_generator import CGenerator

from frontends.c.expressions import (POINTER_RESULTS, Binding, ExpressionBuilder, TExpr, View,
                                     convert, subscript)
from frontends.c.inline import Frame, inline_call, pointer_view
from frontends.c.liveness import References
from frontends.c.loops import (LoopHead, analyse_for, bound_constraints, final_value_text,
                               loop_value)
from frontends.c.preprocess import SourceText
from frontends.c.provenance import Provenance
from frontends.c.regions import RegionSite, directive_span, is_translate_pragma
from frontends.c.typemodel import (C_SPELLING, INT32, CType, FileScope,
                                   unsigned_comparison)
from frontends.pragmas import parse_directive
from translator.diagnostics import (FrontendError, Note, SourceSpan, TranslatorError,
                                    UnsupportedConstructError, too_deep)
from translator.ir.data import AddressSpace, TemporaryVariable
from translator.ir.expr import NEVER, Expression, TypeCast, dependencies
from translator.ir.mappers import nodes_of
from translator.ir.util import UniqueNameGenerator
from translator.records import dataclass


@dataclass(eq=False)
class Loop:
    """One for loop of the region: its iname, the variable's value, its constraints."""

    iname: str
    var: str
    value: Expression
    constraints: list[tuple[Expression, str, Expression]]
    parent: Loop | None
    span: SourceSpan | None


@dataclass(eq=False)
class RawStatement:
    id: str
    assignee: Expression
    expression: Expression
    loops: tuple[Loop, ...]
    predicates: tuple[Expression, ...]
    span: SourceSpan | None

    @property
    def inames(self) -> frozenset[str]:
        return frozenset(loop.iname for loop in self.loops)

    @property
    def assignee_name(self) -> str:
        target = self.assignee
        return (target.aggregate.name if isinstance(target, p.Subscript) else target.name)


@dataclass(eq=False)
class ContinueScope:
    """A for loop of the region seen by ``continue``: where its body's predicates start, its
    body, and the guards that ``continue`` statements so far put on the rest of the body."""

    base: int
    body: c_ast.Node
    guards: list[Expression] = field(default_factory=list)


@dataclass
class BuiltRegion:
    statements: list[RawStatement] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)
    temporaries: dict[str, TemporaryVariable] = field(default_factory=dict)
    #: Symbols declared outside the region that it uses: IR name -> binding (first use first).
    outer: dict[str, Binding] = field(default_factory=dict)
    #: IR name -> C name of those symbols.
    c_names: dict[str, str] = field(default_factory=dict)
    #: Names declared at the region's top level (gone after the rewrite).
    top_level: dict[str, SourceSpan | None] = field(default_factory=dict)
    #: Loop variables declared outside the region: C name -> loop span.
    outer_loop_vars: dict[str, SourceSpan | None] = field(default_factory=dict)
    #: Their values after the region as C expressions (`loops.final_value_text`), None where
    #: the host cannot compute it; the last loop over a variable decides.
    outer_loop_finals: dict[str, str | None] = field(default_factory=dict)
    #: Loop bounds by identity -> (the bound, its C expression, its dtype): a bound that is
    #: not affine can still be computed by the caller and passed in (`Assembler`).
    bound_sources: dict[int, tuple[Expression, c_ast.Node, np.dtype]] = field(
        default_factory=dict)
    #: Private temporaries holding loop bounds read from arrays (data-dependent domains).
    bound_temporaries: set[str] = field(default_factory=set)
    #: Arrays of structs seen as arrays of another member type: view -> the array's IR name
    #: (`RegionBuilder.record_view`), and (array, dtype.str) -> view.
    record_views: dict[str, str] = field(default_factory=dict)
    record_view_names: dict[tuple[str, str], str] = field(default_factory=dict)


_UNSUPPORTED_STATEMENTS = {
    "While": "while loop in a region: only canonical for loops can be translated (write it "
             "as a for loop with a constant step)",
    "DoWhile": "do-while loop in a region: only canonical for loops can be translated",
    "Goto": "goto is not supported in a region",
    "Label": "labels are not supported in a region",
    "Break": "break is not supported in a region: loops must run their whole iteration "
             "space",
    "Return": "return is not supported in a region",
    "Switch": "switch is not supported in a region: use if/else",
}


class RegionBuilder:
    """Builds the raw statements of one region (visitor over pycparser statements)."""

    def __init__(self, src: SourceText, fscope: FileScope, site: RegionSite) -> None:
        self.src = src
        self.fscope = fscope
        self.site = site
        self.exprs = ExpressionBuilder(self)
        self.scopes: list[dict[str, Binding]] = [{}]
        self.loops: list[Loop] = []
        self.predicates: list[Expression] = []
        #: The enclosing for loops of the statement being built, innermost last.
        self.continue_scopes: list[ContinueScope] = []
        self.out = BuiltRegion()
        idents, declared, self.loop_vars = _prescan(site.statements)
        # Outer names used by the region keep their names; locals that shadow a visible
        # name are renamed, so the two never meet in the kernel.
        taken = (idents - declared - self.loop_vars) | (declared & set(site.visible))
        self.names = UniqueNameGenerator(taken)
        self.ids = UniqueNameGenerator()
        self.loop_counts: dict[str, int] = {}
        self.outer_names: dict[str, str] = {}
        self.provenance = Provenance(site, fscope)
        #: Functions of the translation unit, by name (set by the caller: their calls are
        #: inlined, `frontends.c.inline`), the inlined calls being built, innermost last.
        self.functions: dict[str, c_ast.FuncDef] = {}
        #: functions a region may not call (OpenACC routine gang/worker/vector): name ->
        #: (message, note at the directive)
        self.refused_calls: dict[str, tuple[str, Note]] = {}
        self.call_stack: list[Frame] = []
        self.via: tuple[tuple[str, SourceSpan], ...] = ()
        self._scope_base = 0
        self._iname_prefix = ""
        self._no_calls = ""
        #: The compound statements being built, innermost last, with the depth of the scope
        #: each opened (a declaration's block).
        self._blocks: list[tuple[int, c_ast.Compound]] = []
        #: The identifier references of the region's function (`_bind_assigned_index`).
        self._references: References | None = None

    def build(self) -> BuiltRegion:
        for stmt in self.site.statements:
            self.visit(stmt)
        return self.out

    def span(self, node: c_ast.Node | None, token: str | None = None) -> SourceSpan | None:
        span = self.src.node_span(node, token) or self.site.kernel.span
        return replace(span, inlined_at=self.via) if self.via and span else span

    def visit(self, node: c_ast.Node) -> None:
        method = getattr(self, "visit_" + type(node).__name__, None)
        name = type(node).__name__
        if name in _UNSUPPORTED_STATEMENTS:
            token = {"DoWhile": "do", "Goto": "goto"}.get(name, name.lower())
            raise UnsupportedConstructError(_UNSUPPORTED_STATEMENTS[name],
                                            self.span(node, token))
        if method is None:
            raise UnsupportedConstructError(
                f"unsupported construct in a region: C {name} statement", self.span(node))
        try:
            method(node)
        except TranslatorError as err:
            raise err.with_span(self.span(node))
        except RecursionError:
            raise too_deep(self.span(node)) from None
        # anything else is a bug in the translator: an internal error (exit 2), not hidden

    # -- names ----------------------------------------------------------------------------

    def lookup(self, name: str, node: c_ast.Node) -> Binding:
        """The binding of a name read or written in the region (records outer uses)."""
        b = self._peek(name, node)
        if b.kind == "stale":
            raise UnsupportedConstructError(
                f"loop variable {name!r} is used after its loop: its final value is not "
                "available inside a region (use another variable)", self.span(node, name))
        if b.kind == "outer":
            self.out.outer.setdefault(b.name, b)
            self.out.c_names[b.name] = name
        return b

    def _peek(self, name: str, node: c_ast.Node) -> Binding:
        for scope in reversed(self.scopes[self._scope_base:]):
            if name in scope:
                return scope[name]
        entry = self.site.visible.get(name)
        if self.call_stack and (entry is None or entry[0] != "global"):
            callee = self.call_stack[-1].name
            raise FrontendError(f"function {callee!r} uses {name!r}, which is not a variable "
                                "of the file that the region's function sees",
                                self.span(node, name))
        if entry is None:
            raise FrontendError(f"unknown name {name!r} in a region", self.span(node, name))
        storage, decl = entry
        ctype = self.fscope.resolve(decl.type)
        if ctype.kind == "other":
            raise UnsupportedConstructError(
                f"{name!r} has type {ctype.description}, which is not supported in a region "
                "(only numbers, arrays of numbers and pointers to numbers)",
                self.span(node, name))
        return Binding("outer", self._outer_name(name), ctype, storage=storage)

    def pointer_origin(self, name: str, node: c_ast.Node) -> tuple[Binding, Expression] | None:
        """For a local pointer of known origin (``p = u + k``): the binding of ``u`` and the
        IR offset ``k``; None for anything else (frontends.c.provenance)."""
        if self.call_stack or any(name in scope for scope in self.scopes):
            return None
        origin = self.provenance.origin(name)
        if origin is None:
            return None
        names = set().union(*(_ids(o) for o in origin.offsets)) | {origin.base}
        if any(n in scope for scope in self.scopes for n in names):
            return None   # shadowed inside the region: the names would mean something else
        base = self.lookup(origin.base, node)
        offset: Expression = 0
        for o in origin.offsets:
            term = self.exprs.integer(o, "a pointer offset")
            offset = term if offset == 0 else p.Sum((offset, term))
        return base, offset

    def lookup_outer(self, name: str, node: c_ast.Node) -> Binding:
        """Like `lookup`, for names in declarations outside the region (array dims)."""
        entry = self.site.visible.get(name)
        if entry is None:
            raise FrontendError(f"unknown name {name!r}", self.span(node, name))
        b = Binding("outer", self._outer_name(name), self.fscope.resolve(entry[1].type),
                    storage=entry[0])
        if b.ctype.kind != "scalar":
            raise UnsupportedConstructError(f"array dimension uses {name!r}, which is not a "
                                            "number", self.span(node, name))
        self.out.outer.setdefault(b.name, b)
        self.out.c_names[b.name] = name
        return b

    def record_view(self, b: Binding, dtype: np.dtype) -> Binding:
        """The array of structs `b` seen as an array of `dtype` (a member type other than its
        first member's): an argument of its own that the call passes the same memory for
        (`BuiltRegion.record_views`)."""
        if dtype == b.ctype.dtype:
            return b
        key = (b.name, dtype.str)
        if key not in self.out.record_view_names:
            name = self.names(f"_tr_{b.name}_{C_SPELLING[dtype].replace(' ', '_')}")
            ctype = replace(b.ctype, dtype=dtype, spelling=C_SPELLING[dtype], dims=(
                *b.ctype.dims[:-1], b.ctype.record.size // dtype.itemsize))
            self.out.outer[name] = Binding("outer", name, ctype, storage=b.storage)
            self.out.c_names[name] = self.out.c_names[b.name]
            self.out.record_views[name] = b.name
            self.out.record_view_names[key] = name
        return self.out.outer[self.out.record_view_names[key]]

    def _outer_name(self, name: str) -> str:
        if name not in self.loop_vars:
            return name
        if name not in self.outer_names:
            self.outer_names[name] = self.names(f"_tr_{name}")
        return self.outer_names[name]

    def new_iname(self, var: str) -> str:
        """``i`` for the first loop over ``i``, then ``i_1``, ``i_2`` (source order)."""
        stem = self._iname_prefix + var   # a callee's loop: <callee>_<var>
        k = self.loop_counts.get(stem, 0)
        candidate = stem if k == 0 else f"{stem}_{k}"
        while self.names.is_taken(candidate):
            k += 1
            candidate = f"{stem}_{k}"
        self.loop_counts[stem] = k + 1
        self.names.add(candidate)
        return candidate

    # -- statements -----------------------------------------------------------------------

    def emit(self, assignee: Expression, expression: Expression, node: c_ast.Node,
             token: str | None = None) -> None:
        self.out.statements.append(RawStatement(
            self.ids("insn"), assignee, expression, tuple(self.loops),
            (*self.predicates, *(g for c in self.continue_scopes for g in c.guards)),
            self.span(node, token)))

    def visit_Compound(self, node: c_ast.Compound) -> None:
        self.scopes.append({})
        self._blocks.append((len(self.scopes), node))
        try:
            for k, item in enumerate(node.block_items or []):
                if not self._bind_assigned_index(item, node, k):
                    self.visit(item)
        finally:
            self.scopes.pop()
            self._blocks.pop()

    def visit_EmptyStatement(self, node: c_ast.EmptyStatement) -> None:
        return None

    def visit_Pragma(self, node: c_ast.Pragma) -> None:
        if not is_translate_pragma(node):
            return   # other pragmas (e.g. OpenMP) have no meaning in a kernel
        span = directive_span(self.src, node.coord.line) if node.coord else self.span(node)
        d = parse_directive(node.string.split(None, 1)[1] if " " in node.string else "",
                            span)
        if d.kind in ("mark", "block", "end_block"):
            return   # statement names and tags: collected from the text (RegionSite.marks)
        if d.kind == "kernel":
            raise FrontendError(f"nested region: a 'kernel' directive inside region "
                                f"{self.site.name!r}", span)
        if d.kind == "end_kernel":
            raise FrontendError(f"'end kernel' inside a nested block of region "
                                f"{self.site.name!r}: a region must end in the block where it "
                                "starts", span)
        raise FrontendError(f"transform directive {d.name!r} inside region "
                            f"{self.site.name!r}: transform calls must directly follow the "
                            "'kernel' directive", span)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        span = self.span(node, node.name)
        if node.storage and set(node.storage) & {"static", "extern"}:
            raise UnsupportedConstructError(f"{' '.join(node.storage)} declaration of "
                                            f"{node.name!r} inside a region", span)
        ctype = self.fscope.resolve(node.type)
        if ctype.kind == "pointer" and node.init is not None:
            self._bind_value(node, span, Binding("view", node.name, ctype,
                                                 value=self._pointer_view(node, span)))
            return
        if ctype.is_scalar and ctype.dtype.kind in "iu" and node.init is not None:
            index = self._index_value(node, ctype)
            if index is not None:
                self._bind_value(node, span, Binding("loop", node.name, ctype, value=index))
                return
        shape = self._local_shape(node, ctype, span)
        # a callee's local: _tr_<callee>_<name> (it meets the region's names in one kernel)
        name = self.names(f"_tr_{self.call_stack[-1].name}_{node.name}" if self.call_stack
                          else node.name)
        self.out.temporaries[name] = TemporaryVariable(
            name=name, dtype=ctype.dtype, shape=shape, address_space=AddressSpace.PRIVATE,
            span=span)
        value = None
        if node.init is not None and not shape:
            value = convert(self.rvalue(node.init), ctype.dtype)
        elements = self._array_initialiser(node, shape, span) if shape and node.init else {}
        self.scopes[-1][node.name] = Binding("local", name, ctype)
        if len(self.scopes) == 1:
            self.out.top_level[node.name] = span
        if value is not None:
            self.emit(p.Variable(name), value, node, node.name)
        for index in (itertools.product(*map(range, shape)) if shape and node.init else ()):
            item = elements.get(index)
            value = ctype.dtype.type(0) if item is None else convert(self.rvalue(item),
                                                                     ctype.dtype)
            self.emit(subscript(name, index), value, node, node.name)

    #: Most elements of a local array an initialiser list sets (each is one statement).
    _INITIALISED_ELEMENTS = 256

    def _array_initialiser(self, node: c_ast.Decl, shape: tuple[int, ...], span
                           ) -> dict[tuple[int, ...], c_ast.Node]:
        """The elements a braced initialiser of a local array gives (``double m[3] = {0};``,
        ``int c[2][2] = {{1, 2}, {3}}``), by C index; the others are zero (h72)."""
        out: dict[tuple[int, ...], c_ast.Node] = {}

        def refuse(why: str) -> UnsupportedConstructError:
            return UnsupportedConstructError(
                f"initialiser of the local array {node.name!r} inside a region: {why}; "
                "assign its elements in statements instead", span)

        def walk(init: c_ast.Node, prefix: tuple[int, ...]) -> None:
            depth = len(prefix)
            if not isinstance(init, c_ast.InitList):
                raise refuse("only braced lists, one pair of braces per dimension")
            if depth + 1 < len(shape) and not all(isinstance(e, c_ast.InitList)
                                                  for e in init.exprs):
                raise refuse("only braced lists, one pair of braces per dimension")
            if len(init.exprs) > shape[depth]:
                raise refuse(f"{len(init.exprs)} values for {shape[depth]} elements")
            for k, item in enumerate(init.exprs):
                if isinstance(item, c_ast.NamedInitializer):
                    raise refuse("designated initialisers are not supported")
                if depth + 1 < len(shape):
                    walk(item, (*prefix, k))
                elif isinstance(item, c_ast.InitList):
                    raise refuse("only braced lists, one pair of braces per dimension")
                else:
                    out[(*prefix, k)] = item
        if int(np.prod(shape)) > self._INITIALISED_ELEMENTS:
            raise refuse(f"more than {self._INITIALISED_ELEMENTS} elements")
        walk(node.init, ())
        return out

    def _bind_value(self, node: c_ast.Decl, span: SourceSpan | None, b: Binding) -> None:
        """Declare `node`'s name as a value fixed at its declaration (no temporary)."""
        self.scopes[-1][node.name] = b
        if len(self.scopes) == 1:
            self.out.top_level[node.name] = span

    def _index_value(self, node: c_ast.Decl, ctype: CType) -> Expression | None:
        """The value of an integer local set once, at its declaration, from loop variables
        and values that keep theirs while it lives (``int k = i*n + j;``): its uses read
        that expression, so ``a[k]`` is the affine ``a[i*n + j]``.  None where it is
        assigned again, or its value reads an array, calls a function, or reads a name that
        changes (it stays a private temporary)."""
        if any(isinstance(n, (c_ast.FuncCall, c_ast.Assignment)) or (isinstance(
                n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")) for n in _walk(
                node.init)):
            return None   # built once, as a temporary's value (a call may have effects)
        block = self._block()
        if _writes(node.name, block) != 1 or self._changing_name(node.init, block):
            return None
        value = convert(self.exprs.visit(node.init), ctype.dtype)
        if nodes_of(value, p.Subscript) or nodes_of(value, p.Call):
            return None
        return value

    def _bind_assigned_index(self, item: c_ast.Node, block: c_ast.Compound,
                             position: int) -> bool:
        """Bind an index variable declared outside the region and assigned in it, as
        Rodinia's srad writes ``k = i*cols + j;`` at the top of its loop body with ``int k``
        at the top of the function (``private(j, k)``): its reads in the rest of `block`
        read that value, as those of ``int k = i*cols + j;`` would (`_index_value`), so
        ``J[k]`` is ``J[i*cols + j]``.  Only where the region reads the integer local only
        after such an assignment in the same block (`_read_after_own_assignment`) and never
        after the region; the value reads no array, calls nothing and reads only names that
        keep their values in `block`.  False where it is an ordinary statement."""
        if (self.call_stack or not isinstance(item, c_ast.Assignment) or item.op != "="
                or not isinstance(item.lvalue, c_ast.ID)):
            return False
        name = item.lvalue.name
        if any(name in scope for scope in self.scopes):
            return False   # declared in the region: `_index_value` decides at its declaration
        entry = self.site.visible.get(name)
        if entry is None or entry[0] not in ("local", "param"):
            return False
        ctype = self.fscope.resolve(entry[1].type)
        if not ctype.is_scalar or ctype.dtype is None or np.dtype(ctype.dtype).kind not in "iu":
            return False
        if any(isinstance(n, (c_ast.FuncCall, c_ast.Assignment)) or (isinstance(
                n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")) for n in _walk(
                item.rvalue)):
            return False
        if not _read_after_own_assignment(name, c_ast.Compound(list(self.site.statements))) \
                or self._changing_name(item.rvalue, block):
            return False
        if any(isinstance(n, c_ast.UnaryOp) and n.op == "&" and _base_name(n.expr) == name
               for n in _walk(self.site.function.body)):
            return False   # a pointer to it may read the value the region leaves
        if self._references is None:
            self._references = References(self.site.function)
        if self._references.used_after(name, self.site):
            return False
        value = convert(self.exprs.visit(item.rvalue), ctype.dtype)
        if nodes_of(value, p.Subscript) or nodes_of(value, p.Call):
            return False
        self.scopes[-1][name] = Binding("loop", name, ctype, value=value)
        return True

    def _block(self) -> c_ast.Node:
        """The innermost block being built: a declaration there lives until its end."""
        if self._blocks and self._blocks[-1][0] == len(self.scopes):
            return self._blocks[-1][1]
        if self.call_stack and len(self.scopes) - 1 == self._scope_base:
            return self.call_stack[-1].function.body
        return c_ast.Compound(list(self.site.statements))   # the region's top level

    def _changing_name(self, init: c_ast.Node, block: c_ast.Node) -> str | None:
        """A name `init` reads that `block` may change (assign, increment, write an element
        of), whose address the region takes (a pointer may write it), or a global where
        `block` calls a function of the file; None when all keep their values (loop
        variables of enclosing loops always do)."""
        region = c_ast.Compound([*self.site.statements, *(
            [self.call_stack[-1].function.body] if self.call_stack else [])])
        written = _assigned(block) | {_base_name(n.expr) for n in _walk(region)   # &s: a view
                                      if isinstance(n, c_ast.UnaryOp) and n.op == "&"}
        calls = any(isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID)
                    and n.name.name in self.functions for n in _walk(block))
        for name in sorted(_ids(init)):
            if name in self.functions:
                continue
            bound = [s[name] for s in self.scopes[self._scope_base:] if name in s]
            if bound and bound[-1].kind in ("loop", "view"):
                continue   # a loop variable (its loop alone sets it) or a value fixed so
            entry = None if bound else self.site.visible.get(name)
            ctype = (bound[-1].ctype if bound else
                     self.fscope.resolve(entry[1].type) if entry is not None else None)
            if ctype is not None and ctype.is_buffer:
                continue   # an array is never assigned; values read from it are refused
            if name in written or (calls and entry is not None and entry[0] == "global"):
                return name
        return None

    def _pointer_view(self, node: c_ast.Decl, span: SourceSpan | None) -> View:
        """What a local pointer declared in the region points into (``double *row = a +
        i*n``): its reads and writes are the array's elements (`frontends.c.inline`).  The
        offset is taken where the pointer is declared, so the names it reads must keep their
        values while the pointer lives (the pointer itself cannot be assigned: `lvalue`
        refuses), and it reads no array."""
        target = isinstance(node.init, c_ast.UnaryOp) and node.init.op == "&" and isinstance(
            node.init.expr, c_ast.ID)   # &s: the variable itself, no offset
        changing = None if target else self._changing_name(node.init, self._block())
        view = None if changing else pointer_view(self, node.name, node.init, span)
        if view is not None and not (view.offset is not None and nodes_of(view.offset,
                                                                           p.Subscript)):
            return view
        raise UnsupportedConstructError(
            f"local pointer {node.name!r} points at an offset that "
            + (f"uses {changing!r}, which the region writes" if changing else "reads an array")
            + ": write the subscript in full instead (a[k + j] for row[j])", span)

    def _local_shape(self, node: c_ast.Decl, ctype: CType, span) -> tuple[int, ...]:
        if ctype.kind == "scalar":
            return ()
        if ctype.kind == "array":
            dims = tuple(self.fscope.constant_value(d) if d is not None else None
                         for d in ctype.dims)
            if None not in dims:
                return dims
        if ctype.kind == "pointer":
            raise UnsupportedConstructError(
                f"local pointer {node.name!r} declared without a value inside a region: "
                "declare it where it gets its value, pointing into an array (double *row = a "
                "+ i*n; or = &a[i][0]), and do not assign it again", span)
        what = ctype.description or f"{ctype.kind} of non-constant size"
        raise UnsupportedConstructError(f"declaration of {node.name!r} ({what}) inside a "
                                        "region: only scalars and constant-size arrays",
                                        span)

    def visit_Assignment(self, node: c_ast.Assignment) -> TExpr:
        """One statement per assignment; in a chain (``a = b = c``) the rightmost first.

        The value of an assignment is its left operand after the assignment (C11 6.5.16),
        so the next one out reads the target back: converted to its type, and correct even
        where the right-hand side reads the target (``a = b = b + 1``).  A valid program
        cannot make the outer target's subscripts read what an inner one writes (that would
        be unsequenced), so the statements' order is the only order there is.
        """
        target, dtype, token = self.lvalue(node.lvalue)
        value = self.rvalue(node.rvalue)
        if node.op != "=":
            value = self.exprs.binary(node.op[:-1], TExpr(target, dtype), value, node)
        self.emit(target, convert(value, dtype), node, token)
        return TExpr(target, dtype)

    def rvalue(self, node: c_ast.Node) -> TExpr:
        """The value of a right-hand side or initialiser; a chained assignment there is
        emitted first and its target read back."""
        if isinstance(node, c_ast.Assignment):
            return self.visit_Assignment(node)
        return self.exprs.visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op not in ("++", "--", "p++", "p--"):
            self.exprs.visit(node)   # errors for unsupported operands; no effect otherwise
            return
        target, dtype, token = self.lvalue(node.expr)
        value = self.exprs.binary(node.op[-1], TExpr(target, dtype), TExpr(1, INT32, True),
                                  node)
        self.emit(target, convert(value, dtype), node, token)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.exprs.visit(node)   # a function of the file is inlined; math functions: no effect

    def inline_call(self, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]) -> TExpr:
        """The value of a call of function `name` of the file, its body inlined before the
        statement being built (`frontends.c.inline`)."""
        if self._no_calls:
            raise UnsupportedConstructError(f"call of function {name!r} in {self._no_calls} "
                                            "is not supported", self.span(node, name))
        return inline_call(self, node, name, args)

    @staticmethod
    def assigned_in(node: c_ast.Node | None) -> set[str]:
        """Names `node` may assign (`_assigned`)."""
        return _assigned(node)

    @staticmethod
    def nodes_in(node: c_ast.Node | None) -> Iterator[c_ast.Node]:
        """`node` and every node below it (`_walk`)."""
        return _walk(node)

    def enter_callee(self, frame: Frame, scope: dict[str, Binding],
                     build: Callable[[], None]) -> None:
        """Run `build` in the scope of an inlined callee (its parameters `scope`)."""
        saved = (self._scope_base, self.via, self._iname_prefix)
        self.via = (*self.via, (frame.name, replace(frame.site, inlined_at=())))
        self.call_stack.append(frame)
        self.scopes.append(scope)
        self._scope_base, self._iname_prefix = len(self.scopes) - 1, f"{frame.name}_"
        try:
            build()
        finally:
            self.scopes.pop()
            self.call_stack.pop()
            self._scope_base, self.via, self._iname_prefix = saved

    def visit_Cast(self, node: c_ast.Cast) -> None:
        self.exprs.visit(node)

    visit_ID = visit_Constant = visit_BinaryOp = visit_TernaryOp = visit_Cast
    visit_ArrayRef = visit_StructRef = visit_ExprList = visit_Cast

    def lvalue(self, node: c_ast.Node) -> tuple[Expression, np.dtype, str | None]:
        """The IR target of an assignment, its C type, and its name (for spans)."""
        if isinstance(node, c_ast.ID):
            b = self.lookup(node.name, node)
            if b.kind == "loop":
                raise UnsupportedConstructError(
                    f"assignment to the loop variable {node.name!r} inside its loop (not a "
                    "canonical for loop)", self.span(node, node.name))
            if not b.ctype.is_scalar:
                raise UnsupportedConstructError(f"assignment to the whole array "
                                                f"{node.name!r}", self.span(node, node.name))
            return p.Variable(b.name), b.ctype.dtype, node.name
        if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp)
                                                and node.op == "*"):
            b, idx = self.exprs.array_access(node)
            return subscript(b.name, idx), b.ctype.dtype, self.out.c_names.get(b.name, b.name)
        te = self.exprs.visit(node)   # a member of an array of structs; others raise here
        if isinstance(node, c_ast.StructRef) and isinstance(te.expr, p.Subscript):
            view = te.expr.aggregate.name
            return te.expr, te.dtype, self.out.c_names.get(view, view)
        raise UnsupportedConstructError(f"cannot assign to {te.expr}", self.span(node))

    # -- control flow ---------------------------------------------------------------------

    def visit_If(self, node: c_ast.If) -> None:
        cond = self.exprs.condition(node.cond)
        if _ids(node.cond) & (_assigned(node.iftrue) | _assigned(node.iffalse)) or \
                self._calls_function(node.iftrue) or self._calls_function(node.iffalse):
            cond = self._hoist(cond, node)
        self._branch(cond, node.iftrue)
        if node.iffalse is not None:
            self._branch(p.LogicalNot(cond), node.iffalse)

    def _hoist(self, cond: Expression, node: c_ast.Node, token: str = "if") -> Expression:
        """Evaluate a condition once, before its branches change what it reads."""
        name = self.names("_tr_cond")
        self.out.temporaries[name] = TemporaryVariable(
            name=name, dtype=INT32, address_space=AddressSpace.PRIVATE, span=self.span(node))
        self.emit(p.Variable(name), TypeCast(INT32, cond), node, token)
        return p.Comparison(p.Variable(name), "!=", 0)

    def visit_Continue(self, node: c_ast.Continue) -> None:
        """``continue``: the statements after it in its loop's body get the negation of the
        conditions it is under (those of the body's ifs), evaluated here once when the body
        writes what they read."""
        if not self.continue_scopes:
            raise UnsupportedConstructError("continue outside the for loops of the region is "
                                            "not supported", self.span(node, "continue"))
        scope = self.continue_scopes[-1]
        conds = self.predicates[scope.base:]
        if not conds:
            scope.guards.append(NEVER)
            return
        cond = reduce(lambda a, b: p.LogicalAnd((a, b)), conds)
        read = set().union(*(_ids(c) for c in _conditions_around(scope.body, node)))
        if read & _assigned(scope.body) or self._calls_function(scope.body):
            inner = self.predicates[scope.base:]
            del self.predicates[scope.base:]
            try:
                cond = self._hoist(cond, node, "continue")
            finally:
                self.predicates.extend(inner)
        scope.guards.append(p.LogicalNot(cond))

    def _calls_function(self, stmt: c_ast.Node | None) -> bool:
        """Whether `stmt` calls a function of the file (which may write what a condition
        reads: the condition is then evaluated once, before)."""
        return any(isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID)
                   and n.name.name in self.functions for n in _walk(stmt))

    def _branch(self, predicate: Expression, stmt: c_ast.Node | None) -> None:
        self.predicates.append(predicate)
        self.scopes.append({})
        try:
            self.visit(stmt)
        finally:
            self.scopes.pop()
            self.predicates.pop()

    def visit_For(self, node: c_ast.For) -> None:
        span = self.span(node, "for")
        head = analyse_for(node, self.fscope, span)
        ctype = self._loop_var_type(head.var, head.decl, node, span)
        if head.decl is None and not self.call_stack:
            self.out.outer_loop_finals[head.var] = self._final_value(head, node)
        lower = self._bound(head.init, "the initial value of a loop variable", node)
        typed = [(op, *self._typed_bound(b, "a loop bound", node)) for op, b in head.conditions]
        conditions = [(op, bound) for op, bound, _ in typed]
        iname = self.new_iname(head.var)
        value = loop_value(iname, lower, head.step)
        constraints = bound_constraints(value, lower, head.step, conditions, iname)
        unsigned = [(op, b) for (op, _, dtype), (_, b) in zip(typed, head.conditions)
                    if unsigned_comparison(ctype.dtype, dtype)]
        if head.step > 0 and unsigned:
            # C compares the signed variable converted to unsigned: from a negative start
            # the loop runs no iteration (i = -3; i < n with size_t n)
            self._negative_start(head, *unsigned[0])
            constraints.append((lower, ">=", 0))
        loop = Loop(iname, head.var, value, constraints,
                    self.loops[-1] if self.loops else None, span)
        self.out.loops.append(loop)
        self.loops.append(loop)
        self.scopes.append({head.var: Binding("loop", iname, ctype, value)})
        self.continue_scopes.append(ContinueScope(len(self.predicates), node.stmt))
        try:
            self.visit(node.stmt)
        finally:
            self.scopes.pop()
            self.loops.pop()
            self.continue_scopes.pop()
        if head.decl is None:
            self.scopes[-1][head.var] = Binding("stale", head.var, ctype)

    def _negative_start(self, head: LoopHead, op: str, bound: c_ast.Node) -> None:
        """Refuse a constant negative start of a loop whose condition C evaluates in
        unsigned arithmetic: the loop runs no iteration, which is rarely what was meant."""
        start = self.fscope.constant_value(head.init)
        if start is None or start >= 0:
            return
        text = CGenerator().visit(bound)
        raise FrontendError(
            f"the condition '{head.var} {op} {text}' compares in unsigned arithmetic (the bound "
            f"is unsigned and {head.var!r} is signed), so the start {start} converts to a large "
            f"number and the loop runs no iteration in C: convert the bound to a signed type "
            f"((long){text}) or start at 0", self.span(bound))

    def _final_value(self, head: LoopHead, node: c_ast.For) -> str | None:
        """The C expression of the loop variable's value after the loop, for the caller to
        assign after the region; None unless the loop is at the region's top level, outside
        any if, with one condition on values from outside the region."""
        if self.loops or self.predicates or len(head.conditions) != 1:
            return None
        names = {n.name for part in (head.init, head.conditions[0][1]) for n in _walk(part)
                 if isinstance(n, c_ast.ID)}
        if any(not self._from_outside(n, node) for n in sorted(names)):
            return None
        return final_value_text(head)

    def _from_outside(self, name: str, node: c_ast.Node) -> bool:
        """Whether `name` in a loop header means the same after the region: a variable from
        outside it, or a file-scope constant (an enumerator)."""
        if self.fscope.constant_value(c_ast.ID(name)) is not None:
            return True
        try:
            return self._peek(name, node).kind == "outer"
        except TranslatorError:
            return False

    def _bound(self, node: c_ast.Node, what: str, loop: c_ast.For | None = None
               ) -> Expression:
        return self._typed_bound(node, what, loop)[0]

    def _typed_bound(self, node: c_ast.Node, what: str, loop: c_ast.For | None = None
                     ) -> tuple[Expression, np.dtype]:
        """A loop bound as an IR expression, with its C type."""
        saved, self._no_calls = self._no_calls, what
        try:
            te = self.exprs.visit(node)
        finally:
            self._no_calls = saved
        if te.dtype.kind not in "iub":
            raise FrontendError(f"{what} must be an integer expression", self.span(node))
        if self.loops and (nodes_of(te.expr, p.Subscript)
                           or self._computed_bound(te.expr, node, loop)):
            return self._bound_temporary(te, node), te.dtype
        self.out.bound_sources[id(te.expr)] = (te.expr, node, te.dtype)
        return te.expr, te.dtype

    def _computed_bound(self, expr: Expression, node: c_ast.Node,
                        loop: c_ast.For | None) -> bool:
        """Whether the loop condition `node` reads a scalar that the region set before the
        loop (``len = end - start; for (j = 0; j < len; j++)``) and the loop never writes:
        then its value on entry holds for the whole loop, as a bound temporary."""
        set_before = {s.assignee_name for s in self.out.statements}
        if loop is None or not dependencies(expr) & set_before:
            return False
        read = {n.name for n in _walk(node) if isinstance(n, c_ast.ID)}
        return not read & (_assigned(loop.stmt) | _assigned(loop.next))

    def _bound_temporary(self, te: TExpr, node: c_ast.Node) -> Expression:
        """A bound that reads an array inside the enclosing loops (``rowptr[i + 1]``): a
        private temporary set just before the loop, so the loop's domain is data-dependent
        (its trip count unknown, fixed per iteration of the enclosing loops)."""
        name = self.names("_tr_bound")
        self.out.temporaries[name] = TemporaryVariable(
            name=name, dtype=te.dtype, address_space=AddressSpace.PRIVATE, span=self.span(node))
        self.out.bound_temporaries.add(name)
        self.emit(p.Variable(name), te.expr, node)
        return p.Variable(name)

    def _loop_var_type(self, var: str, decl: c_ast.Decl | None, node, span) -> CType:
        if decl is not None:
            ctype = self.fscope.resolve(decl.type)
        else:
            b = self._peek(var, node)
            if b.kind == "loop":
                raise UnsupportedConstructError(
                    f"the loop over {var!r} reuses the variable of an enclosing loop", span)
            if b.kind == "outer":
                self.out.outer_loop_vars.setdefault(var, span)
            ctype = b.ctype
        if ctype.kind != "scalar" or ctype.dtype.kind not in "iu":
            raise UnsupportedConstructError(f"loop variable {var!r} must have an integer type",
                                            span)
        return ctype


# ---------------------------------------------------------------------------------------------
# syntactic scans

def _walk(node: c_ast.Node | None) -> Iterator[c_ast.Node]:
    """`node` and every node below it, pre-order; iterative (a sum of thousands of terms is
    a tree that deep, which nested generators would walk in quadratic time)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        yield n
        stack.extend(reversed([child for _, child in n.children()]))


def _prescan(statements: list[c_ast.Node]) -> tuple[set[str], set[str], set[str]]:
    """(identifiers used, names declared, loop variable names) in the region's statements."""
    idents: set[str] = set()
    declared: set[str] = set()
    loop_vars: set[str] = set()
    for stmt in statements:
        for n in _walk(stmt):
            if isinstance(n, c_ast.ID):
                idents.add(n.name)
            elif isinstance(n, c_ast.Decl) and n.name:
                declared.add(n.name)
            elif isinstance(n, c_ast.For):
                init = n.init
                if isinstance(init, c_ast.DeclList) and init.decls:
                    loop_vars.add(init.decls[0].name)
                elif isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
                    loop_vars.add(init.lvalue.name)
    return idents, declared - loop_vars, loop_vars


def _conditions_around(root: c_ast.Node, target: c_ast.Node) -> list[c_ast.Node]:
    """The conditions of the ifs in `root` that hold `target` (outermost first)."""
    stack: list[tuple[c_ast.Node, tuple[c_ast.Node, ...]]] = [(root, ())]
    while stack:
        node, conds = stack.pop()
        if node is target:
            return list(conds)
        for name, child in node.children():
            inner = conds + (node.cond,) if isinstance(node, c_ast.If) and name != "cond" \
                else conds
            stack.append((child, inner))
    return []


def _read_after_own_assignment(name: str, region: c_ast.Compound) -> bool:
    """Whether every write of `name` in `region` is a statement ``name = value;`` of a
    block (`value` not reading `name`), and every read comes later in the same block,
    with no other write of `name` between: then each read sees the value of the
    assignment before it in its block, whatever ran before the block."""
    assignments = 0
    covered = 0
    for node in _walk(region):
        if not isinstance(node, c_ast.Compound):
            continue
        items = node.block_items or []
        for k, item in enumerate(items):
            if not (isinstance(item, c_ast.Assignment) and item.op == "="
                    and isinstance(item.lvalue, c_ast.ID) and item.lvalue.name == name):
                continue
            later = c_ast.Compound(list(items[k + 1:]))
            if _writes(name, later) or name in _ids(item.rvalue):
                return False
            assignments += 1
            covered += 1 + sum(isinstance(n, c_ast.ID) and n.name == name
                               for n in _walk(later))
    total = sum(isinstance(n, c_ast.ID) and n.name == name for n in _walk(region))
    return assignments > 0 and _writes(name, region) == assignments and covered == total


def _ids(node: c_ast.Node | None) -> set[str]:
    return {n.name for n in _walk(node) if isinstance(n, c_ast.ID)}


def _base_name(node: c_ast.Node) -> str | None:
    while isinstance(node, (c_ast.ArrayRef, c_ast.UnaryOp)):
        node = node.name if isinstance(node, c_ast.ArrayRef) else node.expr
    return node.name if isinstance(node, c_ast.ID) else None


def _writes(name: str, node: c_ast.Node | None) -> int:
    """How many times `node` declares, assigns, increments or takes the address of the
    variable `name` itself (not an element it points to)."""
    count = 0
    for n in _walk(node):
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        elif isinstance(n, c_ast.Decl):
            count += n.name == name
            continue
        else:
            continue
        count += isinstance(target, c_ast.ID) and target.name == name
    return count


def _assigned(node: c_ast.Node | None) -> set[str]:
    """Names a statement may write (assignments, increments, declarations)."""
    out: set[str] = set()
    for n in _walk(node):
        if isinstance(n, c_ast.Assignment):
            out.add(_base_name(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            out.add(_base_name(n.expr))
        elif (isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID)
              and n.name.name in POINTER_RESULTS and n.args is not None
              and len(n.args.exprs) == 2 and isinstance(n.args.exprs[1], c_ast.UnaryOp)):
            out.add(_base_name(n.args.exprs[1].expr))   # frexp(x, &e) writes e
        elif isinstance(n, c_ast.Decl):
            out.add(n.name)
    out.discard(None)
    return out
