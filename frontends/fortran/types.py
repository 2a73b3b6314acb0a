"""Fortran types, symbols and scopes (procedures, modules, hosts).

Names are lower case throughout.  A `Scope` knows its declarations, its implicit typing rules,
its host (for module and internal procedures) and the modules it uses; `Scope.lookup` follows
Fortran's rules: local declarations, then use association, then host association, then
implicit typing.
"""

from __future__ import annotations

from dataclasses import field, replace

import numpy as np

from translator.diagnostics import SourceSpan, TranslatorError, UnsupportedConstructError
from translator.ir.expr import Expression
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class FType:
    """An intrinsic type and kind: base is integer, real, logical, complex or character."""

    base: str
    kind: int = 4

    @property
    def dtype(self) -> np.dtype:
        """The IR dtype; logicals are integers of their size (.true. = 1)."""
        if self.base in ("integer", "logical"):
            return np.dtype({1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[self.kind])
        if self.base == "real":
            return np.dtype({4: np.float32, 8: np.float64}[self.kind])
        if self.base == "complex":
            return np.dtype({4: np.complex64, 8: np.complex128}[self.kind])
        raise UnsupportedConstructError(f"{self.base} data is not supported yet")

    @property
    def is_numeric(self) -> bool:
        return self.base in ("integer", "real", "complex")

    def __str__(self) -> str:
        return f"{self.base}({self.kind})"


INTEGER = FType("integer", 4)
REAL = FType("real", 4)
DOUBLE = FType("real", 8)
LOGICAL = FType("logical", 4)

VALID_KINDS = {"integer": (1, 2, 4, 8), "real": (4, 8), "logical": (1, 2, 4, 8),
               "complex": (4, 8), "character": (1,)}

#: The type of a name whose declaration could not be read (`Symbol.error` says why).
UNRESOLVED = FType("unresolved", 0)


@dataclass(frozen=True, slots=True)
class UnresolvedType(FType):
    """An IMPLICIT rule's type whose kind could not be evaluated: `error` says why."""

    error: TranslatorError | None = field(default=None, compare=False)

#: Named kind constants of the intrinsic modules.
INTRINSIC_MODULE_CONSTANTS: dict[str, dict[str, int]] = {
    "iso_fortran_env": {"real32": 4, "real64": 8, "int8": 1, "int16": 2, "int32": 4,
                        "int64": 8},
    "iso_c_binding": {"c_float": 4, "c_double": 8, "c_int": 4, "c_long": 8, "c_long_long": 8,
                      "c_int32_t": 4, "c_int64_t": 8, "c_short": 2, "c_signed_char": 1,
                      "c_size_t": 8, "c_int8_t": 1, "c_int16_t": 2, "c_bool": 1},
}


@dataclass(frozen=True, slots=True)
class Dim:
    """One axis of a declared array.  kind: explicit, assumed_shape, assumed_size, deferred.

    `lower`/`upper` are expressions (already constant-folded); `upper` is None unless explicit.
    """

    kind: str
    lower: Expression | None = 1
    upper: Expression | None = None
    upper_text: str | None = None


@dataclass
class Symbol:
    """A declared (or implicitly typed) name."""

    name: str
    ftype: FType | None = None
    dims: tuple[Dim, ...] | None = None
    parameter: Expression | None = None   # value of a named constant
    #: Values of a named constant array, in array element (Fortran) order.
    parameter_values: tuple | None = None
    is_parameter: bool = False
    is_dummy: bool = False
    allocatable: bool = False
    pointer: bool = False
    #: TARGET and CONTIGUOUS attributes (a pointer may point into a TARGET; a POINTER or an
    #: assumed-shape dummy without CONTIGUOUS may be a strided view).
    target: bool = False
    contiguous: bool = False
    external: bool = False
    #: An OPTIONAL dummy argument (a region tests it with ``present``: `frontends.fortran.
    #: optionals`).
    optional: bool = False
    in_common: bool = False
    #: The other names an EQUIVALENCE statement makes share storage with this one (through
    #: other names too), and the line of the first such statement.
    equivalenced: frozenset[str] = frozenset()
    equivalence_line: int = 0
    #: The COMMON block holding it ("" for blank COMMON); None: in none.
    common_block: str | None = None
    scope: str = ""
    scope_kind: str = "local"             # local (procedure), module
    line: int = 0
    span: SourceSpan | None = None
    #: Why the declaration could not be read (a kind from a module whose source is not in
    #: reach, say): raised where a region uses the name, so that code not translated never
    #: makes a file fail.
    error: TranslatorError | None = None
    #: The derived type of a ``type(NAME)`` variable or component.
    type_name: str | None = None
    #: A derived-type component a region uses: the Fortran designator of the actual argument
    #: (``st%u``, ``chunk%tiles(1)%field%rho``); None for a plain variable.
    designator: str | None = None
    #: A component of every element of an array of derived type (``p%x`` for ``p(i)%x``):
    #: that array, whose bounds are this one's (``lbound(p%x, 1)`` is 1, not p's).
    elements_of: str | None = None
    #: An array component of every element of an array of derived type, packed on the host
    #: (`frontends.fortran.packing`): the array the call passes.
    packed: str | None = None

    @property
    def failure(self) -> TranslatorError | None:
        """Why this name cannot be used (its declaration or IMPLICIT rule was unreadable)."""
        return self.error or (self.ftype.error if isinstance(self.ftype, UnresolvedType)
                              else None)

    @property
    def actual(self) -> str:
        """The Fortran text that passes this data to the glue."""
        return self.packed or self.designator or self.name

    @property
    def is_array(self) -> bool:
        return self.dims is not None


@dataclass
class Scope:
    """A scoping unit: a module, a main program, a subroutine or a function."""

    name: str
    kind: str
    host: Scope | None = None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    implicit: dict[str, FType] | None = None    # letter -> type; None: implicit none
    implicit_declared: bool = False
    uses: list[tuple[str, dict[str, str] | None]] = field(default_factory=list)
    use_lines: dict[str, int] = field(default_factory=dict)  # module -> its first USE line
    dummies: tuple[str, ...] = ()
    result: str | None = None
    modules: dict[str, Scope] = field(default_factory=dict)  # modules of the file, by name
    #: Derived types defined here: type name -> component name -> component.
    types: dict[str, dict[str, Symbol]] = field(default_factory=dict)
    #: COMMON blocks declared here ("" for blank COMMON): their members in order.
    commons: dict[str, list[str]] = field(default_factory=dict)
    #: A module's variables its ``!$omp threadprivate`` directives name (h70).
    threadprivate: frozenset[str] = frozenset()
    line: int = 0
    end_line: int = 0

    def lookup(self, name: str) -> Symbol | None:
        """The symbol `name` denotes here (None if undeclared and not implicitly typed)."""
        sym = self.lookup_declared(name)
        if sym is not None:
            if sym.failure is not None:
                raise sym.failure
            return sym
        ftype = self.implicit_type(name)
        if ftype is None or self.kind == "module":
            return None
        if isinstance(ftype, UnresolvedType) and ftype.error is not None:
            raise ftype.error
        sym = Symbol(name=name, ftype=ftype, scope=self.name, line=self.line)
        self.symbols[name] = sym
        return sym

    def lookup_declared(self, name: str, _seen: frozenset[str] = frozenset()) -> Symbol | None:
        """The symbol declared as `name` here, in a used module or a host (`_seen`: modules
        already searched, so that modules using each other cannot recurse forever)."""
        if name in self.symbols:
            return self.symbols[name]
        for module, only in self.uses:
            if module in _seen:
                continue
            sym = self._from_module(module, only, name, _seen | {module})
            if sym is not None:
                return sym
        return self.host.lookup_declared(name, _seen) if self.host is not None else None

    def _from_module(self, module: str, only: dict[str, str] | None,
                     name: str, seen: frozenset[str]) -> Symbol | None:
        remote = name if only is None else only.get(name)
        if remote is None:
            return None
        consts = INTRINSIC_MODULE_CONSTANTS.get(module)
        if consts is not None:
            if remote in consts:
                return Symbol(name=name, ftype=INTEGER, parameter=np.int32(consts[remote]),
                              is_parameter=True, scope=module, scope_kind="module")
            return None
        scope = self.modules.get(module)
        sym = None if scope is None else scope.lookup_declared(remote, seen)
        if sym is None or remote == name:
            return sym
        # renamed (``use m, only: w => work``): here the variable is spelled `name`, which is
        # what the rewritten source must pass (a local ``work`` may be another variable)
        return replace(sym, name=name)

    def lookup_type(self, name: str, _seen: frozenset[str] = frozenset()
                    ) -> dict[str, Symbol] | None:
        """The components of derived type `name` as seen here (local, used, host)."""
        if name in self.types:
            return self.types[name]
        for module, only in self.uses:
            remote = name if only is None else only.get(name)
            scope = self.modules.get(module)
            if remote is None or scope is None or module in _seen:
                continue
            found = scope.lookup_type(remote, _seen | {module})
            if found is not None:
                return found
        return self.host.lookup_type(name, _seen) if self.host is not None else None

    def implicit_type(self, name: str) -> FType | None:
        """The implicit type of `name` here (host rules are inherited)."""
        if self.implicit_declared or self.host is None:
            table = self.implicit if self.implicit_declared else default_implicit()
            return None if table is None else table.get(name[0])
        return self.host.implicit_type(name)

    def unknown_modules(self) -> list[str]:
        """Modules this scope (or its hosts) uses that are neither intrinsic nor in the file."""
        out = [m for m, _ in self.uses
               if m not in self.modules and m not in INTRINSIC_MODULE_CONSTANTS]
        return out + (self.host.unknown_modules() if self.host is not None else [])


def default_implicit() -> dict[str, FType]:
    """Fortran's default rule: i-n integer, everything else real."""
    return {c: (INTEGER if "i" <= c <= "n" else REAL) for c in "abcdefghijklmnopqrstuvwxyz"}


def promote(a: FType, b: FType) -> FType:
    """The type of a numeric binary operation (Fortran rules: complex wins over real, real over
    integer; between reals and complexes the larger kind wins)."""
    if "complex" in (a.base, b.base):
        kinds = [t.kind for t in (a, b) if t.base in ("real", "complex")]
        return FType("complex", max(kinds))
    if a.base == "real" and b.base == "real":
        return a if a.kind >= b.kind else b
    if a.base == "real":
        return a
    if b.base == "real":
        return b
    return a if a.kind >= b.kind else b
