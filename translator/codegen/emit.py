"""Printing the loop tree: loops with exact bounds, unrolled copies, guarded statements.

Each node is printed in a *context*: the conditions the enclosing loops and the grid guarantee
(comparisons over inames and parameters).  A loop's bounds are its domain's constraints not
already implied by the context; a statement's guard is its domain's conditions not implied by
the context (isl gist), so a tile that over-covers the domain gets exactly the `if` it needs.
Integer ``//`` and ``%`` print as C ``/`` and ``%`` only where isl proves both operands
non-negative in that context.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.codegen import images
from translator.codegen.cexpr import CExpressionPrinter, _is_minus_one, _negated, safe_name
from translator.codegen.cnames import (PRECEDENCE, c_type_name, int_literal, line_directive_file,
                                      negated_text)
from translator.codegen.complex import COMPLEX128, assignment_value
from translator.codegen.grid import Grid
from translator.codegen.arg_reductions import ARG_STORE_TAG, arg_finish_text, is_arg_finish
from translator.codegen.group_updates import (finish_call_text, finish_update_parts,
                                              is_group_finish)
from translator.codegen.idle_groups import idle_group_tests
from translator.codegen.speculation import speculative_domain
from translator.codegen.parallel_reductions import atomic_update_text
from translator.schedule import BarrierNode, LoopNode, Schedule, ScheduleNode, StatementNode
from translator.diagnostics import CodegenError
from translator.ir import isl_glue as glue
from translator.ir.data import ArrayArg, FixedStrideTag, NestingTag, strides
from translator.ir.expr import (Expression, TypeCast, dependencies, expr_key, readable_condition,
                                substitute, typed_key)
from translator.ir.statements import (Assignment, BarrierInstruction, CallInstruction,
                                      NoOpInstruction, Statement)
from translator.ir.tags import GroupTag, LocalTag
from translator.ir.types import FLOAT64, INT64, TypeOracle

Conditions = tuple[Expression, ...]


def guard_order(predicate: Expression) -> tuple[int, str]:
    """The sort key of a statement's predicates in the ``&&`` that guards it: those that
    read fewer array elements first (``i > 0`` before ``in[i - 1] > t``, ``idx[i] >= 0``
    before ``a[idx[i]] > 0``), so that a guard the source tested first is tested first
    (C's ``&&`` then skips the read it protects: the predicates are a set, their source
    order is not kept); then the expressions' text, for determinism."""
    text = expr_key(predicate)
    return text.count("["), text


class DevicePrinter(CExpressionPrinter):
    """The device-code printer: an environment of unrolled iname values, fp64 tracking."""

    def __init__(self, dtype_of, *, flat_index, is_nonnegative, env: dict[str, Expression],
                 helpers: set) -> None:
        super().__init__(dtype_of, flat_index=flat_index, is_nonnegative=is_nonnegative,
                         target="opencl")
        self.env = env
        self.helpers = helpers
        self.uses_fp64 = False
        self.linear_offset = None
        #: Array arguments passed as images, by name: their reads print as image reads.
        self.images: dict[str, ArrayArg] = {}
        #: (read, env) -> the text replacing a read, or None (`translator.codegen.vector_loads`).
        self.vector_read = None
        #: Texts of plain flat indices, shared by the printers of one emitter (`index_text`).
        self.index_texts: dict[int, tuple] | None = None

    def rec(self, expr: Expression, prec: int = 0) -> str:  # type: ignore[override]
        if isinstance(expr, p.ExpressionNode):
            dt = self.result_ctx(expr)
            # (np.dtype("float64") == None is True in numpy: test for None first.)
            if dt is not None and dt in (FLOAT64, COMPLEX128):
                self.uses_fp64 = True
        return super().rec(expr, prec)

    def map_constant(self, expr, prec: int = 0) -> str:
        if isinstance(expr, np.generic) and expr.dtype == FLOAT64:
            self.uses_fp64 = True
        elif isinstance(expr, float):
            # A Python float is a double literal unless the context makes it single.
            ctx = self._ctx
            if ctx is None or ctx.kind != "f" or ctx.itemsize >= 8:
                self.uses_fp64 = True
        return super().map_constant(expr, prec)

    def map_subscript(self, expr: p.Subscript, prec: int = 0) -> str:
        if self.vector_read is not None:
            text = self.vector_read(expr, self.env)
            if text is not None:
                return text
        name = getattr(expr.aggregate, "name", None)
        if name not in self.images:
            return super().map_subscript(expr, prec)
        arg = self.images[name]
        indices = tuple(expr.index_tuple)
        if len(indices) != len(arg.shape):
            raise CodegenError(f"image {name!r} has {len(arg.shape)} axes but is subscripted "
                               f"with {len(indices)} indices", arg.span)
        return images.read_text(safe_name(name), arg, [self._coordinate(i) for i in indices])

    def index_text(self, flat: Expression) -> str:
        """A flat index made of integers, parameters and inames outside `env` with +, * and
        casts only (`plain_index`) prints the same in every statement of a kernel (no
        proof, helper or vector read is involved): printed once per emitter (a kernel of
        hundreds of statements on a few subscripts prints each once).  The literal context
        (`_ctx`, the float type Python float literals adopt) cannot change the text: such an
        index holds no float literal, and a node built from integer literals only is an
        integer, so the assignee ``y[i]`` and the read ``y[i]`` share one entry."""
        memo = self.index_texts
        if memo is None:
            return super().index_text(flat)
        key = id(flat)
        hit = memo.get(key)
        if hit is None or hit[0] is not flat:
            shape = plain_shape(flat, False)
            if shape is not None and self.env and not self.env.keys().isdisjoint(shape[1]):
                return super().index_text(flat)   # printed in `env`: not remembered
            hit = memo[key] = self._index_entry(flat, shape)
        elif self.env and hit[1] is not None and not self.env.keys().isdisjoint(hit[3]):
            return super().index_text(flat)
        if hit[1] is None:
            return super().index_text(flat)
        self.uses_fp64 = self.uses_fp64 or hit[2]
        return hit[1]

    def _index_entry(self, flat: Expression, shape: tuple[object, tuple[str, ...]] | None
                     ) -> tuple[Expression, str | None, bool, tuple[str, ...]]:
        """(flat, its text outside `env` or None where it is not `plain_index` (`shape`, its
        `plain_shape`, is None), whether it needs fp64, its variables' names)."""
        if shape is None:
            return flat, None, False, ()
        def render() -> str:
            text = integer_text(self, flat, 0)
            return super(DevicePrinter, self).index_text(flat) if text is None else text
        text, fp64 = self._plain_entry(shape, render)
        return flat, text, fp64, shape[1]

    def plain_text(self, expr: Expression, *, readable: bool = False) -> str:
        """`self(expr)` (of ``readable_condition(expr)`` where `readable`); for a
        `plain_index` or a comparison of two (a guard, a loop test) outside `env`, the text
        printed once per process (`PLAIN_TEXTS`).  Keyed by `expr` itself, so that the
        conditions isl answers remember (`glue.gist_conditions`) hit by identity."""
        def render() -> str:
            return self(readable_condition(expr) if readable else expr)
        shape = plain_shape(expr, True)
        if shape is None or (self.env and not self.env.keys().isdisjoint(shape[1])):
            return render()

        def render_plain() -> str:
            shown = readable_condition(expr) if readable else expr
            text = integer_text(self, shown, 0)
            return self(shown) if text is None else text
        text, fp64 = self._plain_entry(shape, render_plain, readable)
        self.uses_fp64 = self.uses_fp64 or fp64
        return text

    def _plain_entry(self, shape: tuple[object, tuple[str, ...]], render,
                     readable: bool = False) -> tuple[str, bool]:
        """(text, needs fp64) of a plain expression whose `plain_shape` is `shape`:
        `render()`'s, remembered for every printer of the process under the expression's
        structure up to the names of its variables (node classes, operators, constants with
        their types, each variable by its place of first appearance) and the types of its
        variables, which is all its text depends on (no literal adopts a context, no proof,
        helper or read hook takes part; no printer of a plain expression orders terms or
        picks a spelling by name, and each variable prints as its `safe_name`): the many
        small kernels of a file print the same guards and subscripts on loops named
        ``i_1``, ``i_2``, ...  Remembered as the text cut at each variable
        (`_plain_template`); where two names are spelled alike (no template), as the text
        under a key that also holds the names."""
        structure, names = shape
        types = tuple(self.dtype_of.variable(n) for n in names)
        key = ("~", structure, readable, types)
        found = PLAIN_TEXTS.get(key)
        if found is None:
            named = ("=", structure, readable, types, names)
            hit = PLAIN_TEXTS.get(named)
            if hit is not None:
                return hit
            saved, self.uses_fp64 = self.uses_fp64, False
            try:
                text = render()
                found = (_plain_template(text, names), self.uses_fp64)
            finally:
                self.uses_fp64 = saved
            if found[0] is not None:
                _remember_plain(key, found)
            else:
                _remember_plain(named, (text, found[1]))
            return text, found[1]
        parts, fp64 = found
        spelled = [safe_name(n) for n in names]
        return "".join(part if isinstance(part, str) else spelled[part] for part in parts), fp64

    def _coordinate(self, index: Expression) -> str:
        # image coordinates are int: narrow wider index types explicitly
        dtype = self.dtype_of(index)
        text = self.rec(index)
        if dtype is not None and np.dtype(dtype) != np.dtype(np.int32):
            return f"(int)({text})"
        return text

    def map_linear_subscript(self, expr, prec: int = 0) -> str:
        # a[[k]] addresses element k of the buffer, after the array's offset.
        name = getattr(expr.aggregate, "name", None)
        if name in self.images:
            raise CodegenError(f"image {name!r} cannot be read through a flat index",
                               self.images[name].span)
        if self.linear_offset is not None and name is not None:
            offset = self.linear_offset(name)
            if offset != 0:
                return f"{safe_name(name)}[{self.rec(p.Sum((offset, expr.index)))}]"
        return super().map_linear_subscript(expr, prec)

    def map_variable(self, expr: p.Variable, prec: int = 0) -> str:
        if expr.name in self.env:
            return self.rec(self.env[expr.name], prec)
        return super().map_variable(expr, prec)


#: Texts of plain expressions (`DevicePrinter.plain_text`) by structure and variable types,
#: shared by every kernel of the process: the many small kernels of a file, or a kernel built
#: again through the API, print the same guards and subscripts.  Keys up to the names of
#: the variables (``("~", ...)``) hold `_plain_template`'s pieces instead of a text.
PLAIN_TEXTS: dict[tuple, tuple[Any, bool]] = {}
PLAIN_TEXTS_SIZE = 8192

#: A word of C text not preceded by a word character (so not a literal's suffix: ``10L``).
_C_WORD = re.compile(r"\b[A-Za-z_]\w*")


def _remember_plain(key: tuple, entry: tuple[Any, bool]) -> None:
    if len(PLAIN_TEXTS) >= PLAIN_TEXTS_SIZE:
        PLAIN_TEXTS.clear()
    PLAIN_TEXTS[key] = entry


def _plain_template(text: str, names: list[str]) -> tuple[str | int, ...] | None:
    """`text` cut at every word that is the `safe_name` of one of `names`: its pieces, with
    the number (position in `names`) of the variable in place of each such word (None where
    two names are spelled alike).  A plain
    expression's text holds no other word that could be spelled like a variable (casts are
    C type names, which `safe_name` never gives a variable)."""
    position = {safe_name(n): k for k, n in enumerate(names)}
    if len(position) != len(names):   # two names spelled alike: no template
        return None
    parts: list[str | int] = []
    last = 0
    for m in _C_WORD.finditer(text):
        k = position.get(m.group(0))
        if k is not None:
            parts += [text[last:m.start()], k]
            last = m.end()
    parts.append(text[last:])
    return tuple(parts)

#: Largest trip count to which a loop whose trip count varies across a work group is rounded
#: up (`TreeEmitter.uniform_trips`).
MAX_UNIFORM_TRIPS = 8


class TreeEmitter:
    """Prints a schedule's loop tree as the body of the OpenCL kernel."""

    def __init__(self, schedule: Schedule, grid: Grid, oracle: TypeOracle) -> None:
        self.schedule = schedule
        self.kernel = schedule.kernel
        self.stmts = self.kernel.id_to_statement
        self.oracle = oracle
        self.root_conditions = grid.conditions()
        self.grid_inames = grid.inames
        self.hardware = set(schedule.hardware)
        self.has_groups = any(isinstance(t, GroupTag) for t in schedule.hardware.values())
        self.lines: list[str] = []
        #: Where set, `line_directive` prints a placeholder for a span it finds here (its
        #: slot: `translator.ir.shape_memo.span_slots`) and notes any other (`unplaced`).
        self.line_slots: dict[int, int] | None = None
        self.unplaced = False
        self.helpers: set[tuple[str, str]] = set()
        #: (operation, dtype name) of the atomic updates used (`parallel_reductions`).
        self.atomics: set[tuple[str, str]] = set()
        self.uses_fp64 = False
        self._contexts: dict[Conditions, object] = {}
        self._domains: dict[frozenset[str], object] = {}
        self._iname_domains: dict[str, object] = {}
        self._gists: dict[tuple, list[Expression] | None] = {}
        self._bodies: dict[tuple, object] = {}
        self._executed: dict[tuple, object] = {}
        self._single: dict[str, Conditions] = {}
        self._bounds: dict[tuple, tuple] = {}
        self._barrier_loops: frozenset[str] | None = None
        self._flat: dict[tuple[str, object], Expression] = {}
        self._index_texts: dict[int, tuple] = {}
        self._strides: dict[str, tuple[Expression, tuple[Expression, ...]]] = {}
        self._wide_arrays: dict[str, bool] = {}
        self._predicates: dict[Expression, object] = {}
        #: `idle_tests` by loop node and context (the versioning probes ask again)
        self._idle: dict[tuple, Conditions] = {}
        self._speculative: dict[str, object] = {}
        self.images = {a.name: a for a in self.kernel.array_args if a.is_image}
        #: asked per statement (`finish_run`): a set, not a tuple built per question
        self.arg_names = frozenset(self.kernel.arg_names)

    # -- isl caches -------------------------------------------------------------------------

    def context(self, conds: Conditions):
        ctx = self._contexts.get(conds)
        if ctx is None:
            ctx = glue.context_set(conds, self.kernel.assumptions)
            self._contexts[conds] = ctx
        return ctx

    def domain(self, inames: frozenset[str]):
        dom = self._domains.get(inames)
        if dom is None:
            try:
                dom = glue.statement_domain(self.kernel.domains, inames)
            except Exception as e:  # isl or forest errors: report as codegen errors
                raise CodegenError(f"cannot build the domain of inames "
                                   f"{', '.join(sorted(inames))}: {e}", self.kernel.span) from None
            self._domains[inames] = dom
        return dom

    def iname_domain(self, iname: str):
        """The domains defining `iname` and their ancestors, intersected (all their inames)."""
        dom = self._iname_domains.get(iname)
        if dom is None:
            dom = glue.combined_domain(self.kernel.domains, [iname])
            self._iname_domains[iname] = dom
        return dom

    # -- printing helpers -------------------------------------------------------------------

    def printer(self, env: dict[str, Expression], proof_context) -> DevicePrinter:
        def nonneg(expr: Expression) -> bool:
            return glue.nonnegative_in(substitute(expr, env), proof_context)
        pr = DevicePrinter(self.oracle, flat_index=self.flat_index, is_nonnegative=nonneg,
                           env=env, helpers=self.helpers)
        pr.linear_offset = lambda name: self._layout(name)[0]
        pr.images = self.images
        pr.weak_of = lambda expr: self.oracle.typed(expr).weak
        pr.index_texts = self._index_texts
        return pr

    def flat_index(self, name: str, indices: tuple[Expression, ...]) -> Expression:
        """``offset + sum(index_k * stride_k)`` for an argument or temporary; one object per
        distinct subscript, so that the type oracle (memoised by identity) types it once."""
        key = (name, typed_key(indices))   # typed: pymbolic takes i + 1 and i + 1.0 for one
        flat = self._flat.get(key)
        if flat is None:
            flat = self._flat[key] = self._flat_index(name, indices)
        return flat

    def _flat_index(self, name: str, indices: tuple[Expression, ...]) -> Expression:
        offset, strd = self._layout(name)
        if len(indices) != len(strd):
            raise CodegenError(f"{name!r} has {len(strd)} axes but is subscripted with "
                               f"{len(indices)} indices", self.kernel.span)
        wide = self._wide(name)
        terms: list[Expression] = [] if offset == 0 else [_long(offset) if wide else offset]
        for idx, st in zip(indices, strd):
            if st == 0 or idx == 0:
                continue
            if st == 1:
                terms.extend(_sum_terms(idx))   # integer sums: association does not matter
            elif wide:
                terms.append(_long(p.Product((_flat_sum(idx), st))))
            else:
                terms.append(p.Product((_flat_sum(idx), st)))
        if not terms:
            return 0
        return terms[0] if len(terms) == 1 else p.Sum(tuple(terms))

    def _wide(self, name: str) -> bool:
        """Whether the flat index of global array `name` needs 64-bit arithmetic: unless its
        extents are constants whose product stays below 2**31, a product of extents (an int
        times an int) may overflow (an int8 array of 2.6e9 elements)."""
        hit = self._wide_arrays.get(name)
        if hit is None:
            hit = self._wide_arrays[name] = _needs_wide_index(self.kernel, name,
                                                              *self._layout(name))
        return hit

    def _layout(self, name: str) -> tuple[Expression, tuple[Expression, ...]]:
        hit = self._strides.get(name)
        if hit is None:
            hit = array_layout(self.kernel, name)
            self._strides[name] = hit
        return hit

    def out(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def collect(self, printer: DevicePrinter) -> None:
        self.uses_fp64 = self.uses_fp64 or printer.uses_fp64

    # -- the tree ---------------------------------------------------------------------------

    def emit(self, depth: int = 1) -> list[str]:
        self.region(self.schedule.body, self.root_conditions, {}, (), depth, None)
        return self.lines

    def region(self, nodes: tuple[ScheduleNode, ...], conds: Conditions,
               env: dict[str, Expression], active: tuple[str, ...], depth: int,
               loop: LoopNode | None) -> None:
        """The kernel body (`loop` None) or the body of a sequential loop: a hook where
        `translator.codegen.versioning` emits a guard-free copy for full tiles."""
        self.nodes(nodes, conds, env, active, depth)

    def nodes(self, nodes: tuple[ScheduleNode, ...], conds: Conditions,
              env: dict[str, Expression], active: tuple[str, ...], depth: int) -> None:
        k = 0
        while k < len(nodes):
            finishes = self.finish_run(nodes, k, conds)
            if len(finishes) > 1:
                self.finish_statements(finishes, conds, env, depth)
                k += len(finishes)
                continue
            group, common = self.guard_group(nodes, k, conds)
            if len(group) > 1:
                pr = self.printer(env, self.context(conds))
                self.out(depth, f"if ({self.joined(pr, common)})")
                self.collect(pr)
                self.out(depth, "{")
                self.nodes(group, conds + common, env, active, depth + 1)
                self.out(depth, "}")
                k += len(group)
                continue
            self.node(nodes[k], conds, env, active, depth)
            k += 1

    def finish_run(self, nodes: tuple[ScheduleNode, ...], start: int, conds: Conditions
                   ) -> list[Statement]:
        """The longest run of statements from `start` that end group reductions with a
        last-group finish and run unguarded in every work item: one call finishes them all
        (`translator.codegen.group_updates.finish_call_text`)."""
        run: list[Statement] = []
        for node in nodes[start:]:
            if not isinstance(node, StatementNode):
                break
            stmt = self.stmts[node.statement_id]
            if not is_group_finish(stmt, self.arg_names) \
                    or self.gist(stmt, conds) != [] or stmt.predicates:
                break
            run.append(stmt)
        return run

    def finish_statements(self, stmts: list[Statement], conds: Conditions,
                          env: dict[str, Expression], depth: int) -> None:
        """One call finishing the group reductions `stmts` (`finish_run`)."""
        parts = []
        for stmt in stmts:
            line = self.line_directive(stmt)
            if line:
                self.lines.append(line)
            pr = self.printer(env, glue.restrict_context(self.context(conds),
                                                         self.executed(stmt)))
            assignee, dtype = self.assignee_and_type(stmt)
            parts.append(finish_update_parts(stmt, assignee, pr, dtype))
            self.collect(pr)
        self.out(depth, finish_call_text(parts, self.atomics))

    def guard_group(self, nodes: tuple[ScheduleNode, ...], start: int, conds: Conditions
                    ) -> tuple[tuple[ScheduleNode, ...], Conditions]:
        """The longest run of statements from `start` sharing guard conditions (tested once
        for the run), and those conditions."""
        common: list[Expression] | None = None
        end = start
        while end < len(nodes):
            guard = self._plain_guard(nodes[end], conds)
            if guard is None:
                break
            shared = guard if common is None else [c for c in common if c in guard]
            shared = [c for c in shared if c not in conds]
            if not shared:
                break
            common = shared
            end += 1
        return nodes[start:end], tuple(common or ())

    def _plain_guard(self, node: ScheduleNode, conds: Conditions) -> list[Expression] | None:
        if not isinstance(node, StatementNode):
            return None
        stmt = self.stmts[node.statement_id]
        if not isinstance(stmt, (Assignment, CallInstruction)):
            return None
        return self.gist(stmt, conds)

    def node(self, node: ScheduleNode, conds: Conditions, env: dict[str, Expression],
             active: tuple[str, ...], depth: int) -> None:
        if isinstance(node, LoopNode):
            if node.unrolled:
                self.unrolled(node, conds, env, active, depth)
            else:
                self.loop(node, conds, env, active, depth)
        elif isinstance(node, BarrierNode):
            self.out(depth, f"barrier(CLK_LOCAL_MEM_FENCE);  /* {node.reason} */")
        else:
            self.statement(self.stmts[node.statement_id], conds, env, depth)

    def bounds(self, iname: str, conds: Conditions, active: tuple[str, ...]):
        dom = self.iname_domain(iname)
        known = set(active) | self.hardware
        if iname in self.barrier_loops():
            known -= self.local_inames()
            dom = self.group_domain(iname, dom)
        outer = tuple(n for n in glue.inames_of(dom) if n in known and n != iname)
        key = (iname, outer, conds)
        if key not in self._bounds:   # asked again when the loop prints (after a probe)
            self._bounds[key] = glue.loop_bound_constraints(dom, iname, list(outer),
                                                            self.context(conds))
        lowers, uppers = self._bounds[key]
        if not lowers or not uppers:
            side = "lower" if not lowers else "upper"
            raise CodegenError(f"loop over {iname!r} has no {side} bound", self.kernel.span)
        v = p.Variable(iname)
        new = tuple(p.Comparison(_scaled(a, v), ">=", e) for a, e in lowers)
        new += tuple(p.Comparison(_scaled(a, v), "<=", e) for a, e in uppers)
        return lowers, uppers, new

    def barrier_loops(self) -> frozenset[str]:
        """The inames of the sequential loops that hold a barrier.  Every work item of a group
        must run such a loop equally often, so its bounds are taken over the whole group (the
        local inames projected out) and the statements inside keep the rest as guards: a
        triangular tile loop ``123*j_outer <= i_inner + 32*i_outer`` ran fewer passes in the
        first work items, which left the barrier, and the others read tiles nobody fetched
        (silent wrong results on an H200, h64; PoCL happened to agree)."""
        if self._barrier_loops is None:
            found: set[str] = set()
            stack = list(self.schedule.body)
            while stack:
                node = stack.pop()
                if isinstance(node, LoopNode):
                    stack.extend(node.body)
                    if _has_barrier_node(node) or any(
                            isinstance(self.stmts[i], BarrierInstruction)
                            for i in _statement_ids(node)):
                        found.add(node.iname)
            self._barrier_loops = frozenset(found)
        return self._barrier_loops

    def group_domain(self, iname: str, dom):
        """`dom` (the domain of barrier loop `iname`) with the local inames its bounds name as
        parameters (a loop nested under a split loop's own domain: ``k <= 16*i_outer +
        i_inner``) made set dimensions, so that `bounds` projects them out like the others:
        every work item of the group then runs the loop equally often."""
        local = sorted(set(glue.params_of(dom)) & self.local_inames())
        if not local:
            return dom
        return glue.combined_domain(self.kernel.domains, [iname, *local])

    def local_inames(self) -> set[str]:
        """The inames on local hardware axes (l.0, l.1, ...)."""
        return {i for i, t in self.schedule.hardware.items() if isinstance(t, LocalTag)}

    def loop(self, node: LoopNode, conds: Conditions, env: dict[str, Expression],
             active: tuple[str, ...], depth: int) -> None:
        hoisted = self.hoistable(node, conds)
        if not hoisted:
            self.plain_loop(node, conds, env, active, depth)
            return
        pr = self.printer(env, self.context(conds))
        self.out(depth, f"if ({self.joined(pr, hoisted)})")
        self.collect(pr)
        self.out(depth, "{")
        self.plain_loop(node, conds + hoisted, env, active, depth + 1)
        self.out(depth, "}")

    def hoistable(self, node: LoopNode, conds: Conditions) -> Conditions:
        """Guard conditions shared by every statement in the loop and independent of its
        inames: tested once around the loop instead of in every iteration.  Never around a
        barrier (work items that skip it would hang the group)."""
        if _has_barrier_node(node):
            return ()
        inner = _loop_inames(node)
        common: list[Expression] | None = None
        for sid in _statement_ids(node):
            stmt = self.stmts[sid]
            if isinstance(stmt, BarrierInstruction):
                return ()
            if isinstance(stmt, NoOpInstruction):
                continue
            guard = self.gist(stmt, conds)
            if guard is None:
                return ()
            keep = [c for c in guard if not (dependencies(c) & inner)]
            common = keep if common is None else [c for c in common if c in keep]
            if not common:
                return ()
        return tuple(common or ())

    def gist(self, stmt: Statement, conds: Conditions) -> list[Expression] | None:
        """The guard of `stmt` in context `conds` (None: it never runs there)."""
        spec = self.speculative(stmt)
        key = (frozenset(stmt.within_inames), self.single_item(stmt), conds,
               None if spec is None else stmt.id)
        if key not in self._gists:
            self._gists[key] = glue.gist_conditions(self.guard_domain(stmt),
                                                    self.context(conds))
        return self._gists[key]

    def body_context(self, stmt: Statement, conds: Conditions, ctx, dom):
        """Context `ctx` of `conds` restricted to where `stmt` runs (`dom`, `guard_domain`): one
        set per loop body and guard, shared by the statements there (keyed as `gist`)."""
        spec = self.speculative(stmt)
        key = (frozenset(stmt.within_inames), self.single_item(stmt), conds,
               None if spec is None else stmt.id)
        found = self._bodies.get(key)
        if found is None:
            found = self._bodies[key] = glue.restrict_context(ctx, dom)
        return found

    def speculative(self, stmt: Statement):
        """The relaxed domain of an accumulator update that may run where its results are
        dead (`translator.codegen.speculation`), or None."""
        if stmt.id not in self._speculative:
            self._speculative[stmt.id] = speculative_domain(self, stmt)
        return self._speculative[stmt.id]

    def guard_domain(self, stmt: Statement):
        """Where `stmt` may run: `executed`, or its speculative relaxation."""
        spec = self.speculative(stmt)
        return self.executed(stmt) if spec is None else spec

    def single_item(self, stmt: Statement) -> Conditions:
        """For a statement writing global memory: ``iname == base`` on each hardware axis it
        has no iname on, so that one work item along that axis runs it, not all of them
        (a redundant read-modify-write of global memory would race)."""
        found = self._single.get(stmt.id)
        if found is None:
            found = self._single[stmt.id] = self._single_item(stmt)
        return found

    def _single_item(self, stmt: Statement) -> Conditions:
        if not any(isinstance(self.kernel.arg(n), ArrayArg) for n in stmt.assignee_names()):
            return ()
        if ARG_STORE_TAG in stmt.tags:     # the one work item that found the result stores it
            return ()
        mine = {self.schedule.hardware[i] for i in stmt.within_inames if i in self.hardware}
        out: list[Expression] = []
        for hw in self.grid_inames:
            if hw.tag not in mine:
                mine.add(hw.tag)
                out.append(p.Comparison(p.Variable(hw.iname), "==", hw.base))
        return tuple(out)

    def executed(self, stmt: Statement):
        """Where `stmt` runs: its domain, restricted by `single_item`."""
        inames = frozenset(stmt.within_inames)
        extra = self.single_item(stmt)
        if not extra:
            return self.domain(inames)
        found = self._executed.get((inames, extra))
        if found is None:
            found = glue.restrict_context(glue.context_set(extra), self.domain(inames))
            self._executed[inames, extra] = found
        return found

    def affine_predicate(self, cond: Expression):
        """The isl set of a predicate that compares affine expressions in inames and value
        arguments (values fixed for the whole launch), else None."""
        if cond not in self._predicates:
            fixed = self.kernel.all_inames | {a.name for a in self.kernel.value_args}
            self._predicates[cond] = (glue.affine_condition(cond)
                                      if dependencies(cond) <= fixed else None)
        return self._predicates[cond]

    def predicate_holds(self, cond: Expression, context) -> bool:
        """Whether a predicate is proved true in `context` (its test can go)."""
        s = self.affine_predicate(cond)
        return s is not None and glue.holds_in(s, context)

    def joined(self, pr: DevicePrinter, conds) -> str:
        tests = [pr.plain_text(c, readable=True) for c in conds]
        return " && ".join(f"({t})" if len(tests) > 1 and "||" in t else t for t in tests)

    def plain_loop(self, node: LoopNode, conds: Conditions, env: dict[str, Expression],
                   active: tuple[str, ...], depth: int) -> None:
        lowers, uppers, new = self.bounds(node.iname, conds, active)
        pr = self.printer(env, self.context(conds))
        name = safe_name(node.iname)
        box = self.uniform_trips(node, conds, active, lowers, uppers)
        if box is not None:
            start, extent = box
            last = start + extent - 1 if isinstance(start, int) else _plus(start, extent - 1)
            self.out(depth, "#pragma unroll")
            self.out(depth, f"for (int {name} = {pr(start)}; {name} <= {pr(last)}; ++{name})")
            self.collect(pr)
            self.out(depth, "{")
            v = p.Variable(node.iname)
            box_conds = (p.Comparison(v, ">=", start), p.Comparison(v, "<=", last))
            self.region(node.body, conds + box_conds, env, active + (node.iname,), depth + 1,
                        node)
            self.out(depth, "}")
            return
        start = _max([_ceil_div(e, a) for a, e in lowers])
        unit = [e for a, e in uppers if a == 1]
        tests = [f"{name} <= {pr.plain_text(_min(unit))}"] if unit else []
        tests += [pr.plain_text(p.Comparison(_scaled(a, p.Variable(node.iname)), "<=", e))
                  for a, e in uppers if a != 1]
        idle = self.idle_tests(node, conds)
        tests += [pr.plain_text(c, readable=True) for c in idle]
        new += idle
        self.out(depth, f"for (int {name} = {pr.plain_text(start)}; {' && '.join(tests)}; "
                        f"++{name})")
        self.collect(pr)
        self.out(depth, "{")
        self.region(node.body, conds + new, env, active + (node.iname,), depth + 1, node)
        self.out(depth, "}")

    def idle_tests(self, node: LoopNode, conds: Conditions) -> Conditions:
        """Group-uniform tests that let work groups with nothing to do in a loop holding a
        barrier skip it (`translator.codegen.idle_groups`)."""
        key = (id(node), conds)
        if key not in self._idle:
            ids = _statement_ids(node)
            barrier = _has_barrier_node(node) or any(
                isinstance(self.stmts[i], BarrierInstruction) for i in ids)
            self._idle[key] = (idle_group_tests(self, node, ids, conds)
                               if self.has_groups and barrier else ())
        return self._idle[key]

    def uniform_trips(self, node: LoopNode, conds: Conditions, active: tuple[str, ...],
                      lowers, uppers) -> tuple[Expression, int] | None:
        """(start, trip count) for a sequential loop whose trip count varies with the local id
        but is at most a small constant (the passes of a prefetch's fetch over a work group,
        ``16*o <= 17 - l``): it runs that constant count for every work item, its statements
        guarded by their domains, so that the device compiler can unroll it and issue all
        passes' loads together.  None for every other loop (printed from its exact bounds)."""
        local = self.local_inames()
        deps = set().union(*(dependencies(e) for _, e in lowers + uppers))
        if not deps & local or len(lowers) != 1 or lowers[0][0] != 1 \
                or _has_barrier_node(node):
            return None
        dom = self.iname_domain(node.iname)
        known = set(active) | self.hardware
        outer = [n for n in glue.inames_of(dom) if n != node.iname and n in known]
        extent = glue.constant_extent_bound(dom, node.iname, outer)
        if extent is None or not 1 < extent <= MAX_UNIFORM_TRIPS:
            return None
        # The lower bound may be a relaxation of one through an integer division (``i >=
        # 6*floor(m/2) + ...`` printed as ``3*m - 3 + ...``): the count must reach every value.
        start = lowers[0][1]
        last = p.Sum((start, extent - 1, p.Product((-1, p.Variable(node.iname)))))
        return (start, extent) if glue.is_nonnegative(last, dom) else None

    def unrolled(self, node: LoopNode, conds: Conditions, env: dict[str, Expression],
                 active: tuple[str, ...], depth: int) -> None:
        lowers, _, _ = self.bounds(node.iname, conds, active)
        dom = self.iname_domain(node.iname)
        known = set(active) | self.hardware
        outer = [n for n in glue.inames_of(dom) if n != node.iname and n in known]
        extent = glue.constant_extent_bound(dom, node.iname, outer)
        if extent is not None and len(lowers) == 1 and lowers[0][0] == 1:
            start = lowers[0][1]
        else:
            # Several lower bounds (an accumulator selector of a grid-stride loop): all the
            # iname's values, from its constant lowest, each copy guarded by its domain.
            start, extent = glue.hardware_span(dom, node.iname)
            if not isinstance(start, int) or extent is None:
                raise CodegenError(f"iname {node.iname!r} is unrolled but its number of "
                                   "values is not a constant", self.kernel.span)
        for k in range(extent):
            value = start + k if isinstance(start, int) else _plus(start, k)
            here = conds + (p.Comparison(p.Variable(node.iname), "==", value),)
            self.nodes(node.body, here, {**env, node.iname: value}, active + (node.iname,),
                       depth)

    # -- statements -------------------------------------------------------------------------

    def statement(self, stmt: Statement, conds: Conditions, env: dict[str, Expression],
                  depth: int) -> None:
        if isinstance(stmt, NoOpInstruction):
            return
        if isinstance(stmt, BarrierInstruction):
            self.barrier_statement(stmt, depth)
            return
        dom = self.guard_domain(stmt)
        ctx = self.context(conds)
        guard = self.gist(stmt, conds)
        if guard is None:
            self.out(depth, f"/* {stmt.id}: no iterations here */")
            return
        line = self.line_directive(stmt)
        if line:
            self.lines.append(line)
        guard_printer = self.printer(env, ctx)
        body_ctx = self.body_context(stmt, conds, ctx, dom)
        tests = [*guard, *(c for c in sorted(stmt.predicates, key=guard_order)
                           if not self.predicate_holds(c, body_ctx))]
        body_printer = self.printer(env, body_ctx)
        text = self.assignment_text(stmt, body_printer)
        if tests:
            self.out(depth, f"if ({self.joined(guard_printer, tests)})")
            self.out(depth + 1, text)
        else:
            self.out(depth, text)
        self.collect(guard_printer)
        self.collect(body_printer)

    def assignment_text(self, stmt: Statement, pr: DevicePrinter) -> str:
        if isinstance(stmt, CallInstruction):
            if len(stmt.assignees) != 1:
                raise CodegenError(f"statement {stmt.id!r}: calls with several results are not "
                                   "supported by the OpenCL target", stmt.span)
            assignee = stmt.assignees[0]
        elif isinstance(stmt, Assignment):
            assignee = stmt.assignee
        else:
            raise CodegenError(f"statement kind {type(stmt).__name__} is not supported",
                               stmt.span)
        assignee, dtype = self.assignee_and_type(stmt, assignee)
        if is_arg_finish(stmt):
            return arg_finish_text(stmt, pr, self.oracle(stmt.expression.parameters[0]),
                                   self.atomics)
        if stmt.atomicity:
            return atomic_update_text(stmt, assignee, pr, dtype, self.atomics,
                                      self.kernel.arg_names)
        # A real stored into a complex variable becomes (x, 0), and the reverse keeps the real
        # part; nothing changes for real values.
        value = assignment_value(stmt.expression, dtype, self.oracle)
        return f"{pr(assignee)} = {pr(value, ctx=dtype)};"

    def assignee_and_type(self, stmt: Statement, assignee: Expression | None = None
                          ) -> tuple[Expression, Any]:
        """The assignee as printed (a scalar argument as its element 0) and its type."""
        assignee = stmt.assignee if assignee is None else assignee
        target = self.kernel.variable(stmt.assignee_names()[0])
        if isinstance(assignee, p.Variable) and isinstance(target, ArrayArg):
            assignee = p.Subscript(assignee, (0,) * max(1, len(target.shape or (1,))))
        return assignee, self.oracle(assignee)

    def barrier_statement(self, stmt: BarrierInstruction, depth: int) -> None:
        if stmt.synchronization_kind == "global" and self.has_groups:
            raise CodegenError(f"statement {stmt.id!r}: a global barrier cannot synchronize "
                               "work groups inside one kernel (split the kernel, or use a "
                               "local barrier)", stmt.span)
        fence = "CLK_LOCAL_MEM_FENCE" if stmt.mem_kind == "local" else "CLK_GLOBAL_MEM_FENCE"
        self.out(depth, f"barrier({fence});  /* {stmt.id} */")

    def line_directive(self, stmt: Statement) -> str | None:
        span = stmt.span
        if span is None or not self.kernel.options.emit_line_directives:
            return None
        if self.line_slots is not None:
            slot = self.line_slots.get(id(span))
            if slot is not None:
                return line_placeholder(slot)
            self.unplaced = True
        return line_text(span)


def line_text(span) -> str:
    """The ``#line`` directive of a statement at `span`."""
    return f'#line {span.line} "{line_directive_file(span.file)}"'


def line_placeholder(slot: int) -> str:
    """What `TreeEmitter.line_directive` prints for the span of slot `slot` where the emitter
    has `line_slots`: the code generator puts each asker's own directive in its place."""
    return f"\x00{slot}\x00"


# ---------------------------------------------------------------------------------------------
# layouts and small expression builders

def array_layout(kernel, name: str) -> tuple[Expression, tuple[Expression, ...]]:
    """(offset, strides) of an array argument or temporary, in elements."""
    var = kernel.variable(name)
    if var is None:
        raise CodegenError(f"unknown array {name!r}", kernel.span)
    if not isinstance(var, ArrayArg) and not getattr(var, "shape", ()):
        raise CodegenError(f"{name!r} is a scalar and cannot be subscripted", var.span)
    shape = getattr(var, "shape", None)
    offset = getattr(var, "offset", 0) or 0
    if shape is None:
        return offset, (1,)
    tags = var.dim_tags or ()
    for axis, t in enumerate(tags):
        if not isinstance(t, (NestingTag, FixedStrideTag)):
            raise CodegenError(_unsupported_tag(name, axis, t), var.span)
    return offset, strides(shape, tags) if shape else ()


def _unsupported_tag(name: str, axis: int, tag: Any) -> str:
    """The refusal of a `sep` or `vec` axis (docs/kernel-language.md, "Dim tags")."""
    what = {"SeparateTag": ("sep", "separate arrays per index"),
            "VectorTag": ("vec", "vector lanes")}.get(type(tag).__name__)
    spelled, meaning = what or (type(tag).__name__, "")
    return (f"array {name!r}: axis {axis} has the dim tag {spelled!r} ({meaning}), which the "
            "kernel language accepts but the OpenCL target does not; give that axis a c, f, "
            "N or stride tag")


#: The largest flat index that int arithmetic holds.
_INT_MAX = 2**31 - 1


def _needs_wide_index(kernel, name: str, offset: Expression,
                      strd: tuple[Expression, ...]) -> bool:
    """Whether a global array's flat index may leave int (see `TreeEmitter._wide`): constant
    layouts are measured; a single axis of stride one adds nothing to the subscript's own
    range; any other layout with a symbolic extent or offset may overflow."""
    var = kernel.arg(name)
    if not isinstance(var, ArrayArg):
        return False
    shape = var.shape or ()
    if all(isinstance(x, int) for x in (offset, *strd, *shape)) and len(shape) == len(strd):
        largest = offset + sum((n - 1) * abs(st) for n, st in zip(shape, strd))
        return largest > _INT_MAX or offset < -_INT_MAX
    return not (len(strd) == 1 and strd[0] == 1 and isinstance(offset, int))


def _long(expr: Expression) -> Expression:
    """`expr` computed in 64 bits: each term's first factor converted to long, the other
    factors of its products flattened after it (C multiplies left to right, so every partial
    product is a long)."""
    if isinstance(expr, int):
        return expr
    if isinstance(expr, p.Sum):
        return p.Sum(tuple(_long(t) for t in _sum_terms(expr)))
    factors = _product_factors(expr)
    return p.Product((TypeCast(INT64, factors[0]), *factors[1:]))


def _product_factors(expr: Expression) -> list[Expression]:
    if isinstance(expr, p.Product):
        return [f for c in expr.children for f in _product_factors(c)]
    return [expr]


def _statement_ids(node: ScheduleNode) -> list[str]:
    if isinstance(node, StatementNode):
        return [node.statement_id]
    if isinstance(node, LoopNode):
        return [sid for child in node.body for sid in _statement_ids(child)]
    return []


def _loop_inames(node: ScheduleNode) -> frozenset[str]:
    if not isinstance(node, LoopNode):
        return frozenset()
    return frozenset([node.iname]).union(*(_loop_inames(c) for c in node.body))


def _has_barrier_node(node: ScheduleNode) -> bool:
    if isinstance(node, BarrierNode):
        return True
    return isinstance(node, LoopNode) and any(_has_barrier_node(c) for c in node.body)


_PLAIN_NODES = (p.Variable, p.Sum, p.Product, TypeCast)


def plain_index(expr: Expression) -> bool:
    """Whether `expr` is built of integers and variables with +, * and casts only: its text
    depends on the types of its nodes and the values of its variables, nothing else."""
    if isinstance(expr, (int, np.integer)):
        return not isinstance(expr, (bool, np.bool_))
    if type(expr) not in _PLAIN_NODES:
        return False
    if isinstance(expr, p.Variable):
        return True
    if isinstance(expr, TypeCast):
        return np.dtype(expr.dtype).kind in "iu" and plain_index(expr.child)
    return all(plain_index(c) for c in expr.children)


def plain_shape(expr: Expression, condition: bool
                ) -> tuple[object, tuple[str, ...]] | None:
    """For a `plain_index` (with `condition`, also a comparison of two: `_plain_condition`),
    its structure up to the names of its variables and those names, in one walk: (a
    hashable key of the node classes, operators, constants with their classes and casts'
    types, each variable by the place of its first appearance; the names in that order).
    Expressions equal up to a renaming of their variables, one to one, have equal keys, and
    equal keys mean such expressions.  None where `expr` is not plain (the same answer as
    `plain_index` and `_plain_condition`: `tests/unit/test_first_build_shortcuts.py`)."""
    numbers: dict[str, int] = {}
    if condition and isinstance(expr, p.Comparison):
        left = _shape(expr.left, numbers)
        right = None if left is None else _shape(expr.right, numbers)
        if right is None:
            return None
        return (type(expr), expr.operator, left, right), tuple(numbers)
    key = _shape(expr, numbers)
    return None if key is None else (key, tuple(numbers))


def _shape(expr: Expression, numbers: dict[str, int]) -> object:
    """`plain_shape`'s key of a part (None: not plain).  A variable is keyed by its number,
    a bare int; every other part by a tuple."""
    cls = type(expr)
    if cls is p.Variable:
        k = numbers.get(expr.name)
        if k is None:
            k = numbers[expr.name] = len(numbers)
        return k
    if cls is p.Sum or cls is p.Product:
        parts: list[object] = [cls]
        for child in expr.children:
            part = _shape(child, numbers)
            if part is None:
                return None
            parts.append(part)
        return tuple(parts)
    if cls is int:
        return (int, expr)
    if cls is TypeCast:
        if np.dtype(expr.dtype).kind not in "iu":
            return None
        child = _shape(expr.child, numbers)
        return None if child is None else (TypeCast, type(expr.dtype), expr.dtype, child)
    if isinstance(expr, (int, np.integer)) and not isinstance(expr, (bool, np.bool_)):
        return (cls, expr)
    return None


_UNARY, _ATOM = PRECEDENCE["unary"], PRECEDENCE["atom"]


def integer_text(printer: DevicePrinter, expr: Expression, prec: int) -> str | None:
    """`printer.rec(expr, prec)` for a `plain_index` (or a comparison of two) whose variables
    all have integer types and none is in the printer's `env`, printed directly; None for
    anything else (the printer prints it).  The same text, decision for decision: with
    integer operands no float literal adopts a context, no node is complex (so
    `print_complex` declines) and none is double (no fp64), so the printer's Sum, Product,
    cast, comparison, constant and variable methods reduce to the cases below, which call
    the helpers they call (`_negated`, `_is_minus_one`, `negated_text`, `int_literal`,
    `c_type_name`, `safe_name`) with the same precedences.  A general pymbolic walk with
    type contexts costs about 50 times as much per node, and a first build prints every
    subscript, guard and loop test once (`tests/unit/test_python_shortcuts.py` compares
    both on random expressions)."""
    cls = type(expr)
    if cls is p.Variable:
        if expr.name in printer.env:
            return None
        dtype = printer.dtype_of(expr)
        return safe_name(expr.name) if isinstance(dtype, np.dtype) and dtype.kind in "iu" \
            else None
    if cls is int or isinstance(expr, np.integer):
        text = (int_literal(expr) if cls is int else int_literal(int(expr), expr.dtype))
        return printer.parens(text, _UNARY if text.startswith("-") else _ATOM, prec)
    if cls is p.Sum:
        own = PRECEDENCE["+"]
        first = integer_text(printer, expr.children[0], own)
        if first is None:
            return None
        parts = [first]
        for child in expr.children[1:]:
            neg = _negated(child)
            text = integer_text(printer, child if neg is None else neg, own + 1)
            if text is None:
                return None
            parts.append(("+ " if neg is None else "- ") + text)
        return printer.parens(" ".join(parts), own, prec)
    if cls is p.Product:
        children = expr.children
        if len(children) > 1 and _is_minus_one(children[0]):
            rest = children[1] if len(children) == 2 else p.Product(children[1:])
            text = integer_text(printer, rest, _UNARY)
            return None if text is None else printer.parens(negated_text(text), _UNARY, prec)
        own = PRECEDENCE["*"]
        parts = [integer_text(printer, children[0], own)]
        parts += [integer_text(printer, c, own + 1) for c in children[1:]]
        return None if None in parts else printer.parens(" * ".join(parts), own, prec)
    if cls is TypeCast:
        dtype = np.dtype(expr.dtype)
        if dtype.kind not in "iu":
            return None
        text = integer_text(printer, expr.child, _UNARY)
        return None if text is None else printer.parens(f"({c_type_name(dtype)}) {text}",
                                                        _UNARY, prec)
    if cls is p.Comparison:
        own = PRECEDENCE.get(expr.operator)
        if own is None:
            return None
        left = integer_text(printer, expr.left, own)
        right = None if left is None else integer_text(printer, expr.right, own + 1)
        return None if right is None else printer.parens(f"{left} {expr.operator} {right}",
                                                         own, prec)
    return None


def _plain_condition(expr: Expression) -> bool:
    """A `plain_index` or a comparison of two (what guards and loop tests are made of)."""
    if isinstance(expr, p.Comparison):
        return plain_index(expr.left) and plain_index(expr.right)
    return plain_index(expr)


def _sum_terms(e: Expression) -> list[Expression]:
    if isinstance(e, p.Sum):
        return [t for c in e.children for t in _sum_terms(c)]
    return [e]


def _flat_sum(e: Expression) -> Expression:
    terms = _sum_terms(e)
    return terms[0] if len(terms) == 1 else p.Sum(tuple(terms))


def _scaled(a: int, v: Expression) -> Expression:
    return v if a == 1 else p.Product((a, v))


def _plus(a: Expression, b: int) -> Expression:
    return a if b == 0 else p.Sum((a, b))


def _ceil_div(e: Expression, a: int) -> Expression:
    return e if a == 1 else p.FloorDiv(_plus(e, a - 1), a)


def _max(items: list[Expression]) -> Expression:
    return items[0] if len(items) == 1 else p.Max(tuple(items))


def _min(items: list[Expression]) -> Expression:
    return items[0] if len(items) == 1 else p.Min(tuple(items))




