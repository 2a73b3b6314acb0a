"""OpenMP directives (``!$omp``, ``#pragma omp``) -> claims (`frontends.directives`).

Loop directives (``parallel do``, ``parallel for``, ``do``/``for`` inside ``parallel``,
``simd``, ``parallel do simd``, ``target teams distribute parallel do/for``, ``loop`` ...)
become `LoopClaim`s; ``target data``, ``target enter/exit data`` and ``target update`` become
`DataClaim`s spelled as translate data directives; ``parallel`` alone opens a construct whose
worksharing loops inherit its clauses; every other directive is `Untouched`, with the reason.
"""

from __future__ import annotations

import re

from frontends.directives.claims import (
    Claim,
    DataClaim,
    EndDirective,
    LoopClaim,
    ParallelOpen,
    Untouched,
)
from frontends.directives.clauses import (Clause, SplitDirective, clause_names,
                                          clause_sections, split_directive)
from translator.diagnostics import FrontendError, SourceSpan, suggestion, warn

MODEL = "openmp"

#: Words that may form a loop directive's name.
_LOOP_WORDS = frozenset({"target", "teams", "distribute", "parallel", "do", "for", "simd",
                         "loop"})
_LOOP_KEYS = frozenset({"do", "for", "simd", "loop", "distribute"})
_DATA_WORDS = frozenset({"data", "enter", "exit", "update"})

#: Directives that are not offloaded, with the reason the report gives.
_NOT_OFFLOADED = {
    "task": "tasks run on the host's OpenMP runtime",
    "taskloop": "tasks run on the host's OpenMP runtime",
    "taskwait": "tasks run on the host's OpenMP runtime",
    "taskgroup": "tasks run on the host's OpenMP runtime",
    "taskyield": "tasks run on the host's OpenMP runtime",
    "critical": "a critical section serialises threads; it has no kernel form",
    "atomic": "an atomic update outside a loop directive stays on the host",
    "barrier": "a barrier synchronises host threads",
    "single": "a single construct runs on one host thread",
    "master": "a master construct runs on one host thread",
    "masked": "a masked construct runs on one host thread",
    "sections": "sections are host tasks",
    "section": "sections are host tasks",
    "ordered": "an ordered construct serialises the loop",
    "threadprivate": "threadprivate data belongs to host threads",
    "flush": "a flush orders host memory",
    "cancel": "cancellation belongs to the host's OpenMP runtime",
    "cancellation": "cancellation belongs to the host's OpenMP runtime",
    "declare": "declare directives other than 'declare target' are not translated",
    "requires": "a requires directive constrains the host compiler",
    "scope": "a scope construct runs on host threads",
    "workshare": "workshare is not translated (write the array statement in a DO loop under "
                 "'parallel do')",
    "target": "a target construct without a loop directive is not offloaded",
    "teams": "a teams construct without a loop directive is not offloaded",
    "metadirective": "metadirectives are not translated",
    "allocate": "an allocate directive belongs to the host compiler",
    "nothing": "the directive does nothing",
    "error": "an error directive belongs to the host compiler",
    "assume": "assumptions are not translated",
    "assumes": "assumptions are not translated",
    "tile": "loop transformation directives are not translated",
    "unroll": "loop transformation directives are not translated",
    "depobj": "dependence objects belong to the host's OpenMP runtime",
    "interop": "interop objects belong to the host's OpenMP runtime",
    "dispatch": "dispatch belongs to the host compiler",
}
#: What becomes of ``declare target`` (``begin declare target``) procedures and variables.
_DECLARE_TARGET = ("its procedures are inlined into the regions that call them, and its "
                   "variables are moved by each region that uses them")
_DECLARE_TARGET_TEXT = re.compile(r"\s*(?:begin\s+)?declare\s+target\b", re.IGNORECASE)
#: Directives whose parallel work stays on the host: a `directive-not-offloaded` warning.
_HOST_WORK = frozenset({"task", "taskloop", "sections", "workshare"})
_CONSTRUCTS_WITH_END = frozenset({"critical", "single", "master", "masked", "sections",
                                  "task", "taskgroup", "ordered", "workshare", "target",
                                  "teams", "taskloop", "scope", "atomic"})

_ALL_WORDS = _LOOP_WORDS | _DATA_WORDS | frozenset(_NOT_OFFLOADED) | {"end"}

#: Constructs that run their block in several teams or threads, as ``parallel`` does: one
#: holding only loop directives is one region with them (left around the region's call, it
#: would run the call once per team or thread in a build with -fopenmp); one holding other
#: code is left as written with its loops.  A plain ``target`` runs its block once.
_TEAM_CONSTRUCTS = frozenset({("teams",), ("target", "teams"), ("target", "parallel")})

#: Clauses of loop directives accepted with no effect (the report lists them).
_NO_EFFECT = frozenset({"schedule", "num_threads", "nowait", "proc_bind", "if", "safelen",
                        "simdlen", "aligned", "dist_schedule", "num_teams", "thread_limit",
                        "device", "map", "order", "bind", "allocate", "nontemporal",
                        "is_device_ptr", "has_device_addr", "defaultmap", "copyin",
                        "uses_allocators", "ompx_bare", "in_reduction", "depend"})
_SHARING = frozenset({"private", "firstprivate", "lastprivate", "shared", "reduction",
                      "default", "collapse", "linear"})
_LOOP_CLAUSES = _NO_EFFECT | _SHARING

#: Reduction operators OpenMP defines, as the IR understands them.
REDUCTION_OPERATORS = frozenset({"+", "-", "*", "max", "min", "iand", "ior", "ieor",
                                 ".and.", ".or.", ".eqv.", ".neqv.", "&&", "||", "&", "|",
                                 "^"})
_DEFAULTS = frozenset({"shared", "none", "private", "firstprivate"})


def parse_openmp(text: str, span: SourceSpan, language: str) -> Claim:
    """The claim of one OpenMP directive (`text`: after the sentinel, continuations
    joined).  Errors for malformed clauses of the directives translated, at `span`."""
    if _DECLARE_TARGET_TEXT.match(text):
        return Untouched(model=MODEL, name="declare target", span=span, reason=_DECLARE_TARGET)
    words = _with_named_construct(
        text, split_directive(text, _ALL_WORDS, "OpenMP", span, names_only=True).words)
    if not words:
        word = text.split("(")[0].split()[0] if text.split() else ""
        warn("unknown-directive", f"unknown OpenMP directive {word!r}"
             + suggestion(word.lower(), sorted(_NOT_OFFLOADED) + sorted(_LOOP_WORDS))
             + "; it is left as written", span)
        return Untouched(model=MODEL, name=word, span=span, reason="unknown directive")
    name = " ".join(words)
    if words[0] == "end":
        rest = text.lower().split()[len(words):]
        return EndDirective(model=MODEL, words=words[1:], span=span,
                            clauses=("nowait",) if "nowait" in rest else ())
    if _is_loop(words):
        split = _clauses(text, span)
        if any(c.name == "ordered" for c in split.clauses):
            return Untouched(model=MODEL, name=name, span=span, end_words=words,
                             reason="an ordered loop runs its ordered regions in sequence; "
                                    "it is not offloaded", carries_work=True)
        return _loop_claim(name, split, span, language)
    if words[0] == "target" and len(words) > 1 and words[1] in _DATA_WORDS:
        return _data_claim(name, _clauses(text, span), span, language)
    if words == ("parallel",) or words in _TEAM_CONSTRUCTS:
        template = _loop_claim(name, _clauses(text, span), span, language, parallel=0)
        return ParallelOpen(model=MODEL, claim=template, span=span, end_words=("end", *words))
    reason = _NOT_OFFLOADED.get(words[0], _NOT_OFFLOADED.get(words[-1], "not offloaded"))
    return Untouched(model=MODEL, name=atomic_name(name, text), span=span, reason=reason,
                     end_words=words if words[0] in _CONSTRUCTS_WITH_END else (),
                     carries_work=words[0] in _HOST_WORK)


_ATOMIC_KIND = re.compile(r"\b(capture|read|write|compare)\b", re.IGNORECASE)


def atomic_name(name: str, text: str) -> str:
    """`name`, or for an ``atomic`` directive with a ``capture``, ``read``, ``write`` or
    ``compare`` clause ``atomic capture`` (...): only ``atomic`` and ``atomic update`` guard
    an update the translator takes (`frontends.directives.claims.with_inner_directives`)."""
    if name != "atomic":
        return name
    m = _ATOMIC_KIND.search(text)
    return name if m is None else f"atomic {m.group(1).lower()}"


_ARGUMENT_WORD = re.compile(r"\s*(end\s+)?([A-Za-z_]\w*)\s*\(", re.IGNORECASE)


def _with_named_construct(text: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """`words`, or for a directive whose name is followed by its argument list
    (``critical(name)``, ``end critical(name)``, ``threadprivate(/blk/)``, ``flush(x)``),
    that name: the clause splitter stops at a word followed by a parenthesis."""
    if words not in ((), ("end",)):
        return words
    m = _ARGUMENT_WORD.match(text)
    if m is None or bool(m.group(1)) != bool(words) or m.group(2).lower() not in _NOT_OFFLOADED:
        return words
    return (*words, m.group(2).lower())


def _clauses(text: str, span: SourceSpan) -> SplitDirective:
    return split_directive(text, _ALL_WORDS, "OpenMP", span)


def _is_loop(words: tuple[str, ...]) -> bool:
    return all(w in _LOOP_WORDS for w in words) and bool(_LOOP_KEYS & set(words))


def _loop_claim(name: str, split: SplitDirective, span: SourceSpan, language: str,
                parallel: int = 1) -> LoopClaim:
    fold = language == "fortran"
    lists: dict[str, list[str]] = {k: [] for k in ("private", "firstprivate", "lastprivate",
                                                   "shared")}
    reductions: list[tuple[str, str]] = []
    ignored: list[str] = []
    sections: list = []
    linear: list[str] = []
    default = None
    for clause in split.clauses:
        _check_clause(clause, name, span)
        if clause.name in lists:
            lists[clause.name] += clause_names(clause, fold, name, span)
        elif clause.name == "reduction":
            reductions += _reduction(clause, fold, name, span)
        elif clause.name == "default":
            default = _default(clause, span)
        elif clause.name == "collapse":
            parallel = _collapse(clause, span) if parallel else 0
        elif clause.name == "linear":
            linear += [n.split(":")[0].strip() for n in clause.names(fold)]
        else:
            ignored.append(clause.name if clause.args is None
                           else f"{clause.name}({clause.args.strip()})")
            if clause.name == "map":
                sections += clause_sections(clause, span, language)
    return LoopClaim(model=MODEL, name=name, span=span, parallel=parallel,
                     private=tuple(lists["private"]),
                     firstprivate=tuple(lists["firstprivate"]),
                     lastprivate=tuple(_without_modifier(lists["lastprivate"])),
                     shared=tuple(lists["shared"]), reductions=tuple(reductions),
                     default=default, ignored=tuple(ignored),
                     end_words=("end", *name.split()), sections=tuple(sections),
                     linear=tuple(linear))


def _check_clause(clause: Clause, name: str, span: SourceSpan) -> None:
    if clause.name not in _LOOP_CLAUSES:
        raise FrontendError(f"unknown OpenMP clause {clause.name!r} on '{name}'"
                            + suggestion(clause.name, sorted(_LOOP_CLAUSES)), span)
    if clause.name in _SHARING and clause.args is None:
        raise FrontendError(f"OpenMP clause '{clause.name}' on '{name}' needs a list in "
                            "parentheses", span)



def _without_modifier(names: list[str]) -> list[str]:
    return [n.split(":")[-1].strip() for n in names]


def _reduction(clause: Clause, fold: bool, name: str, span: SourceSpan
               ) -> list[tuple[str, str]]:
    body = clause.args or ""
    if ":" not in body:
        raise FrontendError(f"malformed reduction clause 'reduction({body})' on '{name}': "
                            "expected 'reduction(operator: list)'", span)
    op, _, rest = body.partition(":")   # the list may hold sections: hist[:n], a(1:n)
    op = op.split(",")[-1].strip().lower()    # a modifier (inscan, task) comes first
    if op not in REDUCTION_OPERATORS:
        raise FrontendError(f"reduction operator {op!r} on '{name}' is not supported (one of "
                            f"{', '.join(sorted(REDUCTION_OPERATORS))})", span)
    # a section reduces (part of) its array: an array reduction, kept sequential
    bases = ", ".join(n.split("[")[0].split("(")[0].strip()
                      for n in Clause("reduction", rest).names(False))
    names = clause_names(Clause("reduction", bases), fold, name, span)
    return [(op, n) for n in names]


def _default(clause: Clause, span: SourceSpan) -> str:
    value = (clause.args or "").strip().lower()
    if value not in _DEFAULTS:
        raise FrontendError(f"default({value}) is not an OpenMP data-sharing default "
                            "(shared, none, private or firstprivate)", span)
    return value


def _collapse(clause: Clause, span: SourceSpan) -> int:
    text = (clause.args or "").strip()
    if not text.isdigit() or int(text) < 1:
        raise FrontendError(f"collapse({text}) needs a positive integer constant", span)
    return int(text)


# ---------------------------------------------------------------------------------------------
# data directives

_MAP_KINDS = {
    "data": {"to": "copyin", "from": "copyout", "tofrom": "copy", "alloc": "create"},
    "enter data": {"to": "copyin", "alloc": "create"},
    "exit data": {"from": "copyout", "release": "delete", "delete": "delete"},
}
_DATA_NO_EFFECT = frozenset({"device", "if", "nowait", "depend", "use_device_ptr",
                             "use_device_addr"})


def _data_claim(name: str, split: SplitDirective, span: SourceSpan, language: str) -> Claim:
    kind = " ".join(split.words[1:])
    ignored = [c.name for c in split.clauses if c.name in _DATA_NO_EFFECT]
    clauses = [c for c in split.clauses if c.name not in _DATA_NO_EFFECT]
    if kind == "update":
        parts = [_update_clause(c, name, span) for c in clauses]
        # OpenMP: a list item not present on the device is not updated (h70)
        return _data(name, span, "update " + " ".join(parts) + " if_present", ignored)
    if kind not in _MAP_KINDS:
        raise FrontendError(f"unknown OpenMP data directive 'target {kind}'", span)
    parts = [_map_clause(c, kind, name, span) for c in clauses]
    if not parts:
        raise FrontendError(f"'{name}' needs at least one map clause", span)
    prefix = {"data": "data", "enter data": "enter data", "exit data": "exit data"}[kind]
    return _data(name, span, f"{prefix} {' '.join(parts)}", ignored)


def _data(name: str, span: SourceSpan, text: str, ignored: list[str]) -> DataClaim:
    return DataClaim(model=MODEL, name=name, span=span, translate_text=text,
                     ignored=tuple(ignored))


def _map_clause(clause: Clause, kind: str, name: str, span: SourceSpan) -> str:
    if clause.name != "map" or clause.args is None:
        raise FrontendError(f"clause {clause.name!r} on '{name}' is not supported (expected "
                            "map(...))", span)
    body = clause.args
    map_type = "tofrom"
    head, sep, rest = body.partition(":")
    if sep and "[" not in head and "(" not in head:
        # modifiers (always, close, present) come before the map type, separated by commas
        map_type = head.replace(",", " ").split()[-1].lower()
        body = rest
    translated = _MAP_KINDS[kind].get(map_type)
    if translated is None:
        raise FrontendError(f"map type {map_type!r} is not allowed on '{name}' (allowed: "
                            f"{', '.join(sorted(_MAP_KINDS[kind]))})", span)
    return f"{translated}({body.strip()})"


def _update_clause(clause: Clause, name: str, span: SourceSpan) -> str:
    direction = {"to": "device", "from": "host"}.get(clause.name)
    if direction is None or clause.args is None:
        raise FrontendError(f"clause {clause.name!r} on '{name}' is not supported (expected "
                            "to(...) or from(...))", span)
    body = clause.args
    if ":" in body.split("[")[0].split("(")[0]:   # a motion modifier (present: ...)
        body = body.split(":", 1)[1]
    return f"{direction}({body.strip()})"
