"""fuse_kernels: one kernel doing the work of several (loopy's `fuse_kernels`).

- Inames with the same name in several kernels stay one iname: their loops are fused.  The
  domains that define a shared iname must be the same set in every kernel (rename an iname
  first, `rename_iname`, to keep loops apart).
- Arguments with the same name are one argument; their declarations must agree.
- Temporaries are renamed per kernel (suffixes ``_0``, ``_1``, ... or `suffixes`), so each
  stays with its own statements; so are substitution rules that clash.
- Statement ids that clash get the kernel's suffix.
- Assumptions are conjoined; options come from the first kernel.
- Statements of different kernels are independent unless `data_flow` says otherwise: each
  entry ``(var, k_from, k_to)`` makes every reader of `var` in kernel `k_to` depend on every
  writer of `var` in kernel `k_from`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.expr import dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.util import FrozenDict, UniqueNameGenerator

from transforms.common import Rewriter, rewrite_statements

_WHAT = "fuse_kernels"


def fuse_kernels(kernels: Sequence[Kernel], suffixes: Sequence[str] | None = None,
                 data_flow: Sequence[tuple[str, int, int]] | None = None) -> Kernel:
    """One kernel doing the work of all of `kernels` (see the module docstring).  Its name
    joins theirs with ``_and_``.  Python API only (a pragma is inside one region)."""
    kernels = list(kernels)
    if not kernels or not all(isinstance(k, Kernel) for k in kernels):
        raise TransformError(f"{_WHAT}: expected a non-empty list of kernels, got {kernels!r}")
    suffixes = _suffixes(kernels, suffixes)
    renamed = _renamed_kernels(kernels, suffixes)
    fused = _merge(renamed, "_and_".join(k.name for k in kernels))
    return _with_data_flow(fused, renamed, data_flow or ())


def _suffixes(kernels: list[Kernel], suffixes: Sequence[str] | None) -> list[str]:
    if suffixes is None:
        return [f"_{k}" for k in range(len(kernels))]
    suffixes = list(suffixes)
    if len(suffixes) != len(kernels) or not all(isinstance(s, str) and s for s in suffixes) \
            or len(set(suffixes)) != len(suffixes):
        raise TransformError(f"{_WHAT}: suffixes must be {len(kernels)} distinct non-empty "
                             f"strings, got {suffixes!r}")
    return suffixes


def _renamed_kernels(kernels: list[Kernel], suffixes: list[str]) -> list[Kernel]:
    """Each kernel with its temporaries (always), clashing rules and statement ids renamed."""
    rule_counts: dict[str, int] = {}
    id_counts: dict[str, int] = {}
    for k in kernels:
        for n in k.substitutions:
            rule_counts[n] = rule_counts.get(n, 0) + 1
        for s in k.statements:
            id_counts[s.id] = id_counts.get(s.id, 0) + 1
    taken = set().union(*(_names(k) for k in kernels))
    gen = UniqueNameGenerator(taken)
    out = []
    for k, suffix in zip(kernels, suffixes):
        names = {n: gen(n + suffix) for n in k.temporaries}
        names.update({n: gen(n + suffix) for n in k.substitutions if rule_counts[n] > 1})
        ids = {s.id: gen(s.id + suffix) for s in k.statements if id_counts[s.id] > 1}
        out.append(_renamed(k, names, ids))
    return out


def _names(kernel: Kernel) -> set[str]:
    names = set(kernel.all_inames) | set(kernel.arg_names) | set(kernel.temporaries)
    return names | set(kernel.substitutions) | {s.id for s in kernel.statements}


def _renamed(kernel: Kernel, names: dict[str, str], ids: dict[str, str]) -> Kernel:
    if names:
        rewriter = Rewriter({o: p.Variable(n) for o, n in names.items()})
        kernel = rewrite_statements(kernel, rewriter, lambda s: True)
        rules = {names.get(n, n): replace(r, name=names.get(n, n),
                                          expression=rewriter.with_bound(r.arguments)(
                                              r.expression))
                 for n, r in kernel.substitutions.items()}
        temps = {names[n]: replace(t, name=names[n]) for n, t in kernel.temporaries.items()}
        kernel = replace(kernel, substitutions=FrozenDict(rules), temporaries=FrozenDict(temps))
    if ids:
        kernel = replace(kernel, statements=tuple(_renamed_ids(s, ids)
                                                  for s in kernel.statements))
    return kernel


def _renamed_ids(stmt: Statement, ids: dict[str, str]) -> Statement:
    return replace(stmt, id=ids.get(stmt.id, stmt.id),
                   depends_on=frozenset(ids.get(d, d) for d in stmt.depends_on),
                   no_sync_with=frozenset((ids.get(i, i), scope)
                                          for i, scope in stmt.no_sync_with))


def _merge(kernels: list[Kernel], name: str) -> Kernel:
    first = kernels[0]
    domains = list(first.domains)
    args = {a.name: a for a in first.args}
    tags = dict(first.iname_tags)
    assumptions = first.assumptions
    for k in kernels[1:]:
        for d in k.domains:
            _add_domain(domains, d)
        for a in k.args:
            have = args.setdefault(a.name, a)
            if _declaration(have) != _declaration(a):
                raise TransformError(f"{_WHAT}: argument {a.name!r} is declared differently "
                                     f"in kernels {first.name!r} ({have}) and {k.name!r} ({a})")
        for iname, t in k.iname_tags.items():
            if tags.setdefault(iname, t) != t:
                raise TransformError(f"{_WHAT}: iname {iname!r} is tagged differently in the "
                                     "kernels being fused")
        assumptions = _conjoined(assumptions, k.assumptions)
    return first.copy(
        name=name, domains=tuple(domains), args=tuple(args.values()),
        statements=tuple(s for k in kernels for s in k.statements),
        temporaries=FrozenDict({n: t for k in kernels for n, t in k.temporaries.items()}),
        substitutions=FrozenDict({n: r for k in kernels for n, r in k.substitutions.items()}),
        iname_tags=FrozenDict(tags), assumptions=assumptions,
        loop_priority=frozenset().union(*(k.loop_priority for k in kernels)))


def _declaration(arg: Any) -> Any:
    """What must agree between two declarations of one argument (not read/write flags)."""
    fields = {n: getattr(arg, n) for n in getattr(arg, "__dataclass_fields__", {})
              if n not in ("is_input", "is_output", "span")}
    return type(arg), tuple(sorted((n, repr(v)) for n, v in fields.items()))


def _add_domain(domains: list, new: Any) -> None:
    """Add `new` unless a domain with the same inames is the same set; a domain sharing some
    inames with one already there is refused (the fused loops would differ)."""
    names = set(isl_glue.inames_of(new))
    for d in domains:
        common = names & set(isl_glue.inames_of(d))
        if not common:
            continue
        if isl_glue.same_domain(d, new):
            return
        raise TransformError(f"{_WHAT}: the kernels loop over iname(s) "
                             f"{', '.join(sorted(common))} with different domains "
                             f"({isl_glue.domain_str(d)} and {isl_glue.domain_str(new)}); "
                             "rename one of them first (rename_iname)")
    domains.append(new)


def _conjoined(a: Any, b: Any) -> Any:
    if a is None or b is None:
        return a if b is None else b
    return isl_glue.intersect_params(a, b)


def _with_data_flow(fused: Kernel, parts: list[Kernel],
                    data_flow: Sequence[tuple[str, int, int]]) -> Kernel:
    extra: dict[str, set[str]] = {}
    for entry in data_flow:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 3):
            raise TransformError(f"{_WHAT}: a data_flow entry must be (variable, from_kernel, "
                                 f"to_kernel), got {entry!r}")
        var, src, dst = entry
        for k in (src, dst):
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(parts):
                raise TransformError(f"{_WHAT}: data_flow {entry!r}: {k!r} is not a kernel "
                                     f"index (0..{len(parts) - 1})")
        writers = {s.id for s in parts[src].statements if var in s.assignee_names()}
        readers = [s.id for s in parts[dst].statements if _reads(s, var)]
        if not writers or not readers:
            raise TransformError(f"{_WHAT}: data_flow {entry!r}: kernel {src} writes "
                                 f"{var!r} in {len(writers)} and kernel {dst} reads it in "
                                 f"{len(readers)} statement(s); both must be at least one")
        for r in readers:
            extra.setdefault(r, set()).update(writers)
    if not extra:
        return fused
    return replace(fused, statements=tuple(
        replace(s, depends_on=s.depends_on | (extra.get(s.id, set()) - {s.id}))
        for s in fused.statements))


def _reads(stmt: Statement, var: str) -> bool:
    return any(var in dependencies(e) for e in stmt.read_expressions())
