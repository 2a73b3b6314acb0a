"""OpenACC directives (``!$acc``, ``#pragma acc``) -> claims (`frontends.directives`).

Compute constructs with a loop (``parallel loop``, ``kernels loop``, ``serial loop``) and
``loop`` become `LoopClaim`s: in a ``parallel`` construct a loop is independent unless it says
``seq`` or ``auto``, so its loops (``collapse(n)``/``tile(...)``: the outer n) are a claim that
legality must prove; ``kernels``, ``serial``, ``auto`` and ``seq`` loops leave the choice to
automatic mapping (``parallel=0``), which keeps the sequential meaning unless it proves more.
A compute construct without ``loop`` (``!$acc kernels`` ... ``!$acc end kernels``; in C the
statement after it) is a `ParallelOpen`: the frontends make the whole construct one region,
its ``loop`` directives claims (code between them runs as one gang would).
`resolve_constructs` makes a bare ``loop`` inside ``kernels`` automatic and gives loops of a
construct its sizes.  Sizes (``vector_length(n)``, ``tile(a, b)``, ``num_gangs(1)``) become
``split_iname`` hints (`mapping_hints`), named and applied once the claim is proven
(`translator.directive_proof.bind_hints`).

Data sharing (OpenACC 3.x, 2.6.2): a scalar not named in a clause is firstprivate in a
``parallel``/``serial`` construct (one copy per gang, shared by the gang's workers and vector
lanes: a loop that writes it races, so it needs ``private`` or ``reduction``, exactly the
check of a shared scalar); arrays are shared.  Names in data clauses (``copy(a)``) are shared.

``data``, ``enter data``, ``exit data`` and ``update`` become `DataClaim`s in the translator's
own data-directive vocabulary (which is OpenACC's: ``present_or_*``/``p*`` aliases map onto
it).  ``host_data`` is an error (device addresses do not exist outside a region here);
``routine``, ``declare``, ``wait``, ``cache``, ``atomic``, ``init``, ``set``, ``shutdown``
stay as written, with the reason in the report.  A ``routine seq`` procedure is inlined where a
region calls it, like any procedure; a region that calls a ``routine gang``/``worker``/
``vector`` one is refused (`routine_level`, `routine_refusal`: the frontends check calls).
"""

from __future__ import annotations

import re
from dataclasses import replace

from frontends.base import TransformCall
from frontends.directives.claims import (Claim, DataClaim, EndDirective, LoopClaim,
                                         ParallelOpen, Untouched, gang_only)
from frontends.directives.clauses import (Clause, SplitDirective, clause_names,
                                          clause_sections, split_directive)
from frontends.directives.openmp import REDUCTION_OPERATORS, atomic_name
from translator.diagnostics import FrontendError, SourceSpan, suggestion, warn

MODEL = "openacc"

_COMPUTE = frozenset({"parallel", "kernels", "serial"})
_DATA_WORDS = frozenset({"data", "enter", "exit", "update"})

#: Directives that stay as written, with the reason the report gives.
_NOT_OFFLOADED = {
    "routine": "a 'routine seq' procedure is inlined into the regions that call it",
    "declare": "declared data is moved by each region that uses it",
    "wait": "regions run in order: there is nothing to wait for",
    "cache": "the translator chooses what to keep in fast memory",
    "atomic": "an atomic construct outside a loop stays on the host",
    "init": "the runtime initialises the device when the first region runs",
    "shutdown": "the runtime releases the device at exit",
    "set": "the device is chosen by TRANSLATE_DEVICE",
}
#: Directives whose name may be followed by an argument in parentheses.
_WITH_ARGUMENT = frozenset({"wait", "cache", "routine"})
_ALL_WORDS = _COMPUTE | _DATA_WORDS | frozenset(_NOT_OFFLOADED) | {"loop", "end", "host_data"}

#: Data clauses of compute constructs and data directives, with the translate clause each
#: means (None: no effect here).
_DATA_ALIASES = {
    "copy": "copy", "pcopy": "copy", "present_or_copy": "copy",
    "copyin": "copyin", "pcopyin": "copyin", "present_or_copyin": "copyin",
    "copyout": "copyout", "pcopyout": "copyout", "present_or_copyout": "copyout",
    "create": "create", "pcreate": "create", "present_or_create": "create",
    "present": "present", "delete": "delete", "no_create": None, "attach": None,
    "detach": None, "deviceptr": None,
}
#: Clauses of loops and compute constructs accepted with no effect (the report lists them).
_NO_EFFECT = frozenset({"gang", "worker", "vector", "num_gangs", "num_workers",
                        "vector_length", "async", "wait", "if", "self", "device_type",
                        "dtype", "tile"})
_LOOP_KIND = frozenset({"independent", "seq", "auto"})
_SHARING = frozenset({"private", "firstprivate", "reduction", "collapse", "default"})
_LOOP_CLAUSES = _NO_EFFECT | _LOOP_KIND | _SHARING | frozenset(_DATA_ALIASES)


def parse_openacc(text: str, span: SourceSpan, language: str) -> Claim:
    """The claim of one OpenACC directive (`text`: after the sentinel, continuations
    joined).  Errors for malformed or unsupported directives, at `span`."""
    split = split_directive(text, _ALL_WORDS, "OpenACC", span)
    words = split.words
    first = text.split("(")[0].split()[0].lower() if text.split() else ""
    if first == "routine":
        return routine_directive(text, span)
    if not words and first in _WITH_ARGUMENT:   # wait(1), cache(a(i))
        return Untouched(model=MODEL, name=first, span=span, reason=_NOT_OFFLOADED[first])
    if not words:   # as with OpenMP: left as written, with a warning
        warn("unknown-directive", f"unknown OpenACC directive {first!r}" + suggestion(
            first, sorted(_ALL_WORDS - {"end"})) + "; it is left as written", span)
        return Untouched(model=MODEL, name=first, span=span, reason="unknown directive")
    name = " ".join(words)
    if words[0] == "end":
        return EndDirective(model=MODEL, words=words[1:], span=span)
    if words[0] == "host_data":
        raise FrontendError("'host_data use_device' is not supported: it hands device "
                            "addresses to host code, and translated regions manage device "
                            "memory themselves (call the library on the host copy, or move "
                            "that code into a region)", span)
    if words[-1] == "loop" and all(w in _COMPUTE for w in words[:-1]) and len(words) <= 2:
        return _loop_claim(name, split, span, language)
    if len(words) == 1 and words[0] in _COMPUTE:
        template = _loop_claim(name, split, span, language)
        return ParallelOpen(model=MODEL, claim=template, span=span, end_words=("end", name))
    if words[0] in _DATA_WORDS:
        return _data_claim(name, split, span, language)
    if words[0] in _NOT_OFFLOADED:    # atomic update, routine seq, ...
        return Untouched(model=MODEL, name=atomic_name(name, text), span=span,
                         reason=_NOT_OFFLOADED[words[0]],
                         end_words=("atomic",) if words[0] == "atomic" else ())
    raise FrontendError(f"unknown OpenACC directive {name!r}", span)


#: The levels of parallelism of an OpenACC routine, outermost first.
ROUTINE_LEVELS = ("gang", "worker", "vector", "seq")
_ROUTINE = re.compile(r"^\s*routine\b\s*(?:\(\s*(?P<name>[A-Za-z_]\w*)\s*\))?(?P<rest>.*)$",
                      re.IGNORECASE | re.DOTALL)


def routine_level(text: str) -> tuple[str, str] | None:
    """(procedure named in parentheses, lower case, or ""; level) of an OpenACC ``routine``
    directive's text (after the sentinel), or None for another directive.  No level clause
    counts as ``seq``; ``bind``, ``nohost`` and ``device_type`` change nothing here."""
    m = _ROUTINE.match(text)
    if m is None:
        return None
    words = set(re.findall(r"[a-z_]+", re.sub(r"\([^()]*\)", "", m.group("rest").lower())))
    level = next((w for w in ROUTINE_LEVELS if w in words), "seq")
    return (m.group("name") or "").lower(), level


def routine_directive(text: str, span: SourceSpan) -> Untouched:
    """A ``routine`` directive: left as written.  A ``seq`` procedure is inlined into the
    regions that call it; a region that calls a ``gang``, ``worker`` or ``vector`` one is
    refused (`routine_refusal`)."""
    name, level = routine_level(text) or ("", "seq")
    reason = _NOT_OFFLOADED["routine"] if level == "seq" else (
        f"a region that calls a 'routine {level}' procedure is refused (its loops are shared "
        f"among the {level}s of the caller)")
    return Untouched(model=MODEL, name=f"routine {level}", span=span, reason=reason,
                     routine=(name, level))


def routine_refusal(procedure: str, level: str) -> str:
    """Why a region cannot call `procedure`, an OpenACC ``routine`` of a `level` that is not
    ``seq``."""
    return (f"call of {procedure!r}, an OpenACC 'routine {level}' procedure, cannot be "
            f"translated: its loops are shared among the {level}s of the calling construct, "
            "and a region inlines a procedure into each of its work items; only 'routine seq' "
            "procedures are inlined (call it outside the loop, or make it 'routine seq')")


def _loop_claim(name: str, split: SplitDirective, span: SourceSpan, language: str
                ) -> LoopClaim:
    """The claim of a loop or compute directive; `parallel` per the module docstring."""
    fold = language == "fortran"
    private: list[str] = []
    firstprivate: list[str] = []
    shared: list[str] = []
    reductions: list[tuple[str, str]] = []
    ignored: list[str] = []
    sections: list = []
    default = None
    for clause in split.clauses:
        _check_clause(clause, name, span)
        if clause.name == "private":
            private += clause_names(clause, fold, name, span)
        elif clause.name == "firstprivate":
            firstprivate += clause_names(clause, fold, name, span)
        elif clause.name == "reduction":
            reductions += _reduction(clause, fold, name, span)
        elif clause.name == "default":
            default = _default(clause, span)
        elif clause.name in _DATA_ALIASES:
            shared += [_base_name(item, fold) for item in clause.names(False)]
            sections += clause_sections(clause, span, language)
        elif clause.name not in _LOOP_KIND and clause.name != "collapse" \
                and clause.name not in _HINT_CLAUSES:
            ignored.append(_spelled_clause(clause))
    parallel = _declared_parallel(name, split.clauses, span)
    hints, unused = mapping_hints(split.clauses, span) if parallel else ((), ())
    ignored += [_spelled_clause(c) for c in split.clauses
                if c.name in _HINT_CLAUSES and (c in unused or not parallel)]
    end_words = ("end", *name.split())
    kind = [c.name for c in split.clauses if c.name in _LOOP_KIND]
    if name == "loop" and kind:
        name = f"loop {kind[0]}"     # how messages spell it; a bare `loop` depends on where
    return LoopClaim(model=MODEL, name=name, span=span, parallel=parallel,
                     private=tuple(private), firstprivate=tuple(firstprivate),
                     shared=tuple(dict.fromkeys(shared)), reductions=tuple(reductions),
                     default=default, ignored=tuple(ignored), hints=hints,
                     end_words=end_words, construct=_construct_of(name),
                     sections=tuple(sections))


def _construct_of(name: str) -> str:
    """The compute construct a directive named `name` opens (``parallel loop``: parallel;
    a bare ``loop``: "", its construct is found later)."""
    first = name.split()[0]
    return first if first in _COMPUTE else ""


# ---------------------------------------------------------------------------------------------
# mapping hints

#: Clauses that may set the work-group shape of a loop declared independent.
_HINT_CLAUSES = frozenset({"vector_length", "vector", "tile", "num_gangs"})
#: The largest work group a hint may ask for (OpenCL devices take at least 256 work items;
#: larger hints are reported as not used).
MAX_GROUP = 256


def loop_placeholder(k: int) -> str:
    """How a hint names the k-th declared loop, counted from the innermost (1); bound to the
    loop's iname by `translator.directive_proof.bind_hints` once the claim is proven."""
    return f"@loop{k}"


def mapping_hints(clauses: tuple[Clause, ...], span: SourceSpan
                  ) -> tuple[tuple[TransformCall, ...], tuple[Clause, ...]]:
    """The transform calls that honour the clauses' sizes, and the hint clauses not used.

    ``tile(a, b, ...)``: the innermost loop in work groups of a, the next of b (local axes 0,
    1, ...; the first size is the innermost loop's, as OpenACC says).  ``vector_length(n)`` or
    ``vector(n)``: the innermost loop in work groups of n.  ``num_gangs(1)`` with a vector
    length: one work group, which loops over the rest.  Other sizes (``num_gangs(n)``, sizes
    that are not constants or too large) are not used."""
    by_name = {c.name: c for c in clauses if c.name in _HINT_CLAUSES}
    sizes = _sizes(by_name.get("tile"))
    vector = _sizes(by_name.get("vector_length")) or _sizes(by_name.get("vector"))
    used: set[str] = set()
    if sizes and _product(sizes) <= MAX_GROUP:
        used.add("tile")
    elif len(vector) == 1 and vector[0] <= MAX_GROUP:
        sizes = vector
        used |= {"vector_length", "vector"} & set(by_name)
    else:
        sizes = []
    one_gang = _sizes(by_name.get("num_gangs")) == [1] and len(sizes) == 1
    if one_gang:
        used.add("num_gangs")
    calls = tuple(_split(k, size, one_gang, span) for k, size in enumerate(sizes))
    unused = tuple(c for c in by_name.values() if c.name not in used)
    return calls, unused


def _sizes(clause: Clause | None) -> list[int]:
    """The clause's arguments when all are positive integer constants, else []."""
    if clause is None or clause.args is None:
        return []
    items = [a.strip().lower().removeprefix("length:").strip() for a in clause.names(False)]
    return [int(a) for a in items] if items and all(a.isdigit() and int(a) > 0
                                                    for a in items) else []


def _product(sizes: list[int]) -> int:
    out = 1
    for size in sizes:
        out *= size
    return out


def _split(k: int, size: int, one_gang: bool, span: SourceSpan) -> TransformCall:
    kwargs = (("inner_tag", f"l.{k}"),) if one_gang else \
        (("outer_tag", f"g.{k}"), ("inner_tag", f"l.{k}"))
    return TransformCall(name="split_iname", args=(loop_placeholder(k + 1), size),
                         kwargs=kwargs, span=span)


def _declared_parallel(name: str, clauses: tuple[Clause, ...], span: SourceSpan) -> int:
    """How many outer loops the directive declares independent (0: automatic mapping)."""
    kinds = {c.name for c in clauses if c.name in _LOOP_KIND}
    if len(kinds) > 1:
        raise FrontendError(f"'{name}' has clauses {' and '.join(sorted(kinds))}: a loop is "
                            "either independent, seq or auto", span)
    construct = name.split()[0]
    independent = "independent" in kinds or (not kinds and construct in ("parallel", "loop"))
    if not independent or construct == "serial":
        return 0
    depth = 1
    for clause in clauses:
        if clause.name == "collapse":
            depth = _collapse(clause, span)
        elif clause.name == "tile":
            depth = max(depth, len(clause.names(False)))
    return depth


def _check_clause(clause: Clause, name: str, span: SourceSpan) -> None:
    if clause.name not in _LOOP_CLAUSES:
        raise FrontendError(f"unknown OpenACC clause {clause.name!r} on '{name}'"
                            + suggestion(clause.name, sorted(_LOOP_CLAUSES)), span)
    needs_list = _SHARING | frozenset(_DATA_ALIASES) | {"tile"}
    if clause.name in needs_list and clause.args is None:
        raise FrontendError(f"OpenACC clause '{clause.name}' on '{name}' needs a list in "
                            "parentheses", span)
    if clause.name == "deviceptr":
        raise FrontendError(f"'deviceptr' on '{name}' is not supported: the translator "
                            "moves host arrays itself and has no raw device pointers", span)


def _spelled_clause(clause: Clause) -> str:
    return clause.name if clause.args is None else f"{clause.name}({clause.args.strip()})"



def _base_name(item: str, fold: bool) -> str:
    """``a[0:n]``, ``a(1:n)`` -> ``a`` (lower-cased in Fortran)."""
    base = item.split("[")[0].split("(")[0].strip()
    return base.lower() if fold else base


def _reduction(clause: Clause, fold: bool, name: str, span: SourceSpan
               ) -> list[tuple[str, str]]:
    body = clause.args or ""
    if ":" not in body:
        raise FrontendError(f"malformed reduction clause 'reduction({body})' on '{name}': "
                            "expected 'reduction(operator: list)'", span)
    op, _, rest = body.partition(":")
    op = op.strip().lower()
    if op not in REDUCTION_OPERATORS - {"-"}:
        raise FrontendError(f"reduction operator {op!r} on '{name}' is not an OpenACC "
                            "reduction operator (one of "
                            f"{', '.join(sorted(REDUCTION_OPERATORS - {'-'}))})", span)
    return [(op, n) for n in clause_names(Clause("reduction", rest), fold, name, span)]


def _default(clause: Clause, span: SourceSpan) -> str:
    value = (clause.args or "").strip().lower()
    if value not in ("none", "present"):
        raise FrontendError(f"default({value}) is not an OpenACC default (none or present)",
                            span)
    return value


def _collapse(clause: Clause, span: SourceSpan) -> int:
    text = (clause.args or "").strip().lower()
    if text == "force":
        return 1
    text = text.removeprefix("force:").strip()
    if not text.isdigit() or int(text) < 1:
        raise FrontendError(f"collapse({clause.args}) needs a positive integer constant",
                            span)
    return int(text)


# ---------------------------------------------------------------------------------------------
# data directives

#: The translate clauses each data directive takes (`frontends.pragmas.DATA_CLAUSES`).
_DATA_TARGETS = {
    "data": frozenset({"copyin", "copyout", "copy", "create", "present"}),
    "enter data": frozenset({"copyin", "create"}),
    "exit data": frozenset({"copyout", "delete"}),
}
_DATA_NO_EFFECT = frozenset({"if", "async", "wait", "finalize", "if_present", "default",
                             "device_type", "dtype"})


def _data_claim(name: str, split: SplitDirective, span: SourceSpan, language: str) -> Claim:
    if name == "update":
        return _update_claim(split, span)
    if name not in _DATA_TARGETS:
        raise FrontendError(f"unknown OpenACC data directive {name!r}", span)
    parts, ignored = [], []
    for clause in split.clauses:
        if clause.name in _DATA_NO_EFFECT:
            ignored.append(_spelled_clause(clause))
            continue
        target = _data_target(clause, name, span)
        if target is None:
            ignored.append(_spelled_clause(clause))
        else:
            parts.append(f"{target}({(clause.args or '').strip()})")
    if not parts:
        raise FrontendError(f"'{name}' moves no data the translator can manage (give "
                            f"{', '.join(sorted(_DATA_TARGETS[name]))} clauses)", span)
    return DataClaim(model=MODEL, name=name, span=span,
                     translate_text=f"{name} {' '.join(parts)}", ignored=tuple(ignored))


def _data_target(clause: Clause, name: str, span: SourceSpan) -> str | None:
    """The translate clause of a data clause on `name` (None: no effect)."""
    if clause.name == "deviceptr":
        raise FrontendError(f"'deviceptr' on '{name}' is not supported: the translator moves "
                            "host arrays itself and has no raw device pointers", span)
    if clause.name not in _DATA_ALIASES:
        raise FrontendError(f"unknown clause {clause.name!r} on OpenACC '{name}'"
                            + suggestion(clause.name, sorted(_DATA_ALIASES)), span)
    if clause.args is None or not clause.args.strip():
        raise FrontendError(f"OpenACC clause '{clause.name}' on '{name}' needs a list in "
                            "parentheses", span)
    target = _DATA_ALIASES[clause.name]
    if target is not None and target not in _DATA_TARGETS[name]:
        raise FrontendError(f"clause '{clause.name}' is not allowed on OpenACC '{name}' "
                            f"(allowed: {', '.join(_allowed(name))})", span)
    return target


def _allowed(name: str) -> list[str]:
    return sorted(k for k, v in _DATA_ALIASES.items() if v in _DATA_TARGETS[name])


def _update_claim(split: SplitDirective, span: SourceSpan) -> DataClaim:
    parts, ignored = [], []
    for clause in split.clauses:
        if clause.name in _DATA_NO_EFFECT:
            ignored.append(_spelled_clause(clause))
            continue
        if clause.name not in ("host", "self", "device") or not (clause.args or "").strip():
            raise FrontendError(f"clause {clause.name!r} on OpenACC 'update' is not "
                                "supported (expected host(...), self(...) or device(...))",
                                span)
        parts.append(f"{clause.name}({clause.args.strip()})")
    if not parts:
        raise FrontendError("OpenACC 'update' needs host(...), self(...) or device(...)",
                            span)
    # a valid OpenACC program updates only what is present, or what it `declare`d (which
    # the regions here move themselves: nothing to update), or with `if_present` (h70)
    ignored = [c for c in ignored if c != "if_present"]
    return DataClaim(model=MODEL, name="update", span=span,
                     translate_text="update " + " ".join(parts) + " if_present",
                     ignored=tuple(ignored))


# ---------------------------------------------------------------------------------------------
# compute constructs around loops


Item = tuple[int, int, Claim]    # (first line, last line, claim) of a directive


def resolve_constructs(items: list[Item], code_lines: list[str], language: str
                       ) -> list[Claim]:
    """The claims of `items` (every directive of a file, in line order) with the ``loop``
    directives inside compute constructs resolved: inside ``kernels``, a loop without
    ``independent``/``seq``/``auto`` is automatic (`parallel=0`), as OpenACC says (inside
    ``parallel`` it is independent); an independent loop without sizes of its own takes the
    construct's (``vector_length(n)``, ``num_gangs(1)``).  `code_lines` are the file's lines (index 0 = line 1): where a C construct's
    block ends."""
    out = [claim for _, _, claim in items]
    for k, claim in enumerate(out):
        if not (isinstance(claim, ParallelOpen) and claim.model == MODEL):
            continue
        end = _construct_end(items, k, code_lines, language)
        inside = [j for j in range(k + 1, len(items)) if items[j][0] <= end]
        for j in inside:
            if isinstance(out[j], LoopClaim) and out[j].model == MODEL \
                    and not out[j].construct:
                out[j] = replace(out[j], construct=claim.claim.name)
        # a construct partitioning loops among gangs only (`loop gang` around `loop vector`)
        # keeps its sizes for the vector loops, whose split would be a second grid inside
        # each gang's iteration: the automatic mapping places the gang loop instead
        gangs = any(isinstance(out[j], LoopClaim) and gang_only(out[j]) for j in inside)
        for j in inside:
            if claim.claim.name == "kernels" and _bare_loop(out[j]):
                out[j] = replace(out[j], parallel=0)
            elif _takes_construct_hints(out[j], claim.claim) and not gangs:
                out[j] = replace(out[j], hints=claim.claim.hints)   # vector_length(n) ...
    return out


def _takes_construct_hints(claim: object, construct: LoopClaim) -> bool:
    """A loop declared independent without sizes of its own, in a construct that gives some
    (``!$acc parallel vector_length(64)`` ... ``!$acc loop``)."""
    return isinstance(claim, LoopClaim) and claim.model == MODEL and claim.parallel > 0 \
        and not claim.hints and bool(construct.hints)


def _bare_loop(claim: object) -> bool:
    """A ``loop`` directive that says neither independent, seq nor auto."""
    return isinstance(claim, LoopClaim) and claim.model == MODEL and claim.name == "loop"


def _construct_end(items: list[Item], k: int, code_lines: list[str], language: str) -> int:
    """The last line of construct `k`: its ``end`` directive (Fortran), the ``}`` closing
    the block after it (C); the end of the file if neither is found."""
    words = ("end", *items[k][2].claim.name.split())
    for first, _, claim in items[k + 1:]:
        if isinstance(claim, EndDirective) and ("end", *claim.words) == words:
            return first
    if language == "c":
        return _closing_brace(code_lines, items[k][1])
    return len(code_lines)


def _closing_brace(code_lines: list[str], after: int) -> int:
    """The line of the ``}`` closing the block that starts after line `after` (a single
    statement: its line)."""
    depth = 0
    for k in range(after, len(code_lines)):
        text = code_lines[k].split("//")[0]
        if text.strip().startswith("#"):
            continue
        depth += text.count("{") - text.count("}")
        if depth <= 0 and text.strip():
            return k + 1
    return len(code_lines)
