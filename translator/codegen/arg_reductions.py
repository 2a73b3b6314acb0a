"""Lowering of arg-min/arg-max reductions (`translator.analysis.arg_reductions`) over work items.

``dtmin[0], jmin[0], kmin[0] = argmin([k, j_outer, j_inner], _tr_arg(dtc, 1, j, k))`` with
``j_inner`` on l.0, ``j_outer`` on g.0 and ``k`` on g.1 becomes::

    _tr_aset = 0; _tr_av = 0; _tr_ar = 0; _tr_ar_0 = 0 ...        every work item, not set
    _tr_aval = dtc                                               {inames=j_inner:j_outer:k}
    _tr_take = _tr_aval == _tr_aval && 1 && (!_tr_aset || better(_tr_aval, k, ...))
    _tr_av = _tr_aval; _tr_aset = 1; _tr_ar = k; ...             {if=_tr_take != 0}
    _tr_won = _tr_argfinish_argmin(_tr_av, _tr_aset, _tr_ar, ..., dtmin[0])
                                                                 {inames=j_outer:k:_tr_lane0}
    dtmin[0] = _tr_fin_s[0]                                      {if=_tr_won != 0}
    jmin[0] = <j of the winning ranks>; kmin[0] = ...            {if=_tr_won != 0}

A state is (value, set, ranks): the ranks are the values of the reduction's inames in
nesting order, so that comparing them lexicographically compares positions in the
sequential loop.  One state is better than another when it is set and the other is not, or
its value is smaller (larger for argmax), or the values are equal and its rank is smaller
(``argmin``, ``argmax``: the first wins ties, as ``<`` and ``>`` in the source) or larger
(``argmin_last``, ``argmax_last``: ``<=``, ``>=``).  That is a total order on the states
that are set, so selecting the best one gives the same state in any grouping.  NaNs never
take part (``v == v`` fails), as a comparison with a NaN never holds in the source.

Each work item keeps its best state privately; the helper ``_tr_argfinish_<op>_<type>_r<n>``
(`arg_finish_helper`, which every work item of every group calls once) selects the group's
best in local memory (two levels of strided scans, no barrier inside a loop), stores it in
per-group buffers (``_tr_part_<id>`` for the
values, ``_tr_part_<id>_r`` for the arrival count, the set flags and the ranks), and in the
last group to arrive selects the best of all groups and compares it with the initial value
of the target exactly as the source does (``v < m0``): only work item 0 of that group returns
1, and only when the target changes.  That work item then stores the value and evaluates the
location expressions at the winning ranks, so the locations keep their initial values where
the target does.
"""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p

from translator.analysis.arg_reductions import arg_parts
from translator.codegen.cexpr import c_type_name
from translator.codegen.group_updates import (FLAT_GROUP_INDICES, finish_buffer_name,
                                              scratch_name)
from translator.diagnostics import CodegenError
from translator.ir.data import AddressSpace, ArrayArg, TemporaryVariable
from translator.ir.expr import Expression, Reduction, substitute
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.ir.tags import GroupTag

#: The device function a lowered arg-reduction calls (`arg_finish_text`), before its operation.
FINISH_FUNCTION = "_tr_argfinish_"
#: The tag of the statements that store an arg-reduction's result: they run in every group
#: (`translator.codegen.emit` restricts no axis), and only the work item whose helper
#: returned 1 stores.
ARG_STORE_TAG = "_tr_arg_store"
_RANK = np.dtype(np.int32)
_VALUE_COMPARISON = {"argmin": "<", "argmin_last": "<", "argmax": ">", "argmax_last": ">"}
_RANK_COMPARISON = {"argmin": "<", "argmin_last": ">", "argmax": "<", "argmax_last": ">"}
_SOURCE_COMPARISON = {"argmin": "<", "argmin_last": "<=", "argmax": ">", "argmax_last": ">="}


def rank_buffer_name(statement_id: str) -> str:
    """The per-group buffer of arrival count, set flags and ranks of an arg-reduction."""
    return scratch_name(statement_id) + "_r"


def local_rank_buffer_name(statement_id: str) -> str:
    return finish_buffer_name(statement_id) + "_r"


def lower_arg_reduction(lowering, stmt: CallInstruction) -> list[Statement]:
    """The statements computing the arg-reduction `stmt` (module docstring); `lowering` is
    the `translator.codegen.parallel_reductions._Lowering` of the kernel."""
    red = stmt.expression
    if stmt.within_inames or stmt.predicates or not isinstance(red, Reduction):
        raise CodegenError(f"statement {stmt.id!r}: an arg-reduction must run over all loops "
                           "of its statement", stmt.span)
    target = lowering.kernel.arg(stmt.assignee_names()[0])
    dtype = np.dtype(target.dtype)
    state = _State(lowering, stmt, dtype, len(red.inames))
    emitted = state.accumulate(red)
    finish = state.finish(red, {s.id for s in emitted[-2 - len(red.inames):]})
    return [*emitted, finish, *state.results(red, finish)]


class _State:
    """The private temporaries of one work item's best state, and the statements."""

    def __init__(self, lowering, stmt: CallInstruction, dtype: np.dtype, ranks: int) -> None:
        self.lowering, self.stmt, self.dtype = lowering, stmt, dtype
        temp = lowering._temporary
        private = AddressSpace.PRIVATE
        self.value = temp("_tr_av", dtype, (), private, stmt)
        self.set = temp("_tr_aset", _RANK, (), private, stmt)
        self.ranks = [temp("_tr_ar", _RANK, (), private, stmt) for _ in range(ranks)]
        self.term = temp("_tr_aval", dtype, (), private, stmt)
        self.take = temp("_tr_take", _RANK, (), private, stmt)
        self.won = temp("_tr_won", _RANK, (), private, stmt)

    def _statement(self, base: str, assignee: Expression, expression: Expression,
                   inames: frozenset[str], deps: set[str],
                   predicates: frozenset[Expression] = frozenset(),
                   tags: frozenset[str] = frozenset()) -> Assignment:
        stmt = self.stmt
        return Assignment(id=self.lowering.names(f"_tr_{stmt.id}_{base}"), assignee=assignee,
                          expression=expression, within_inames=inames,
                          depends_on=frozenset(deps), predicates=predicates, span=stmt.span,
                          priority=stmt.priority, groups=stmt.groups, tags=tags,
                          conflicts_with_groups=stmt.conflicts_with_groups)

    def accumulate(self, red: Reduction) -> list[Assignment]:
        """Every work item's best state over its own iterations; the last statements are
        the updates of the value, the set flag and each rank."""
        value, condition, _ = arg_parts(red)
        outer, inner = frozenset(), frozenset(red.inames)
        deps = set(self.stmt.depends_on)
        inits = [self._statement("init", var, self.dtype.type(0) if var is self.value else 0,
                                 outer, set())
                 for var in (self.set, self.value, *self.ranks)]
        init_ids = {s.id for s in inits}
        load = self._statement("value", self.term, value, inner, deps | init_ids)
        valid = [self._valid()] + ([p.Comparison(condition, "!=", 0)] if condition != 1 else [])
        unset = p.Comparison(self.set, "==", 0)
        better = _better(red.operation, self.term, [p.Variable(n) for n in red.inames],
                         self.value, self.ranks)
        take = self._statement("take", self.take,
                               p.BitwiseAnd((*valid, p.BitwiseOr((unset, better)))),
                               inner, {load.id})
        when = frozenset({p.Comparison(self.take, "!=", 0)})
        updates = [self._statement("update", var, new, inner, {take.id}, when)
                   for var, new in ((self.value, self.term), (self.set, 1),
                                    *zip(self.ranks, (p.Variable(n) for n in red.inames)))]
        return [*inits, load, take, *updates]

    def _valid(self) -> Expression:
        """The term takes part: always for integers, not for NaN."""
        return p.Comparison(self.term, "==", self.term) if self.dtype.kind == "f" else 1

    def finish(self, red: Reduction, updates: set[str]) -> Assignment:
        """Every work item of every launched group calls the helper once, after its own
        terms: the statement runs over the lanes only, so no group skips it (a group without
        terms brings a state that is not set) and the count of arrivals is complete."""
        lw = self.lowering
        lanes = frozenset(lw._lane(a).name for a in lw.local_axes if lw.grid.local_size[a] > 1)
        call = p.Call(p.Variable(FINISH_FUNCTION + red.operation),
                      (self.value, self.set, *self.ranks, self.stmt.assignees[0]))
        final = self._statement("finish", self.won, call, lanes, updates)
        groups = {n for n, t in lw.hardware.items() if isinstance(t, GroupTag)}
        self._buffers(final.id, groups, len(red.inames))
        return final

    def _buffers(self, sid: str, groups: set[str], ranks: int) -> None:
        """Per-group buffers (scratch arguments: a slot for every launched group, `groups`
        being the kernel's group inames) and the local buffers of the helper."""
        lw = self.lowering
        count = lw._group_bound(groups) if groups else 1
        span = self.stmt.span
        rows = ranks + 1
        lw.partials.append(ArrayArg(name=scratch_name(sid), dtype=self.dtype,
                                    shape=(p.Sum((count, 1)) if not isinstance(count, int)
                                           else count + 1,),
                                    is_input=False, is_output=False, span=span))
        lw.partials.append(ArrayArg(name=rank_buffer_name(sid), dtype=_RANK,
                                    shape=(p.Product((rows, p.Sum((count, 1))))
                                           if not isinstance(count, int)
                                           else rows * (count + 1),),
                                    is_input=False, is_output=False, span=span))
        size = int(np.prod(lw.grid.local_size))
        lw.temporaries = lw.temporaries.set(finish_buffer_name(sid), TemporaryVariable(
            name=finish_buffer_name(sid), dtype=self.dtype, shape=(size,),
            address_space=AddressSpace.LOCAL, span=span))
        lw.temporaries = lw.temporaries.set(local_rank_buffer_name(sid), TemporaryVariable(
            name=local_rank_buffer_name(sid), dtype=_RANK, shape=(size * rows + 1,),
            address_space=AddressSpace.LOCAL, span=span))
        self.size = size

    def results(self, red: Reduction, finish: Assignment) -> list[Assignment]:
        """Work item 0 of the last group stores the value and the locations (the location
        expressions at the winning ranks)."""
        _, _, locations = arg_parts(red)
        values = p.Variable(finish_buffer_name(finish.id))
        ranks = p.Variable(local_rank_buffer_name(finish.id))
        at = {n: p.Subscript(ranks, (self.size * (1 + k),)) for k, n in enumerate(red.inames)}
        when = frozenset({p.Comparison(self.won, "!=", 0)})
        new = [(self.stmt.assignees[0], p.Subscript(values, (0,)))]
        new += [(a, substitute(e, at)) for a, e in zip(self.stmt.assignees[1:], locations)]
        return [self._statement("store", a, e, finish.within_inames, {finish.id}, when,
                                frozenset({ARG_STORE_TAG})) for a, e in new]


def _better(operation: str, value: Expression, ranks: list[Expression], best: Expression,
            best_ranks: list[Expression]) -> Expression:
    """``value`` at ``ranks`` beats the (set) state ``best`` at ``best_ranks``: a smaller
    (larger) value, or an equal one at a smaller (larger) rank (module docstring).  Bitwise
    operations of 0/1 comparisons: no branches (PoCL's compilation of kernels with several
    arg-reductions blows up on the branches of ``&&`` and ``||``)."""
    earlier: Expression = p.Comparison(ranks[-1], _RANK_COMPARISON[operation], best_ranks[-1])
    for r, b in zip(reversed(ranks[:-1]), reversed(best_ranks[:-1])):
        earlier = p.BitwiseOr((p.Comparison(r, _RANK_COMPARISON[operation], b),
                               p.BitwiseAnd((p.Comparison(r, "==", b), earlier))))
    return p.BitwiseOr((p.Comparison(value, _VALUE_COMPARISON[operation], best),
                        p.BitwiseAnd((p.Comparison(value, "==", best), earlier))))


# ---------------------------------------------------------------------------------------------
# the helper and its call

def is_arg_finish(stmt: Statement) -> bool:
    """Whether `stmt` calls the helper of a lowered arg-reduction."""
    return (isinstance(stmt, Assignment) and isinstance(stmt.expression, p.Call)
            and getattr(stmt.expression.function, "name", "").startswith(FINISH_FUNCTION))


def arg_finish_text(stmt: Assignment, printer, dtype: np.dtype,
                    helpers: set[tuple[str, str]]) -> str:
    """``_tr_won = _tr_argfinish_<op>_<type>_r<n>(v, set, ranks..., m0, buffers...);`` for
    the finish statement of a lowered arg-reduction; records the helper in `helpers`."""
    operation = stmt.expression.function.name[len(FINISH_FUNCTION):]
    args = stmt.expression.parameters
    ranks = len(args) - 3
    helpers.add((f"argfinish:{operation}/{ranks}", np.dtype(dtype).name))
    values = [printer(a) for a in args]
    buffers = [finish_buffer_name(stmt.id), local_rank_buffer_name(stmt.id),
               scratch_name(stmt.id), rank_buffer_name(stmt.id)]
    name = _helper_name(operation, np.dtype(dtype), ranks)
    return f"{printer(stmt.assignee)} = {name}({', '.join(values + buffers)});"


def _helper_name(operation: str, dtype: np.dtype, ranks: int) -> str:
    return f"{FINISH_FUNCTION}{operation}_{dtype.name}_r{ranks}"


def is_arg_helper_key(key: str) -> bool:
    return key.startswith("argfinish:")


def arg_finish_helper(key: str, dtype_name: str) -> str:
    """The helper of `arg_finish_text` (module docstring): the group's selection, the
    per-group buffers, the last group's selection and the comparison with the initial
    value ``m0``.  Local buffers: ``lv[l]`` values, ``li[l]`` set flags, ``li[size*(1 + k)
    + l]`` rank k, ``li[size*(1 + n)]`` the "last group" flag.  Per-group buffers: ``pi[0]``
    the arrival count, ``pv[1 + g]``, ``pi[1 + g]`` and ``pi[1 + ng*(1 + k) + g]``."""
    operation, ranks_text = key[len("argfinish:"):].split("/")
    n = int(ranks_text)
    dt = np.dtype(dtype_name)
    t = c_type_name(dt)
    rank_params = "".join(f", int r{k}" for k in range(n))

    def better(a: str, b: str, value, flag, rank) -> str:
        """C text: state `a` beats state `b` (accessors give the text of each part)."""
        # `&` and `|` of 0/1 values, no `&&`: branches between barriers make PoCL's
        # compilation of a kernel with several such helpers blow up
        rc = _RANK_COMPARISON[operation]
        earlier = f"({rank(a, n - 1)} {rc} {rank(b, n - 1)})"
        for k in reversed(range(n - 1)):
            earlier = (f"({rank(a, k)} {rc} {rank(b, k)}) | (({rank(a, k)} == {rank(b, k)}) "
                       f"& ({earlier}))")
        vc = _VALUE_COMPARISON[operation]
        return (f"({flag(a)} != 0) & (({flag(b)} == 0) | ({value(a)} {vc} {value(b)}) | "
                f"(({value(a)} == {value(b)}) & ({earlier})))")

    def local_better(a: str, b: str) -> str:
        return better(a, b, lambda x: f"lv[{x}]", lambda x: f"li[{x}]",
                      lambda x, k: f"li[size * {1 + k} + {x}]")

    def copy_local(dst: str, src: str, indent: str) -> str:
        lines = [f"lv[{dst}] = lv[{src}];", f"li[{dst}] = li[{src}];"]
        lines += [f"li[size * {1 + k} + {dst}] = li[size * {1 + k} + {src}];" for k in range(n)]
        return "".join(f"{indent}{line}\n" for line in lines)

    def select(limit: str) -> str:
        """Slot 0 gets the best of slots 0 .. limit-1: work item l < w selects among slots
        l, l + w, l + 2w, ... (w*w >= limit), then work item 0 among slots 0 .. w-1.  No
        barrier inside a loop: PoCL's compilation of tree loops with this body is slow."""
        return (
            "  w = 1;\n"
            f"  while (w * w < {limit})\n    w++;\n"
            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
            "  if (l < w) {\n"
            f"    for (uint o = l + w; o < {limit}; o += w) {{\n"
            f"      if ({local_better('o', 'l')}) {{\n"
            + copy_local("l", "o", "        ") +
            "      }\n"
            "    }\n"
            "  }\n"
            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
            "  if (l == 0) {\n"
            f"    for (uint o = 1; o < w && o < {limit}; o++) {{\n"
            f"      if ({local_better('o', '0')}) {{\n"
            + copy_local("0", "o", "        ") +
            "      }\n"
            "    }\n"
            "  }\n"
            "  barrier(CLK_LOCAL_MEM_FENCE);\n")

    group_better = better("k", "b", lambda x: "pv[1 + k]" if x == "k" else "bv",
                          lambda x: "pi[1 + k]" if x == "k" else "bs",
                          lambda x, j: f"pi[1 + ng * {1 + j} + k]" if x == "k" else f"b{j}")
    store_ranks = "".join(f"  li[size * {1 + k} + l] = r{k};\n" for k in range(n))
    publish = "".join(f"    pi[1 + ng * {1 + k} + g] = li[size * {1 + k}];\n" for k in range(n))
    gather = "".join(f"    int b{k} = pi[1 + ng * {1 + k} + l];\n" for k in range(n))
    take = "".join(f"        b{k} = pi[1 + ng * {1 + k} + k];\n" for k in range(n))
    keep = "".join(f"    li[size * {1 + k} + l] = b{k};\n" for k in range(n))
    return (
        f"static inline int {_helper_name(operation, dt, n)}({t} v, int set{rank_params}, "
        f"{t} m0,\n    __local {t} *lv, __local int *li, volatile __global {t} *pv, "
        "volatile __global int *pi)\n{\n"
        "  /* an exact arg-reduction: the group's best (value, rank), then the last group\n"
        "     to finish selects the best of all groups and compares it with m0 as the source\n"
        "     does; work item 0 of that group returns 1 where the target changes */\n"
        + FLAT_GROUP_INDICES +
        "  uint w;\n"
        "  lv[l] = v;\n  li[l] = set;\n" + store_ranks + select("size") +
        "  volatile __global uint *count = (volatile __global uint *) pi;\n"
        "  if (l == 0) {\n"
        "    pv[1 + g] = lv[0];\n    pi[1 + g] = li[0];\n" + publish +
        "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        f"    li[size * {1 + n}] = atomic_inc(count) == ng - 1 ? 1 : 0;\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
        "  /* every group passes every barrier below (no early return): PoCL copies the\n"
        "     code after a conditional return once per path, so each helper called after\n"
        "     one would double the kernel; the other groups select among their own slots */\n"
        f"  const int last = li[size * {1 + n}];\n"
        "  const uint used = min(ng, size);\n"
        "  if (last & (l < used)) {\n"
        f"    {t} bv = pv[1 + l];\n    int bs = pi[1 + l];\n" + gather +
        "    for (uint k = l + size; k < ng; k += size) {\n"
        f"      if ({group_better}) {{\n"
        "        bv = pv[1 + k];\n        bs = pi[1 + k];\n" + take +
        "      }\n"
        "    }\n"
        "    lv[l] = bv;\n    li[l] = bs;\n" + keep +
        "  }\n" + select("used") +
        "  int won = 0;\n"
        "  if (last & (l == 0)) {\n"
        "    *count = 0;\n"
        f"    won = (li[0] != 0) & (lv[0] {_SOURCE_COMPARISON[operation]} m0);\n"
        "  }\n"
        "  return won;\n"
        "}\n\n")
