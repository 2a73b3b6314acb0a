"""Scopes from the fparser2 tree: declarations, named constants, array bounds, procedures.

Program units are processed in file order, so a module is known to the units after it (as
Fortran requires).  Each procedure (subroutine, function, main program; module and internal
procedures included) becomes a `Procedure`: its scope, its execution part and line ranges.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import field
from typing import Any

import numpy as np

from frontends.fortran.expressions import ExprBuilder, Layout, add_expr, cast
from frontends.fortran.source import SourceLines, children, class_name, is_comment, node_lines
from frontends.fortran.threadprivate import threadprivate_lists
from frontends.fortran.types import (DOUBLE, Dim, FType, Scope, Symbol, UNRESOLVED, UnresolvedType,
                                     VALID_KINDS, default_implicit)
from translator.diagnostics import (FrontendError, SourceSpan, TranslatorError,
                                    UnsupportedConstructError)
from translator.records import dataclass

PROCEDURE_CLASSES = ("Subroutine_Subprogram", "Function_Subprogram", "Main_Program",
                     "Main_Program0")


@dataclass
class Procedure:
    """A procedure of the file with the parts of it the frontend needs."""

    name: str
    kind: str
    scope: Scope
    node: Any
    exec_part: Any | None
    spec_part: Any | None
    first_line: int          # the SUBROUTINE/FUNCTION/PROGRAM statement
    body_last_line: int      # last line before CONTAINS or END
    end_line: int
    decl_last_line: int      # last line of the last declaration (insert interfaces after it)
    internal: list[Procedure] = field(default_factory=list)


class DeclContext:
    """Expression context for declarations: no loops; names are constants or dummies."""

    def __init__(self, scope: Scope, lines: SourceLines, line: int) -> None:
        self.scope = scope
        self.lines = lines
        self.line = line

    def loop_value(self, name: str) -> None:
        return None

    def check_name(self, name: str) -> None:
        return None

    def layout(self, sym: Symbol) -> Layout:
        raise UnsupportedConstructError(f"array inquiry of {sym.name!r} in a declaration is "
                                        "not supported", self.span(sym.name))

    def touch(self, sym: Symbol) -> None:
        return None

    def span(self, word: str | None = None) -> SourceSpan:
        return self.lines.span(self.line, word=word)

    def reduction_inames(self, bounds: Any, span: Any) -> tuple[str, ...]:
        raise UnsupportedConstructError("array reductions in declarations are not supported",
                                        self.span())


def innermost_procedure(procedures: list[Procedure], line: int) -> Procedure | None:
    """The innermost procedure whose body holds `line` (None if no body does); `procedures`
    in file order, as `build_procedures` gives them.  Of the procedures that start before
    `line`, the last one whose body reaches `line` is the innermost (bodies nest): a file of
    many procedures with a region each costs one search per region, not a pass over all."""
    for k in range(bisect_left(procedures, line, key=lambda proc: proc.first_line) - 1, -1, -1):
        if line <= procedures[k].body_last_line:
            return procedures[k]
    return None


def build_procedures(tree: Any, lines: SourceLines,
                     modules: dict[str, Scope] | None = None) -> list[Procedure]:
    """Every procedure of the file (module and internal ones included), in file order;
    `modules`: those of other files the units use, already loaded."""
    modules = {} if modules is None else modules
    out: list[Procedure] = []
    for unit in children(tree):
        name = class_name(unit)
        if name == "Module":
            _module(unit, lines, modules, out)
        elif name in PROCEDURE_CLASSES:
            out.extend(_flatten(_procedure(unit, lines, None, modules)))
    return out


def _flatten(proc: Procedure) -> list[Procedure]:
    out = [proc]
    for p in proc.internal:
        out.extend(_flatten(p))
    return out


def _module(unit: Any, lines: SourceLines, modules: dict[str, Scope],
            out: list[Procedure]) -> None:
    stmt = children(unit)[0]
    name = str(stmt.items[1]).lower()
    scope = Scope(name=name, kind="module", modules=modules, line=_first_line(stmt))
    for part in children(unit):
        if class_name(part) == "Specification_Part":
            declare(scope, part, lines)
    scope.threadprivate = _module_threadprivate(unit, lines, scope.line)
    modules[name] = scope
    for part in children(unit):
        if class_name(part) == "Module_Subprogram_Part":
            for sub in children(part):
                if class_name(sub) in PROCEDURE_CLASSES:
                    out.extend(_flatten(_procedure(sub, lines, scope, modules)))


def _module_threadprivate(unit: Any, lines: SourceLines, first: int) -> frozenset[str]:
    """The variables the ``!$omp threadprivate`` directives of module `unit`'s
    specification part name (before CONTAINS; h70)."""
    parts = [p for p in children(unit) if class_name(p) == "Module_Subprogram_Part"]
    rng = node_lines(parts[0] if parts else unit)
    last = (rng[0] - 1 if parts else rng[1]) if rng else first
    return frozenset(n for n in threadprivate_lists(lines, first, last) if "/" not in n)


def load_module(unit: Any, lines: SourceLines, modules: dict[str, Scope]) -> Scope:
    """Declare the module `unit` of another file into `modules` (its procedures are not
    needed: only a file's own procedures hold regions); returns its scope."""
    _module(unit, lines, modules, [])
    return modules[str(children(unit)[0].items[1]).lower()]


def _first_line(node: Any) -> int:
    rng = node_lines(node)
    return rng[0] if rng else 1


def _procedure(unit: Any, lines: SourceLines, host: Scope | None,
               modules: dict[str, Scope]) -> Procedure:
    parts = {class_name(c): c for c in children(unit) if c is not None}
    kind, name, dummies, result = _header(unit, parts)
    rng = node_lines(unit)
    first, end = rng if rng else (1, 1)
    scope = Scope(name=name, kind=kind, host=host, dummies=dummies, result=result,
                  modules=modules, line=first, end_line=end)
    spec = parts.get("Specification_Part")
    if spec is not None:
        declare(scope, spec, lines)
    _declare_header(scope, unit, parts, lines)
    internal_part = parts.get("Internal_Subprogram_Part")
    body_last = end - 1
    if internal_part is not None:
        body_last = _first_line(internal_part) - 1
    decl_last = _last_declaration_line(spec, first)
    proc = Procedure(name=name, kind=kind, scope=scope, node=unit,
                     exec_part=parts.get("Execution_Part"), spec_part=spec, first_line=first,
                     body_last_line=body_last, end_line=end, decl_last_line=decl_last)
    if internal_part is not None:
        for sub in children(internal_part):
            if class_name(sub) in PROCEDURE_CLASSES:
                proc.internal.append(_procedure(sub, lines, scope, modules))
    return proc


def _header(unit: Any, parts: dict[str, Any]) -> tuple[str, str, tuple[str, ...], str | None]:
    kind = {"Subroutine_Subprogram": "subroutine", "Function_Subprogram": "function"}.get(
        class_name(unit), "program")
    if kind == "program":
        stmt = parts.get("Program_Stmt")
        name = str(stmt.items[1]).lower() if stmt is not None else "main"
        return kind, name, (), None
    stmt = parts["Subroutine_Stmt" if kind == "subroutine" else "Function_Stmt"]
    name = str(stmt.items[1]).lower()
    dummies = tuple(str(a).lower() for a in children(stmt.items[2])) if stmt.items[2] else ()
    result = None
    if kind == "function":
        suffix = stmt.items[3]
        result = str(suffix.items[0]).lower() if suffix is not None and suffix.items[0] else name
    return kind, name, dummies, result


def _declare_header(scope: Scope, unit: Any, parts: dict[str, Any], lines: SourceLines) -> None:
    for d in scope.dummies:
        sym = scope.symbols.get(d)
        if sym is None:
            sym = Symbol(name=d, ftype=scope.implicit_type(d), scope=scope.name,
                         line=scope.line)
            scope.symbols[d] = sym
        sym.is_dummy = True
    if scope.kind == "function" and scope.result:
        stmt = parts["Function_Stmt"]
        sym = scope.symbols.get(scope.result)
        if sym is None:
            sym = Symbol(name=scope.result, ftype=scope.implicit_type(scope.result),
                         scope=scope.name, line=scope.line)
            scope.symbols[scope.result] = sym
        prefix = stmt.items[0]
        for item in children(prefix) if prefix is not None else ():
            if class_name(item) == "Intrinsic_Type_Spec":
                sym.ftype, sym.error = deferred_type_spec(item, scope, lines, scope.line)


def _last_declaration_line(spec: Any | None, default: int) -> int:
    last = default
    for item in children(spec) if spec is not None else ():
        for n in ([item] if class_name(item) != "Implicit_Part" else children(item)):
            if is_comment(n):
                continue
            rng = node_lines(n)
            if rng:
                last = max(last, rng[1])
    return last


# ---------------------------------------------------------------------------------------------
# declarations

@dataclass
class _Pending:
    """Array specifications, evaluated once every type is known."""

    dims: list[tuple[str, Any, int]] = field(default_factory=list)
    constant_arrays: list[tuple[str, Any, int]] = field(default_factory=list)


def declare(scope: Scope, spec: Any, lines: SourceLines) -> None:
    """Fill `scope` from a specification part."""
    pending = _Pending()
    for item in _spec_items(spec):
        handler = _DECLARATIONS.get(class_name(item))
        if handler is not None:
            handler(scope, item, lines, pending)
    for sym in scope.symbols.values():
        if sym.ftype is None and not sym.external:
            sym.ftype = scope.implicit_type(sym.name)
    for name, node, line in pending.dims:
        sym = scope.symbols[name]
        try:
            dims = array_dims(scope, node, lines, line)
        except TranslatorError as e:   # an error only where a region uses the array
            sym.error = sym.error or e
            dims = unread_dims(node)
        if sym.allocatable or sym.pointer:
            dims = tuple(Dim("deferred", None, None) for _ in dims)
        sym.dims = dims
    for name, node, line in pending.constant_arrays:
        _evaluate_constant_array(scope, scope.symbols[name], node, lines, line)


def _spec_items(spec: Any) -> list[Any]:
    out = []
    for item in children(spec):
        if class_name(item) == "Implicit_Part":
            out.extend(children(item))
        else:
            out.append(item)
    return out


def _symbol(scope: Scope, name: str, line: int, lines: SourceLines) -> Symbol:
    sym = scope.symbols.get(name)
    if sym is None:
        sym = Symbol(name=name, scope=scope.name, line=line,
                     scope_kind="module" if scope.kind == "module" else "local",
                     span=lines.span(line, word=name))
        scope.symbols[name] = sym
    return sym


def _use(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    module = str(item.items[2]).lower()
    if scope.kind == "module" and module == scope.name.lower():
        line = _first_line(item)
        raise FrontendError(f"module {scope.name!r} cannot use itself",
                            lines.span(line, word=str(item.items[2])))
    scope.use_lines.setdefault(module, _first_line(item))
    has_only = "ONLY" in str(item.items[3]).upper()
    mapping: dict[str, str] = {}
    for entry in children(item.items[4]) if item.items[4] is not None else ():
        if class_name(entry) == "Rename":
            mapping[str(entry.items[1]).lower()] = str(entry.items[2]).lower()
        else:
            mapping[str(entry).lower()] = str(entry).lower()
    if has_only or mapping:
        scope.uses.append((module, mapping))
    if not has_only:
        scope.uses.append((module, None))


def _implicit(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    scope.implicit_declared = True
    spec = item.items[0]
    if str(spec).upper() == "NONE":
        scope.implicit = None
        return
    table = scope.implicit if scope.implicit is not None else _default_table()
    line = _first_line(item)
    for entry in children(spec):
        ftype, error = deferred_type_spec(entry.items[0], scope, lines, line)
        if error is not None:   # an error only for a name of these letters a region uses
            ftype = UnresolvedType("unresolved", 0, error=error)
        for letters in children(entry.items[1]):
            lo, hi = str(letters.items[0]).lower(), str(letters.items[1] or letters.items[0])
            for c in range(ord(lo), ord(hi.lower()) + 1):
                table[chr(c)] = ftype
    scope.implicit = table


def _default_table() -> dict[str, FType]:
    return default_implicit()


def _type_declaration(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    line = _first_line(item)
    spec, attrs, entities = item.items[0], item.items[1], item.items[2]
    ftype, error = deferred_type_spec(spec, scope, lines, line)
    attr_dims = None
    flags: set[str] = set()
    for attr in children(attrs) if attrs is not None else ():
        if class_name(attr) == "Dimension_Attr_Spec":
            attr_dims = attr.items[1]
        else:
            flags.add(str(attr).split("(")[0].strip().upper())
    type_name = str(spec.items[1]).lower() if class_name(spec) == "Declaration_Type_Spec" \
        else None
    for ent in children(entities):
        name = str(ent.items[0]).lower()
        sym = _symbol(scope, name, line, lines)
        sym.ftype = ftype
        sym.error = error
        sym.type_name = type_name
        sym.allocatable |= "ALLOCATABLE" in flags
        sym.pointer |= "POINTER" in flags
        sym.target |= "TARGET" in flags
        sym.contiguous |= "CONTIGUOUS" in flags
        sym.external |= "EXTERNAL" in flags
        sym.optional |= "OPTIONAL" in flags
        shape = ent.items[1] if ent.items[1] is not None else attr_dims
        if shape is not None:
            pending.dims.append((name, shape, line))
        if "PARAMETER" in flags:
            sym.is_parameter = True
            init = ent.items[3]
            if init is not None and shape is not None:
                pending.constant_arrays.append((name, init.items[1], line))
            elif init is not None:
                # named constants precede their uses, so they are evaluated right away
                _evaluate_parameter(scope, name, init.items[1], lines, line)


def _dimension(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    line = _first_line(item)
    for name, shape in item.items[0]:
        _symbol(scope, str(name).lower(), line, lines)
        pending.dims.append((str(name).lower(), shape, line))


def _parameter(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    line = _first_line(item)
    for d in children(item.items[1]):
        name = str(d.items[0]).lower()
        sym = _symbol(scope, name, line, lines)
        sym.is_parameter = True
        _evaluate_parameter(scope, name, d.items[1], lines, line)


def _common(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    line = _first_line(item)
    for block, objects in item.items[0]:
        block_name = str(block).lower() if block is not None else ""
        members = scope.commons.setdefault(block_name, [])
        for obj in children(objects):
            if class_name(obj) == "Name":
                name, shape = str(obj).lower(), None
            else:
                name, shape = str(obj.items[0]).lower(), obj.items[1]
            sym = _symbol(scope, name, line, lines)
            sym.in_common = True
            sym.common_block = block_name
            members.append(name)
            if shape is not None:
                pending.dims.append((name, shape, line))


def _equivalence(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    """Record which names each EQUIVALENCE set makes share storage (sets chained through a
    common name are one group): a region must not treat them as separate data."""
    line = _first_line(item)
    for eq_set in children(item.items[1]):
        objects = [eq_set.items[0], *children(eq_set.items[1])]
        names = {str(o if class_name(o) == "Name" else o.items[0]).lower() for o in objects}
        syms = [_symbol(scope, name, line, lines) for name in sorted(names)]
        group = names.union(*(sym.equivalenced for sym in syms))
        for name in group:
            sym = _symbol(scope, name, line, lines)
            sym.equivalenced = frozenset(group - {name})
            sym.equivalence_line = sym.equivalence_line or line


def _attribute(flag: str):
    def handler(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
        line = _first_line(item)
        for entry in _names_in(item):
            sym = _symbol(scope, entry, line, lines)
            setattr(sym, flag, True)
    return handler


def _names_in(item: Any) -> list[str]:
    out = []
    for c in children(item):
        if class_name(c) == "Name":
            out.append(str(c).lower())
        elif c is not None and not isinstance(c, str):
            out.extend(_names_in(c) if class_name(c).endswith("_List") else [])
    return out


def _derived_type(scope: Scope, item: Any, lines: SourceLines, pending: _Pending) -> None:
    """A derived-type definition: its data components, by name (kinds and bounds are
    evaluated now: named constants precede the definition)."""
    stmt = children(item)[0]
    name = str(stmt.items[1]).lower()
    components: dict[str, Symbol] = {}
    for attr in children(stmt.items[0]) if stmt.items[0] is not None else ():
        if str(attr.items[0]).upper() == "EXTENDS":   # the parent's components come first
            components.update(scope.lookup_type(str(attr.items[1]).lower()) or {})
    for part in children(item):
        if class_name(part) != "Component_Part":
            continue
        for stmt in children(part):
            if class_name(stmt) == "Data_Component_Def_Stmt":
                _components(scope, stmt, lines, components)
    scope.types[name] = components


def _components(scope: Scope, stmt: Any, lines: SourceLines,
                components: dict[str, Symbol]) -> None:
    line = _first_line(stmt)
    spec, attrs, decls = stmt.items[0], stmt.items[1], stmt.items[2]
    ftype, error = deferred_type_spec(spec, scope, lines, line)
    type_name = str(spec.items[1]).lower() if class_name(spec) == "Declaration_Type_Spec" \
        else None
    flags, attr_dims = set(), None
    for attr in children(attrs) if attrs is not None else ():
        if class_name(attr) == "Dimension_Component_Attr_Spec":
            attr_dims = attr.items[1]
        else:
            flags.add(str(attr).split("(")[0].strip().upper())
    for decl in children(decls):
        sym = Symbol(name=str(decl.items[0]).lower(), ftype=ftype, error=error,
                     type_name=type_name, allocatable="ALLOCATABLE" in flags,
                     pointer="POINTER" in flags, scope=scope.name, line=line,
                     span=lines.span(line, word=str(decl.items[0])))
        shape = decl.items[1] if decl.items[1] is not None else attr_dims
        if shape is not None:
            try:
                sym.dims = array_dims(scope, shape, lines, line)
            except TranslatorError as e:
                sym.error = sym.error or e
                sym.dims = unread_dims(shape)
            if sym.allocatable or sym.pointer:
                sym.dims = tuple(Dim("deferred", None, None) for _ in sym.dims)
        components[sym.name] = sym


_DECLARATIONS = {
    "Derived_Type_Def": _derived_type,
    "Use_Stmt": _use, "Implicit_Stmt": _implicit, "Type_Declaration_Stmt": _type_declaration,
    "Dimension_Stmt": _dimension, "Parameter_Stmt": _parameter, "Common_Stmt": _common,
    "Equivalence_Stmt": _equivalence,
    "External_Stmt": _attribute("external"), "Allocatable_Stmt": _attribute("allocatable"),
    "Pointer_Stmt": _attribute("pointer"), "Target_Stmt": _attribute("target"),
    "Optional_Stmt": _attribute("optional"),
}


def type_spec(spec: Any, scope: Scope, lines: SourceLines, line: int) -> FType:
    """FType of an Intrinsic_Type_Spec (derived types give base 'derived')."""
    if class_name(spec) != "Intrinsic_Type_Spec":
        return FType("derived", 0)
    base = str(spec.items[0]).upper()
    if base.startswith("DOUBLE"):
        return DOUBLE if "PRECISION" in base else FType("complex", 8)
    base = base.lower()
    selector = spec.items[1]
    if base == "character":
        return FType("character", 1)
    if selector is None:
        return FType(base, 4)
    ctx = DeclContext(scope, lines, line)
    kind_node = selector.items[1]
    t = ExprBuilder(ctx).visit(kind_node)
    if not isinstance(t.expr, np.integer):
        raise FrontendError(f"kind {kind_node} is not a constant", ctx.span())
    kind = int(t.expr)
    if str(selector.items[0]) == "*" and base == "complex":
        kind //= 2
    if kind not in VALID_KINDS.get(base, ()):
        raise UnsupportedConstructError(f"{base} kind {kind} is not supported", ctx.span())
    return FType(base, kind)


def deferred_type_spec(spec: Any, scope: Scope, lines: SourceLines, line: int
                       ) -> tuple[FType, TranslatorError | None]:
    """`type_spec`, or the placeholder type and the error when the kind cannot be evaluated
    (``integer(kind=MPI_OFFSET_KIND)`` of a library module): declarations of code that is not
    translated must not make a file fail."""
    try:
        return type_spec(spec, scope, lines, line), None
    except TranslatorError as e:
        return UNRESOLVED, e


def _evaluate_parameter(scope: Scope, name: str, node: Any, lines: SourceLines,
                        line: int) -> None:
    sym = scope.symbols[name]
    if sym.dims is not None:
        return  # named constant arrays are rejected where they are used
    ctx = DeclContext(scope, lines, line)
    try:
        t = ExprBuilder(ctx).visit(node)
    except FrontendError:
        return  # e.g. a character constant: an error only if a region uses it
    if sym.ftype is None:
        sym.ftype = scope.implicit_type(name) or t.ftype
    if isinstance(t.expr, np.generic) and sym.ftype.base in ("integer", "real", "complex",
                                                             "logical"):
        try:
            sym.parameter = cast(t, sym.ftype) if sym.ftype.base != "logical" else t.expr
        except (OverflowError, ValueError):   # 1e400 for an integer, 2**70 for integer(8)
            raise FrontendError(f"the value of parameter {name!r} is out of range for "
                                f"{sym.ftype.base}({sym.ftype.kind})", ctx.span()) from None


def _evaluate_constant_array(scope: Scope, sym: Symbol, node: Any, lines: SourceLines,
                             line: int) -> None:
    """Values of a named constant array (a constructor of constants, or one scalar).  Arrays
    it cannot evaluate stay without values: an error only if a region uses them."""
    ctx = DeclContext(scope, lines, line)
    build = ExprBuilder(ctx)
    size = 1
    for dim in sym.dims or ():
        if dim.kind != "explicit" or not isinstance(dim.upper, int) \
                or not isinstance(dim.lower, int):
            return
        size *= dim.upper - dim.lower + 1
    if class_name(node) == "Intrinsic_Function_Reference" and \
            str(node.items[0]).lower() == "reshape":
        node = children(node.items[1])[0]   # values in array element order; shape from the decl
    try:
        if class_name(node) == "Array_Constructor":
            items = [build.visit(v) for v in children(node.items[1])]
        else:
            items = [build.visit(node)] * size
    except FrontendError:
        return
    if len(items) != size or sym.ftype is None or not all(
            isinstance(t.expr, np.generic) for t in items):
        return
    if sym.ftype.base not in ("integer", "real", "complex", "logical"):
        return
    sym.parameter_values = tuple(cast(t, sym.ftype) if sym.ftype.base != "logical" else t.expr
                                 for t in items)


def array_dims(scope: Scope, node: Any, lines: SourceLines, line: int) -> tuple[Dim, ...]:
    """Dims of an array spec node (explicit, assumed-shape, deferred, assumed-size)."""
    ctx = DeclContext(scope, lines, line)
    build = ExprBuilder(ctx)
    name = class_name(node)
    if name == "Assumed_Size_Spec":
        explicit, last_lower = node.items[0], node.items[1]
        dims = [_explicit(build, s) for s in children(explicit)] if explicit else []
        lower = build.visit(last_lower).expr if last_lower is not None else 1
        return tuple(dims) + (Dim("assumed_size", _index(lower), None),)
    out = []
    for spec in children(node):
        spec_name = class_name(spec)
        if spec_name == "Explicit_Shape_Spec":
            out.append(_explicit(build, spec))
        elif spec_name in ("Assumed_Shape_Spec", "Deferred_Shape_Spec"):
            lower = spec.items[0] if spec_name == "Assumed_Shape_Spec" and spec.items else None
            value = _index(build.visit(lower).expr) if lower is not None else 1
            out.append(Dim("assumed_shape", value, None))
        else:
            raise UnsupportedConstructError(f"array specification {spec} is not supported",
                                            ctx.span())
    return tuple(out)


def unread_dims(node: Any) -> tuple[Dim, ...]:
    """The dims of an array spec whose bounds could not be read (``w(size(v))``): deferred,
    with lower bound 1 where the spec gives none (an array-valued function's result takes
    its extents from where it is assigned: `frontends.fortran.inline`)."""
    return tuple(Dim("deferred", 1 if class_name(spec) == "Explicit_Shape_Spec"
                     and spec.items[0] is None else None, None) for spec in children(node))


def _explicit(build: ExprBuilder, spec: Any) -> Dim:
    lower_node, upper_node = spec.items
    lower = build.visit(lower_node).expr if lower_node is not None else 1
    upper = build.visit(upper_node)
    return Dim("explicit", _index(lower), _index(upper.expr), upper_text=str(upper_node))


def _index(e: Any) -> Any:
    """Index expressions use plain Python integers (typed constants are for values)."""
    if isinstance(e, np.integer):
        return int(e)
    return add_expr(e, 0) if e is not None else e


__all__ = ["DeclContext", "Procedure", "array_dims", "build_procedures", "declare",
           "load_module", "type_spec"]
