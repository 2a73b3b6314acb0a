"""Idle work groups skip a loop that holds barriers.

A tiled kernel over a triangle (syrk's ``for j <= i``) launches a rectangular grid: the groups
above the diagonal own no output, yet each step of the summed loop still copies its tiles to
local memory and waits at its barriers.  The loop test may carry one more condition, over
names a work group shares (group ids, value arguments): that some statement of the loop with
an effect there has work in this group::

    for (int k_outer = 0; 16 * k_outer <= n - 1 && j_outer <= 1 + 2 * i_outer; ++k_outer)

The condition is computed, not matched (`translator.ir.isl_glue.work_conditions`): the
domains of the loop's statements, projected onto the shared names.  Statements whose only
effect is a local temporary that nothing outside the loop reads (a prefetch's copy) do not
count: in a group where no other statement of the loop runs, nothing reads what they would
write.  Being the same for every work item of a group, the test keeps the barriers uniform.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace
from translator.ir.expr import Expression, dependencies
from translator.ir.statements import BarrierInstruction, NoOpInstruction, Statement
from translator.ir.tags import GroupTag

if TYPE_CHECKING:
    from translator.codegen.emit import TreeEmitter
    from translator.schedule import LoopNode

Conditions = tuple[Expression, ...]


def idle_group_tests(emitter: TreeEmitter, node: LoopNode, ids: list[str],
                     conds: Conditions) -> Conditions:
    """The group-uniform tests under which the loop `node` (holding a barrier; `ids` its
    statements) has work, or () when every group reaching it has some."""
    stmts = [emitter.stmts[i] for i in ids]
    effective = [s for s in stmts if _has_effect(emitter, s, set(ids))]
    if not effective:
        return ()
    groups = {n for n, t in emitter.schedule.hardware.items() if isinstance(t, GroupTag)}
    keep = groups | {a.name for a in emitter.kernel.value_args}
    executed = [emitter.executed(s) for s in effective]
    tests = glue.work_conditions(executed, emitter.context(conds), keep)
    # tests on the sizes alone (``m >= 1``) skip no group of a launch that has work: left out
    # (a weaker test only runs more groups)
    return tuple(t for t in tests if dependencies(t) & groups)


def _has_effect(emitter: TreeEmitter, stmt: Statement, inside: set[str]) -> bool:
    """Whether `stmt` writes something other than local temporaries read only by the
    statements `inside` the loop (barriers and no-ops have none)."""
    if isinstance(stmt, (BarrierInstruction, NoOpInstruction)):
        return False
    names = stmt.assignee_names()
    if not names:
        return True
    return not all(_loop_local(emitter, n, inside) for n in names)


def _loop_local(emitter: TreeEmitter, name: str, inside: set[str]) -> bool:
    temp = emitter.kernel.temporaries.get(name)
    if temp is None or temp.address_space is not AddressSpace.LOCAL:
        return False
    return not any(name in _reads(s) for s in emitter.kernel.statements if s.id not in inside)


def _reads(stmt: Statement) -> set[str]:
    return {n for e in stmt.read_expressions() for n in dependencies(e)}
