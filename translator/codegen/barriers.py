"""Automatic local barriers: where work items of a group communicate through local memory.

Two accesses to the same ``__local`` temporary conflict when one of them writes and they may
touch an element from different work items: that is, unless both subscripts are identical and
depend on every local iname of both statements (each work item then owns its elements).  A
barrier goes before the first statement that conflicts with an access since the last barrier;
for a loop, also at the end of its body when an access in one iteration conflicts with one in
the next.  ``nosync`` (`Statement.no_sync_with`, scope local or any) removes a pair.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fnmatch import fnmatchcase

import pymbolic.primitives as p

from translator.records import dataclass
from translator.schedule import BarrierNode, LoopNode, Schedule, ScheduleNode, StatementNode
from translator.ir.data import AddressSpace
from translator.ir.expr import Expression, IRWalkMapper, LinearSubscript, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, BarrierInstruction, CallInstruction, Statement
from translator.ir.tags import LocalTag


@dataclass(frozen=True, slots=True)
class Access:
    statement: str
    variable: str
    write: bool
    index: tuple[Expression, ...] | None   # None: unknown (linear subscript or whole variable)
    local_inames: frozenset[str]


class _LocalReads(IRWalkMapper):
    def __init__(self, local_vars: set[str]) -> None:
        self.local_vars = local_vars
        self.found: list[tuple[str, tuple[Expression, ...] | None]] = []

    def visit(self, expr, *args, **kwargs) -> bool:
        if isinstance(expr, (p.Subscript, LinearSubscript)) \
                and isinstance(expr.aggregate, p.Variable):
            if expr.aggregate.name in self.local_vars:
                linear = isinstance(expr, LinearSubscript)
                indices = (expr.index,) if linear else tuple(expr.index_tuple)
                self.found.append((expr.aggregate.name, None if linear else indices))
                for idx in indices:     # the subscript itself may read local memory
                    self.rec(idx)
                return False            # not the aggregate: it is not a whole-array read
        elif isinstance(expr, p.Variable) and expr.name in self.local_vars:
            self.found.append((expr.name, ()))
        return True


def statement_accesses(kernel: Kernel, stmt: Statement, local_vars: set[str],
                       local_inames: frozenset[str]) -> list[Access]:
    """Accesses of `stmt` to the local temporaries `local_vars`."""
    mine = frozenset(i for i in stmt.within_inames if i in local_inames)
    out: list[Access] = []
    reads = _LocalReads(local_vars)
    for expr in stmt.read_expressions():
        reads(expr)
    for name, index in reads.found:
        out.append(Access(stmt.id, name, False, index, mine))
    assignees = ((stmt.assignee,) if isinstance(stmt, Assignment)
                 else stmt.assignees if isinstance(stmt, CallInstruction) else ())
    for a in assignees:
        name, index = _target(a)
        if name in local_vars:
            out.append(Access(stmt.id, name, True, index, mine))
    return out


def _target(expr: Expression) -> tuple[str, tuple[Expression, ...] | None]:
    if isinstance(expr, p.Subscript):
        return expr.aggregate.name, tuple(expr.index_tuple)
    if isinstance(expr, LinearSubscript):
        return expr.aggregate.name, None
    return expr.name, ()


class _Inserter:
    def __init__(self, schedule: Schedule) -> None:
        kernel = schedule.kernel
        self.kernel = kernel
        self.stmts = kernel.id_to_statement
        local_vars = {n for n, t in kernel.temporaries.items()
                      if t.address_space == AddressSpace.LOCAL}
        local_inames = frozenset(i for i, t in schedule.hardware.items()
                                 if isinstance(t, LocalTag))
        self.active = bool(local_vars)
        # without local temporaries there is nothing to order (`insert_barriers` stops):
        # no statement is walked for accesses (a kernel of hundreds of statements)
        self.accesses = {s.id: statement_accesses(kernel, s, local_vars, local_inames)
                         for s in kernel.statements} if self.active else {}

    # -- conflicts ------------------------------------------------------------------------

    def conflicts(self, a: Access, b: Access) -> bool:
        if a.variable != b.variable or not (a.write or b.write):
            return False
        if self._nosync(a.statement, b.statement):
            return False
        return not _same_work_item(a, b)

    def _nosync(self, x: str, y: str) -> bool:
        for me, other in ((x, y), (y, x)):
            for pattern, scope in self.stmts[me].no_sync_with:
                if scope in ("local", "any") and fnmatchcase(other, pattern):
                    return True
        return False

    def first_conflict(self, accesses: list[Access], pending: list[Access]) -> Access | None:
        for a in accesses:
            for b in pending:
                if self.conflicts(a, b):
                    return b
        return None

    def subtree_accesses(self, node: ScheduleNode) -> list[Access]:
        if isinstance(node, StatementNode):
            return self.accesses[node.statement_id]
        if isinstance(node, LoopNode):
            return [a for child in node.body for a in self.subtree_accesses(child)]
        return []

    # -- walking --------------------------------------------------------------------------

    def walk(self, nodes: tuple[ScheduleNode, ...], pending: list[Access]
             ) -> tuple[tuple[ScheduleNode, ...], list[Access]]:
        out: list[ScheduleNode] = []
        for node in nodes:
            if isinstance(node, BarrierNode) or self._is_barrier_statement(node):
                out.append(node)
                pending = []
                continue
            clash = self.first_conflict(self.subtree_accesses(node), pending)
            if clash is not None:
                out.append(BarrierNode(kind="local", reason=self._reason(node, clash)))
                pending = []
            if isinstance(node, LoopNode):
                node, pending = self.loop(node, pending)
            else:
                pending = pending + self.accesses[node.statement_id]
            out.append(node)
        return tuple(out), pending

    def loop(self, node: LoopNode, pending: list[Access]) -> tuple[LoopNode, list[Access]]:
        body, after = self.walk(node.body, pending)
        carried = self._carried_conflict(body, after)
        if carried is not None:
            body = body + (BarrierNode(kind="local", reason=carried),)
            after = []
        # A loop that runs zero times leaves what was pending before it.
        merged = list(after) + [a for a in pending if a not in after]
        return replace(node, body=body), merged

    def _carried_conflict(self, body: tuple[ScheduleNode, ...], pending: list[Access]
                          ) -> str | None:
        """A conflict between the end of one iteration and the start of the next, before the
        body's first barrier."""
        for node in body:
            if isinstance(node, BarrierNode) or self._is_barrier_statement(node):
                return None
            clash = self.first_conflict(self.subtree_accesses(node), pending)
            if clash is not None:
                return f"next iteration: {self._reason(node, clash)}"
            if isinstance(node, StatementNode):
                pending = pending + self.accesses[node.statement_id]
        return None

    def is_barrier(self, node: ScheduleNode) -> bool:
        return isinstance(node, BarrierNode) or self._is_barrier_statement(node)

    def _is_barrier_statement(self, node: ScheduleNode) -> bool:
        return (isinstance(node, StatementNode)
                and isinstance(self.stmts[node.statement_id], BarrierInstruction))

    def _reason(self, node: ScheduleNode, clash: Access) -> str:
        first = self._first_statement(node)
        verb = "written" if clash.write else "read"
        return f"{clash.variable} {verb} by {clash.statement}, used by {first}"

    def _first_statement(self, node: ScheduleNode) -> str:
        if isinstance(node, StatementNode):
            return node.statement_id
        for child in getattr(node, "body", ()):
            found = self._first_statement(child)
            if found:
                return found
        return ""


def _same_work_item(a: Access, b: Access) -> bool:
    """Both accesses provably touch only elements owned by the executing work item."""
    if a.index is None or b.index is None or a.index != b.index:
        return False
    if a.local_inames != b.local_inames:
        return False
    used = set().union(*(dependencies(e) for e in a.index)) if a.index else set()
    return a.local_inames <= used


#: Why a barrier follows a loop that holds one (see `_fence_loop_exits`).
AFTER_BARRIER_LOOP = "after a loop with barriers: no branch is threaded into its exit"


def _fence_loop_exits(nodes: tuple[ScheduleNode, ...], is_barrier: Callable[[ScheduleNode], bool]
                      ) -> tuple[ScheduleNode, ...]:
    """A barrier right after each loop that holds one, where a statement or loop follows it in
    the same body.

    PoCL 3.1 (LLVM 15) computes such kernels wrongly: where a guard inside the loop is the
    guard of a statement after it, LLVM's jump threading clones the loop's latch so that the
    loop exits straight into that statement (or past it); the loop then has two latches and
    two exits, and PoCL's work-group code runs the statement after the loop again for some
    work items or writes outside its own buffers (bench/RESULTS.md, "PoCL and the order of
    guard conjuncts (h75)").  A barrier cannot be cloned, so with one first after the loop no
    branch is threaded into the exit.  The loop is in uniform control flow (it holds a
    barrier), so the one after it is too; it runs once per execution of the loop, not per
    iteration."""
    out: list[ScheduleNode] = []
    for k, node in enumerate(nodes):
        if not isinstance(node, LoopNode):
            out.append(node)
            continue
        body = _fence_loop_exits(node.body, is_barrier)
        out.append(replace(node, body=body))
        following = nodes[k + 1] if k + 1 < len(nodes) else None
        if following is not None and not is_barrier(following) \
                and _holds_barrier(body, is_barrier):
            out.append(BarrierNode(kind="local", reason=AFTER_BARRIER_LOOP))
    return tuple(out)


def _holds_barrier(nodes: tuple[ScheduleNode, ...],
                   is_barrier: Callable[[ScheduleNode], bool]) -> bool:
    return any(is_barrier(n) or (isinstance(n, LoopNode) and _holds_barrier(n.body, is_barrier))
               for n in nodes)


def insert_barriers(schedule: Schedule) -> Schedule:
    """`schedule` with local barriers added where work items communicate (module docstring),
    and after each loop that holds a barrier (`_fence_loop_exits`)."""
    inserter = _Inserter(schedule)
    body = schedule.body
    if inserter.active:
        body, _ = inserter.walk(body, [])
    body = _fence_loop_exits(body, inserter.is_barrier)
    return replace(schedule, body=body)
