"""Fortran data directives (``data``/``end data``, ``enter data``, ``exit data``, ``update``):
checked against the procedure that holds them and turned into `DataSite`s for the rewrite.

Each clause item becomes four actual arguments of the directive's glue function: the array
itself (passed as ``type(*), dimension(*)``, i.e. its address), the first element and the
element count of the section (in array element order), and the element size in bytes.  A
section ``a(l1:u1, l2:u2)`` of two or more dimensions adds, per dimension, its element count
and the array's extent: the runtime moves exactly its elements (rectangular copies), into a
device buffer that spans its first to its last element.
"""

from __future__ import annotations

from dataclasses import replace

from translator.diagnostics import FrontendError, SourceSpan, warn
from frontends.fortran.components import component_of, text_parts
from frontends.fortran.regions import RawDirective, is_comment_line
from frontends.fortran.scopes import Procedure, innermost_procedure
from frontends.fortran.source import SourceLines
from frontends.fortran.types import Symbol
from frontends.pragmas import (DATA_KINDS, DataClause, DataItem, DataSite, Directive,
                               data_clauses, data_glue, parse_directive, split_outside_brackets)

_I8 = "selected_int_kind(18)"


def data_directives(directives: list[RawDirective]) -> list[tuple[RawDirective, Directive]]:
    """The data directives of a file, parsed, in order."""
    out = []
    for d in directives:
        parsed = parse_directive(d.text, d.span)
        if parsed.kind in DATA_KINDS:
            out.append((d, parsed))
    return out


def with_common_blocks(found: list[tuple[RawDirective, Directive]],
                       procedures: list[Procedure]) -> list[tuple[RawDirective, Directive]]:
    """`found` with each COMMON block named in a data clause (OpenACC ``copyin(/grid/)``)
    replaced by the arrays of that block in the directive's procedure (its scalars are passed
    to each region by value)."""
    out = []
    for raw, d in found:
        if any(item.name.startswith("/") or _structure(item, procedures, raw)
               for c in data_clauses(d) for item in c.items):
            proc = _enclosing(procedures, raw)
            args = tuple(replace(a, items=tuple(x for item in a.items
                                                for x in _block_items(item, proc, raw.span)
                                                if not _structure_item(x, proc, raw, d)))
                         if isinstance(a, DataClause) else a for a in d.args)
            d = replace(d, args=args)
        out.append((raw, d))
    return out


def _structure(item: DataItem, procedures: list[Procedure], raw: RawDirective) -> bool:
    """Whether `item` names a scalar variable of derived type (``copyin(s)`` of OpenACC's
    manual deep copy, before ``copyin(s%u)``)."""
    if item.section or text_parts(item.name.lower()) is not None or item.name.startswith("/"):
        return False
    proc = innermost_procedure(procedures, raw.line)
    sym = proc.scope.lookup_declared(item.name.lower()) if proc is not None else None
    return sym is not None and sym.type_name is not None and not sym.is_array


def _structure_item(item: DataItem, proc: Procedure, raw: RawDirective, d: Directive) -> bool:
    """A scalar of derived type in a data clause: nothing to do (each region passes the
    components it uses, which clauses name: ``copyin(s%u)``; its scalar components go by
    value), so the item is dropped; in an update, where a deep copy would be meant, an error
    naming what to write."""
    if not _structure(item, [proc], raw):
        return False
    if d.kind == "update":
        raise FrontendError(
            f"'{item.name}' in an update clause is a structure: the translator keeps its array "
            f"components on the device one by one, so name the ones to update ('{item.name}%u' "
            f"for a component u)", raw.span)
    return True


def _block_items(item: DataItem, proc: Procedure, span: SourceSpan) -> list[DataItem]:
    if not item.name.startswith("/"):
        return [item]
    block = item.name.strip("/").lower()
    members = proc.scope.commons.get(block)
    if members is None:
        raise FrontendError(f"common block {item.name} in a data clause is not declared in "
                            f"{proc.kind} {proc.name!r}", span)
    return [DataItem(name, "") for name in members
            if proc.scope.symbols[name].is_array]


def data_sites(found: list[tuple[RawDirective, Directive]], procedures: list[Procedure],
               lines: SourceLines, form: str) -> tuple[DataSite, ...]:
    """Check placement and nesting per procedure; build each directive's site."""
    sites, open_data = [], {}
    for raw, d in found:
        proc = _enclosing(procedures, raw)
        stack = open_data.setdefault(proc.name, (proc, []))[1]
        if d.kind == "data":
            stack.append(raw)
        elif d.kind == "end_data":
            if not stack:
                raise FrontendError("'end data' without a matching 'data' directive in "
                                    f"{proc.kind} {proc.name!r}", raw.span)
            stack.pop()
        sites.append(_site(raw, d, proc, lines, form))
    for proc, stack in open_data.values():
        if stack:
            raise FrontendError(f"data region not closed: no 'end data' before the end of "
                                f"{proc.kind} {proc.name!r}", stack[-1].span)
    return tuple(sites)


def _enclosing(procedures: list[Procedure], raw: RawDirective) -> Procedure:
    best = innermost_procedure(procedures, raw.line)
    if best is None:
        raise FrontendError("data directive outside a procedure body (it must be in the "
                            "executable part of a subroutine, function or main program)",
                            raw.span)
    if raw.line <= best.decl_last_line:
        raise FrontendError("data directive among declarations: put it after the last "
                            f"declaration of {best.kind} {best.name!r}", raw.span)
    return best


def _site(raw: RawDirective, d: Directive, proc: Procedure, lines: SourceLines,
          form: str) -> DataSite:
    glue, args = data_glue(lines.path, d, raw.span, raw.line,
                           lambda item: _item_args(item, proc, raw.span))
    return DataSite(glue=glue, start=lines.line_start(raw.line),
                    end=lines.line_end(raw.last_line),
                    indent=" " * 6 if form == "fixed" else raw.indent, args=args,
                    procedure=proc.name, span=raw.span, line=raw.line,
                    decl_line=proc.decl_last_line)


#: Intrinsics the generated arguments call: a local name hiding one is an error.
_INTRINSICS = ("size", "lbound", "ubound", "storage_size", "int", "selected_int_kind")


def _item_args(item: DataItem, proc: Procedure, span: SourceSpan) -> list[str]:
    """The four actual arguments of one item: array, first element, count, element size."""
    name = item.name.lower()
    for intrinsic in _INTRINSICS:
        if proc.scope.lookup_declared(intrinsic) is not None:
            raise FrontendError(f"data clauses use the intrinsic {intrinsic}(), which the name "
                                f"'{intrinsic}' declared in {proc.kind} {proc.name!r} hides; "
                                "rename it", span)
    sym = _array_symbol(name, proc, span)
    rank = len(sym.dims) if sym is not None else None
    assumed_size = sym is not None and sym.dims[-1].kind == "assumed_size"
    size = f"int(storage_size({name})/8, {_I8})"
    if not item.section:
        if assumed_size:
            raise FrontendError(f"array '{item.name}' is assumed-size: its extent is unknown; "
                                f"give a section with an upper bound, e.g. {item.name}(1:n)",
                                span)
        return [name, f"int(0, {_I8})", f"size({name}, kind={_I8})", size]
    subs = _subscripts(item, span)
    if rank is not None and len(subs) != rank:
        raise FrontendError(f"section {item.name}{item.section} has {len(subs)} subscripts but "
                            f"'{item.name}' has rank {rank}", span)
    first, last = _offsets(name, subs, assumed_size, item, span)
    hull = [name, f"int({first}, {_I8})", f"int(({last}) - ({first}) + 1, {_I8})", size]
    return hull + (_box(name, subs) if not _contiguous(subs) else [])


def _contiguous(subs: list[tuple[str | None, str | None]]) -> bool:
    """Whether the section is contiguous whatever the values: whole dimensions (``:``), then
    at most one range, then single indices (``u(:, 2:n)``, ``u(:, 2:3, k)``, ``u(1:n)``)."""
    k = 0
    while k < len(subs) and subs[k] == (None, None):
        k += 1
    return all(lo is not None and lo == hi for lo, hi in subs[k + 1:])


def _box(name: str, subs: list[tuple[str | None, str | None]]) -> list[str]:
    """Per dimension, the section's element count and the array's extent: the runtime moves
    exactly the section's elements (`translator.ir.glue.DataGlueItem.box`).  The last extent
    is never used (and unknown for an assumed-size array): its count stands for it."""
    out = []
    for d, (lo, hi) in enumerate(subs, start=1):
        lower = lo if lo is not None else f"lbound({name}, {d})"
        upper = hi if hi is not None else f"ubound({name}, {d})"
        count = f"int(max(({upper}) - ({lower}) + 1, 0), {_I8})"
        out += [count, count if d == len(subs) else f"size({name}, {d}, kind={_I8})"]
    return out


def _array_symbol(name: str, proc: Procedure, span: SourceSpan) -> Symbol | None:
    parts = text_parts(name)
    if parts is not None:
        return _component_symbol(name, parts, proc, span)
    sym = proc.scope.lookup_declared(name)
    if sym is None:
        if proc.scope.unknown_modules():
            return None      # may come from a module of another file: checked by the compiler
        raise FrontendError(f"unknown array '{name}' in a data clause (not declared in "
                            f"{proc.kind} {proc.name!r})", span)
    if not sym.is_array:
        raise FrontendError(f"'{name}' in a data clause is not an array", span)
    if sym.type_name is not None:
        raise FrontendError(
            f"'{name}' in a data clause is an array of derived type: a region passes each "
            f"component of its elements that it uses ('{name}%x' for '{name}(i)%x') as a "
            f"copy made at the call, never the device copy of '{name}'; leave it out of data "
            "clauses", span)
    return sym


def _component_symbol(name: str, parts: list, proc: Procedure, span: SourceSpan
                      ) -> Symbol | None:
    """The declaration of component `name` (``st%u``) in a data clause; None when its type
    may come from a module of another file (the compiler checks it)."""
    base = proc.scope.lookup_declared(parts[0][0])
    if base is None or (base.type_name is not None and proc.scope.unknown_modules()
                        and proc.scope.lookup_type(base.type_name) is None):
        return _array_symbol(parts[0][0], proc, span) if base is None else None
    sym = component_of(proc.scope, base, parts, span)
    if not sym.is_array:
        raise FrontendError(f"'{name}' in a data clause is not an array", span)
    return sym


def _subscripts(item: DataItem, span: SourceSpan) -> list[tuple[str | None, str | None]]:
    """(lower, upper) per subscript; a single index i is (i, i); absent bounds are None."""
    text = item.section
    if not (text.startswith("(") and text.endswith(")")):
        raise FrontendError(f"malformed section {item.name}{text}: expected "
                            f"{item.name}(lower:upper, ...)", span)
    out = []
    for part in split_outside_brackets(text[1:-1]):
        pieces = split_outside_brackets(part, ":")
        if len(pieces) > 2:
            raise FrontendError(f"section {item.name}{text}: strides are not supported in data "
                                "clauses", span)
        if any(not p.strip() and len(pieces) == 1 for p in pieces):
            raise FrontendError(f"malformed section {item.name}{text}: empty subscript", span)
        lo, hi = (pieces[0], pieces[-1])
        out.append((lo.strip() or None, hi.strip() or None))
    return out


def _offsets(name: str, subs: list[tuple[str | None, str | None]], assumed_size: bool,
             item: DataItem, span: SourceSpan) -> tuple[str, str]:
    """Fortran expressions of the first and last element's offsets (array element order)."""
    first, last = [], []
    for d, (lo, hi) in enumerate(subs, start=1):
        if hi is None and assumed_size and d == len(subs):
            raise FrontendError(f"section {item.name}{item.section}: the last extent of an "
                                "assumed-size array is unknown: give its upper bound", span)
        lb = f"lbound({name}, {d})"
        stride = "".join(f"*size({name}, {e})" for e in range(1, d))
        first.append(f"(({lo}) - {lb}){stride}" if lo is not None else None)
        last.append(f"(({hi}) - {lb}){stride}" if hi is not None
                    else f"(size({name}, {d}) - 1){stride}")
    return " + ".join(t for t in first if t) or "0", " + ".join(last)


def stale_warnings(found: list[tuple[RawDirective, Directive]], regions: list, lines: SourceLines,
                   form: str, procedures: list[Procedure] = ()) -> None:
    """``-Wstale-host-access`` warnings for the data regions of the file (see
    `frontends.stale`), following ``call`` statements into the file's `procedures`."""
    # here: the scan (with isl's section checks) loads only for a file with data directives
    from frontends.stale import (Dialect, callee, data_region_scans, fortran_calls,
                                 fortran_continues, fortran_joined, fortran_passed,
                                 fortran_writes, join_statements, scan, strip_fortran)
    code = {k: strip_fortran(lines.line(k)) for k in range(1, len(lines.lines) + 1)
            if not is_comment_line(lines.line(k), form)}
    if form != "fixed":
        code = join_statements(code, fortran_continues, fortran_joined)
    spans = [(lines.text.count("\n", 0, r.start) + 1, lines.text.count("\n", 0, r.end), r.name)
             for r in regions]
    directives = [(raw.line, d) for raw, d in found]
    dialect = Dialect(fortran_writes, str.lower, "!$translate", fortran_calls, fortran_passed)
    callees = {p.name.lower(): callee(p.name, p.scope.dummies, code, directives, spans,
                                      str.lower, p.decl_last_line + 1, p.body_last_line)
               for p in _all_procedures(procedures)}
    for region in data_region_scans(code, directives, spans, str.lower):
        for access in scan(region, dialect, callees):
            warn("stale-host-access", access.message, lines.span(access.line, word=access.name))


def check_packed_clauses(found: list[tuple[RawDirective, Directive]], regions: list,
                         procedures: list[Procedure]) -> None:
    """A data clause naming a component of one element of an array of derived type
    (``sp(2)%v``) whose component a region of the file packs (`frontends.fortran.packing`):
    the region reads and writes the host's copy, so the data region's device copy would be
    stale and copied back over the region's results.  An error at the clause."""
    packed = {pk.type_key: (pk, r.name) for r in regions for pk in getattr(r, "packings", ())}
    if not packed:
        return
    for raw, d in found:
        proc = innermost_procedure(procedures, raw.line)
        for clause in data_clauses(d) if proc is not None else ():
            for item in clause.items:
                parts = text_parts(item.name.lower())
                hit = _packed_hit(parts, proc, packed, raw.span) if parts else None
                if hit is not None:
                    pk, region = hit
                    raise FrontendError(
                        f"'{item.name}' in a data clause: region {region} copies "
                        f"'{pk.inner}' of every element of an array of type "
                        f"'{pk.type_key[0]}' into one array at its call, from and to the "
                        "host, never this device copy (which would be stale, and copied "
                        "back over the region's results); leave it out of data clauses, or, to "
                        "keep it on the device, make the region use one element at a time "
                        f"(loop over the elements of '{pk.outer}' around the region: a region "
                        f"whose '{pk.outer}' subscript is fixed passes '{item.name}' as it "
                        "is, and a data clause holds it) or keep the components in one array "
                        "of your own, named in the region and in the clause", raw.span)


def _packed_hit(parts: list, proc: Procedure, packed: dict, span: SourceSpan):
    base = proc.scope.lookup_declared(parts[0][0])
    if base is None:
        return None
    for j, (_, subs) in enumerate(parts[:-1]):
        if subs is None:
            continue
        try:
            outer = base if j == 0 else component_of(proc.scope, base, parts[:j + 1], span)
        except FrontendError:
            return None
        key = (outer.type_name or "", "%".join(n for n, _ in parts[j + 1:]))
        if key in packed:
            return packed[key]
    return None


def _all_procedures(procedures: list[Procedure]) -> list[Procedure]:
    out = []
    for p in procedures:
        out += [p, *_all_procedures(p.internal)]
    return out
