"""The scheduler: statement order, loop nesting, loop splitting, barriers in the loop tree."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from translator.codegen.barriers import insert_barriers
from translator.diagnostics import SchedulingError
from translator.codegen.opencl import prepare_kernel
from translator.schedule import BarrierNode, LoopNode, StatementNode, schedule_kernel
from translator.ir.parse import GlobalArg, TemporaryVariable


def tree(knl):
    """The loop tree as nested tuples: ("loop i", [...]), statement ids, "barrier"."""
    def show(node):
        if isinstance(node, LoopNode):
            return (f"loop {node.iname}", [show(c) for c in node.body])
        if isinstance(node, StatementNode):
            return node.statement_id
        assert isinstance(node, BarrierNode)
        return "barrier"
    sched = insert_barriers(schedule_kernel(prepare_kernel(knl)))
    return [show(n) for n in sched.body]


F32 = [GlobalArg(n, np.float32, shape="n") for n in ("a", "b", "c")]


def test_loop_entered_once_when_outside_work_can_go_first():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["a[i] = 1 {id=s1}", "<> t = 2 {id=t}", "b[i] = t + i {id=s2, dep=t}"], [*F32, "..."])
    assert tree(knl) == ["t", ("loop i", ["s1", "s2"])]


def test_higher_priority_runs_first():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["a[i] = 1 {id=low}", "b[i] = 2 {id=high, priority=5}"],
        [*F32, "..."])
    assert tree(knl) == [("loop i", ["high", "low"])]


def test_child_domain_nests_inside_its_parent():
    knl = translator.make_kernel(
        ["{[i]: 0<=i<n}", "{[j]: 0<=j<i+1}"], "c[i] = c[i] + j", [*F32, "..."])
    assert tree(knl) == [("loop i", [("loop j", ["insn"])])]


def test_reduction_iname_loops_around_the_update_only():
    knl = translator.make_kernel("{[i,k]: 0<=i<n and 0<=k<8}", "a[i] = sum(k, b[k] * i)",
                                 [GlobalArg("b", np.float32, shape=8), "..."])
    assert tree(knl) == [("loop i", ["_tr_insn_init", ("loop k", ["_tr_insn_update"]),
                                     "insn"])]


def test_barrier_placed_before_the_loop_that_reads():
    knl = translator.make_kernel(
        "{[ii, k]: 0<=ii<16 and 0<=k<4}",
        ["tile[ii] = a[ii] {id=w}", "b[ii] = b[ii] + tile[(ii + k) % 16] {id=r, dep=w}"],
        [GlobalArg("a", np.float32, shape=16), GlobalArg("b", np.float32, shape=16),
         TemporaryVariable("tile", np.float32, shape=(16,), address_space="local"), "..."])
    knl = transforms.tag_inames(knl, "ii:l.0")
    assert tree(knl) == ["w", "barrier", ("loop k", ["r"])]


def test_data_dependent_bounds_wait_for_their_writer(ctx, queue):
    knl = translator.make_kernel(
        ["{[i]: 0<=i<n}", "{[j]: 0<=j<m}"],
        ["out[i] = sum(j, a[i, j]) {id=use}", "<int32> m = cnt[i] {id=setm}"],
        [GlobalArg("cnt", np.int32, shape="n"), GlobalArg("a", np.float32, shape="n, 8"),
         "..."])
    assert tree(knl) == [("loop i", ["_tr_use_init", "setm", ("loop j", ["_tr_use_update"]),
                                     "use"])]
    cnt = np.array([0, 3, 8, 1], np.int32)
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    out = translator.compile(knl, ctx)(queue, cnt=cnt, a=a)["out"]
    np.testing.assert_array_equal(out, [a[i, :cnt[i]].sum() for i in range(4)])


# ---------------------------------------------------------------------------------------------
# nesting from the statements' inames (issue 20, item 4)

def _acc_per_d(domains: list[str]):
    return translator.make_kernel(
        domains,
        """
        <float64> acc = 0            {id=reset, inames=d}
        acc = acc + a[n, d]          {id=add, dep=reset, inames=d:n}
        s[0] = s[0] + acc            {id=out, dep=add, inames=d}
        """,
        [GlobalArg("a", np.float64, shape=(5, 3)), GlobalArg("s", np.float64, shape=(1,)),
         "..."])


def test_nesting_follows_statement_inames_not_domain_order(ctx, queue):
    """Before: the d loop was opened three times with n outside it (decl order of the
    domains), and s came out three times too large."""
    a = np.arange(15, dtype=np.float64).reshape(5, 3) * 0.5 - 2
    for domains in (["{[n]: 0<=n<5}", "{[d]: 0<=d<3}"], ["{[d]: 0<=d<3}", "{[n]: 0<=n<5}"]):
        knl = _acc_per_d(domains)
        assert tree(knl) == [("loop d", ["reset", ("loop n", ["add"]), "out"])]
        out = translator.compile(knl, ctx)(queue, a=a, s=np.array([1.5]))["s"]
        np.testing.assert_array_equal(out, [1.5 + a.sum()])


def test_statement_nesting_yields_to_loop_priority():
    """Priority puts n outside d: `reset` and `add` then run in different loops over d, so
    the scalar acc of one d would flow into the next; refused (it used to schedule, and
    summed wrongly).  With acc an array indexed by d, each iteration keeps its own value."""
    knl = transforms.prioritize_loops(_acc_per_d(["{[d]: 0<=d<3}", "{[n]: 0<=n<5}"]), "n,d")
    with pytest.raises(SchedulingError) as err:
        tree(knl)
    assert err.value.message == (
        "statement 'add' reads acc written by 'reset' in the same iteration of loop d, but "
        "they cannot share one loop over d: loop n encloses the reader's loop over d but not "
        "the writer's (include n in the writer's loops, e.g. add_prefetch(..., "
        "fetch_outer_inames=...), or move the loop)")
    per_d = translator.make_kernel(
        ["{[d]: 0<=d<3}", "{[n]: 0<=n<5}"],
        """
        acc[d] = 0                   {id=reset, inames=d}
        acc[d] = acc[d] + a[n, d]    {id=add, dep=reset, inames=d:n}
        s[0] = s[0] + acc[d]         {id=out, dep=add, inames=d}
        """,
        [GlobalArg("a", np.float64, shape=(5, 3)), GlobalArg("s", np.float64, shape=(1,)),
         TemporaryVariable("acc", np.float64, shape=(3,)), "..."])
    assert tree(transforms.prioritize_loops(per_d, "n,d"))[1] == (
        "loop n", [("loop d", ["add"])])


def test_priority_may_put_a_child_loop_outside_a_parent_that_does_not_bound_it():
    """The forest (j's domain under k's) orders loops only where priorities leave it open;
    a loop bounded by an iname stays inside it."""
    knl = translator.make_kernel(
        ["{[k]: 0<=k<4}", "[k] -> {[j]: 0<=j<3 and 0<=k<4}",
         "[k, j] -> {[i]: k<=i<=k+1 and 0<=j<3}"],
        "c[j] = c[j] + a[i] {id=s, inames=k:j:i}", [*F32, "..."])
    knl = transforms.prioritize_loops(knl, "j,k")
    assert tree(knl) == [("loop j", [("loop k", [("loop i", ["s"])])])]
