"""Kernel builders shared by the transform tests, and tests of `transforms.common`.

Kernels are built directly from `Kernel(...)` objects (domains via `isl_glue.parse_domain`,
expressions via pymbolic's parser) so that these tests depend only on the IR.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import islpy as isl
import pymbolic.primitives as p
from pymbolic import evaluate, parse

from translator.ir import isl_glue
from translator.ir.data import ArrayArg, ValueArg
from translator.ir.expr import Expression, IRWalkMapper, Reduction
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.statements import Assignment
from translator.ir.util import FrozenDict
from transforms.common import Rewriter, rewrite_statements, used_inames


def expr(e: str | Expression) -> Expression:
    return parse(e) if isinstance(e, str) else e


def assign(sid: str, lhs: str, rhs: str | Expression, inames: Iterable[str] = (),
           **kw) -> Assignment:
    return Assignment(id=sid, assignee=expr(lhs), expression=expr(rhs),
                      within_inames=frozenset(inames), **kw)


def build(domains: str | Sequence[str], statements: Sequence[Assignment], *,
          args: Sequence = (), rules: Sequence[SubstitutionRule] = (), **kw) -> Kernel:
    """A kernel; arrays read or written and domain parameters become arguments."""
    if isinstance(domains, str):
        domains = [domains]
    doms = tuple(isl_glue.parse_domain(d) for d in domains)
    if not args:
        args = _infer_args(doms, statements)
    return Kernel(name="knl", domains=doms, statements=tuple(statements), args=tuple(args),
                  substitutions=FrozenDict((r.name, r) for r in rules), **kw)


class _Arrays(IRWalkMapper):
    def __init__(self) -> None:
        self.names: list[str] = []

    def visit(self, e, *args, **kwargs) -> bool:
        if isinstance(e, p.Subscript) and e.aggregate.name not in self.names:
            self.names.append(e.aggregate.name)
        return True


def _infer_args(doms, statements) -> list:
    arrays = _Arrays()
    for s in statements:
        arrays(s.assignee)
        arrays(s.expression)
    inames = {n for d in doms for n in isl_glue.inames_of(d)}
    params = sorted({prm for d in doms for prm in isl_glue.params_of(d)} - inames)
    return [ArrayArg(name=a) for a in arrays.names] + [ValueArg(name=n) for n in params]


def points(kernel: Kernel, inames: Sequence[str], **params: int) -> set[tuple[int, ...]]:
    """Integer points of the iteration domain of `inames`, for fixed parameter values."""
    dom = isl_glue.combined_domain(kernel.domains, inames)
    for name, value in params.items():
        dom = isl_glue.fix_dim(dom, name, value)
    s = isl_glue.project_onto(dom, inames)
    order = [isl_glue.inames_of(s).index(i) for i in inames]
    out: set[tuple[int, ...]] = set()

    def add(pt: isl.Point) -> None:
        vals = [pt.get_coordinate_val(isl.dim_type.set, k).to_python()
                for k in range(s.dim(isl.dim_type.set))]
        out.add(tuple(vals[k] for k in order))
    s.foreach_point(add)
    return out


def evaluate_index(e: Expression, **values: int) -> int:
    return int(evaluate(e, {"min": min, "max": max, **values}))


# ---------------------------------------------------------------------------------------------
# tests of transforms.common


def test_rewriter_keeps_identity_when_nothing_changes():
    e = parse("a[i, j] + 2*b[k]")
    assert Rewriter({"x": p.Variable("y")})(e) is e


def test_rewriter_substitutes_and_renames_reductions():
    red = Reduction("sum", ("k",), parse("a[i, k]"))
    rw = Rewriter({"k": p.Variable("kk")}, reduction_inames=lambda r: ("kk",))
    out = rw(red + 1)
    assert out == Reduction("sum", ("kk",), parse("a[i, kk]")) + 1


def test_rewriter_respects_bound_rule_arguments():
    rw = Rewriter({"i": p.Variable("q")}).with_bound({"i"})
    e = parse("a[i]")
    assert rw(e) is e


def test_used_inames_counts_reductions_in_rules():
    rule = SubstitutionRule(name="f", arguments=("x",),
                            expression=Reduction("sum", ("k",), parse("a[x, k]")))
    knl = build("{[i, k]: 0<=i<n and 0<=k<m}", [assign("s", "out[i]", "f(i)", ["i"])],
                rules=[rule])
    assert used_inames(knl) == {"i", "k"}


def test_rule_used_inside_and_outside_within_is_copied():
    rule = SubstitutionRule(name="f", arguments=("x",), expression=parse("a[x] * i"))
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "f(i)", ["i"]),
                                  assign("s1", "out2[i]", "f(i)", ["i"])], rules=[rule])
    rw = Rewriter({"i": p.Variable("z")})
    out = rewrite_statements(knl, rw, lambda s: s.id == "s0")
    assert set(out.substitutions) == {"f", "f_0"}
    assert out.substitutions["f"] == rule
    assert out.substitutions["f_0"].expression == parse("a[x] * z")
    assert out.statement("s0").expression == parse("f_0(z)")
    assert out.statement("s1") is knl.statement("s1")


def test_rule_used_only_inside_is_rewritten_in_place():
    rule = SubstitutionRule(name="f", arguments=("x",), expression=parse("a[x] * i"))
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "f(i)", ["i"])], rules=[rule])
    out = rewrite_statements(knl, Rewriter({"i": p.Variable("z")}), lambda s: True)
    assert set(out.substitutions) == {"f"}
    assert out.substitutions["f"].expression == parse("a[x] * z")


def test_points_helper():
    knl = build("{[i, j]: 0<=i<3 and 0<=j<i}", [assign("s", "out[i, j]", "1", ["i", "j"])])
    assert points(knl, ["i", "j"]) == {(1, 0), (2, 0), (2, 1)}
    assert evaluate_index(parse("i + 2*min(j, 3)"), i=1, j=5) == 7
