"""Language-independent parsing of ``translate`` directives (after the sentinel is removed).

Directive forms:
  ``kernel [NAME]``, ``end kernel``, ``NAME(arg, ..., key=value)`` (a transform call), and
  inside a region's body, naming and tagging statements for ``within=`` matches:
  ``id(NAME)``, ``tags(T1, T2)`` or both (``id(NAME) tags(T1)``) mark the next statement;
  ``block tags(T1, T2)`` ... ``end block`` tag every statement between them; ``atomic``
  makes the next statement's update of an array element atomic.  Arguments are Python literals only; nothing
  from a source file is ever executed (`ast.literal_eval` on each argument node).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
import os
from typing import Any

import numpy as np

from translator.diagnostics import FrontendError, SourceSpan, suggestion
from translator.ir.glue import DataGlue, DataGlueItem
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class Directive:
    """A parsed directive.  kind: "kernel", "end_kernel" or "call"."""

    kind: str               # kernel, end_kernel, call, mark, block, end_block, or a data kind
    name: str | None
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    span: SourceSpan | None = None


def parse_directive(text: str, span: SourceSpan) -> Directive:
    """Parse the text after the sentinel.  Errors carry `span` (pointing at the text)."""
    body = text.strip()
    words = body.split()
    if not words:
        raise FrontendError("empty translate directive", span)
    low = [w.lower() for w in words]
    if low[0] == "kernel":
        return _parse_kernel(body, span)
    if low[:2] == ["end", "kernel"] or low[0] == "endkernel":
        if len(words) > (1 if low[0] == "endkernel" else 2):
            raise FrontendError(f"malformed end directive {_shown(body)}", span)
        return Directive("end_kernel", None, span=span)
    if low[:2] == ["end", "block"] or low[0] == "endblock":
        return Directive("end_block", None, span=span)
    data = parse_data_directive(body, span)
    if data is not None:
        return data
    wait = _parse_wait(body, span)
    if wait is not None:
        return wait
    mark = _parse_mark(body, span)
    return mark if mark is not None else _parse_call(body, span)


def _parse_kernel(body: str, span: SourceSpan) -> Directive:
    """``kernel [NAME] [async[(N)]]``."""
    rest, queue = take_async(body.split(None, 1)[1] if len(body.split()) > 1 else "", span)
    words = rest.split()
    if len(words) > 1 or (len(words) == 1 and not _IDENT_RE.fullmatch(words[0])):
        raise FrontendError(f"malformed kernel directive {_shown(body)}: expected "
                            "'kernel [NAME] [async(N)]', NAME letters A-Z, a-z, digits and '_' "
                            "(it names an OpenCL kernel and a C function)", span)
    kwargs = (("async", queue),) if queue is not None else ()
    return Directive("kernel", words[0] if words else None, kwargs=kwargs, span=span)


#: The queue id of a bare ``async`` (the runtime's TR_ASYNC_NOVAL).
ASYNC_NOVAL = -1
_ASYNC = re.compile(r"\basync\b(\s*\(([^()]*)\))?", re.I)
_QUEUE_MAX = (1 << 31) - 1


def take_async(text: str, span: SourceSpan) -> tuple[str, int | None]:
    """`text` without its ``async`` / ``async(N)`` clause (outside brackets), and the queue id
    (`ASYNC_NOVAL` for a bare ``async``; None without the clause)."""
    found = [m for m in _ASYNC.finditer(text) if _depth(text, m.start()) == 0]
    if not found:
        return text, None
    if len(found) > 1:
        raise FrontendError("'async' is given twice in one directive", span)
    m = found[0]
    queue = queue_id(m.group(2), m.group(0).strip(), span) if m.group(1) else ASYNC_NOVAL
    return text[:m.start()] + " " + text[m.end():], queue


def queue_id(text: str, clause: str, span: SourceSpan) -> int:
    """An async queue id: a non-negative integer literal."""
    value = text.strip()
    if not re.fullmatch(r"\d+", value) or int(value) > _QUEUE_MAX:
        raise FrontendError(f"malformed queue id in {clause!r}: expected a non-negative "
                            f"integer literal (at most {_QUEUE_MAX})", span)
    return int(value)


def _depth(text: str, pos: int) -> int:
    """Bracket nesting depth at `pos` of `text`."""
    return sum(1 if ch in "([" else -1 if ch in ")]" else 0 for ch in text[:pos])


def _parse_wait(body: str, span: SourceSpan) -> Directive | None:
    """``wait`` (every async queue) or ``wait(N, ...)``; None if `body` is not one."""
    m = re.fullmatch(r"wait\b\s*(?:\((.*)\))?\s*", body, re.I | re.S)
    if m is None:
        return None
    ids = m.group(1)
    if ids is None:
        return Directive("wait", None, span=span)
    queues = tuple(queue_id(part, body.strip(), span) for part in ids.split(","))
    return Directive("wait", None, kwargs=(("queues", queues),), span=span)


def directive_async(directive: Directive) -> int | None:
    """The queue id of a directive's ``async`` clause, or None."""
    return dict(directive.kwargs).get("async")


def _shown(body: str, limit: int = 200) -> str:
    """A directive's text for a message: quoted, cut to `limit` characters (the source line
    under the message shows the rest)."""
    return repr(body if len(body) <= limit else body[:limit] + "...")


_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_IDENT_RE = re.compile(_IDENT)
_MARK = re.compile(rf"^(?P<block>block\s+)?(?:id\(\s*(?P<id>{_IDENT})\s*\))?\s*"
                   rf"(?:tags\(\s*(?P<tags>{_IDENT}(?:\s*,\s*{_IDENT})*)\s*\))?$", re.I)


def _parse_mark(body: str, span: SourceSpan) -> Directive | None:
    """``id(NAME)``, ``tags(T1, T2)``, both, ``block tags(...)``, or ``atomic`` (the next
    statement's update of an array element is atomic); None if not a mark."""
    if body.strip().lower() == "atomic":
        return Directive("mark", None, (), (("atomic", True),), span=span)
    m = _MARK.match(body.strip())
    if not m or not (m.group("id") or m.group("tags")):
        return None
    tags = tuple(t.strip() for t in m.group("tags").split(",")) if m.group("tags") else ()
    if m.group("block"):
        if m.group("id"):
            raise FrontendError("a 'block' directive takes tags(...) only: ids name single "
                                "statements", span)
        return Directive("block", None, tags, span=span)
    return Directive("mark", m.group("id"), tags, span=span)


def _parse_call(body: str, span: SourceSpan) -> Directive:
    try:
        tree = ast.parse(body, mode="eval")
    except SyntaxError as e:
        if "integer string conversion" in e.msg:   # Python's limit of 4300 digits
            raise FrontendError("an integer in a translate directive is out of range "
                                "(pragma integers must fit in 64 bits)", span) from None
        raise FrontendError(f"malformed translate directive {_shown(body)}: {e.msg}"
                            + _keyword_hint(body), span) from None
    except (RecursionError, MemoryError):
        raise FrontendError("translate directive nested too deeply", span) from None
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise FrontendError(f"unknown translate directive {_shown(body)} (expected 'kernel "
                            "NAME', 'end kernel' or a transform call 'NAME(...)')"
                            + _keyword_hint(body), span)
    _require_ascii_names(call, body, span)
    args = tuple(_literal(a, body, span) for a in call.args)
    kwargs: list[tuple[str, Any]] = []
    for kw in call.keywords:
        if kw.arg is None:
            raise FrontendError("'**' is not allowed in a translate directive", span)
        if any(kw.arg == key for key, _ in kwargs):
            raise FrontendError(f"{call.func.id}: keyword argument {kw.arg!r} is given twice",
                                span)
        kwargs.append((kw.arg, _literal(kw.value, body, span)))
    return Directive("call", call.func.id, args, tuple(kwargs), span)


#: The words that open a directive other than a transform call.
_KEYWORDS = ("kernel", "end", "endkernel", "block", "endblock", "data", "enddata", "update",
             "enter", "exit", "id", "tags", "wait")
_END_KEYWORDS = ("kernel", "block", "data")


def _keyword_hint(body: str) -> str:
    """`` (did you mean 'kernel'?)`` for a misspelled directive keyword (``kernal k``,
    ``end kernal``), else ``""``."""
    words = [w.lower() for w in re.findall(r"[A-Za-z_]\w*", body)[:2]]
    if not words:
        return ""
    if words[0] == "end" and len(words) == 2 and words[1] not in _END_KEYWORDS:
        hint = suggestion(words[1], _END_KEYWORDS)
        return hint.replace("mean '", "mean 'end ") if hint else ""
    return "" if words[0] in _KEYWORDS else suggestion(words[0], _KEYWORDS)


def _require_ascii_names(call: ast.Call, body: str, span: SourceSpan) -> None:
    """Python folds look-alike letters of names to ASCII (a full-width ``ｓplit_iname`` parses
    as ``split_iname``); a directive's names must be written as they are meant."""
    named = [(call.func, call.func.id)] + [(kw, kw.arg) for kw in call.keywords if kw.arg]
    for node, name in named:
        text = ast.get_source_segment(body, node) or name
        if not text.startswith(name):
            written = text.split("=", 1)[0].strip()
            raise FrontendError(f"name {written!r} in a translate directive is not ASCII "
                                f"(did you mean {name!r}?)", span)


def _literal(node: ast.AST, body: str, span: SourceSpan) -> Any:
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        text = ast.get_source_segment(body, node) or "?"
        raise FrontendError(f"argument {text!r} is not a Python literal (strings, numbers, "
                            "tuples, lists, dicts, True/False/None)", span) from None
    huge = _huge_integer(value)
    if huge is not None:
        raise FrontendError(f"integer {huge} in a translate directive is out of range "
                            "(pragma integers must fit in 64 bits)", span)
    return value


INT64 = (-(1 << 63), (1 << 63) - 1)


def _huge_integer(value: Any) -> int | None:
    """The first integer in `value` (nested tuples, lists, dicts) outside 64 bits, if any."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if not INT64[0] <= value <= INT64[1] else None
    items = value.items() if isinstance(value, dict) else value
    if isinstance(value, (tuple, list, set, frozenset, dict)):
        for item in items:
            for part in (item if isinstance(value, dict) else (item,)):
                found = _huge_integer(part)
                if found is not None:
                    return found
    return None


def declared_functions(calls) -> dict[str, tuple[tuple[Any, ...], Any]]:
    """Functions a region declares with ``register_function(name, definition, arg_dtypes,
    result_dtype)`` pragmas: name -> (argument dtypes, result dtype), as numpy dtypes.

    Frontends let the region call them; the transform itself registers the definition.  Bad
    arguments are left for the transform to report at the pragma.
    """
    out: dict[str, tuple[tuple[Any, ...], Any]] = {}
    for call in calls:
        if call.name != "register_function":
            continue
        params = dict(zip(("name", "definition", "arg_dtypes", "result_dtype"), call.args))
        params.update(dict(call.kwargs))
        try:
            name = params["name"]
            args = tuple(np.dtype(d) for d in params["arg_dtypes"])
            result = np.dtype(params["result_dtype"])
        except (KeyError, TypeError):
            continue
        if isinstance(name, str):
            out[name] = (args, result)
    return out


# Data directives (host code, outside kernel regions)

#: Data directive kinds and the clauses each accepts (OpenACC's vocabulary).
DATA_CLAUSES: dict[str, tuple[str, ...]] = {
    "data": ("copyin", "copyout", "copy", "create", "present"),
    "end_data": (),
    "enter_data": ("copyin", "create"),
    "exit_data": ("copyout", "delete"),
    "update": ("host", "device", "self"),
    "wait": (),
}

DATA_KINDS = frozenset(DATA_CLAUSES)


@dataclass(frozen=True, slots=True)
class DataItem:
    """One array of a data clause: its name and the section text written after it, as the
    source has it (``"(1:n)"``, ``"[0:n]"``, or ``""`` for the whole array)."""

    name: str
    section: str


@dataclass(frozen=True, slots=True)
class DataClause:
    """``action(item, ...)``; ``self`` is spelled ``host``."""

    action: str
    items: tuple[DataItem, ...]


def data_clauses(directive: Directive) -> tuple[DataClause, ...]:
    """The clauses of a data directive (kept in `Directive.args`)."""
    return tuple(a for a in directive.args if isinstance(a, DataClause))


def parse_data_directive(body: str, span: SourceSpan) -> Directive | None:
    """``data ...``, ``end data``, ``enter data ...``, ``exit data ...``, ``update ...``;
    None if `body` is none of them."""
    m = re.match(r"(end\s*data|enter\s+data|exit\s+data|data|update)(?=\s|$)(.*)$", body,
                 re.I | re.S)
    if m is None:
        return None
    kind = re.sub(r"\s+", "_", m.group(1).lower()).replace("enddata", "end_data")
    rest, queue = m.group(2).strip(), None
    if_present = False
    if kind == "update":   # update host(...) async(N): the copies go to queue N
        rest, queue = take_async(rest, span)
        # if_present: an array not on the device is left alone (h70)
        rest, n = re.subn(r"(?<![\w(])if_present(?![\w(])", " ", rest, flags=re.I)
        if_present = n > 0
    if kind == "end_data":
        if rest:
            raise FrontendError(f"malformed end data directive {body!r}: 'end data' takes no "
                                "clauses", span)
        return Directive("end_data", None, span=span)
    clauses = _data_clause_list(rest, kind, span)
    if not clauses:
        raise FrontendError(f"'{kind.replace('_', ' ')}' directive without clauses (expected "
                            f"{_clause_names(kind)})", span)
    if kind != "update":   # an update may name several sections of one array (halos)
        _check_unique_items(clauses, span)
    kwargs = (("async", queue),) if queue is not None else ()
    kwargs += (("if_present", True),) if if_present else ()
    return Directive(kind, None, tuple(clauses), kwargs, span=span)


def _clause_names(kind: str) -> str:
    return ", ".join(f"{c}(...)" for c in DATA_CLAUSES[kind] if c != "self")


def _data_clause_list(text: str, kind: str, span: SourceSpan) -> list[DataClause]:
    out: list[DataClause] = []
    pos = 0
    while pos < len(text):
        m = re.compile(rf"\s*({_IDENT})\s*\(").match(text, pos)
        if m is None:
            if not text[pos:].strip():
                break
            raise FrontendError(f"malformed data clause {text[pos:].strip()!r}: expected "
                                f"{_clause_names(kind)}", span)
        action = m.group(1).lower()
        if action not in DATA_CLAUSES[kind]:
            raise FrontendError(f"unknown clause '{m.group(1)}' in this "
                                f"'{kind.replace('_', ' ')}' directive (expected "
                                f"{_clause_names(kind)})", span)
        close = _matching(text, m.start(1), m.end() - 1, span)
        items = tuple(_data_item(part, span) for part in _split_top(text[m.end():close], span))
        out.append(DataClause("host" if action == "self" else action, items))
        pos = close + 1
        comma = re.compile(r"\s*,").match(text, pos)   # OpenACC allows commas between clauses
        pos = comma.end() if comma else pos
    return out


def _matching(text: str, start: int, open_at: int, span: SourceSpan) -> int:
    """Index of the bracket closing the one at `open_at`."""
    pairs, stack = {"(": ")", "[": "]"}, []
    for k in range(open_at, len(text)):
        ch = text[k]
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]":
            if not stack or stack.pop() != ch:
                break
            if not stack:
                return k
    raise FrontendError(f"unbalanced brackets in data clause {text[start:].strip()!r}", span)


def _split_top(text: str, span: SourceSpan) -> list[str]:
    """`text` split at commas outside brackets."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += ch in "([" and 1 or (-1 if ch in ")]" else 0)
        if ch == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    if any(not p.strip() for p in parts):
        raise FrontendError(f"empty item in data clause '({text})': expected array names "
                            "separated by commas", span)
    return parts


def _data_item(text: str, span: SourceSpan) -> DataItem:
    """An array, optionally with a section; in Fortran also a derived-type component
    (``st%u``, ``chunk%tiles(1)%field%density0``, ``g%a(1:n)``): the section is what follows
    the last component.  A Fortran COMMON block's name in slashes (``/grid/``) is kept as
    written: the Fortran frontend puts the block's arrays in its place."""
    block = re.fullmatch(rf"\s*/\s*({_IDENT})\s*/\s*", text)
    if block:
        return DataItem(f"/{block.group(1)}/", "")
    parts = [re.fullmatch(rf"\s*({_IDENT})\s*((?:[(\[].*)?)\s*", piece, re.S)
             for piece in split_outside_brackets(text, "%")]
    if any(m is None for m in parts):
        raise FrontendError(f"malformed data clause item {text.strip()!r}: expected an array "
                            "name (or a component, a%b), optionally with a section", span)
    prefix = "".join(m.group(1) + re.sub(r"\s+", "", m.group(2)) + "%" for m in parts[:-1])
    return DataItem(prefix + parts[-1].group(1), parts[-1].group(2).strip())


def split_outside_brackets(text: str, sep: str = ",") -> list[str]:
    """`text` split at each `sep` outside parentheses and square brackets."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += 1 if ch in "([" else (-1 if ch in ")]" else 0)
        if ch == sep and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    return parts + [text[start:]]


def c_section_bounds(text: str) -> tuple[tuple[str, str], ...]:
    """``[start:length]...`` -> ((start, start + length), ...); () if malformed."""
    out = []
    for part in re.findall(r"\[([^\[\]]*)\]", text):
        pieces = part.split(":")
        if len(pieces) != 2:
            return ()
        start, length = pieces[0].strip() or "0", pieces[1].strip()
        out.append((start, f"({start}) + ({length})" if length else ""))
    return tuple(out)


def fortran_section_bounds(text: str) -> tuple[tuple[str, str], ...]:
    """``(lo:hi, :, k)`` -> ((lo, hi + 1), ("", ""), (k, k + 1)); () if malformed."""
    if not (text.startswith("(") and text.endswith(")")):
        return ()
    out = []
    for part in split_outside_brackets(text[1:-1]):
        pieces = part.split(":")
        if len(pieces) == 1:
            out.append((pieces[0].strip(), f"({pieces[0].strip()}) + 1"))
        elif len(pieces) == 2:
            lo, hi = pieces[0].strip(), pieces[1].strip()
            out.append((lo, f"({hi}) + 1" if hi else ""))
        else:
            return ()
    return tuple(out)


def _check_unique_items(clauses: list[DataClause], span: SourceSpan) -> None:
    seen: set[str] = set()
    for clause in clauses:
        for item in clause.items:
            key = item.name.lower()
            if key in seen:
                raise FrontendError(f"array '{item.name}' appears twice in one data directive",
                                    span)
            seen.add(key)


@dataclass(frozen=True, slots=True)
class DataSite:
    """A data directive as the rewrite needs it: the text [start, end) it replaces, the
    indentation of the call, the call's argument expressions (four per array, in the glue's
    order) and the glue it calls (`translator.ir.glue.DataGlue`).  `procedure` encloses it."""

    glue: Any
    start: int
    end: int
    indent: str
    args: tuple[str, ...]
    procedure: str
    span: SourceSpan
    line: int
    #: Fortran: the line after which the procedure's interface block goes.
    decl_line: int = 0


def data_symbol(path: str, kind: str, line: int) -> str:
    """``translate_<file stem>_<kind>_<line>``: unique in a program whose files have distinct
    stems (C identifier characters only)."""
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0], flags=re.ASCII)
    return f"translate_{stem}_{kind}_{line}"


def data_glue(path: str, directive: Directive, span: SourceSpan, line: int,
              item_args: Callable[[DataItem], list[str]]) -> tuple[DataGlue, tuple[str, ...]]:
    """The glue of a data directive at `line` and the arguments of its call: per array of
    its clauses, what `item_args` (the language's address/extent expressions) gives."""
    items, args = [], []
    for clause in data_clauses(directive):
        for item in clause.items:
            these = item_args(item)
            items.append(DataGlueItem(name=item.name, action=clause.action,
                                      box=(len(these) - 4) // 2))
            args.extend(these)
    glue = DataGlue(symbol=data_symbol(path, directive.kind, line), kind=directive.kind,
                    where=f"{span.file}:{line}", items=tuple(items),
                    async_queue=directive_async(directive),
                    queues=dict(directive.kwargs).get("queues", ()),
                    if_present=bool(dict(directive.kwargs).get("if_present")))
    return glue, tuple(args)
