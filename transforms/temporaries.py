"""Temporaries: set_temporary_address_space, privatize_temporaries_with_inames,
alias_temporaries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import DomainError, KernelLanguageError, TransformError
from translator.ir import isl_glue
from translator.ir.data import AddressSpace, TemporaryVariable, parse_dim_tags
from translator.ir.expr import Expression, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.util import UniqueNameGenerator

from transforms.arrays import rewrite_subscripts
from transforms.common import check_iname, kernel_names, name_list, suggestion
from transforms.registry import transform


def _temporaries(kernel: Kernel, names: Any, name: str) -> list[TemporaryVariable]:
    out = []
    for n in name_list(names, name, "temporary names"):
        if n not in kernel.temporaries:
            raise TransformError(f"{name}: {n!r} is not a temporary of kernel {kernel.name!r}"
                                 + suggestion(n, kernel.temporaries))
        out.append(kernel.temporaries[n])
    return out


def procedure_locals_as_temporaries(kernel: Kernel, names: Iterable[str]) -> Kernel:
    """The kernel with each of `names` that is a procedure-local work array (an array
    argument the frontend lists in ``options.extra["private_candidates"]``: local to the
    procedure, dead after the region) turned into a temporary, so that transforms addressing
    temporaries reach it (loopy's volumeKernel puts such an array in local memory)."""
    candidates = set(kernel.options.extra.get("private_candidates", ()))
    moved = [a for a in kernel.array_args if a.name in candidates and a.name in set(names)]
    if not moved:
        return kernel
    temps = kernel.temporaries.update({a.name: TemporaryVariable(
        name=a.name, dtype=a.dtype, shape=a.shape, dim_tags=a.dim_tags,
        address_space=AddressSpace.GLOBAL, span=a.span) for a in moved})
    gone = {a.name for a in moved}
    return replace(kernel, args=tuple(a for a in kernel.args if a.name not in gone),
                   temporaries=temps)


def _with_temporaries(kernel: Kernel, new: Iterable[TemporaryVariable]) -> Kernel:
    changed = {t.name: t for t in new if kernel.temporaries[t.name] is not t}
    if not changed:
        return kernel
    return replace(kernel, temporaries=kernel.temporaries.update(changed))


def _touches(stmt: Statement, name: str) -> bool:
    return name in stmt.assignee_names() or any(
        name in dependencies(e) for e in stmt.read_expressions())


@transform()
def set_temporary_address_space(kernel: Kernel, temp_var_names: str | Iterable[str],
                                address_space: Any) -> Kernel:
    """Put temporaries in "private", "local" or "global" memory.

    Example::

        before: t: shape=(16,)
        set_temporary_address_space(knl, "t", "local")
        after:  t: shape=(16,), address_space=local
    """
    name = "set_temporary_address_space"
    try:
        space = AddressSpace.parse(address_space)
    except (KernelLanguageError, AttributeError):
        raise TransformError(f"{name}: unknown address space {address_space!r} (expected "
                             "private, local or global)") from None
    kernel = procedure_locals_as_temporaries(kernel, name_list(temp_var_names, name,
                                                               "temporary names"))
    return _with_temporaries(kernel, (
        t if t.address_space == space else replace(t, address_space=space)
        for t in _temporaries(kernel, temp_var_names, name)))


# ---------------------------------------------------------------------------------------------
# privatization


@transform()
def privatize_temporaries_with_inames(kernel: Kernel, privatizing_inames: str | Iterable[str],
                                      only_var_names: str | Iterable[str] | None = None
                                      ) -> Kernel:
    """Give each iteration of `privatizing_inames` its own entry of the temporaries written
    inside them (only `only_var_names`, if given): one new trailing axis per iname, indexed by
    ``iname - lower bound``.  Example::

        before: <> acc = 0 {inames=imatrix:i} ; acc = acc + a[imatrix, i, k]*v[k] ...
        privatize_temporaries_with_inames(knl, "imatrix")
        after:  acc[imatrix] = 0 ; acc[imatrix] = acc[imatrix] + a[imatrix, i, k]*v[k] ...
    """
    name = "privatize_temporaries_with_inames"
    priv = frozenset(name_list(privatizing_inames, name, "privatizing_inames"))
    for i in sorted(priv):
        check_iname(kernel, i, name)
    only = None
    if only_var_names is not None:
        only = {t.name for t in _temporaries(kernel, only_var_names, name)}
    wanted = _privatized(kernel, priv, only)
    if not wanted:
        return kernel
    ranges = {i: _iname_range(kernel, i, name) for i in set().union(*wanted.values())}
    for s in kernel.statements:
        for var, inames in wanted.items():
            if _touches(s, var) and not set(inames) <= s.within_inames:
                raise TransformError(
                    f"{name}: statement {s.id!r} uses {var!r}, which is privatized over "
                    f"{', '.join(inames)}, but is not inside "
                    f"{', '.join(sorted(set(inames) - s.within_inames))}", s.span)
    temps = []
    for var, inames in wanted.items():
        t = kernel.temporaries[var]
        shape = (*t.shape, *(ranges[i][1] for i in inames))
        temps.append(replace(t, shape=shape, dim_tags=parse_dim_tags("C", len(shape))))
    extra = {var: tuple(_minus(p.Variable(i), ranges[i][0]) for i in inames)
             for var, inames in wanted.items()}
    result = _with_temporaries(kernel, temps)

    def index_map(array: str, index: tuple[Expression, ...]) -> tuple[Expression, ...] | None:
        return (*index, *extra[array]) if array in extra else None

    return rewrite_subscripts(result, index_map)


def _privatized(kernel: Kernel, priv: frozenset[str], only: set[str] | None
                ) -> dict[str, tuple[str, ...]]:
    """Temporary -> the privatizing inames of its writers, in domain order."""
    order = {n: k for k, n in enumerate(n for d in kernel.domains
                                        for n in isl_glue.inames_of(d))}
    found: dict[str, set[str]] = {}
    for s in kernel.statements:
        for var in s.assignee_names():
            if var in kernel.temporaries and (only is None or var in only):
                inames = s.within_inames & priv
                if inames:
                    found.setdefault(var, set()).update(inames)
    return {v: tuple(sorted(found[v], key=order.__getitem__)) for v in sorted(found)}


def _iname_range(kernel: Kernel, iname: str, name: str) -> tuple[Expression, int]:
    """(lowest value, constant number of values) of an iname over its whole domain."""
    try:
        dom = isl_glue.combined_domain(kernel.domains, [iname])
        low, extent = isl_glue.hardware_span(dom, iname)
    except DomainError as e:
        raise TransformError(f"{name}: iname {iname!r}: {e.message}") from None
    if extent is None:
        raise TransformError(f"{name}: iname {iname!r} does not take a constant number of "
                             "values, so it cannot size a temporary")
    return low, extent


def _minus(var: p.Variable, low: Expression) -> Expression:
    if low == 0:
        return var
    if isinstance(low, int):
        return p.Sum((var, -low))
    return p.Sum((var, p.Product((-1, low))))


# ---------------------------------------------------------------------------------------------
# aliasing


@transform()
def alias_temporaries(kernel: Kernel, names: str | Iterable[str],
                      base_name_prefix: str | None = None,
                      synchronize_for_exclusive_use: bool = True) -> Kernel:
    """Back the temporaries `names` by one piece of storage (``base_storage``).

    With `synchronize_for_exclusive_use`, the statements using each temporary form a group
    that conflicts with the groups of the others, so their live ranges cannot overlap; a
    statement using two of them is an error.  Example::

        before: t1: shape=(16,) ; t2: shape=(16,)
        alias_temporaries(knl, "t1, t2")
        after:  t1: base_storage=_tr_base_storage ; t2: base_storage=_tr_base_storage
                statements using t1: groups=_tr_base_storage_t1,
                                     conflicts_grp=_tr_base_storage_t2 (and vice versa)
    """
    name = "alias_temporaries"
    temps = _temporaries(kernel, names, name)
    if not temps:
        raise TransformError(f"{name}: no temporaries given")
    aliased = [t.name for t in temps if t.base_storage is not None]
    if aliased:
        raise TransformError(f"{name}: temporary {aliased[0]!r} is already backed by "
                             f"{kernel.temporaries[aliased[0]].base_storage!r}")
    spaces = {t.address_space or AddressSpace.PRIVATE for t in temps}
    if len(spaces) > 1:
        raise TransformError(f"{name}: the temporaries live in different address spaces "
                             f"({', '.join(sorted(s.value for s in spaces))}); they cannot "
                             "share storage")
    prefix = base_name_prefix or "_tr_base_storage"
    if not isinstance(prefix, str) or not prefix.isidentifier():
        raise TransformError(f"{name}: base_name_prefix must be an identifier, got {prefix!r}")
    gen = UniqueNameGenerator(kernel_names(kernel) | {g for s in kernel.statements
                                                      for g in s.groups})
    base = gen(prefix)
    result = _with_temporaries(kernel, (replace(t, base_storage=base) for t in temps))
    if not synchronize_for_exclusive_use:
        return result
    groups = {t.name: gen(f"{base}_{t.name}") for t in temps}
    return replace(result, statements=tuple(_grouped(s, groups, name)
                                            for s in result.statements))


def _grouped(s: Statement, groups: dict[str, str], name: str) -> Statement:
    used = sorted(t for t in groups if _touches(s, t))
    if not used:
        return s
    if len(used) > 1:
        raise TransformError(f"{name}: statement {s.id!r} uses several of the temporaries "
                             f"being aliased ({', '.join(used)}); they cannot share storage",
                             s.span)
    mine = groups[used[0]]
    others = frozenset(g for g in groups.values() if g != mine)
    return replace(s, groups=s.groups | {mine}, conflicts_with_groups=(
        s.conflicts_with_groups | others))


__all__ = ["alias_temporaries", "privatize_temporaries_with_inames",
           "set_temporary_address_space"]
