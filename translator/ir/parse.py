"""`make_kernel`: the kernel language (docs/kernel-language.md) -> `Kernel`.

The pieces live in sibling modules: expressions in `parse_expr`, statement lines in
`parse_statements`, the heuristics (ids, within_inames, dependencies) in `parse_infer`,
arguments and shapes in `parse_data`.  `parse_kernel` reads `print_kernel`'s output.

Two attributes need the transform library, which `translator.ir` may not import at module
level (imports point from `transforms` to `translator.ir`): ``dup=`` calls
``transforms.duplicate_inames`` and ``dep_query=``/``nosync_query=`` use
``transforms.match.parse_match``; both are imported lazily with `importlib` when used.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from translator.diagnostics import DomainError, KernelLanguageError, SourceSpan
from translator.ir import data
from translator.ir.expr import IRStringifier
from translator.ir.isl_glue import (check_forest, inames_of, kl_as_basic_set, kl_free_names,
                                    kl_parse_assumptions, kl_unbounded_inames, parse_domain,
                                    params_of)
from translator.ir.kernel import Kernel, Options, SubstitutionRule
from translator.ir.parse_data import (Footprints, GlobalArg, TemporaryVariable, ValueArg,
                                      build_arguments, collect_data_use,
                                      infer_temporary_shape)
from translator.ir.parse_expr import parse_expression
from translator.ir.parse_infer import (RuleExpander, StatementUse, assign_ids,
                                       infer_dependencies, infer_within_inames,
                                       resolve_nosync, statement_use)
from translator.ir.parse_statements import ParsedStatement, build_statement, parse_statement_line
from translator.ir.printer import read_kernel
from translator.ir.statements import Statement
from translator.ir.util import FrozenDict

if TYPE_CHECKING:
    import islpy as isl

__all__ = ["GlobalArg", "TemporaryVariable", "ValueArg", "make_kernel", "parse_domains",
           "parse_expression", "parse_kernel"]

# ---------------------------------------------------------------------------------------------
# domains

_TEXT = IRStringifier()
_DOMAIN_FUNCTIONS = frozenset({"floor", "ceil", "min", "max", "exists", "and", "or", "not",
                               "mod"})


def parse_domains(domains, span: SourceSpan | None = None) -> tuple[isl.BasicSet, ...]:
    """A string with one or more ISL sets, or a list of strings and/or basic sets -> the
    domain forest, checked (each iname defined once, no branching, finite)."""
    single = isinstance(domains, str) or _as_basic_set(domains, span) is not None
    result: list[isl.BasicSet] = []
    for item in [domains] if single else list(domains):
        if isinstance(item, str):
            result += [_parse_one_domain(t, span) for t in split_domain_text(item, span)]
            continue
        bset = _as_basic_set(item, span)
        if bset is None:
            raise DomainError(f"a domain must be a string or an isl set, not "
                              f"{type(item).__name__}", span)
        result.append(bset)
    try:
        check_forest(result)
    except DomainError as e:
        raise e.with_span(span) from None
    for d in result:
        unbounded = kl_unbounded_inames(d)
        if unbounded:
            raise DomainError(f"domain {str(d)!r} is unbounded in iname(s) "
                              f"{', '.join(unbounded)}: every loop needs a lower and an "
                              "upper bound", span)
    return tuple(result)


def _as_basic_set(obj, span, what: str = "domain") -> isl.BasicSet | None:
    try:
        return kl_as_basic_set(obj, what)
    except DomainError as e:
        raise e.with_span(span) from None


def split_domain_text(text: str, span: SourceSpan | None = None) -> list[str]:
    """Split ``"{[i]: ...} [n] -> {[j]: ...}"`` into one text per set."""
    out, pos = [], 0
    while True:
        while pos < len(text) and (text[pos].isspace() or text[pos] == ","):
            pos += 1
        if pos >= len(text):
            return out
        m = re.compile(r"(\[[^\]]*\]\s*->\s*)?\{").match(text, pos)
        if m is None:
            raise DomainError(f"malformed domain text {text[pos:].strip()!r}: expected "
                              "'{[inames]: conditions}'", span)
        end = text.find("}", m.end())
        if end < 0:
            raise DomainError(f"malformed domain {text[pos:].strip()!r}: missing '}}'", span)
        out.append(text[pos:end + 1])
        pos = end + 1


#: Parsed domains by text (isl sets are immutable values): a kernel built again parses the
#: same domain texts.  Errors are not remembered.
_DOMAINS: dict[str, isl.BasicSet] = {}
_DOMAINS_SIZE = 1024


def _parse_one_domain(text: str, span) -> isl.BasicSet:
    found = _DOMAINS.get(text)
    if found is None:
        found = _parse_new_domain(text, span)
        if len(_DOMAINS) >= _DOMAINS_SIZE:
            _DOMAINS.clear()
        _DOMAINS[text] = found
    return found


def _parse_new_domain(text: str, span) -> isl.BasicSet:
    _check_domain_text(text, span)
    try:
        return parse_domain(text)
    except DomainError as e:
        if "call to isl" not in e.message and "isl_stream" not in e.message:
            raise DomainError(e.message.replace(f"{text!r}", f"{text.strip()!r}"), span) \
                from None
    raise DomainError(f"malformed domain {text.strip()!r}: a domain is '{{[i, j]: "
                      "conditions}}' with affine (in)equalities joined by 'and' (for example "
                      "'0 <= i < n and 0 <= j <= i')", span)


def _check_domain_text(text: str, span) -> None:
    """Friendly messages for the mistakes isl reports as a bare 'syntax error'."""
    t = text.strip()
    m = re.match(r"(?:\[([^\]]*)\]\s*->\s*)?\{\s*\[([^\]]*)\]\s*(:?)(.*)\}$", t, re.S)
    if m is None:
        raise DomainError(f"malformed domain {t!r}: expected '{{[inames]: conditions}}'", span)
    inames = [s.strip() for s in m.group(2).split(",") if s.strip()]
    bad = [n for n in inames if not n.isidentifier()]
    if bad or len(set(inames)) != len(inames):
        raise DomainError(f"malformed domain {t!r}: bad iname list [{m.group(2)}]", span)
    cond = m.group(4)
    if "==" in cond:
        raise DomainError(f"malformed domain {t!r}: write equality as '=', not '=='", span)
    call = re.search(r"\b([A-Za-z_]\w*)\s*\(", cond)
    if call and call.group(1) not in _DOMAIN_FUNCTIONS:
        raise DomainError(f"malformed domain {t!r}: function call {call.group(1)!r} is not "
                          "allowed in a loop domain", span)
    prod = re.search(r"\b([A-Za-z_]\w*)\s*\*\s*([A-Za-z_]\w*)", cond)
    if prod:
        raise DomainError(f"non-affine domain {t!r}: product "
                          f"'{prod.group(1)}*{prod.group(2)}' of two variables", span)
    if m.group(1) is not None:
        declared = {s.strip() for s in m.group(1).split(",")}
        unknown = [n for n in kl_free_names(cond) if n not in declared and n not in inames]
        if unknown:
            raise DomainError(f"domain {t!r}: unknown name {unknown[0]!r} (neither an iname "
                              f"nor a declared parameter)", span)


def _parse_assumptions(assumptions, span) -> isl.BasicSet | None:
    if assumptions is None:
        return None
    bset = _as_basic_set(assumptions, span, "assumptions")
    if bset is not None:
        return bset
    try:
        return kl_parse_assumptions(str(assumptions))
    except DomainError as e:
        raise e.with_span(span) from None


def _parse_options(options) -> Options:
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    if not isinstance(options, Mapping):
        raise KernelLanguageError(f"options must be an Options object or a dict, not "
                                  f"{type(options).__name__}")
    known = {f.name for f in fields(Options)} - {"extra"}
    extra = {k: v for k, v in options.items() if k not in known}
    return Options(**{k: v for k, v in options.items() if k in known},
                   extra=FrozenDict(sorted(extra.items())))


# ---------------------------------------------------------------------------------------------
# statements


def _instruction_items(instructions, inames: frozenset[str], span):
    items: list[ParsedStatement] = []
    rules: dict[str, SubstitutionRule] = {}
    entries = [instructions] if isinstance(instructions, (str, Statement)) else instructions
    for entry in entries:
        if isinstance(entry, Statement):
            items.append(_given(entry))
            continue
        if not isinstance(entry, str):
            raise KernelLanguageError(f"an instruction must be a string or a Statement, not "
                                      f"{type(entry).__name__}", span)
        for line in entry.split("\n"):
            line = line.split("#", 1)[0]
            if not line.strip():
                continue
            parsed = parse_statement_line(line, inames, span=span)
            if isinstance(parsed, SubstitutionRule):
                if parsed.name in rules:
                    raise KernelLanguageError(f"substitution rule {parsed.name!r} defined "
                                              "twice", span)
                rules[parsed.name] = parsed
            else:
                items.append(parsed)
    return items, rules


def _given(stmt: Statement) -> ParsedStatement:
    assignees = getattr(stmt, "assignees", None)
    if assignees is None:
        assignees = (stmt.assignee,) if hasattr(stmt, "assignee") else ()
    return ParsedStatement(
        text=stmt.id, assignees=tuple(assignees), expression=getattr(stmt, "expression", None),
        id=stmt.id, inames=stmt.within_inames or None, dep=tuple(sorted(stmt.depends_on)),
        dep_exclusive=bool(stmt.depends_on), predicates=stmt.predicates, given=stmt,
        span=stmt.span)


def _use_of(st: ParsedStatement, expander: RuleExpander) -> StatementUse:
    reads = [] if st.expression is None else [st.expression]
    reads += sorted(st.predicates, key=_TEXT)       # sorted: argument order is deterministic
    try:
        return statement_use(st.assignees, reads, expander)
    except KernelLanguageError as e:
        raise st.error(e.message) from None


# ---------------------------------------------------------------------------------------------
# kernel data


def _split_kernel_data(kernel_data):
    """-> (declared arguments, declared temporaries, whether to infer the rest)."""
    if kernel_data is None:
        return [], {}, True
    args, temps, infer_rest = [], {}, False
    for item in kernel_data:
        if isinstance(item, str) and item.strip() == "...":
            infer_rest = True
        elif isinstance(item, data.TemporaryVariable):
            temps[item.name] = item
        elif isinstance(item, (data.ArrayArg, data.ValueArg)):
            args.append(item)
        else:
            raise KernelLanguageError(f"bad kernel_data entry {item!r} (expected GlobalArg, "
                                      "ValueArg, TemporaryVariable or '...')")
    names = [a.name for a in args] + list(temps)
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise KernelLanguageError(f"kernel_data declares {', '.join(dup)} more than once")
    return args, temps, infer_rest


def _declared_temporaries(items, declared_temps, declared_args) -> tuple[dict, set[str]]:
    """Temporaries from kernel_data and from '<>' declarations, and the names of declared
    array temporaries whose shape is still to be inferred."""
    temps = dict(declared_temps)
    arrays: set[str] = set()
    where: dict[str, str] = {}
    arg_names = {a.name for a in declared_args}
    for st in items:
        for name, dtype, is_array in st.temp_decls:
            if name in temps:
                first = where.get(name, "kernel_data")
                raise st.error(f"temporary {name!r} declared twice (also in {first!r})")
            if name in arg_names:
                raise st.error(f"temporary {name!r} is also declared as an argument")
            where[name] = st.id
            temps[name] = data.TemporaryVariable(name=name, dtype=dtype, span=st.span)
            if is_array:
                arrays.add(name)
    return temps, arrays


def _temporary_shapes(temps: dict, arrays: set[str], accesses, fp: Footprints) -> dict:
    out = {}
    for name, tv in temps.items():
        if name in arrays:
            shape = infer_temporary_shape(name, accesses.get(name, []), fp)
            tv = data.TemporaryVariable(name=name, dtype=tv.dtype, shape=shape, span=tv.span)
        out[name] = tv
    return out


# ---------------------------------------------------------------------------------------------
# make_kernel


def make_kernel(domains, instructions, kernel_data=None, *, name: str = "kernel",
                assumptions=None, seq_dependencies: bool = False, target: Any = None,
                lang_version: Any = None, options=None,
                span: SourceSpan | None = None) -> Kernel:
    """Build a kernel from the kernel language (docs/kernel-language.md).

    - `domains`: ISL set text (one or several sets, ``[n] -> {...}`` allowed), or a list of
      strings and/or islpy basic sets, forming the domain forest.
    - `instructions`: statement text (one per line, ``#`` comments) or a list of strings and
      `Statement` objects.  Objects with empty `within_inames`/`depends_on` get them from the
      heuristics, like text statements without ``inames=``/``dep=*``.
    - `kernel_data`: `GlobalArg`/`ValueArg`/`TemporaryVariable` (or IR data objects) and
      ``"..."`` to infer the remaining arguments; None infers all.  Domain parameters always
      become value arguments.  Argument order: declared, then first appearance, then params.
    - `assumptions`: ``"n >= 1"``, ``"[n] -> { : n >= 1 }"`` or an isl basic set.
    - `options`: an `Options` object or a dict (unknown keys go to ``Options.extra``).
    - `target`, `lang_version`: accepted for compatibility and ignored (one target: OpenCL).
    """
    doms = parse_domains(domains, span)
    all_inames = frozenset(n for d in doms for n in inames_of(d))
    items, rules = _instruction_items(instructions, all_inames, span)
    items = assign_ids(items)
    decl_args, decl_temps, infer_rest = _split_kernel_data(kernel_data)
    temps, temp_arrays = _declared_temporaries(items, decl_temps, decl_args)
    expander = RuleExpander(rules)
    uses = {st.id: _use_of(st, expander) for st in items}
    params = _domain_params(doms, all_inames)
    _check_names(items, uses, all_inames, params, decl_args, temps, rules)
    iname_params = _iname_params(doms, all_inames | set(temps))
    within = infer_within_inames(items, uses, all_inames, iname_params, frozenset(temps))
    bound_reads = {sid: frozenset(n for i in inames for n in iname_params.get(i, ())
                                  if n in temps) for sid, inames in within.items()}
    deps = infer_dependencies(items, uses, seq_dependencies, bound_reads)
    nosync = resolve_nosync(items)
    statements = tuple(build_statement(st, within[st.id], deps[st.id], nosync[st.id])
                       for st in items)
    fp = Footprints(doms, opaque=temps)
    _check_forest_use(items, uses, within, fp)
    use = collect_data_use(items, uses, within)
    try:
        temps = _temporary_shapes(temps, temp_arrays, use.accesses, fp)
        args = build_arguments(decl_args, infer_rest, use,
                               all_inames | set(temps) | set(rules), params, fp)
    except KernelLanguageError as e:
        raise e.with_span(span) from None
    kernel = Kernel(name=name, domains=doms, statements=statements, args=args,
                    temporaries=FrozenDict(temps), assumptions=_parse_assumptions(assumptions,
                                                                                  span),
                    substitutions=FrozenDict(rules), options=_parse_options(options), span=span)
    kernel = _apply_queries(kernel, items)
    return _apply_dup(kernel, items)


def _domain_params(doms: Sequence[isl.BasicSet], inames: frozenset[str]) -> list[str]:
    found: dict[str, None] = {}
    for d in doms:
        found.update(dict.fromkeys(n for n in params_of(d) if n not in inames))
    return list(found)


def _iname_params(doms, names: Iterable[str]) -> dict[str, frozenset[str]]:
    """iname -> the parameters of its domain that are inames or temporaries."""
    names = set(names)
    out = {}
    for d in doms:
        prm = frozenset(params_of(d)) & names
        for iname in inames_of(d):
            out[iname] = prm
    return out


def _check_names(items, uses, inames, params, decl_args, temps, rules) -> None:
    clash = sorted(({a.name for a in decl_args} | set(temps) | set(rules)) & inames)
    if clash:
        raise KernelLanguageError(f"{clash[0]!r} is an iname and cannot also be a variable "
                                  "or a substitution rule")
    for st in items:
        written = sorted(set(uses[st.id].writes) & inames)
        if written:
            raise st.error(f"cannot assign to iname {written[0]!r}")
    known = (inames | set(params) | {a.name for a in decl_args} | set(temps) | set(rules)
             | {n for u in uses.values() for n in u.writes}
             | {acc.name for u in uses.values() for acc in u.accesses})
    for st in items:
        unknown = sorted(uses[st.id].index_names - known)
        if unknown:
            raise st.error(f"undefined name {unknown[0]!r} in a subscript: not an iname, a "
                           "domain parameter or a declared variable (declare scalars with "
                           f"ValueArg({unknown[0]!r}))", DomainError)


def _check_forest_use(items, uses, within, fp: Footprints) -> None:
    """Each statement's inames must select a non-branching part of the domain forest."""
    for st in items:
        try:
            fp.domain(within[st.id] | uses[st.id].reduction_inames)
        except DomainError as e:
            raise st.error(e.message, DomainError) from None


def _apply_queries(kernel: Kernel, items: Sequence[ParsedStatement]) -> Kernel:
    queries = {st.id: st for st in items if st.dep_query or st.nosync_query}
    if not queries:
        return kernel
    parse_match = _lazy("transforms.match", "parse_match", "dep_query=/nosync_query=")
    new = []
    for s in kernel.statements:
        st = queries.get(s.id)
        if st is not None:
            s = _with_queries(kernel, s, st, parse_match)
        new.append(s)
    return kernel.copy(statements=tuple(new))


def _with_queries(kernel: Kernel, s: Statement, st: ParsedStatement, parse_match) -> Statement:
    def matching(text: str) -> set[str]:
        match = parse_match(text)
        return {o.id for o in kernel.statements if o.id != s.id and match(kernel, o)}

    deps = set(s.depends_on) | (matching(st.dep_query) if st.dep_query else set())
    nosync = set(s.no_sync_with)
    for text, scope in st.nosync_query:
        nosync |= {(i, scope) for i in matching(text)}
    return replace(s, depends_on=frozenset(deps), no_sync_with=frozenset(nosync))


def _apply_dup(kernel: Kernel, items: Sequence[ParsedStatement]) -> Kernel:
    requests = [(st.id, old, new) for st in items for old, new in st.dup]
    if not requests:
        return kernel
    duplicate_inames = _lazy("transforms", "duplicate_inames", "dup=")
    for sid, old, new in requests:
        if old not in kernel.statement(sid).within_inames:
            raise DomainError(f"statement {sid!r}: dup={old!r} names an iname the "
                                      "statement is not within", kernel.statement(sid).span)
        kernel = duplicate_inames(kernel, old, within=f"id:{sid}",
                                  new_inames=None if new is None else [new])
    return kernel


def _lazy(module: str, attr: str, what: str):
    """`module.attr`, imported on first use (translator.ir may not import transforms)."""
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        raise KernelLanguageError(f"{what} needs {attr} ({module}.{attr}), which is not "
                                  "available") from None


def parse_kernel(text: str) -> Kernel:
    """Read the output of `translator.ir.printer.print_kernel` back into a `Kernel`."""
    return read_kernel(text)
