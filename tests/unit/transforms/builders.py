"""Builders shared by the transform tests: kernels from the kernel language (`knl`, `arr`,
`check` against a reference on the CPU OpenCL device, `text`) and kernels built directly from IR
objects (`assign`, `build`, `points`, `evaluate_index`), so that a test can depend on the IR only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import islpy as isl
import numpy as np
import pymbolic.primitives as p
from pymbolic import evaluate, parse

import translator
from translator.ir import isl_glue
from translator.ir.data import ArrayArg
from translator.ir.expr import Expression, IRWalkMapper
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.parse import GlobalArg, ValueArg
from translator.ir.statements import Assignment
from translator.ir.util import FrozenDict
from translator.testing import auto_test_vs_ref

__all__ = ["GlobalArg", "ValueArg", "arr", "assign", "build", "check", "evaluate_index", "expr",
           "knl", "points", "text"]

def knl(domains, instructions: str, *args, **kw) -> translator.Kernel:
    """`make_kernel` with the declared arguments plus inferred ones."""
    return translator.make_kernel(domains, instructions, [*args, "..."], **kw)


def arr(name: str, shape: str, dtype=np.float32) -> GlobalArg:
    return GlobalArg(name, dtype, shape=shape)


def check(ref, test, ctx, **parameters) -> None:
    """The transformed kernel computes what the reference does (CPU OpenCL device)."""
    assert test is not ref
    auto_test_vs_ref(ref, ctx, test, parameters=parameters)


def text(kernel) -> str:
    """The instructions section of the printed kernel."""
    return translator.print_kernel(kernel).split("instructions:\n", 1)[1]


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
