"""OpenMP/OpenACC directives in Fortran: sentinels, continuations, the loop nest of a claim.

Free form: ``!$omp`` (``!$acc``) as the first non-blank text of a line; fixed form:
``c$omp``, ``*$omp`` or ``!$omp`` in column 1 as well.  A directive ending in ``&`` continues
on the next line, which starts with the sentinel (free form: optionally followed by ``&``;
fixed form: the sentinel and a character other than blank or zero in column 6 also
continue).  Conditional-compilation lines (``!$ use omp_lib``) are not directives.  The lines
are read by the scanner of ``!$translate`` directives (`frontends.fortran.regions.
scan_directives`) with the sentinel and OpenMP's continuation rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from frontends.directive_models import SENTINELS
from frontends.directives.claims import (
    Claim,
    DataClaim,
    EndDirective,
    LoopClaim,
    LoopInfo,
    ParallelOpen,
    RegionFacts,
    Untouched,
    inherit,
    parallel_left,
    TEAM_REASON,
    spelled,
    thread_values,
    with_gang_firstprivate,
    with_inner_directives,
)
from frontends.directives.fortran_teams import team_code_problem
from frontends.fortran.regions import RawDirective, RegionMarks, is_comment_line, scan_directives
from frontends.marks import atomic_marks
from frontends.fortran.scopes import Procedure, innermost_procedure
from frontends.fortran.source import SourceLines, children, class_name, is_comment, node_lines
from frontends.fortran.threadprivate import threadprivate_lists
from translator.diagnostics import FrontendError, TranslatorError
from translator.records import dataclass

_DO_CONSTRUCTS = frozenset({"Block_Nonlabel_Do_Construct", "Block_Label_Do_Construct",
                            "Action_Term_Do_Construct"})


@dataclass(frozen=True)
class FoundClaim:
    """A directive of the file and its claim."""

    raw: RawDirective
    claim: Claim


def read_claims(lines: SourceLines, form: str, models: tuple[str, ...],
                parsers: dict[str, Any]) -> list[FoundClaim]:
    """The claims of every directive of the requested models, in line order."""
    found = []
    for model in models:
        if model not in SENTINELS:
            continue
        for raw in scan_directives(lines, form, SENTINELS[model], continuation="openmp"):
            claim = parsers[model](raw.text, raw.span, "fortran")
            found.append(FoundClaim(raw, claim))
    found = sorted(found, key=lambda f: f.raw.line)
    if "openacc" in models:   # OpenACC constructs depend on what follows them (h16)
        from frontends.directives.openacc import resolve_constructs
        claims = resolve_constructs([(f.raw.line, f.raw.last_line, f.claim) for f in found],
                                    lines.lines, "fortran")
        found = [FoundClaim(f.raw, c) for f, c in zip(found, claims)]
    return found


def claim_marks(found: list[FoundClaim], procedures: list[Procedure], lines: SourceLines,
                form: str) -> list[RegionMarks]:
    """A region around the loop nest of every `LoopClaim` (with its end directive, if the
    next directive after the nest is one), and one around every ``parallel`` construct that
    holds only worksharing loops (its loops in order, each with its claim)."""
    marks, skip = [], set()
    for k, f in enumerate(found):
        if k in skip:
            continue
        if isinstance(f.claim, ParallelOpen):
            inner, got = _parallel_construct(found, k, procedures, lines, form)
            skip |= inner
            marks += got
        elif isinstance(f.claim, LoopClaim):
            lo, hi, end = _claim_extent(found, k, procedures, lines, form)
            claim = _with_inner(found, k, lo, hi, lines, form)
            if claim is None:
                continue
            marks.append(_loop_mark(found, k, claim, (lo, hi, end), lines, form))
    return marks


def _loop_mark(found: list[FoundClaim], k: int, claim: LoopClaim, extent: tuple,
               lines: SourceLines, form: str) -> RegionMarks:
    """The region of the loop directive `found[k]` (its `claim` given the directives inside
    its loop), `extent`: the loop's first and last line and its end directive, if any."""
    f, (lo, hi, end) = found[k], extent
    return RegionMarks(
        name=None, kernel_line=f.raw.line, end_line=end.last_line if end else hi,
        body_first_line=f.raw.last_line + 1, indent=f.raw.indent, calls=(),
        span=f.raw.span, end_span=end.span if end else lines.span(hi),
        claims=((claim, lo, _spelled(f)),) + _nested(found, claim, lo, hi, lines, form),
        statement_marks=atomic_marks(((claim, lo, ""),)), body_last_line=hi)


def _with_inner(found: list[FoundClaim], k: int, lo: int, hi: int, lines: SourceLines,
                form: str) -> LoopClaim | None:
    """The claim of `found[k]` given the directives inside its loop (`with_inner_directives`);
    None, and `found[k]` made `Untouched`, when the loop is not offloaded."""
    f = found[k]
    inner = [(g.claim, _next_code_line(lines, g.raw.last_line, hi, form), g.raw.last_line)
             for g in found if lo < g.raw.line < hi]
    claim = with_inner_directives(f.claim, inner, "fortran")
    if isinstance(claim, str):
        found[k] = FoundClaim(f.raw, Untouched(model=f.claim.model, name=f.claim.name,
                                               span=f.claim.span, reason=claim,
                                               carries_work=True))
        return None
    return claim


def _nested(found: list[FoundClaim], claim: LoopClaim, lo: int, hi: int, lines: SourceLines,
            form: str) -> tuple:
    """The claims of the loop directives inside the nest (lines `lo`..`hi`) of `claim`, to be
    proven on its region (`nested_claims`) (h16)."""
    from frontends.directives.claims import nested_claims
    inner = [(g.claim, _next_code_number(lines, g.raw.last_line, hi, form), _spelled(g))
             for g in found if lo < g.raw.line < hi and isinstance(g.claim, LoopClaim)]
    return nested_claims(claim, inner)


def _next_code_number(lines: SourceLines, after: int, last: int, form: str) -> int:
    for n in range(after + 1, last + 1):
        if not is_comment_line(lines.line(n), form):
            return n
    return 0


def _next_code_line(lines: SourceLines, after: int, last: int, form: str) -> str:
    for n in range(after + 1, last + 1):
        if not is_comment_line(lines.line(n), form):
            return lines.line(n)
    return ""


def _claim_extent(found: list[FoundClaim], k: int, procedures: list[Procedure],
                  lines: SourceLines, form: str) -> tuple[int, int, RawDirective | None]:
    """The first and last line of the loop of claim `k`, and its end directive if any."""
    f = found[k]
    proc = innermost_procedure(procedures, f.raw.line)
    if proc is None or proc.exec_part is None:
        raise FrontendError(f"{_spelled(f)} outside the executable part of a procedure",
                            f.raw.span)
    lo, hi = _loop_after(proc, f, lines)
    return lo, hi, _end_directive(found[k + 1:], f, hi, lines, form)


def _parallel_construct(found: list[FoundClaim], k: int, procedures: list[Procedure],
                        lines: SourceLines, form: str) -> tuple[set[int], list[RegionMarks]]:
    """The regions of the ``parallel`` construct opened by `found[k]`: one holding it whole
    if it holds only worksharing loops (OpenACC: whatever it holds); an OpenMP one with code
    between its loops that every thread may run once instead (`team_code`) gives each
    worksharing loop a region of its own and stays as written around them (h92); else none:
    it stays as written, and so do its loops.  Returns the indices of the directives it
    holds that no other region may take, too."""
    opened = found[k]
    close = next((j for j in range(k + 1, len(found))
                  if isinstance(found[j].claim, EndDirective)
                  and ("end", *found[j].claim.words) == opened.claim.end_words), None)
    if close is None:
        raise FrontendError(f"{_spelled(opened)} without a matching end directive "
                            f"('{' '.join(opened.claim.end_words)}')", opened.raw.span)
    inner = set(range(k + 1, close + 1))
    claims, covered, own = [], set(), []
    for j in range(k + 1, close):
        g = found[j]
        if isinstance(g.claim, LoopClaim):
            lo, hi, end = _claim_extent(found, j, procedures, lines, form)
            last = end.last_line if end else hi
            covered |= set(range(g.raw.line, last + 1))
            claim = _with_inner(found, j, lo, hi, lines, form)
            if claim is not None and end is not None and _nowait(found, end):
                claim = replace(claim, ignored=claim.ignored + ("nowait",))
            if claim is None:
                found[k] = FoundClaim(opened.raw, parallel_left(
                    opened.claim, f"its loop at line {lo} is not offloaded"))
                return inner, []
            claims.append((inherit(claim, opened.claim.claim), lo, _spelled(g)))
            own.append((j, (lo, hi, end)))
    code = [n for n in range(opened.raw.last_line + 1, found[close].raw.line)
            if n not in covered and not is_comment_line(lines.line(n), form)]
    # an OpenACC construct is one region whatever it holds: code outside its loop directives
    # runs as one gang would run it (automatic mapping decides) (h16)
    whole = opened.claim.model == "openacc"
    if code and not whole and opened.claim.claim.name == "parallel":
        return _team_regions(found, k, close, claims, own, procedures, lines, form)
    if (code or not claims) and not whole:
        why = (f"line {code[0]} holds code outside its worksharing loops (every thread runs "
               "it)" if code else "it holds no worksharing loop")
        found[k] = FoundClaim(opened.raw, parallel_left(opened.claim, why))
        return inner, []
    end = found[close].raw
    return inner, [RegionMarks(
        name=None, kernel_line=opened.raw.line, end_line=end.last_line,
        body_first_line=opened.raw.last_line + 1, indent=opened.raw.indent, calls=(),
        span=opened.raw.span, end_span=end.span, claims=tuple(claims),
        statement_marks=atomic_marks(tuple(claims)))]


def _team_regions(found: list[FoundClaim], k: int, close: int, claims: list, own: list,
                  procedures: list[Procedure], lines: SourceLines, form: str
                  ) -> tuple[set[int], list[RegionMarks]]:
    """An OpenMP ``parallel`` construct with code between its worksharing loops: each loop
    its own region (called under ``single`` in a build with -fopenmp, as an orphaned loop),
    the code between left on the host, if running it once does what every thread running
    it does (`frontends.directives.fortran_teams`); else the construct stays as written."""
    opened = found[k]
    template = opened.claim.claim
    inner = set(range(k + 1, close + 1))
    proc = innermost_procedure(procedures, opened.raw.line)
    private = set(template.private) | set(template.firstprivate) | \
        threadprivate_names(proc, lines)
    if template.default in ("private", "firstprivate"):
        private |= set(proc.scope.symbols)
    assigned: dict[str, int] = {}

    def loop_lines(first: int, last: int) -> set[int]:
        out: set[int] = set()
        for j, g in enumerate(found):
            if isinstance(g.claim, LoopClaim) and first <= g.raw.line <= last:
                try:
                    lo, hi, end = _claim_extent(found, j, procedures, lines, form)
                except FrontendError:
                    continue
                out |= set(range(g.raw.line, (end.last_line if end else hi) + 1))
        return out

    why = ("its reduction clause combines each thread's copy, which code run once does not "
           "give" if template.reductions else "") or team_code_problem(
        found, opened.raw.last_line + 1, found[close].raw.line - 1, loop_lines, private,
        procedures, proc, assigned)
    if why:
        found[k] = FoundClaim(opened.raw, parallel_left(opened.claim, why))
        return inner, []
    found[k] = FoundClaim(opened.raw, Untouched(
        model=opened.claim.model, name=opened.claim.claim.name or "parallel",
        span=opened.raw.span, reason=TEAM_REASON))
    marks = []
    for (claim, _, _), (j, extent) in zip(claims, own):
        if any(lo < extent[0] <= hi for _, (lo, hi, _) in own):
            continue    # a loop directive nested in another's loop: a claim of its region
        thread = thread_values(template, assigned, found[j].raw.line)
        marks.append(_loop_mark(found, j, replace(claim, thread_private=thread), extent,
                                lines, form))
    return inner, marks


def _nowait(found: list[FoundClaim], end: RawDirective) -> bool:
    """Whether the end directive `end` says ``nowait``."""
    return any(g.raw is end and "nowait" in getattr(g.claim, "clauses", ()) for g in found)


def _spelled(f: FoundClaim) -> str:
    return spelled(f.claim, "fortran")


def _loop_after(proc: Procedure, f: FoundClaim, lines: SourceLines) -> tuple[int, int]:
    """The lines of the DO construct right after the directive."""
    node = _next_statement(children(proc.exec_part), f.raw.last_line)
    if node is None or class_name(node) not in _DO_CONSTRUCTS:
        raise FrontendError(f"{_spelled(f)} must be followed by a DO loop", f.raw.span)
    lo, hi = node_lines(node)
    if _code_between(lines, f.raw.last_line, lo):
        raise FrontendError(f"{_spelled(f)} must be followed by a DO loop", f.raw.span)
    return lo, hi


def _next_statement(nodes: tuple, after: int) -> Any | None:
    for n in nodes:
        rng = None if n is None or isinstance(n, str) or is_comment(n) else node_lines(n)
        if rng is None:
            continue
        if rng[0] > after:
            return n
        if rng[1] > after:
            return _next_statement(children(n), after)
    return None


def _code_between(lines: SourceLines, after: int, before: int) -> bool:
    return any(not is_comment_line(lines.line(k), "free") for k in range(after + 1, before))


def _end_directive(rest: list[FoundClaim], f: FoundClaim, hi: int, lines: SourceLines,
                   form: str) -> RawDirective | None:
    """The ``end`` directive of `f` if it is the first directive after the nest, with only
    comments between."""
    for g in rest:
        if g.raw.line <= hi:
            continue
        if not isinstance(g.claim, EndDirective):
            return None
        if ("end", *g.claim.words) != f.claim.end_words:
            return None
        if any(not is_comment_line(lines.line(k), form) for k in range(hi + 1, g.raw.line)):
            return None
        return g.raw
    return None


def data_raw_directives(found: list[FoundClaim]) -> list[RawDirective]:
    """The data claims as ``translate`` data directives, for `frontends.fortran.datadirs`."""
    out = []
    for f in found:
        if isinstance(f.claim, DataClaim):
            out.append(RawDirective(f.raw.line, f.raw.last_line, f.raw.col,
                                    f.claim.translate_text, f.raw.indent, f.raw.span))
        elif isinstance(f.claim, EndDirective) and f.claim.words[-1:] == ("data",):
            out.append(RawDirective(f.raw.line, f.raw.last_line, f.raw.col, "end data",
                                    f.raw.indent, f.raw.span))
    return out


def region_facts(written_scalars: frozenset[str], temporaries: frozenset[str],
                 source_names: set[str], loops: list[Any], m: RegionMarks,
                 shapes: dict[str, tuple], read_after: frozenset[str] = frozenset(),
                 lowers: dict[str, tuple] | None = None) -> RegionFacts:
    """What the proof of the claims of region `m` needs (`translator.directive_proof`):
    `loops` are the builder's `LoopRecord`s, `source_names` the procedure's variables the
    region touches, `temporaries` the kernel's, `shapes` the declared shapes of its
    explicit-shape dummies, `read_after` the scalars the procedure may read after it."""
    index = {id(r): k for k, r in enumerate(loops)}
    infos = [LoopInfo(r.var, r.iname, r.span.line,
                      index[id(r.enclosing[-1])] if r.enclosing else None) for r in loops]
    # scalars the translator made private on its own are shared under the directive's rules
    auto = frozenset(n for n in temporaries if n in source_names)
    return RegionFacts(claims=m.claims, written_back=written_scalars, auto_private=auto,
                       implicit=frozenset(r.var for r in loops), loops=tuple(infos),
                       declared_shapes=shapes, read_after=read_after,
                       lower_bounds=lowers or {})


def declared_shapes(kernel: Any, builder: Any) -> dict[str, tuple]:
    """The declared shapes of the explicit-shape dummy arrays of `kernel`, whose last
    kernel extent also covers what the region indexes past it (`frontends.fortran.assemble`),
    but the legacy ``a(1)`` dummy standing for ``a(*)``."""
    out = {}
    for arg in kernel.array_args:
        sym = builder.touched.get(arg.name) or builder.scope.lookup(arg.name)
        if sym is None or not sym.is_array or not sym.is_dummy or not sym.dims \
                or sym.dims[-1].kind != "explicit":
            continue
        extents = tuple(builder.layout(sym).extents)
        if extents[-1] != 1 and all(e is not None for e in extents):
            out[arg.name] = extents
    return out


def lower_bounds(kernel: Any, builder: Any) -> dict[str, tuple]:
    """The lower bound of each axis of `kernel`'s Fortran arrays (`RegionFacts.
    lower_bounds`), where the builder knows the array's layout."""
    out = {}
    for arg in kernel.array_args:
        sym = builder.touched.get(arg.name) or builder.scope.lookup(arg.name)
        if sym is not None and sym.is_array:
            try:
                out[arg.name] = tuple(builder.layout(sym).lowers)
            except TranslatorError:   # a layout it cannot give: no check then
                continue
    return out


def threadprivate_names(proc: Procedure, lines: SourceLines) -> frozenset[str]:
    """The variables ``!$omp threadprivate`` makes private to each thread in `proc`: those
    its specification part names, the members of the COMMON blocks it names (``/blk/``), and
    the variables of modules (of the file or others) that the module's specification part
    names (`Scope.threadprivate`, read when the module is declared) and `proc` sees under
    the same name (h70)."""
    last = node_lines(proc.exec_part)[0] - 1 if proc.exec_part is not None and \
        node_lines(proc.exec_part) else proc.body_last_line
    out: set[str] = set()
    for name in threadprivate_lists(lines, proc.first_line, last):
        if name.startswith("/") and name.endswith("/"):
            out.update(proc.scope.commons.get(name.strip("/ "), ()))
        else:
            out.add(name)
    for module in proc.scope.modules.values():
        for name in getattr(module, "threadprivate", ()):
            sym = proc.scope.lookup_declared(name)
            if sym is not None and sym.scope == module.name and sym.scope_kind == "module":
                out.add(name)
    return frozenset(out)


def with_threadprivate(m: RegionMarks, names: frozenset[str],
                       written: set[str]) -> RegionMarks:
    """`m` with the threadprivate `names` the region writes added to each OpenMP claim's
    ``private`` list: each thread has its own copy, as with ``private``."""
    extra = tuple(sorted(names & written))
    if not extra or not m.claims:
        return m
    claims = tuple((replace(c, private=c.private + tuple(n for n in extra
                                                          if n not in c.listed()))
                    if isinstance(c, LoopClaim) and c.model == "openmp" else c, line, spelling)
                   for c, line, spelling in m.claims)
    return replace(m, claims=claims)


def with_openacc_firstprivate(m: RegionMarks, scalars: set[str]) -> RegionMarks:
    """`m` with the `scalars` an OpenACC loop partitioned among gangs only writes made
    ``firstprivate`` (`with_gang_firstprivate`)."""
    return replace(m, claims=with_gang_firstprivate(m.claims, scalars)) if m.claims else m
