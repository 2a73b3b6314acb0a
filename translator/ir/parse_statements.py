"""One line of the kernel language's statement text -> a `ParsedStatement` or a rule.

Forms (docs/kernel-language.md)::

    LHS = RHS {attr, key=value:value}        assignment
    <float32> t[i] = RHS   /   <> t = RHS    temporary declaration (type inferred for <>)
    a, b = f(x)   /   a, = f(x)              call with several results (a single one: 'a,')
    name(x, y) := EXPRESSION                 substitution rule
    ... nop / ... gbarrier / ... lbarrier    no-op and barriers, with attributes

A `ParsedStatement` keeps what the text says; `translator.ir.parse` resolves ids, inames and
dependencies over the whole kernel and builds the IR statements.
"""

from __future__ import annotations

import re

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, SourceSpan
from translator.ir.expr import Expression, LinearSubscript
from translator.ir.kernel import SubstitutionRule
from translator.ir.parse_expr import parse_dtype, parse_expression
from translator.ir.statements import (Assignment, BarrierInstruction, CallInstruction,
                                      NoOpInstruction, Statement)
from translator.records import dataclass, replace

_ID_RE = re.compile(r"[^\s,:{}=@*?\[\]\"'+]+")
#: What an id, a tag or a group name may look like (no separators, no wildcards).
ID_PATTERN = _ID_RE
_PATTERN_RE = re.compile(r"[^\s,:{}=@\"'+]+")
_DECL_RE = re.compile(r"\s*<([^<>]*)>\s*")
_RULE_RE = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:\(([^()]*)\))?\s*$")
_SCOPES = ("local", "global", "any")
_SPECIAL = {"nop": ("nop", ""), "gbarrier": ("barrier", "global"),
            "lbarrier": ("barrier", "local")}


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedStatement:
    """What one statement line (or a given `Statement` object) specifies."""

    text: str
    kind: str = "assign"            # assign, call, nop, barrier
    assignees: tuple[Expression, ...] = ()
    expression: Expression | None = None
    temp_decls: tuple[tuple[str, np.dtype | None, bool], ...] = ()   # name, dtype, is_array
    id: str | None = None
    id_prefix: str | None = None
    inames: frozenset[str] | None = None   # None: found by the heuristic
    inames_additive: bool = False
    dup: tuple[tuple[str, str | None], ...] = ()
    dep: tuple[str, ...] = ()
    dep_exclusive: bool = False
    dep_query: str | None = None
    nosync: tuple[tuple[str, str], ...] = ()
    nosync_query: tuple[tuple[str, str], ...] = ()
    priority: int = 0
    predicates: frozenset[Expression] = frozenset()
    tags: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    conflicts: frozenset[str] = frozenset()
    atomic: frozenset[str] | None = None
    sync_kind: str = "global"
    mem_kind: str = "local"
    given: Statement | None = None
    span: SourceSpan | None = None

    def error(self, message: str, cls: type = KernelLanguageError) -> KernelLanguageError:
        """An error naming this statement."""
        what = f"statement {self.id!r}" if self.id else f"statement {self.text!r}"
        return cls(f"{what}: {message}", self.span)


def split_top_level(text: str, sep: str = ",", brackets: str = "()[]") -> list[str]:
    """Split at `sep` outside quotes and the bracket pairs in `brackets`."""
    opening, closing = brackets[0::2], brackets[1::2]
    parts, depth, quote, start = [], 0, None, 0
    for k, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return parts


def parse_statement_line(line: str, inames: frozenset[str] | None, *,
                         span: SourceSpan | None = None,
                         bare_reductions: bool = True) -> ParsedStatement | SubstitutionRule:
    """Parse one statement line (comments and blank lines are removed by the caller)."""
    body, attrs = _split_attributes(line, span)
    stmt = ParsedStatement(text=line.strip(), span=span)
    stripped = body.strip()
    if stripped.startswith("..."):
        stmt = _parse_special(stmt, stripped)
    elif ":=" in body:
        if attrs is not None:
            raise stmt.error("a substitution rule takes no attributes")
        return _parse_rule(body, inames, span, bare_reductions)
    else:
        stmt = _parse_assignment(stmt, body, inames, bare_reductions)
    if attrs is not None:
        stmt = parse_attributes(stmt, attrs, inames, bare_reductions)
    return stmt


def _split_attributes(line: str, span: SourceSpan | None) -> tuple[str, str | None]:
    text = line.rstrip()
    if not text.endswith("}"):
        if "{" in text or "}" in text:
            raise KernelLanguageError(f"statement {line.strip()!r}: the attribute block "
                                      "'{...}' must end the line", span)
        return text, None
    start = text.rfind("{")
    if start < 0 or "}" in text[start + 1:-1] or "{" in text[:start] or "}" in text[:start]:
        raise KernelLanguageError(f"statement {line.strip()!r}: unbalanced braces in the "
                                  "attribute block", span)
    return text[:start], text[start + 1:-1]


def _parse_special(stmt: ParsedStatement, body: str) -> ParsedStatement:
    word = body[3:].strip()
    if word not in _SPECIAL:
        raise stmt.error(f"unknown special statement '... {word}' (expected '... nop', "
                         "'... gbarrier' or '... lbarrier')")
    kind, sync = _SPECIAL[word]
    return replace(stmt, kind=kind, sync_kind=sync or "global")


def _parse_rule(body: str, inames, span, bare_reductions: bool) -> SubstitutionRule:
    head, _, rhs = body.partition(":=")
    m = _RULE_RE.fullmatch(head)
    if m is None:
        raise KernelLanguageError(f"malformed substitution rule {body.strip()!r}: expected "
                                  "'name(arg, ...) := expression'", span)
    args = tuple(a.strip() for a in (m.group(2) or "").split(",") if a.strip())
    bad = [a for a in args if not a.isidentifier()]
    if bad or len(set(args)) != len(args):
        raise KernelLanguageError(f"substitution rule {m.group(1)!r}: malformed argument "
                                  f"list {m.group(2)!r}", span)
    if not rhs.strip():
        raise KernelLanguageError(f"substitution rule {m.group(1)!r} has no expression", span)
    expr = _expression(rhs, inames, bare_reductions, span)
    return SubstitutionRule(name=m.group(1), arguments=args, expression=expr, span=span)


def _expression(text: str, inames, bare_reductions: bool, span,
                stmt: ParsedStatement | None = None) -> Expression:
    try:
        return parse_expression(text, inames, bare_reductions=bare_reductions)
    except KernelLanguageError as e:
        if stmt is not None:
            raise stmt.error(e.message, type(e)) from None
        raise e.with_span(span) from None


# ---------------------------------------------------------------------------------------------
# assignments

def _assignment_split(body: str) -> int:
    """Index of the assignment '=' (not part of ==, <=, >=, !=, :=)."""
    depth = 0
    for k, ch in enumerate(body):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "=" and depth == 0:
            before = body[k - 1] if k else ""
            after = body[k + 1] if k + 1 < len(body) else ""
            if before not in "=<>!:" and after != "=":
                return k
    return -1


def _parse_assignment(stmt: ParsedStatement, body: str, inames,
                      bare_reductions: bool) -> ParsedStatement:
    k = _assignment_split(body)
    if k < 0:
        raise stmt.error("malformed statement: expected 'LHS = RHS', 'name(args) := "
                         "expression' or '... nop'")
    lhs_text, rhs_text = body[:k], body[k + 1:]
    if not rhs_text.strip():
        raise stmt.error("missing right-hand side")
    items = split_top_level(lhs_text)
    is_call = len(items) > 1
    if is_call and not items[-1].strip():
        items = items[:-1]          # 'a, = f(x)': a call with a single result
    assignees, decls = [], []
    for item in items:
        assignee, decl = _parse_assignee(stmt, item, inames, bare_reductions)
        assignees.append(assignee)
        if decl is not None:
            decls.append(decl)
    rhs = _expression(rhs_text, inames, bare_reductions, stmt.span, stmt)
    if is_call and not isinstance(rhs, p.Call):
        raise stmt.error("a statement with several results needs a function call on the "
                         "right-hand side")
    return replace(stmt, kind="call" if is_call else "assign", assignees=tuple(assignees),
                   expression=rhs, temp_decls=tuple(decls))


def _parse_assignee(stmt: ParsedStatement, item: str, inames, bare_reductions: bool):
    decl_dtype, declared = None, False
    m = _DECL_RE.match(item)
    if m:
        declared = True
        if m.group(1).strip():
            decl_dtype = _dtype(stmt, m.group(1))
        item = item[m.end():]
    if not item.strip():
        raise stmt.error("missing left-hand side")
    expr = _expression(item, inames, bare_reductions, stmt.span, stmt)
    name = _assignee_base(expr)
    if name is None:
        raise stmt.error(f"cannot assign to {item.strip()!r} (expected a variable, "
                         "'a[i, j]' or 'a[[index]]')")
    if not declared:
        return expr, None
    if isinstance(expr, LinearSubscript):
        raise stmt.error(f"temporary {name!r}: declare array temporaries with a "
                         "multi-dimensional subscript, not a linear one")
    return expr, (name, decl_dtype, isinstance(expr, p.Subscript))


def _assignee_base(expr: Expression) -> str | None:
    if isinstance(expr, p.Variable):
        return expr.name
    if isinstance(expr, (p.Subscript, LinearSubscript)) and isinstance(expr.aggregate,
                                                                       p.Variable):
        return expr.aggregate.name
    return None


def _dtype(stmt: ParsedStatement, name: str) -> np.dtype:
    try:
        return parse_dtype(name)
    except KernelLanguageError as e:
        raise stmt.error(e.message) from None


# ---------------------------------------------------------------------------------------------
# attributes

def parse_attributes(stmt: ParsedStatement, text: str, inames,
                     bare_reductions: bool = True) -> ParsedStatement:
    """Apply the ``{...}`` attribute list `text` to `stmt`."""
    seen: set[str] = set()
    for item in split_top_level(text):
        if not item.strip():
            continue
        key, has_value, value = (s.strip() for s in item.partition("="))
        if key in seen:
            raise stmt.error(f"attribute {key!r} given twice")
        seen.add(key)
        handler = _HANDLERS.get(key)
        if handler is None:
            raise stmt.error(f"unknown attribute {key!r} (known: {', '.join(sorted(_HANDLERS))})")
        if key != "atomic" and not has_value:
            raise stmt.error(f"attribute {key!r} needs a value ({key}=...)")
        stmt = handler(stmt, _unquote(value) if has_value else None, inames, bare_reductions)
    return stmt


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _names(stmt: ParsedStatement, key: str, value: str, regex=_ID_RE) -> tuple[str, ...]:
    names = tuple(s.strip() for s in value.split(":") if s.strip())
    bad = [n for n in names if not regex.fullmatch(n)]
    if bad:
        raise stmt.error(f"bad value {bad[0]!r} in attribute {key!r}")
    return names


def _attr_id(stmt, value, inames, br):
    names = _names(stmt, "id", value)
    if len(names) != 1:
        raise stmt.error(f"bad value {value!r} for attribute 'id' (one identifier expected)")
    return replace(stmt, id=names[0])


def _attr_id_prefix(stmt, value, inames, br):
    names = _names(stmt, "id_prefix", value)
    if len(names) != 1:
        raise stmt.error(f"bad value {value!r} for attribute 'id_prefix'")
    return replace(stmt, id_prefix=names[0])


def _attr_inames(stmt, value, inames, br):
    additive = value.startswith("+")
    return replace(stmt, inames=frozenset(_names(stmt, "inames", value.lstrip("+"))),
                   inames_additive=additive)


def _attr_dup(stmt, value, inames, br):
    pairs = []
    for item in _names(stmt, "dup", value, re.compile(r"[\w]+(->[\w]+)?")):
        old, _, new = item.partition("->")
        pairs.append((old, new or None))
    return replace(stmt, dup=tuple(pairs))


def _attr_dep(stmt, value, inames, br):
    exclusive = value.startswith("*")
    body = value[1:] if exclusive else value
    return replace(stmt, dep=_names(stmt, "dep", body, _PATTERN_RE), dep_exclusive=exclusive)


def _attr_dep_query(stmt, value, inames, br):
    return replace(stmt, dep_query=value)


def _scoped(stmt: ParsedStatement, key: str, item: str) -> tuple[str, str]:
    body, at, scope = item.rpartition("@")
    if not at:
        return item, "any"
    if scope not in _SCOPES:
        raise stmt.error(f"unknown scope {scope!r} in attribute {key!r} (expected "
                         "@local, @global or @any)")
    return body, scope


def _attr_nosync(stmt, value, inames, br):
    items = _names(stmt, "nosync", value, re.compile(r"[^\s,:{}=\"'+]+"))
    pairs = tuple(_scoped(stmt, "nosync", item) for item in items)
    for pattern, _ in pairs:
        if not _PATTERN_RE.fullmatch(pattern):
            raise stmt.error(f"bad value {pattern!r} in attribute 'nosync'")
    return replace(stmt, nosync=pairs)


def _attr_nosync_query(stmt, value, inames, br):
    return replace(stmt, nosync_query=(_scoped(stmt, "nosync_query", value),))


def _attr_priority(stmt, value, inames, br):
    try:
        return replace(stmt, priority=int(value))
    except ValueError:
        raise stmt.error(f"bad value {value!r} for attribute 'priority' (an integer "
                         "expected)") from None


def _attr_if(stmt, value, inames, br):
    conds = [c for c in value.split(":") if c.strip()]
    if not conds:
        raise stmt.error("attribute 'if' needs at least one condition")
    preds = frozenset(_expression(c, inames, br, stmt.span, stmt) for c in conds)
    return replace(stmt, predicates=preds)


def _attr_set(field: str, key: str):
    def handler(stmt, value, inames, br):
        return replace(stmt, **{field: frozenset(_names(stmt, key, value))})
    return handler


def _attr_atomic(stmt, value, inames, br):
    if value is None:
        return replace(stmt, atomic=frozenset(_assignee_base(a) for a in stmt.assignees))
    return replace(stmt, atomic=frozenset(_names(stmt, "atomic", value)))


def _attr_mem_kind(stmt, value, inames, br):
    if stmt.kind != "barrier":
        raise stmt.error("attribute 'mem_kind' applies to barriers only")
    if value not in ("local", "global"):
        raise stmt.error(f"bad value {value!r} for attribute 'mem_kind' (local or global)")
    return replace(stmt, mem_kind=value)


_HANDLERS = {
    "id": _attr_id, "id_prefix": _attr_id_prefix, "inames": _attr_inames, "dup": _attr_dup,
    "dep": _attr_dep, "dep_query": _attr_dep_query, "nosync": _attr_nosync,
    "nosync_query": _attr_nosync_query, "priority": _attr_priority, "if": _attr_if,
    "tags": _attr_set("tags", "tags"), "groups": _attr_set("groups", "groups"),
    "conflicts_grp": _attr_set("conflicts", "conflicts_grp"), "atomic": _attr_atomic,
    "mem_kind": _attr_mem_kind,
}


# ---------------------------------------------------------------------------------------------
# parsed statement -> IR statement

def build_statement(st: ParsedStatement, within: frozenset[str], deps: frozenset[str],
                    nosync: frozenset[tuple[str, str]]) -> Statement:
    """The IR statement for `st` with its resolved inames, dependencies and no-sync set."""
    if st.given is not None:
        return replace(st.given, within_inames=within, depends_on=deps)
    common = dict(id=st.id, within_inames=within, depends_on=deps, predicates=st.predicates,
                  tags=st.tags, groups=st.groups, conflicts_with_groups=st.conflicts,
                  no_sync_with=nosync, priority=st.priority, span=st.span)
    atomicity = st.atomic or frozenset()
    if st.kind == "assign":
        return Assignment(assignee=st.assignees[0], expression=st.expression,
                          atomicity=atomicity, **common)
    if st.kind == "call":
        return CallInstruction(assignees=st.assignees, expression=st.expression,
                               atomicity=atomicity, **common)
    if st.kind == "barrier":
        return BarrierInstruction(synchronization_kind=st.sync_kind, mem_kind=st.mem_kind,
                                  **common)
    return NoOpInstruction(**common)
