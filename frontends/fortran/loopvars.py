"""The values DO variables have after a region (issue: ``iout = i`` after the region).

A region replaces its loops by a call, so the host's DO variables keep whatever they held
before it.  Fortran defines them: after ``do i = a, b, s`` the variable is
``a + max(0, (b - a + s)/s) * s`` (the trip count times the step past the start; ``a`` when the
loop runs zero times).  For every DO variable of the region that the procedure uses outside
the region, the rewrite assigns that value right after the call, in the loops' source order
(so the last loop over a variable wins, as it would in the original).  A loop nested in other
loops of the region gets its value only when every enclosing loop runs at least once; where
that depends on an enclosing loop's variable, or the loop sits under an IF of the region, the
value cannot be computed on the host and the variable's use after the region is an error.
"""

from __future__ import annotations

from frontends.fortran.build_support import GeneratedValue, fortran_text
from translator.diagnostics import FrontendError, SourceSpan, UnsupportedConstructError
from translator.ir.expr import Expression, dependencies
from translator.records import dataclass


@dataclass(frozen=True)
class LoopRecord:
    """A counted DO loop of a region, as its header says."""

    var: str
    lo: Expression
    hi: Expression
    step: int
    #: The region's loops around it, outermost first.
    enclosing: tuple[LoopRecord, ...]
    #: The inames of those loops (a bound naming one is not fixed before the region).
    enclosing_inames: frozenset[str]
    #: Whether an IF of the region guards it.
    predicated: bool
    span: SourceSpan
    #: DO CONCURRENT: the index is local to the construct, the host's variable is untouched.
    concurrent: bool = False
    #: The loop's iname in the kernel.
    iname: str = ""
    #: A search that ends at an EXIT (`frontends.fortran.searches`): its variable's value
    #: after the region is not computed on the host.
    exits: bool = False


def final_value_statements(loops: list[LoopRecord], used_outside: dict[str, int],
                           generated: dict[str, GeneratedValue], region: str
                           ) -> tuple[str, ...]:
    """Fortran statements that give each DO variable used outside the region its value after
    the region's loops; FrontendError where that value is not computable on the host."""
    out = []
    for loop in loops:
        if loop.concurrent or loop.var not in used_outside:
            continue
        why = _not_computable(loop)
        if not why:
            try:
                out.append(_assignment(loop, generated))
                continue
            except UnsupportedConstructError:
                why = "its loop's bounds cannot be evaluated after the region"
        line = used_outside[loop.var]
        use = f"is used (line {line})" if line else ("may be used by the caller (a dummy "
                                                     "argument, module, common or host variable)")
        raise FrontendError(f"the value of DO variable {loop.var!r} after region {region!r} "
                            f"{use}, but {why}; set it after the region", loop.span)
    return tuple(out)


def _not_computable(loop: LoopRecord) -> str:
    if loop.exits:
        return ("its loop ends at an EXIT (assign the index to a variable before the EXIT "
                "and read that)")
    if loop.predicated:
        return "its loop is inside an IF of the region"
    for outer in (loop, *loop.enclosing):
        names = dependencies(outer.lo) | dependencies(outer.hi)
        if names & outer.enclosing_inames:
            return (f"the bounds of the loop over {outer.var!r} depend on an enclosing loop "
                    "of the region")
    return ""


def _assignment(loop: LoopRecord, generated: dict[str, GeneratedValue]) -> str:
    value = final_value_text(loop, generated)
    guards = [f"{trip_count_text(o, generated)} > 0" for o in loop.enclosing]
    if not guards:
        return f"{loop.var} = {value}"
    return f"if ({' .and. '.join(guards)}) {loop.var} = {value}"


def trip_count_text(loop: LoopRecord, generated: dict[str, GeneratedValue]) -> str:
    """``max(0, (b - a + s)/s)``: Fortran's iteration count of ``do v = a, b, s``."""
    lo, hi = fortran_text(loop.lo, generated), fortran_text(loop.hi, generated)
    if loop.step == 1:
        return f"max(0, {hi} - {lo} + 1)"
    s = str(loop.step) if loop.step > 0 else f"({loop.step})"
    return f"max(0, ({hi} - {lo} + {s}) / {s})"


def final_value_text(loop: LoopRecord, generated: dict[str, GeneratedValue]) -> str:
    """``a + trips*s``: the DO variable's value after ``do v = a, b, s``."""
    lo, hi = fortran_text(loop.lo, generated), fortran_text(loop.hi, generated)
    if loop.step == 1:
        return f"max({lo}, {hi} + 1)"
    s = str(loop.step) if loop.step > 0 else f"({loop.step})"
    return f"{lo} + {trip_count_text(loop, generated)} * {s}"
