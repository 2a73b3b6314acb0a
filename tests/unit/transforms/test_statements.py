"""Statement transforms: set_instruction_priority, add_dependency, remove_instructions,
replace_instruction_ids, tag_instructions, add_nosync, add_barrier."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from tests.unit.transforms.builders import arr, check, knl, text
from translator.schedule import StatementNode, schedule_kernel
from translator.diagnostics import TransformError
from translator.ir.parse import TemporaryVariable
from translator.ir.statements import BarrierInstruction


def chain():
    return knl("{[i]: 0<=i<n}", """
        b[i] = 2*a[i]    {id=s0}
        c[i] = 3*a[i]    {id=s1}
        d[i] = b[i]      {id=s2, dep=s0}
        e[i] = d[i] + 1  {id=s3, dep=s2}
        """, arr("a", "n"), arr("c", "n"), arr("d", "n"), arr("e", "n"))


def order(kernel) -> list[str]:
    def walk(nodes):
        for node in nodes:
            if isinstance(node, StatementNode):
                yield node.statement_id
            else:
                yield from walk(getattr(node, "body", ()))
    return list(walk(schedule_kernel(kernel).body))


# ---------------------------------------------------------------------------------------------
# priority, dependencies, tags


def test_set_instruction_priority(ctx):
    k = chain()
    out = transforms.set_instruction_priority(k, "id:s1", 5)
    assert out.statement("s1").priority == 5 and out.statement("s0").priority == 0
    assert order(k)[0] == "s0" and order(out)[0] == "s1"
    assert transforms.set_instruction_priority(out, "s1", 5) is out
    check(k, out, ctx, n=5)


def test_set_instruction_priority_errors():
    with pytest.raises(TransformError, match="priority must be an integer"):
        transforms.set_instruction_priority(chain(), "s1", "high")
    with pytest.raises(TransformError, match="insn_match 'id:zz' matches no statement"):
        transforms.set_instruction_priority(chain(), "id:zz", 1)


def test_add_dependency(ctx):
    k = chain()
    out = transforms.add_dependency(k, "id:s0", "id:s1")
    assert out.statement("s0").depends_on == {"s1"}
    assert order(out).index("s1") < order(out).index("s0")
    assert transforms.add_dependency(out, "s0", "s1") is out
    self_dep = transforms.add_dependency(k, "s0 or s1", "s0")
    assert self_dep.statement("s0").depends_on == frozenset()
    check(k, out, ctx, n=5)


def test_add_dependency_errors():
    with pytest.raises(TransformError, match="statement 's0' would depend on itself"):
        transforms.add_dependency(chain(), "id:s0", "id:s3")
    with pytest.raises(TransformError, match="depends_on 'zz' matches no statement"):
        transforms.add_dependency(chain(), "id:s0", "zz")


def test_tag_instructions():
    k = chain()
    out = transforms.tag_instructions(k, "hot", "id:s1 or id:s2")
    assert out.statement("s1").tags == {"hot"} and out.statement("s0").tags == frozenset()
    assert transforms.tag_instructions(out, "hot", "id:s1") is out
    assert {s.id for s in transforms.parse_match("tag:hot").filter(out)} == {"s1", "s2"}
    with pytest.raises(TransformError, match="the tag must be an identifier"):
        transforms.tag_instructions(k, "a b")


# ---------------------------------------------------------------------------------------------
# removing and re-pointing


def test_remove_instructions_is_transitive(ctx):
    k = chain()
    out = transforms.remove_instructions(k, {"s2"})
    assert [s.id for s in out.statements] == ["s0", "s1", "s3"]
    assert out.statement("s3").depends_on == {"s0"}
    assert transforms.remove_instructions(k, "id:nothing") is k
    both = transforms.remove_instructions(k, "id:s0 or id:s2")
    assert both.statement("s3").depends_on == frozenset()
    plain = knl("{[i]: 0<=i<n}", "b[i] = 2*a[i] {id=s0}\nd[i] = b[i] {id=s2, dep=s0}\n"
                "e[i] = d[i] + 1 {id=s3, dep=s2}", arr("a", "n"), arr("d", "n"), arr("e", "n"))
    check(plain, transforms.remove_instructions(k, ["s1"]), ctx, n=5)


def test_remove_instructions_updates_nosync_and_errors():
    k = transforms.add_nosync(chain(), "any", "s2", "s3")
    assert transforms.remove_instructions(k, {"s2"}).statement("s3").no_sync_with == frozenset()
    with pytest.raises(TransformError, match="no statement with id 'q'"):
        transforms.remove_instructions(k, {"q"})


def test_replace_instruction_ids():
    k = transforms.add_nosync(chain(), "local", "s2", "s3")
    out = transforms.replace_instruction_ids(k, {"s2": ["s0", "s1"]})
    assert out.statement("s3").depends_on == {"s0", "s1"}
    assert out.statement("s3").no_sync_with == {("s0", "local"), ("s1", "local")}
    assert transforms.replace_instruction_ids(k, {"s1": "s0"}) is k
    with pytest.raises(TransformError, match="replacement 'zz' \\(for 's2'\\) is not a "
                                             "statement id"):
        transforms.replace_instruction_ids(k, {"s2": "zz"})


# ---------------------------------------------------------------------------------------------
# synchronization


def local_kernel(read: str):
    k = knl("{[g, l]: 0<=g<4 and 0<=l<16}", f"""
        tmp[l] = 2*a[16*g + l]         {{id=w}}
        out[16*g + l] = tmp[{read}]    {{id=r, dep=w}}
        """, arr("a", "64"),
            TemporaryVariable("tmp", np.float32, shape=(16,), address_space="local"))
    return transforms.tag_inames(k, "g:g.0, l:l.0")


def test_add_nosync_removes_a_barrier(ctx):
    k = local_kernel("(l + 1) - 1")
    out = transforms.add_nosync(k, "local", "id:w", "id:r")
    assert out.statement("r").no_sync_with == {("w", "local")}
    assert "barrier" in translator.generate_code(k).device_code
    assert "barrier" not in translator.generate_code(out).device_code
    assert transforms.add_nosync(out, "local", "w", "r") is out
    check(k, out, ctx)


def test_add_nosync_bidirectional_groups_and_force():
    k = chain()
    both = transforms.add_nosync(k, "global", "s0", "s2", bidirectional=True)
    assert both.statement("s0").no_sync_with == {("s2", "global")}
    forced = transforms.add_nosync(k, "any", "s0", "s1", force=True)
    assert forced.statement("s1").no_sync_with == {("s0", "any")}
    assert transforms.add_nosync(k, "any", "s0", "s1", empty_ok=True) is k
    itself = transforms.add_nosync(k, "local", "s3", "s3", force=True)
    assert itself.statement("s3").no_sync_with == {("s3", "local")}
    transitive = transforms.add_nosync(k, "any", "s0", "s3")
    assert transitive.statement("s3").no_sync_with == {("s0", "any")}


def test_add_nosync_errors():
    with pytest.raises(TransformError, match="no nosync entry was added: 's1' does not "
                                             "depend on 's0'.*force=True"):
        transforms.add_nosync(chain(), "local", "s0", "s1")
    with pytest.raises(TransformError, match="unknown scope 'warp'"):
        transforms.add_nosync(chain(), "warp", "s0", "s2")


def test_add_barrier(ctx):
    k = local_kernel("15 - l")
    racy = transforms.add_nosync(k, "local", "w", "r")
    assert "barrier" not in translator.generate_code(racy).device_code
    out = transforms.add_barrier(racy, "id:w", "id:r", id_based_on="sync",
                                 synchronization_kind="local", tags="fence")
    barrier = out.statement("sync")
    assert isinstance(barrier, BarrierInstruction)
    assert (barrier.synchronization_kind, barrier.mem_kind) == ("local", "local")
    assert barrier.depends_on == {"w"} and barrier.tags == {"fence"}
    assert out.statement("r").depends_on == {"w", "sync"}
    assert [s.id for s in out.statements] == ["w", "sync", "r"]
    assert "barrier(CLK_LOCAL_MEM_FENCE);  /* sync */" in translator.generate_code(
        out).device_code
    check(k, out, ctx)


def test_add_barrier_ids_and_errors():
    k = chain()
    out = transforms.add_barrier(k, within_inames="i")
    assert out.statement("barrier").within_inames == {"i"}
    assert transforms.add_barrier(out).statements[-1].id == "barrier_0"
    assert "... gbarrier" in text(out)
    with pytest.raises(TransformError, match="synchronization_kind must be 'local' or "
                                             "'global', got 'warp'"):
        transforms.add_barrier(k, synchronization_kind="warp")
    with pytest.raises(TransformError, match="statement 's0' is both before and after"):
        transforms.add_barrier(k, "s0", "s0 or s1")
    with pytest.raises(TransformError, match="unknown iname 'q'"):
        transforms.add_barrier(k, within_inames="q")
