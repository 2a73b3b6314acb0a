"""Proving the OpenMP/OpenACC claims of a region (`translator.ir.claims`) on its kernel, under
the model's rules.  The driver calls `prove_region_claims` for each region a frontend built from
directives, before the region runs the pipeline; frontends only record the claims.

Data sharing follows the directive, not the sequential program: a scalar the loop writes
that no clause makes private or a reduction is shared, and written by several iterations:
a race.  A private scalar must be written before it is read in every iteration (else its
value comes from nowhere).  Every loop the directive declares parallel is proved parallel by
`translator.analysis.legality`; an accumulation listed in a reduction clause may be
reassociated (the clause is the user's consent).  Failures are ``directive-race`` warnings
(errors by default, `translator.build.warnpolicy`) at the directive; the region then keeps the
meaning the translator proves on its own.
"""

from __future__ import annotations

from dataclasses import replace

import pymbolic.primitives as p
from pymbolic import evaluate, parse

from translator.analysis.access import Access, kernel_accesses
from translator.analysis.atomics import atomic_form_problem, mixed_atomic
from translator.analysis.bounds import bound_assumptions, certain_spill
from translator.analysis.legality import check_mappings
from translator.analysis.privatize import privatize
from translator.analysis.reductions import statement_update, unsupported_update
from translator.automap import _tagged, reduction_band
from translator.diagnostics import (FrontendError, LegalityError, SourceSpan, TranslatorError,
                                    warn)
from translator.ir.claims import (DATA_SECTION, RACE, SEQUENTIAL, ClauseSection, LoopClaim,
                                  LoopInfo, RegionFacts, TransformCall)
from translator.ir.data import AddressSpace, ArrayArg, TemporaryVariable
from translator.ir.expr import Expression, IRIdentityMapper, dependencies
from translator.ir.isl_glue import find_conflict, instance_set, last_point, runs_at_every_point
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement, map_expressions
from translator.ir.util import FrozenDict
from translator.records import dataclass
from translator.split import loops_conflict, sub_kernel

#: Reduction operators the IR can run in parallel (`translator.analysis.reductions`).
SUPPORTED_REDUCTIONS = frozenset({"+", "-", "*", "max", "min"})


@dataclass(frozen=True)
class ClaimSite:
    """A claim and what the frontend knows of its loops: the spelling of the directive for
    messages (``!$omp parallel do``), and the declared-parallel loops as (variable, iname),
    outermost first."""

    claim: LoopClaim
    spelled: str
    loops: tuple[tuple[str, str], ...]
    #: (variable, line) of the loops in the nest whose index the model shares (OpenMP C: an
    #: inner loop's index declared outside the construct)
    shared_indices: tuple[tuple[str, int], ...] = ()
    #: inames of the loops nested in the declared-parallel ones (not declared parallel)
    inner: frozenset[str] = frozenset()
    #: scalars the program may read after the region (`RegionFacts.read_after`)
    read_after: frozenset[str] = frozenset()
    #: scalars each iteration writes before reading them (`RegionFacts.auto_private`): a
    #: shared one is a race that ``private`` fixes, not ``reduction`` (h70)
    written_first: frozenset[str] = frozenset()
    #: why an ``atomic`` update in the claim's loops has no atomic form on the device ("" if
    #: none): the claim keeps its sequential meaning (`device_atomics`)
    atomic_reason: str = ""


@dataclass(frozen=True)
class ProvenRegion:
    """What the proof gives a region: its kernel (a ``lastprivate`` variable made private,
    with the store of the last iteration), the transform calls the proven claims add (a
    reduction clause consents to reassociation; mapping hints) and a report line per claim."""

    kernel: Kernel
    calls: tuple[TransformCall, ...]
    notes: tuple[str, ...]


def prove_region_claims(kernel: Kernel, facts: RegionFacts) -> ProvenRegion:
    """Prove each (claim, loop line, spelling) of `facts` on the region's `kernel`."""
    kernel, unsupported = device_atomics(kernel)
    calls, notes = [], []
    warned: set = set()
    read_only = frozenset(a.name for a in kernel.value_args)
    used = frozenset(a.name for a in kernel.args) | frozenset(kernel.temporaries)
    for claim, line, spelled in facts.claims:
        # linear on a loop index says what OpenMP does anyway
        claim = replace(claim, linear=tuple(n for n in claim.linear if n not in facts.implicit))
        claim = with_thread_values(claim, read_only)
        site = ClaimSite(claim, spelled, declared_loops(claim, line, facts.loops, spelled))
        site = replace(site, shared_indices=shared_indices(site, line, facts.loops),
                       inner=frozenset(facts.loops[k].iname
                                       for k in _nested(facts.loops, line)) - {
                           iname for _, iname in site.loops},
                       read_after=facts.read_after, written_first=facts.auto_private,
                       atomic_reason=next((why for inames, why in unsupported
                                           if site.loops and site.loops[0][1] in inames), ""))
        check_default_none(site, used, facts.implicit)
        check_bounds(kernel, facts, site, line)
        warned |= check_sections(kernel, facts, site, line, warned)
        private = claim.private_names(facts.auto_private | facts.written_back)
        shared = (facts.auto_private - private) | facts.written_back
        verdict, kernel = prove_claim(kernel, site, shared, read_only)
        notes.append(f"{spelled} at line {claim.span.line}: {verdict.summary}"
                     + (f"; accepted with no effect: {', '.join(claim.ignored)}"
                        if claim.ignored else ""))
        if verdict.proven and claim.reductions and not any(c.name == "set_options"
                                                            for c in calls):
            calls.append(TransformCall(name="set_options", kwargs=(("reassociate", True),),
                                       span=claim.span))
        if verdict.proven and claim.hints:   # mapping sizes the directive asks for
            calls += bind_hints(claim, site.loops)
    notes += _nowait_races(kernel, facts)
    return ProvenRegion(kernel=kernel, calls=tuple(calls), notes=tuple(notes))


def with_thread_values(claim: LoopClaim, read_only: frozenset[str]) -> LoopClaim:
    """`claim` with each of its `thread_private` variables that the loop only reads
    (`read_only`) made ``firstprivate``: the thread's copy, set before the loop by code every
    thread runs (on the host, once), is what each iteration reads.  One the loop writes stays
    ``private``: each iteration must write it before reading it (h92)."""
    moved = tuple(n for n in claim.thread_private if n in read_only)
    if not moved:
        return claim
    return replace(claim, private=tuple(n for n in claim.private if n not in moved),
                   firstprivate=tuple(dict.fromkeys(claim.firstprivate + moved)))


def bind_hints(claim: LoopClaim, loops: tuple[tuple[str, str], ...]
               ) -> tuple[TransformCall, ...]:
    """The claim's hints with their loops named: `loops` are the declared-parallel loops as
    (variable, iname), outermost first.  A hint for a loop the claim does not declare is
    dropped."""
    inames = [iname for _, iname in reversed(loops)]
    out = []
    for call in claim.hints:
        args = tuple(_bound(a, inames) for a in call.args)
        if None not in args:
            out.append(replace(call, args=args))
    return tuple(out)


def _bound(arg: object, inames: list[str]) -> object:
    if not (isinstance(arg, str) and arg.startswith("@loop")):
        return arg
    k = int(arg.removeprefix("@loop"))
    return inames[k - 1] if k <= len(inames) else None


def _nowait_races(kernel: Kernel, facts: RegionFacts) -> list[str]:
    """``nowait`` on a worksharing loop lets threads start the next loops of the construct
    before it ends: a race when a later loop touches memory it writes, or writes memory it
    reads (proved by isl; the region still runs the loops in order).  A claim on a loop nested
    in the ``nowait`` loop (``!$omp simd`` inside ``!$omp do``) is part of that loop, not a
    later one."""
    claims, out = facts.claims, []
    nests = [_outer_statements(kernel, facts.loops, line) for _, line, _ in claims]
    for k, (claim, _, spelled) in enumerate(claims):
        if "nowait" not in claim.ignored:
            continue
        inside = {s.id for s in nests[k]}
        for later, (other, _, _) in zip(nests[k + 1:], claims[k + 1:]):
            if {s.id for s in later} <= inside:
                continue
            if nests[k] and later and loops_conflict(kernel, nests[k], later, ()):
                problem = (f"'nowait' lets the loop at line {other.span.line} start before "
                           "this loop ends, and they touch the same memory (one of them "
                           "writes it): remove nowait")
                warn(RACE, f"{spelled}: {problem}; the loops run in order",
                     claim.span)
                out.append(f"{spelled} at line {claim.span.line}: refused: {problem}")
                break
    return out


def _outer_statements(kernel: Kernel, loops: tuple[LoopInfo, ...], line: int) -> list:
    iname = next((r.iname for r in loops if r.line == line), None)
    return [s for s in kernel.statements if iname in s.within_inames]


def declared_loops(claim: LoopClaim, line: int, loops: tuple[LoopInfo, ...], spelled: str
                   ) -> tuple[tuple[str, str], ...]:
    """(variable, iname) of the loops the claim declares parallel: the outermost loop at
    `line` and the loops perfectly nested in it, `claim.parallel` in all."""
    first = [k for k, r in enumerate(loops) if r.line == line][:1]
    chain = first
    while chain and len(chain) < claim.parallel:
        inner = [k for k, r in enumerate(loops) if r.parent == chain[-1]]
        if len(inner) != 1:
            raise FrontendError(f"{spelled}: collapse({claim.parallel}) needs "
                                f"{claim.parallel} perfectly nested loops", claim.span)
        chain.append(inner[0])
    return tuple((loops[k].var, loops[k].iname) for k in chain[:max(claim.parallel, 0)])


def shared_indices(site: ClaimSite, line: int, loops: tuple[LoopInfo, ...]
                   ) -> tuple[tuple[str, int], ...]:
    """(variable, line) of the loops nested in the claim's loop at `line` whose index OpenMP
    shares: declared outside the construct (C), not associated with the directive, and named
    in no clause.  (In Fortran every DO index in the construct is private.)"""
    if site.claim.model != "openmp" or not site.loops:
        return ()
    associated = {iname for _, iname in site.loops}
    listed = site.claim.listed() - set(site.claim.shared)
    out = []
    for k in _nested(loops, line):
        info = loops[k]
        if (info.declared_outside and info.iname not in associated and info.var not in listed
                and info.var not in site.claim.private_names({info.var})):
            out.append((info.var, info.line))
    return tuple(out)


def _nested(loops: tuple[LoopInfo, ...], line: int) -> list[int]:
    """Indices of the loops nested (at any depth) in the loop at `line`."""
    outer = [k for k, r in enumerate(loops) if r.line == line][:1]
    return [k for k in range(len(loops)) if outer and _within(loops, k, outer[0])]


def _within(loops: tuple[LoopInfo, ...], k: int, outer: int) -> bool:
    """Whether loop `k` is nested (at any depth) in loop `outer`."""
    parent = loops[k].parent
    while parent is not None:
        if parent == outer:
            return True
        parent = loops[parent].parent
    return False


@dataclass(frozen=True)
class Verdict:
    """The outcome: `proven` or not, and one line for the report."""

    proven: bool
    summary: str


def prove_claim(kernel: Kernel, site: ClaimSite, shared_written: frozenset[str],
                read_only: frozenset[str]) -> tuple[Verdict, Kernel]:
    """Check `site` on `kernel`: `shared_written` are the scalars the kernel writes back to the
    caller (not private copies), `read_only` the scalars it only reads.  Warns
    ``directive-race`` and returns a failed verdict at the first problem.  The kernel returned
    is the one the region runs: `kernel`, or with ``lastprivate`` variables made private and
    stored by the last iteration once the claim is proven (`with_last_stores`)."""
    problem = _sharing_problem(kernel, site, shared_written, read_only)
    reason = _unsupported(site.claim) or _array_reduction(kernel, site.claim, shared_written) \
        or site.atomic_reason
    proved = kernel
    if not problem and not reason and site.claim.lastprivate:
        proved, reason = with_last_stores(kernel, site, shared_written)
    if not problem and reason:
        warn(SEQUENTIAL, f"{site.spelled}: {reason}; the loop keeps its sequential meaning",
             site.claim.span)
        return Verdict(False, f"refused: {reason}"), kernel
    problem = problem or _atomic_problem(proved, site, _dependence_problem(proved, site))
    if problem:
        warn(RACE, f"{site.spelled}: {problem}; the loop keeps its sequential meaning",
             site.claim.span)
        return Verdict(False, f"refused: {problem}"), kernel
    loops = ", ".join(v for v, _ in site.loops) or "none"
    reductions = ", ".join(f"{op}:{n}" for op, n in site.claim.reductions)
    last = ", ".join(n for n in site.claim.lastprivate if n in shared_written)
    return Verdict(True, f"proven: loops {loops} parallel"
                   + (f", reductions {reductions}" if reductions else "")
                   + (f", lastprivate {last} stored by the last iteration" if last else "")
                   ), proved


def check_default_none(site: ClaimSite, used: frozenset[str],
                       implicit: frozenset[str]) -> None:
    """``default(none)``: every variable the loop uses, but its `implicit` ones (loop indices,
    variables declared inside), is named in a data-sharing clause (an error, as in OpenMP)."""
    if site.claim.default != "none":
        return
    listed = {*site.claim.listed()}
    missing = sorted(used - implicit - listed)
    if missing:
        raise FrontendError(f"{site.spelled}: variable {missing[0]!r} is used in the loop but "
                            "not named in a data-sharing clause, and default(none) requires "
                            f"it (add shared({missing[0]}) or private({missing[0]}))",
                            site.claim.span)


def check_bounds(kernel: Kernel, facts: RegionFacts, site: ClaimSite, line: int) -> None:
    """An access of the claim's loop nest that leaves its array's declared extent (or, with
    none declared, reaches before element 0) whatever the caller passes is an error at the
    directive (one that leaves it only for some arguments, ``a(i)`` of ``a(nmax)`` over
    ``i = 1, n``, is the caller's business): the original program's value there is undefined (not a race the sequential
    meaning could fix), and the translated one moves only the array's own elements."""
    kernel = _declared(kernel, facts.declared_shapes)
    inames = {facts.loops[k].iname for k in _nested(facts.loops, line)} | {
        iname for _, iname in site.loops}
    for acc in kernel_accesses(kernel):
        if not inames & set(acc.inames):
            continue
        spill = certain_spill(kernel, acc)
        if spill is None or not spill.point:   # None: inside (or only for some callers)
            continue
        text = spill.text()
        if acc.variable in facts.unsized and spill.value < 0:   # extent = the footprint
            text = text.split(" of dimension")[0] + text[text.index(" at "):]
            why = (f"before the first element of {acc.variable!r}, which has no declared "
                   "extent: the translator moves a pointer's elements from the one it points "
                   "to on; pass a pointer to the first element the loop uses")
        elif acc.variable in facts.unsized:
            text = text.split(" of dimension")[0] + text[text.index(" at "):]
            why = (f"past the last element of {acc.variable!r} that the translator moves "
                   "(those the loop reads where its conditions hold), and it has no declared "
                   "extent: test the loop's bounds before the read (C evaluates '&&' and '||' "
                   "from the left), or declare the array with its extent, e.g. 'double a[n]'")
        else:
            why = (f"outside the declared extent of {acc.variable!r}, which the program leaves "
                   "undefined; bound the loop or declare the array larger")
        raise FrontendError(f"{site.spelled}: {text}: the loop {acc.verb} {why}",
                            site.claim.span)


def check_sections(kernel: Kernel, facts: RegionFacts, site: ClaimSite, line: int,
                   warned: set) -> set:
    """Warn (``directive-data-section``) at each section of a data clause of the claim's
    compute construct (``copyin(x[0:n/2])``, ``map(to: a(1:n/2))``) that the loop nest
    reaches outside of, with a point where it does: the clause moves nothing here (the region
    moves what the loop uses, so the result is the sequential program's), but the program
    meant something else, and an OpenMP or OpenACC compiler would read or write memory the
    device does not hold.  Bounds isl cannot take (macros, calls) are not checked.  Returns
    the sections warned of (`warned`: those already warned of, by another claim)."""
    out = set()
    inames = {facts.loops[k].iname for k in _nested(facts.loops, line)} | {
        iname for _, iname in site.loops}
    for section in site.claim.sections:
        if section in warned or section in out:
            continue
        point = _outside_section(kernel, facts, section, inames)
        if point:
            warn(DATA_SECTION, f"{site.spelled}: {section.clause} covers less than the loop "
                 f"uses ({point}); a data clause of a compute construct moves nothing here (the "
                 "region moves what the loop uses, so the result is the program's without "
                 "directives): give the section the loop uses",
                 section.span or site.claim.span)
            out.add(section)
    return out


def _outside_section(kernel: Kernel, facts: RegionFacts, section: ClauseSection,
                     inames: set[str]) -> str:
    """How an access of the nest over `inames` leaves `section` ("" when none is found or the
    bounds are not affine in the kernel's value arguments)."""
    lowers = facts.lower_bounds.get(section.array, ())
    language = kernel.options.source_language
    for acc in kernel_accesses(kernel):
        if acc.variable != section.array or not inames & set(acc.inames) or acc.index is None \
                or len(acc.index) != len(section.bounds) or acc.layout != "":
            continue
        for axis, (first, end) in enumerate(section.bounds):
            lower = lowers[axis] if axis < len(lowers) else 0
            lo, hi = (_section_bound(t, kernel, language) for t in (first, end))
            if lo is None or hi is None:
                continue
            found = _leaves(kernel, acc, axis, lo - lower, hi - lower, lower)
            if found:
                return found
    return ""


def _leaves(kernel: Kernel, acc: Access, axis: int, lo: Expression, end: Expression,
            lower: Expression) -> str:
    """A point where `acc`'s subscript along `axis` (kernel indexing, from 0) is below `lo`
    or at least `end`, as text in the array's own indexing (from `lower`), or ""."""
    try:
        inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                              assumptions=kernel.assumptions)
        for less in ((acc.index[axis], lo), (end - 1, acc.index[axis])):
            # a point where the section is not empty shows it best
            point = find_conflict(inside, inside, (), (), [less, (lo, end)]) or \
                find_conflict(inside, inside, (), (), [less])
            if point is not None:
                return _outside_text(kernel, acc, axis, lower, point)
    except TranslatorError:
        return ""
    return ""


def _outside_text(kernel: Kernel, acc: Access, axis: int, lower: Expression,
                  point: dict[str, int]) -> str:
    """``the loop reads element 0 of dimension 1 of 'x' at i=1, n=1``."""
    shown = {n: v for n, v in point.items() if n in acc.inames or kernel.arg(n) is not None}
    value = int(evaluate(acc.index[axis] + lower, point))
    where = ", ".join(f"{n}={v}" for n, v in sorted(shown.items()))
    return (f"the loop {acc.verb} element {value} of dimension {axis + 1} of "
            f"{acc.variable!r} at {where}")


def _section_bound(text: str, kernel: Kernel, language: str) -> Expression | None:
    """A section bound's text as an expression in the kernel's value arguments (integer
    ``/`` by a positive constant as floor division: bounds are not negative), or None."""
    if not text.strip():
        return None
    try:
        expr = parse(text.lower() if language == "fortran" else text)
    except Exception:   # noqa: BLE001 (pymbolic's parser raises its own errors)
        return None
    values = {a.name for a in kernel.value_args}
    return _affine_bound(expr, values)


def _affine_bound(expr: object, values: set[str]) -> Expression | None:
    if isinstance(expr, int):
        return expr
    if isinstance(expr, p.Variable):
        return expr if expr.name in values else None
    if isinstance(expr, (p.Sum, p.Product)):
        parts = [_affine_bound(c, values) for c in expr.children]
        return None if None in parts else type(expr)(tuple(parts))
    if isinstance(expr, p.Quotient) and isinstance(expr.denominator, int) \
            and expr.denominator > 0:
        num = _affine_bound(expr.numerator, values)
        return None if num is None else p.FloorDiv(num, expr.denominator)
    return None


def _declared(kernel: Kernel, shapes: dict[str, tuple]) -> Kernel:
    """`kernel` with the array arguments in `shapes` given those shapes."""
    if not shapes:
        return kernel
    args = [replace(a, shape=shapes[a.name]) if a.name in shapes else a for a in kernel.args]
    return kernel.copy(args=tuple(args))


def _sharing_problem(kernel: Kernel, site: ClaimSite, shared_written: frozenset[str],
                     read_only: frozenset[str]) -> str:
    claim = site.claim
    for name, line in site.shared_indices:
        return (f"{name!r} is the index of the loop at line {line} and is declared outside the "
                "construct, so OpenMP shares it: every iteration of the parallel loop over "
                f"{site.loops[0][0]} writes it (a race): add private({name}), or declare it in "
                "the for statement")
    problem = _private_read_after(kernel, site)
    if problem:
        return problem
    for name in sorted(shared_written & _written_in_nest(kernel, site)):
        if name in claim.linear:   # not run in parallel (`_unsupported`)
            continue
        if name in claim.reduction_names:
            mismatch = _operator_mismatch(kernel, claim, name)
            if mismatch:
                return mismatch
            continue
        if name in claim.lastprivate:
            if not _written_last(kernel, site, name):
                inner = _inner_write_line(kernel, site, name)
                where = (f" (its write at line {inner} is in an inner loop that may run no "
                         "iteration)" if inner else "")
                return (f"lastprivate variable {name!r} is not written by the last iteration on "
                        f"every path{where}: its value after the loop is then undefined in "
                        f"{_model(claim)} (the sequential loop keeps an earlier iteration's "
                        f"value); write {name} on every path of the loop body")
            if not _written_first(kernel, site, name):
                return (f"lastprivate variable {name!r} is read before it is written in an "
                        f"iteration: each iteration has its own copy, whose value is undefined "
                        f"there in {_model(claim)}; write {name} before reading it")
            continue
        if name in claim.firstprivate:
            return (f"firstprivate variable {name!r} is read before it is written in an "
                    "iteration: its value then comes from the previous iteration the same "
                    "thread ran, which depends on the schedule; write it before reading it "
                    "in every iteration, or make it a reduction")
        if name in claim.private_names(shared_written):
            return (f"private variable {name!r} is read before it is written in an iteration: "
                    f"its value is undefined in {_model(claim)}; use firstprivate({name})")
        if not site.loops:   # nothing declared parallel (kernels, serial, auto): no race
            continue
        return _shared_write_problem(kernel, site, name)
    for name in sorted(read_only & frozenset(claim.private)):
        return (f"private variable {name!r} is read but never written in the loop: its value "
                f"is undefined in {_model(claim)}; use firstprivate({name})")
    return ""


def _shared_write_problem(kernel: Kernel, site: ClaimSite, name: str) -> str:
    """Why a shared scalar the parallel loop writes races, and the clause that fixes it: a
    reduction for an accumulation, private for a value each iteration writes before it reads
    it; neither for a value carried from one iteration to the next (Livermore's
    ``stb5 = b5(k) - stb5``, a first minimum's ``if (x(k) < x(m)) m = k``), where either
    clause would only move the refusal."""
    race = (f"shared variable {name!r} is written by every iteration of the parallel loop "
            f"over {site.loops[0][0]}")
    first = name in site.written_first
    op = "" if first else accumulation_operator(_nest_of(kernel, site.loops[0][1]), name)
    if op:
        return f"{race} (a race): add reduction({op}:{name})"
    if first or _written_first(kernel, site, name):
        return f"{race} (a race): add private({name})"
    return (f"{race} and read by the iterations after it (a recurrence): no clause makes "
            "them independent: remove the directive")


def _private_read_after(kernel: Kernel, site: ClaimSite) -> str:
    """Why a ``private`` (``firstprivate``) variable the loop writes may not be read after
    the region: its value there is undefined in the model (the copies are the iterations'),
    while the program without directives has the last iteration's."""
    claim = site.claim
    names = claim.privates() & site.read_after & _written_in_nest(kernel, site)
    for name in sorted(names):
        clause = "private" if name in claim.private else "firstprivate"
        fix = (f"use lastprivate({name}) for the last iteration's value"
               if claim.model == "openmp" else f"do not read {name} after the loop")
        return (f"{clause} variable {name!r} is read after the loop: its value there is "
                f"undefined in {_model(claim)} (the program without directives has the last "
                f"iteration's); {fix}")
    return ""


#: What an update with each clause operator does to a variable, and what the clause does,
#: for messages.
_VERBS = {"+": ("adds to", "adds"), "*": ("multiplies", "multiplies"),
          "max": ("takes the maximum of", "takes the maximum"),
          "min": ("takes the minimum of", "takes the minimum")}


def _operator_mismatch(kernel: Kernel, claim: LoopClaim, name: str) -> str:
    """Why `claim`'s reduction clause on `name` does not match an update of `name` in the
    loop ("" when it does, or when no update's operator is known): each thread would combine
    its partial results with the clause's operator, not the loop's."""
    clause = next(op for op, n in claim.reductions if n == name)
    wanted = _clause_operator(clause)
    if wanted not in _VERBS:
        return ""
    for stmt in kernel.statements:
        if name not in stmt.assignee_names() or not hasattr(stmt, "expression"):
            continue
        update = statement_update(kernel, stmt)
        found = _clause_operator(update.operation) if update else ""
        if found in _VERBS and found != wanted:
            return (f"the loop {_VERBS[found][0]} {name}, but reduction({clause}:{name}) "
                    f"{_VERBS[wanted][1]}: use reduction({found}:{name})")
        unsupported = unsupported_update(kernel, stmt, update) if update else ""
        if unsupported:
            return f"reduction({clause}:{name}): {unsupported}"
    return ""


def _clause_operator(op: str) -> str:
    """A reduction operator as a clause spells it, normalised ("-" is "+", C's fmax is max);
    the IR's names of operations ("sum", "product") are spelled as in a clause."""
    low = op.lower()
    return {"-": "+", "sum": "+", "product": "*", "fmax": "max", "fmin": "min"}.get(low, low)


def _written_in_nest(kernel: Kernel, site: ClaimSite) -> frozenset[str]:
    """The variables the claim's loop nest writes (a region holding several worksharing loops:
    a variable only another loop writes is not this loop's race)."""
    if not site.loops:
        return frozenset().union(*(s.assignee_names() for s in kernel.statements))
    outer = site.loops[0][1]
    return frozenset().union(*(s.assignee_names() for s in kernel.statements
                               if outer in s.within_inames))


def _written_last(kernel: Kernel, site: ClaimSite, name: str) -> bool:
    """Whether every iteration of the declared-parallel loops, so the last one, writes
    `name`: an assignment to it under no condition, in no inner loop or in inner loops that
    run at least one iteration at every point of the loops around them."""
    return any(name in stmt.assignee_names() and not stmt.predicates
               and (not stmt.within_inames & site.inner
                    or runs_at_every_point(kernel.domains, stmt.within_inames - site.inner,
                                           stmt.within_inames))
               for stmt in kernel.statements)


def _inner_write_line(kernel: Kernel, site: ClaimSite, name: str) -> int | None:
    """The line of an unconditional write of `name` inside an inner loop (None: none)."""
    for stmt in kernel.statements:
        if (name in stmt.assignee_names() and not stmt.predicates
                and stmt.within_inames & site.inner and stmt.span is not None):
            return stmt.span.line
    return None


def _written_first(kernel: Kernel, site: ClaimSite, name: str) -> bool:
    """Whether each iteration of the claim's nest writes what it reads of `name` first (a
    copy per iteration then computes what the shared variable did): proved as for a private
    array (`translator.analysis.privatize`), on the nest alone."""
    nest = _nest_of(kernel, site.loops[0][1]) if site.loops else kernel
    if not isinstance(nest.arg(name), ArrayArg):
        return True     # the frontend made it private: each iteration writes it first
    if not any(name in dependencies(e) for s in nest.statements for e in s.read_expressions()):
        return True
    extra = FrozenDict({**nest.options.extra, "private_candidates": (name,)})
    trial = nest.copy(options=replace(nest.options, extra=extra))
    return name in privatize(trial).temporaries


def with_last_stores(kernel: Kernel, site: ClaimSite, shared: frozenset[str]
                     ) -> tuple[Kernel, str]:
    """`kernel` with each ``lastprivate`` variable of the claim that goes back to the caller
    (a 1-element array of `shared`) replaced by a private copy in the claim's loops, and a
    statement ``x[0] = copy`` that only the sequentially last iteration of those loops runs
    (the lexicographically last point of a collapsed nest), after its last write of the copy:
    OpenMP's meaning.  Returns (kernel, "") or (`kernel` unchanged, why it cannot be done)."""
    inames = tuple(iname for _, iname in site.loops)
    last = last_point(kernel.domains, inames) if inames else None
    for name in (n for n in site.claim.lastprivate if n in shared):
        if not isinstance(kernel.arg(name), ArrayArg):
            continue
        touching = [s for s in kernel.statements if name in _names_of(s)]
        if any(not set(inames) <= s.within_inames
               or s.within_inames - set(inames) - site.inner for s in touching):
            return kernel, (f"lastprivate({name}): {name!r} is also used outside the loops the "
                            "directive declares parallel, in the same region")
        if last is None:
            return kernel, (f"lastprivate({name}): the last iteration of the loops over "
                            f"{', '.join(v for v, _ in site.loops)} is not one point the "
                            "translator can name (its bounds differ by cases)")
        kernel = _last_store(kernel, name, touching, inames, last, site.claim.span)
    return kernel, ""


def _names_of(stmt: Statement) -> frozenset[str]:
    """The variables a statement reads or writes."""
    return frozenset(stmt.assignee_names()).union(
        *(dependencies(e) for e in stmt.read_expressions()))


def _last_store(kernel: Kernel, name: str, touching: list[Statement],
                inames: tuple[str, ...], last: tuple[Expression, ...],
                span: SourceSpan | None) -> Kernel:
    """`kernel` with `name` (a 1-element array) private in `touching` and stored back by the
    iteration at the point `last` of `inames`."""
    taken = set(kernel.arg_names) | set(kernel.temporaries) | kernel.all_inames | {
        s.id for s in kernel.statements}
    copy = _fresh(f"_tr_last_{name}", taken)
    target = next(s.assignee for s in touching if name in s.assignee_names())
    privatized = {s.id: map_expressions(s, _Renamer(name, copy)) for s in touching}
    statements = [privatized.get(s.id, s) for s in kernel.statements]
    store = Assignment(
        id=_fresh(f"_tr_store_{name}", taken | {copy}), assignee=target,
        expression=p.Variable(copy), within_inames=frozenset(inames),
        depends_on=frozenset(s.id for s in touching if name in s.assignee_names()),
        predicates=frozenset(p.Comparison(p.Variable(i), "==", v) for i, v in zip(inames, last)),
        span=span)
    temps = kernel.temporaries.set(copy, TemporaryVariable(
        name=copy, dtype=kernel.arg(name).dtype, address_space=AddressSpace.PRIVATE, span=span))
    return kernel.copy(statements=(*statements, store), temporaries=temps)


def _fresh(name: str, taken: set[str]) -> str:
    k, out = 0, name
    while out in taken:
        k += 1
        out = f"{name}_{k}"
    return out


class _Renamer(IRIdentityMapper):
    """``x[0]`` (any subscript of `name`) -> the private copy."""

    def __init__(self, name: str, copy: str) -> None:
        super().__init__()
        self.name, self.copy = name, p.Variable(copy)

    def map_subscript(self, expr: p.Subscript, *args, **kwargs):
        if getattr(expr.aggregate, "name", None) == self.name:
            return self.copy
        return super().map_subscript(expr, *args, **kwargs)


def _unsupported(claim: LoopClaim) -> str:
    """Why a correct claim cannot run in parallel here ("" if it can)."""
    if claim.linear:
        return (f"linear({claim.linear[0]}): the translator does not give a linear variable "
                "its value from the iteration's number")
    ops = [f"{op}:{n}" for op, n in claim.reductions if op not in SUPPORTED_REDUCTIONS]
    if ops:
        return (f"reduction({ops[0]}): the translator has no parallel reduction for operator "
                f"'{ops[0].split(':')[0]}' (only {', '.join(sorted(SUPPORTED_REDUCTIONS))})")
    return ""


def _array_reduction(kernel: Kernel, claim: LoopClaim, scalars: frozenset[str]) -> str:
    """Why a reduction over an array (OpenMP 4.5 ``reduction(+:hist)``) is refused ("" if
    every reduction variable is a scalar)."""
    arrays = {a.name for a in kernel.array_args} - scalars
    for _, name in claim.reductions:
        if name in arrays:
            return f"reduction over the array {name!r}: the translator reduces scalars only"
    return ""


def _model(claim: LoopClaim) -> str:
    return "OpenMP" if claim.model == "openmp" else "OpenACC"


def _dependence_problem(kernel: Kernel, site: ClaimSite) -> str:
    """Why a loop the claim declares parallel may not run so ("" when every one may).  The
    subscripts are taken inside their extents where one convex condition on the parameters
    says so (`bound_assumptions`: the lower bounds and extents of allocatable and
    assumed-shape arrays), as the pipeline does; the host glue checks it at each call."""
    kernel = _nest_of(kernel, site.loops[0][1]) if site.loops else kernel
    kernel = _enclosing_privates_shared(kernel, frozenset(site.claim.reduction_names))
    kernel = bound_assumptions(kernel)
    kernel = _privatized(kernel, site.claim.privates())
    consent = kernel.copy(options=replace(kernel.options, reassociate=True)) \
        if site.claim.reductions else kernel
    for var, iname in site.loops:
        error = _mapping_error(kernel, iname)
        if error and site.claim.reductions and reduction_band(consent, iname)[0]:
            continue
        if error:
            return f"the loop over {var} is declared parallel, but {error}" + \
                (_private_hint(kernel, iname) or _region_advice(kernel, iname, site))
    return ""


def device_atomics(kernel: Kernel) -> tuple[Kernel, list[tuple[frozenset[str], str]]]:
    """`kernel` with the atomic marks the device cannot carry out removed (an ``atomic``
    update of a 16-bit array, of an integer with a floating-point term: `atomic_form_problem`),
    and for each, the inames around it and why: a claim over those loops keeps its
    sequential meaning (``directive-sequential``), where the update needs no atomicity."""
    found, statements = [], []
    for stmt in kernel.statements:
        problem = atomic_form_problem(kernel, stmt)
        if problem:
            where = f" at line {stmt.span.line}" if stmt.span is not None else ""
            found.append((stmt.within_inames, f"the update under 'atomic'{where} has no "
                                              f"atomic form on the device: {problem}"))
            stmt = replace(stmt, atomicity=frozenset())
        statements.append(stmt)
    return (kernel.copy(statements=tuple(statements)) if found else kernel), found


def _atomic_problem(kernel: Kernel, site: ClaimSite, problem: str) -> str:
    """`problem` (a race of a declared-parallel loop), said first of an array the loop updates
    atomically but also uses otherwise (`mixed_atomic`): its atomic updates conflict between
    iterations, which only every access being such an update makes harmless."""
    if not problem:
        return problem
    mixed = mixed_atomic(_nest_of(kernel, site.loops[0][1]) if site.loops else kernel)
    if not problem or not mixed:
        return problem
    name, why = mixed[0]
    return (f"{name!r} is updated atomically, but {why}: iterations may update one element "
            "only where every access to the array in the loop is an atomic update with the "
            f"same operator ({problem})")


def _enclosing_privates_shared(kernel: Kernel, names: frozenset[str]) -> Kernel:
    """`kernel` (a claim's nest) with the scalar temporaries among `names` made one shared
    variable (a 1-element array): a reduction variable private to each iteration of an
    enclosing loop (``s = 0`` before an inner ``loop vector reduction(+:s)``) is one variable
    for the iterations of the claim's own loops, which reduce into it."""
    chosen = sorted(n for n in names if n in kernel.temporaries
                    and not kernel.temporaries[n].shape)
    if not chosen:
        return kernel
    mapper = _AsElement(frozenset(chosen))
    args = tuple(ArrayArg(name=n, dtype=kernel.temporaries[n].dtype, shape=(1,),
                          span=kernel.temporaries[n].span) for n in chosen)
    temps = FrozenDict({n: t for n, t in kernel.temporaries.items() if n not in chosen})
    return kernel.copy(statements=tuple(map_expressions(st, mapper) for st in kernel.statements),
                       args=kernel.args + args, temporaries=temps)


class _AsElement(IRIdentityMapper):
    """A scalar `names` -> its element 0 (the inverse of `_Renamer`)."""

    def __init__(self, names: frozenset[str]) -> None:
        super().__init__()
        self.names = names

    def map_variable(self, expr: p.Variable, *args, **kwargs):
        return p.Subscript(expr, (0,)) if expr.name in self.names else expr


def _mapping_error(kernel: Kernel, iname: str) -> str:
    """Why mapping `iname` alone in parallel is illegal ("" when it is legal)."""
    failure = _mapping_failure(kernel, iname)
    return failure.message if failure is not None else ""


def _mapping_failure(kernel: Kernel, iname: str) -> LegalityError | None:
    """The error of mapping `iname` alone in parallel (None when it is legal)."""
    try:
        check_mappings(_tagged(kernel, iname))
    except LegalityError as err:
        return err
    return None


def _region_advice(kernel: Kernel, iname: str, site: ClaimSite) -> str:
    """What the refusal of a pragma mapping would advise (`LegalityError.detail`: a witness's
    parameter values, the assumption that proves an array's rows, ``independent``), said
    for a directive: those pragmas go in a translate region around the loop, which the
    translator maps with them (``--directives openmp,translate``); "" when the refusal has
    no advice."""
    failure = _mapping_failure(kernel, iname)
    detail = (failure.detail or "") if failure is not None else ""
    lines = [line.strip() for line in detail.splitlines() if line.strip()]
    if not any(line.endswith(" in the region") for line in lines):
        return ", " + lines[0] if lines and lines[0].startswith("for example") else ""
    fortran = site.spelled.startswith("'!")
    region = "'!$translate kernel'" if fortran else "'#pragma translate kernel'"
    flag = "openmp,translate" if site.claim.model == "openmp" else "openacc,translate"
    where = f" in a {region} region around the loop (with --directives {flag})"
    out, said = [], False
    for line in lines:
        if line.endswith(" in the region"):
            line = line.removesuffix(" in the region") + (" in that region" if said else where)
            said = True
        out.append(line)
    first = out.pop(0) if out[0].startswith("for example") else ""
    return (f", {first}" if first else "") + "; " + "; ".join(out)


def _privatized(kernel: Kernel, names: frozenset[str]) -> Kernel:
    """`kernel` with the local arrays among `names` that each iteration writes before it
    reads them made private temporaries (`translator.analysis.privatize`: a ``private(w)``
    clause on a work array; one it cannot prove stays shared, and races say so)."""
    extra = kernel.options.extra
    chosen = tuple(n for n in extra.get("private_candidates", ()) if n in names)
    if not chosen:
        return kernel
    options = replace(kernel.options, extra=FrozenDict({**extra, "private_candidates": chosen}))
    return privatize(kernel.copy(options=options)).copy(options=kernel.options)


def _private_hint(kernel: Kernel, iname: str) -> str:
    """": add private(w)" when making shared local arrays private would make mapping `iname`
    legal (each iteration writes them before reading them), else ""."""
    names = frozenset(kernel.options.extra.get("private_candidates", ()))
    private = _privatized(kernel, names)
    chosen = sorted(set(private.temporaries) - set(kernel.temporaries))
    if not chosen or _mapping_error(private, iname):
        return ""
    listed = ", ".join(chosen)
    return (f" ({listed} is shared, but every iteration writes what it reads of it first: add "
            f"private({listed}))")


def _nest_of(kernel: Kernel, iname: str) -> Kernel:
    """The statements of the loop over `iname` alone: a region holding several worksharing
    loops runs them in order (a kernel boundary between dependent nests), so each claim is
    about its own nest."""
    ids = [s.id for s in kernel.statements if iname in s.within_inames]
    if len(ids) == len(kernel.statements):
        return kernel
    return sub_kernel(kernel, ids, (), kernel.name)


def accumulation_operator(kernel: Kernel, name: str) -> str:
    """The operator of an accumulation ``name = name op ...`` in `kernel` ("+", "*", "max",
    "min"), or "" when `name` is not accumulated: every statement that reads `name` must be
    such an update, reading it once as an operand (``stb5 = b5(k) - stb5`` with ``b5(k)``
    computed from ``stb5`` is no accumulation)."""
    ops = set()
    for stmt in kernel.statements:
        if not any(name in dependencies(e) for e in stmt.read_expressions()):
            continue
        op = (_operator(getattr(stmt, "expression", None), name)
              if name in stmt.assignee_names() else "")
        if not op:
            return ""
        ops.add(op)
    return ops.pop() if len(ops) == 1 else ""


def _operator(expr: object, name: str) -> str:

    def mentions(e: object) -> bool:
        return name in dependencies(e)

    def once_as_operand(operands: tuple) -> bool:
        return sum(map(mentions, operands)) == 1 and any(map(is_name, operands))

    def is_name(e: object) -> bool:
        if isinstance(e, p.Subscript):   # a shared scalar is a 1-element array
            e = e.aggregate
        return isinstance(e, p.Variable) and e.name == name
    if isinstance(expr, p.Sum) and once_as_operand(expr.children):
        return "+"
    if isinstance(expr, p.Product) and once_as_operand(expr.children):
        return "*"
    if isinstance(expr, p.Call) and once_as_operand(expr.parameters):
        fn = getattr(expr.function, "name", "")
        return fn if fn in ("max", "min", "fmax", "fmin") else ""
    return ""
