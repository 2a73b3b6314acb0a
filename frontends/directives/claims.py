"""The claims: what the directive parsers produce and the frontends lower (see the design
note in `frontends.directives`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from frontends.directive_models import (  # noqa: F401 (re-exported)
    MODELS, directive_models, parse_models, requested_models)
from translator.diagnostics import SourceSpan, TranslatorError, warn
from translator.ir.claims import (  # noqa: F401 (re-exported: the claims' vocabulary)
    RACE, SEQUENTIAL, UNTRANSLATED, LoopClaim, LoopInfo, RegionFacts)
from translator.patterns import LazyPattern
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class DataClaim:
    """A data directive as the text of a ``translate`` data directive."""

    model: str
    name: str
    span: SourceSpan
    translate_text: str
    ignored: tuple[str, ...] = ()
    lines: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Untouched:
    """A directive left in the output as written, with the reason (for the report)."""

    model: str
    name: str
    span: SourceSpan
    reason: str
    lines: tuple[int, int] = (0, 0)
    #: a construct with a body (``critical`` ... ``end critical``): the words of its end
    end_words: tuple[str, ...] = ()
    #: OpenACC ``routine``: (the procedure it names, "" for the one it stands in or before;
    #: its level: "seq", "vector", "worker" or "gang")
    routine: tuple[str, str] | None = None
    #: the directive asks for parallel work that stays on the host (a ``parallel`` construct
    #: or a loop left as written, a task, sections ...): a ``directive-not-offloaded``
    #: warning says so (`warn_not_offloaded`); ``single``, ``barrier`` ... need none (h92)
    carries_work: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EndDirective:
    """``end <words>``: closes an earlier directive."""

    model: str
    words: tuple[str, ...]
    span: SourceSpan
    lines: tuple[int, int] = (0, 0)
    #: clauses of the end directive (``nowait``)
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ParallelOpen:
    """A ``parallel`` construct whose worksharing loops come as separate directives; its
    clauses are inherited by them."""

    model: str
    claim: LoopClaim                # the clauses, as a claim template (parallel=0)
    span: SourceSpan
    lines: tuple[int, int] = (0, 0)
    #: Fortran: the end directive that closes it (OpenACC: ("end", "kernels") ...)
    end_words: tuple[str, ...] = ("end", "parallel")


Claim = LoopClaim | DataClaim | Untouched | EndDirective | ParallelOpen


def untouched_notes(found: list, regions: list[tuple[int, int]] = ()) -> tuple[str, ...]:
    """One report line per directive left as written (`found`: objects with `.claim`), but
    those inside a translated region (`regions`: first and last lines; an ``atomic`` there is
    part of its loop's claim)."""
    out = []
    for f in found:
        claim = f.claim
        if any(lo < claim.span.line <= hi for lo, hi in regions):
            continue
        if isinstance(claim, Untouched):
            out.append(f"{claim.span.line}: '{claim.name}' left as written: {claim.reason}")
    return tuple(out)


#: The warning id of a directive whose parallel work is left on the host (h92).
NOT_OFFLOADED = "directive-not-offloaded"


def warn_not_offloaded(found: list, regions: list[tuple[int, int]], language: str) -> None:
    """A ``directive-not-offloaded`` warning at each directive of `found` (objects with
    `.claim`) left as written whose parallel work stays on the host (`Untouched.
    carries_work`), but those inside a translated region (`regions`: first and last
    lines): without ``--report`` it would be silent."""
    for f in sorted(found, key=lambda f: f.claim.span.line):
        claim = f.claim
        if not (isinstance(claim, Untouched) and claim.carries_work):
            continue
        if any(lo < claim.span.line <= hi for lo, hi in regions):
            continue
        warn(NOT_OFFLOADED, f"{spelled(claim, language)} is not offloaded: {claim.reason}",
             claim.span)


#: The warning id of a loop directive inside a translator region, which does not read it.
IN_REGION = "directive-in-region"


def warn_in_region(claim: Claim, region_line: int, language: str) -> None:
    """A ``directive-in-region`` warning at `claim`, a loop directive inside the translator
    region that starts at `region_line`: the region's own pragmas (or the automatic mapping)
    decide how its loops run, and the directive's clauses (``private(t)`` ...) do not apply,
    which without a word looked like a directive ignored."""
    kind = "#pragma translate kernel" if language == "c" else "!$translate kernel"
    warn(IN_REGION, f"{spelled(claim, language)} is inside the '{kind}' region of line "
                    f"{region_line}, which does not read it: the region's own pragmas (or "
                    "the automatic mapping) decide how its loops run, and its clauses do not "
                    "apply (for the directive to make the region, end the translate region "
                    "before it)", claim.span)


def inherit(claim: LoopClaim, outer: LoopClaim) -> LoopClaim:
    """A worksharing loop's claim with the clauses of its enclosing ``parallel``."""
    from dataclasses import replace
    return replace(claim, private=outer.private + claim.private,
                   firstprivate=outer.firstprivate + claim.firstprivate,
                   shared=outer.shared + claim.shared,
                   reductions=outer.reductions + claim.reductions,
                   default=claim.default or outer.default,
                   ignored=outer.ignored + claim.ignored,
                   sections=outer.sections + claim.sections)


#: The report's reason for a ``parallel`` construct whose worksharing loops (its own, and
#: the orphaned ones of the procedures it calls) are regions of their own (h92).
TEAM_REASON = ("its worksharing loops (and those of the procedures it calls) are regions of "
               "their own; the code between them runs on the host")


def thread_values(template: LoopClaim, assigned: dict[str, int], line: int
                  ) -> tuple[str, ...]:
    """`LoopClaim.thread_private` of a worksharing loop at `line` of a ``parallel``
    construct (its clauses: `template`) whose code every thread runs assigns the private
    variables `assigned` (name -> first line): the ``firstprivate`` ones, and the ``private``
    ones assigned before the loop (one assigned only after it has no value in the loop's
    first run)."""
    before = {n for n, at in assigned.items() if at < line}
    return tuple(sorted((before & set(template.private)) | set(template.firstprivate)))


#: OpenMP worksharing loop directives that bind to an enclosing ``parallel`` at run time.
_WORKSHARING = frozenset({"for", "do", "for simd", "do simd"})


def redundant_loop(claim: Any) -> str:
    """Why a loop directive in the code of a ``parallel`` construct (outside its worksharing
    loops) does not share its loop among the team, "" for a worksharing loop: every thread
    runs a ``simd`` loop or a nested ``parallel do`` whole (h92)."""
    if not isinstance(claim, LoopClaim) or claim.name in _WORKSHARING:
        return ""
    return (f"'{claim.name}' at line {claim.span.line} is no worksharing loop: every thread "
            "runs it whole")


def single_wrapper(facts: RegionFacts | None, line: int) -> str:
    """``single`` (``single nowait``) where the region starting at `line` is an orphaned
    OpenMP worksharing loop (``#pragma omp for`` in a function that a ``parallel`` construct
    elsewhere calls): in a build with -fopenmp every thread of the team reaches the region's
    call, and one of them must make it, as the loop's iterations were shared; "" otherwise."""
    if facts is None or not facts.claims:
        return ""
    claim = facts.claims[0][0]
    if (claim.model != "openmp" or claim.name not in _WORKSHARING
            or claim.span.line != line):
        return ""
    return "single nowait" if "nowait" in claim.ignored else "single"


def with_gang_firstprivate(claims: tuple, scalars: set[str] | frozenset[str]) -> tuple:
    """`claims` ((claim, line, spelling) of a region) with the `scalars` the region writes
    and no clause names made ``firstprivate`` on each OpenACC loop partitioned among gangs
    only in a ``parallel`` construct (`gang_only`): OpenACC's default for a scalar of a
    ``parallel`` construct is one copy per gang, and such a loop runs the iterations of a
    gang one after another, so a scalar each iteration writes before reading it is the
    iteration's own (the proof refuses one read first).  With ``worker``/``vector`` lanes
    sharing the copy, or no level given, it stays shared: a race.  (``kernels`` makes
    scalars ``copy``, shared by all gangs.)"""
    out = []
    for c, line, spelling in claims:
        if isinstance(c, LoopClaim) and gang_only(c):
            extra = tuple(sorted(n for n in scalars if n not in c.listed()))
            c = replace(c, firstprivate=c.firstprivate + extra)
        out.append((c, line, spelling))
    return tuple(out)


def gang_only(claim: LoopClaim) -> bool:
    """Whether an OpenACC loop of a ``parallel`` construct (``parallel loop gang``, or
    ``loop gang`` inside ``parallel`` ... ``end parallel``) is partitioned among gangs only:
    ``gang`` and no ``worker``/``vector`` level.  A gang runs such a loop in one lane
    whatever the sizes say (``vector_length`` sizes its vector loops; ``gang tile(...)``
    partitions the tiles among gangs, the elements of a tile run in turn)."""
    levels = {item.split("(")[0].strip() for item in claim.ignored}
    return (claim.model == "openacc" and claim.construct == "parallel" and "gang" in levels
            and not levels & {"worker", "vector"})


def parallel_left(claim: ParallelOpen, why: str) -> Untouched:
    """A ``parallel`` (``teams`` ...) construct left as written (with its loops)."""
    return Untouched(model=claim.model, name=claim.claim.name or "parallel", span=claim.span,
                     reason=f"{why}; its worksharing loops are left as written with it",
                     carries_work=True)


_C_UPDATE = LazyPattern(r"^\s*(?:(?P<pre>\+\+|--)\s*(?P<v1>\w+)|(?P<v2>\w+)\s*"
                       r"(?P<op>\+\+|--|[+\-*]=|=\s*(?P<v3>\w+)\s*(?P<op2>[+\-*])))")
_F_UPDATE = LazyPattern(r"^\s*(?P<v>\w+)\s*=\s*(?:(?P<w>\w+)\s*(?P<op>[+\-*])|"
                       r"(?P<fn>max|min)\s*\(\s*(?P<u>\w+)\s*,)", re.IGNORECASE)


def atomic_update(statement: str, language: str) -> tuple[str, str] | None:
    """(operator, variable) of the scalar update an ``atomic`` directive guards
    (``s = s + x``, ``s += x``, ``s++``, ``s = max(s, x)``), or None (an array element,
    another form)."""
    if language == "c":
        m = _C_UPDATE.match(statement)
        if m is None:
            return None
        var = m.group("v1") or m.group("v2")
        if m.group("v3") is not None and m.group("v3") != var:
            return None
        op = m.group("pre") or m.group("op2") or m.group("op")
        return ("*" if op.startswith("*") else "+"), var
    m = _F_UPDATE.match(statement)
    if m is None:
        return None
    var = m.group("v").lower()
    if m.group("fn"):
        return (m.group("fn").lower(), var) if m.group("u").lower() == var else None
    return (m.group("op"), var) if m.group("w").lower() == var else None


def with_inner_directives(claim: LoopClaim, inner: list, language: str) -> LoopClaim | str:
    """`claim` given the directives inside its loop (`inner`: (claim, the statement after
    it, the directive's last line)): nested loop directives change nothing; an ``atomic``
    update of a scalar is a reduction of it; one of an array element (``h[k[i]] += 1``) is
    an atomic update on the device (its line joins ``claim.atomics``: the proof then checks
    that every access to the array in the loop is such an update); anything else means the
    loop is not offloaded (the reason)."""
    for other, statement, last_line in inner:
        if isinstance(other, (LoopClaim, EndDirective)):
            continue
        name = getattr(other, "name", "parallel")
        atomic = name in ("atomic", "atomic update")
        if (atomic and element_update(statement, language)) or (
                name == "atomic compare" and compare_update(statement, language)):
            claim = replace(claim, atomics=claim.atomics + ((last_line, other.span),))
            continue
        update = atomic_update(statement, language) if atomic else None
        if update is None:
            return (f"its loop holds '{name}' at line {other.span.line}, which is not "
                    "offloaded" + (" (only an atomic update of a scalar or of an array "
                                   "element is)" if name.startswith("atomic") else ""))
        if update[1] not in claim.reduction_names:
            claim = replace(claim, reductions=claim.reductions + (update,))
    return claim


_ELEMENT = LazyPattern(r"\s*(?P<pre>\+\+|--)?\s*[A-Za-z_]\w*\s*(?=[\[(])")


def element_update(statement: str, language: str) -> bool:
    """Whether the statement an ``atomic`` directive guards updates an array element with an
    operator the device has atomic updates for: ``h[k] += e`` (``-=``, ``*=``), ``h[k]++``,
    ``--h[k]``, ``h[k] = h[k] + e`` (``-``, ``*``; ``e + h[k]``, ``e * h[k]``), Fortran
    ``h(k) = h(k) + e`` and ``h(k) = max(h(k), e)`` (``min``); bitwise ``|= &= ^=`` of C
    (``h[k] = h[k] | e``), ``ior``/``iand``/``ieor`` of Fortran.  Other operators keep the
    loop as written.  The kernel's statement is checked again
    (`translator.analysis.atomics`)."""
    text = statement.split("//")[0].split("!")[0] if language == "fortran" else \
        statement.split("//")[0]
    m = _ELEMENT.match(text)
    if m is None:
        return False
    end = _subscripts_end(text, m.end(), "[" if language == "c" else "(")
    if end is None:
        return False
    if m.group("pre"):
        return language == "c"
    rest = "".join(text[end:].split()).rstrip(";").lower()
    target = "".join(text[m.end("pre") if m.group("pre") else 0:end].split()).lower()
    if language == "c" and rest in ("++", "--"):
        return True
    if language == "c" and rest[:2] in ("+=", "-=", "*=", "|=", "&=", "^="):
        return True
    if not rest.startswith("=") or rest.startswith("=="):
        return False
    rhs = rest[1:]
    ops = ("+", "-", "*", "|", "&", "^") if language == "c" else ("+", "-", "*")
    after = rhs[len(target):len(target) + 2]
    if rhs.startswith(target) and after[:1] in ops and after not in ("**", "||", "&&"):
        return True
    before = rhs[-len(target) - 2:-len(target)]
    commuting = ("+", "*", "|", "&", "^") if language == "c" else ("+", "*")
    if rhs.endswith(target) and before[-1:] in commuting and before not in ("**", "||", "&&"):
        return True
    fns = ("max", "min", "ior", "iand", "ieor")
    return language == "fortran" and (
        any(rhs.startswith(f"{fn}({target},") for fn in fns)
        or any(rhs.startswith(f"{fn}(") and rhs.endswith(f",{target})") for fn in fns))


_COMPARE = LazyPattern(r"\s*if\s*\(|\s*[A-Za-z_]\w*\s*\[.*\]\s*=[^=].*\?.*:")


def compare_update(statement: str, language: str) -> bool:
    """Whether the statement an OpenMP 5.1 ``atomic compare`` directive guards may be a
    maximum or minimum of an array element: ``if (v > m[k]) m[k] = v;`` (``<``, ``>=``,
    ``<=``, either order) or ``m[k] = v > m[k] ? v : m[k];``.  The kernel's statement is
    checked again (`frontends.marks` folds the condition into the update; an equality
    compare, ``if (m[k] == e) m[k] = d``, is no such update and keeps the loop sequential)."""
    return language == "c" and _COMPARE.match(statement.split("//")[0]) is not None


def _subscripts_end(text: str, pos: int, opening: str) -> int | None:
    """The end of the bracketed subscripts from `pos` on (``[i][j]``, ``(i, j)``)."""
    closing = "]" if opening == "[" else ")"
    while pos < len(text) and text[pos] == opening:
        depth = 0
        for k in range(pos, len(text)):
            depth += {opening: 1, closing: -1}.get(text[k], 0)
            if depth == 0:
                pos = k + 1
                break
        else:
            return None
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if opening == "(":
            break
    return pos


def spelled(claim: Claim, language: str) -> str:
    """How messages quote a directive: ``'!$omp parallel do'``, ``'#pragma acc loop'``."""
    word = "omp" if claim.model == "openmp" else "acc"
    sentinel = f"!${word}" if language == "fortran" else f"#pragma {word}"
    return f"'{sentinel} {getattr(claim, 'name', 'parallel')}'"


def nested_claims(outer: LoopClaim, inner: list[tuple[Any, int, str]]) -> tuple:
    """The claims of loop directives nested in `outer`'s loop nest that declare loops
    parallel (OpenACC ``loop vector`` inside ``parallel loop gang``, ``loop independent``,
    OpenMP ``simd`` inside ``parallel do``), as (claim, loop line, spelling) to prove on the
    same region: each inherits `outer`'s data-sharing clauses.  ``seq``/``auto`` loops
    declare nothing.  (h16: a nested claim was not checked before.)"""
    return tuple((inherit(c, outer), line, how) for c, line, how in inner
                 if isinstance(c, LoopClaim) and c.parallel > 0)


def left_as_written(spelling: str, err: TranslatorError, span: SourceSpan) -> None:
    """A directive's loop that cannot be a region (`err`): warn at the directive; the
    frontend leaves the loop and the directive as written."""
    where = f" (line {err.span.line})" if err.span is not None else ""
    warn(UNTRANSLATED, f"{spelling} left as written: {err.message}{where}", span)
