"""C types as the frontend needs them: numpy dtypes, array dims, typedefs, constants, and the
usual arithmetic conversions (C11 6.3.1.8) on an LP64 target (long and long long are 64-bit).
"""

from __future__ import annotations

from dataclasses import field, replace
from fractions import Fraction

import numpy as np
from pycparser import c_ast

from translator.diagnostics import UnsupportedConstructError
from translator.records import dataclass

INT32 = np.dtype(np.int32)
UINT32 = np.dtype(np.uint32)
INT64 = np.dtype(np.int64)
UINT64 = np.dtype(np.uint64)
FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)

BASE_TYPES = {
    ("char",): np.int8, ("signed", "char"): np.int8, ("unsigned", "char"): np.uint8,
    ("short",): np.int16, ("unsigned", "short"): np.uint16,
    ("int",): np.int32, ("unsigned",): np.uint32,
    ("long",): np.int64, ("unsigned", "long"): np.uint64,
    ("long", "long"): np.int64, ("unsigned", "long", "long"): np.uint64,
    ("float",): np.float32, ("double",): np.float64, ("_Bool",): np.bool_,
}


@dataclass(frozen=True)
class CType:
    """A C object type.  kind: "scalar", "pointer" (to a scalar), "array" (dims outermost
    first; a None dim is unknown, as in ``double a[][m]`` or ``double (*a)[m]``), or "other"
    (structs, pointers to pointers, ...: `description` names it)."""

    kind: str
    dtype: np.dtype | None = None
    dims: tuple[c_ast.Node | int | None, ...] = ()
    restrict: bool = False
    const: bool = False
    description: str = ""
    #: The element type as the source spells it ("long", "unsigned int", a typedef name), for
    #: declarations of the glue that must match the caller's pointers exactly.
    spelling: str = ""
    #: An array of (or pointer to) structs of numbers (`Record`): their layout.  The
    #: array is seen as an array of `dtype` (its first member's type) with one more, last
    #: axis of ``record.size // dtype.itemsize`` elements (``p[i].x`` is ``p[i, k]``); also
    #: set, with kind "other", on a struct type itself.
    record: Record | None = None

    @property
    def is_scalar(self) -> bool:
        return self.kind == "scalar"

    @property
    def is_buffer(self) -> bool:
        return self.kind in ("pointer", "array")


@dataclass(frozen=True)
class Record:
    """The layout of a struct whose members are all numbers, computed by the x86-64 (LP64)
    rules: each member at the next multiple of its size, the whole rounded up to the largest
    one.  The rewritten source checks it against the compiler's, at compile time, on
    ``sizeof`` and ``__builtin_offsetof`` (`Record.checks`), so a layout it gets wrong stops
    the build instead of reading the wrong bytes."""

    name: str
    size: int
    #: (member, type, byte offset, extents: () for a number, ``(3,)`` for ``double x[3]``)
    #: in declaration order.
    members: tuple[tuple[str, np.dtype, int, tuple[int, ...]], ...]

    def member(self, name: str) -> tuple[np.dtype, int, tuple[int, ...]] | None:
        for member, dtype, offset, dims in self.members:
            if member == name:
                return dtype, offset, dims
        return None

    def checks(self, element: str, label: str) -> str:
        """A check of this layout that fails to compile where the compiler lays the struct
        out otherwise, `element` being a C lvalue of the struct type (``p[0]``): an array
        type of negative size named after `label` (an identifier), which every C dialect
        reports by that name (glibc's ``_Static_assert`` macro before C11 drops messages)."""
        typ = f"__typeof__({element})"
        conds = [f"sizeof({element}) == {self.size}"]
        conds += [f"__builtin_offsetof({typ}, {m}) == {off}" for m, _, off, _ in self.members]
        return (f"typedef char {label}[({' && '.join(conds)}) ? 1 : -1] "
                "__attribute__((unused));")


#: The C spelling of each type a struct member may have (for the glue's declarations).
C_SPELLING = {np.dtype(t): " ".join(k) for k, t in BASE_TYPES.items()
              if k not in (("long", "long"), ("unsigned", "long", "long"))}


def _names_key(names: list[str]) -> tuple[str, ...]:
    words = [n for n in names if n not in ("signed", "int") or names == [n]]
    if "signed" in names and words == ["char"]:
        return ("signed", "char")
    if names.count("long") == 2:
        words = [w for w in words if w != "long"] + ["long", "long"]
    if "unsigned" in words:
        words = ["unsigned"] + [w for w in words if w != "unsigned"]
    if not words or words == ["signed"]:
        return ("int",)
    return tuple(words)


@dataclass
class FileScope:
    """File-level facts: typedefs, enumeration constants, file-scope declarations."""

    typedefs: dict[str, c_ast.Node] = field(default_factory=dict)
    enum_values: dict[str, int] = field(default_factory=dict)
    globals: dict[str, c_ast.Decl] = field(default_factory=dict)
    #: The members of each struct defined at file scope, by tag.
    structs: dict[str, list[c_ast.Decl]] = field(default_factory=dict)
    #: The struct tags being resolved (a struct that points to its own kind).
    _open_structs: set[str] = field(default_factory=set)

    @classmethod
    def from_ast(cls, tree: c_ast.FileAST) -> FileScope:
        scope = cls()
        for ext in tree.ext:
            if isinstance(ext, (c_ast.Typedef, c_ast.Decl)):
                scope._add_structs(ext.type)
            if isinstance(ext, c_ast.Typedef):
                scope.typedefs[ext.name] = ext.type
            elif isinstance(ext, c_ast.Decl):
                scope._add_enums(ext.type)
                if ext.name and not isinstance(ext.type, c_ast.FuncDecl):
                    scope.globals[ext.name] = ext
        return scope

    def _add_structs(self, node: c_ast.Node | None) -> None:
        while isinstance(node, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl)):
            node = node.type
        if isinstance(node, c_ast.Struct) and node.name and node.decls is not None:
            self.structs[node.name] = node.decls
            for decl in node.decls:
                self._add_structs(decl.type)

    def _add_enums(self, node: c_ast.Node) -> None:
        enum = node.type if isinstance(node, c_ast.TypeDecl) else node
        if not isinstance(enum, c_ast.Enum) or enum.values is None:
            return
        value = -1
        for e in enum.values.enumerators:
            given = None if e.value is None else self.constant_value(e.value)
            value = given if given is not None else value + 1
            self.enum_values[e.name] = value

    # -- types ---------------------------------------------------------------------------

    def resolve(self, node: c_ast.Node, quals: tuple[str, ...] = ()) -> CType:
        """The CType of a declaration's type node."""
        if isinstance(node, c_ast.TypeDecl):
            return self._resolve_base(node.type, tuple(node.quals or ()) + quals)
        if isinstance(node, c_ast.ArrayDecl):
            inner = self.resolve(node.type)
            # a parameter `double a[restrict n]` is a restrict pointer (C99 6.7.5.3)
            restrict = "restrict" in (node.dim_quals or ())
            if inner.kind == "scalar":
                return CType("array", inner.dtype, (node.dim,), restrict=restrict,
                             const=inner.const, spelling=inner.spelling)
            if inner.kind == "array":
                return CType("array", inner.dtype, (node.dim, *inner.dims), restrict=restrict,
                             const=inner.const, spelling=inner.spelling, record=inner.record)
            if inner.record is not None:
                return _records(inner, node.dim, restrict)
            return CType("other", description=f"array of {inner.description or inner.kind}")
        if isinstance(node, c_ast.PtrDecl):
            return self._resolve_pointer(node)
        if isinstance(node, c_ast.FuncDecl):
            return CType("other", description="function")
        return CType("other", description=type(node).__name__)

    def _resolve_pointer(self, node: c_ast.PtrDecl) -> CType:
        inner = self.resolve(node.type)
        restrict = "restrict" in (node.quals or ())
        if inner.kind == "scalar":
            return CType("pointer", inner.dtype, restrict=restrict, const=inner.const,
                         spelling=inner.spelling)
        if inner.kind == "array" and None not in inner.dims:
            return CType("array", inner.dtype, (None, *inner.dims), restrict=restrict,
                         const=inner.const, spelling=inner.spelling, record=inner.record)
        if inner.record is not None:
            return _records(inner, None, restrict)
        if inner.kind == "pointer":
            return CType("other", description="pointer to pointer")
        return CType("other", description=f"pointer to {inner.description}")

    def _resolve_base(self, node: c_ast.Node, quals: tuple[str, ...]) -> CType:
        const = "const" in quals
        if isinstance(node, c_ast.IdentifierType):
            names = list(node.names)
            if len(names) == 1 and names[0] in self.typedefs:
                t = self.resolve(self.typedefs[names[0]])
                if t.record is not None:   # the struct keeps its members' spelling
                    return CType(t.kind, t.dtype, t.dims, t.restrict, t.const or const,
                                 t.description, t.spelling, replace(t.record, name=names[0]))
                return CType(t.kind, t.dtype, t.dims, t.restrict, t.const or const,
                             t.description, spelling=names[0])
            if "void" in names:
                return CType("other", description="void")
            if "double" in names and "long" in names:
                return CType("other", description="long double")
            key = _names_key(names)
            if key not in BASE_TYPES:
                return CType("other", description=" ".join(names))
            return CType("scalar", np.dtype(BASE_TYPES[key]), const=const,
                         spelling=" ".join(key))
        if isinstance(node, c_ast.Enum):
            self._add_enums(node)
            return CType("scalar", INT32, const=const)
        if isinstance(node, c_ast.Struct):
            return self._struct(node, const)
        if isinstance(node, c_ast.Union):
            return CType("other", description=f"union {node.name or '(anonymous)'}")
        return CType("other", description=type(node).__name__)

    def _struct(self, node: c_ast.Struct, const: bool) -> CType:
        """A struct type: with its `Record` where every member is a number, else with the
        reason it has none in its description."""
        shown = f"struct {node.name or '(anonymous)'}"
        decls = node.decls if node.decls is not None else self.structs.get(node.name or "")
        if not decls or _struct_key(node) in self._open_structs:
            return CType("other", description=shown)
        members, offset, size = [], 0, 1
        for decl in decls:
            t = self._member_type(node, decl)
            if t is not None and t.kind == "other" and t.record is not None:
                # a member struct: its members, flattened (``pos.x``), at its offset
                inner = t.record
                align = max(d.itemsize for _, d, _, _ in inner.members)
                offset = -(-offset // align) * align
                members += [(f"{decl.name}.{m}", d, offset + o, e) for m, d, o, e in
                            inner.members]
                offset += inner.size
                size = max(size, align)
                continue
            dims = self._member_extents(t)
            if dims is None:
                return CType("other", description=f"{shown} (its member "
                             f"'{decl.name or '(unnamed)'}' is {_member_kind(decl, t)}; only "
                             "structs whose members are numbers, arrays of numbers of "
                             "constant extents or such structs can be used in a region)")
            itemsize = t.dtype.itemsize
            offset = -(-offset // itemsize) * itemsize
            members.append((decl.name, t.dtype, offset, dims))
            offset += itemsize * int(np.prod(dims, dtype=np.int64))
            size = max(size, itemsize)
        record = Record(shown, -(-offset // size) * size, tuple(members))
        return CType("other", const=const, description=shown, record=record)

    def _member_extents(self, t: CType | None) -> tuple[int, ...] | None:
        """The extents of a struct member that is a number (``()``) or an array of numbers
        of positive constant extents; None for another member."""
        if t is None or t.kind not in ("scalar", "array") or t.record is not None:
            return None
        dims = tuple(d if isinstance(d, int) else self.constant_value(d) for d in t.dims)
        return dims if all(d is not None and d > 0 for d in dims) else None

    def _member_type(self, struct: c_ast.Struct, decl: c_ast.Decl) -> CType | None:
        if not decl.name or decl.bitsize is not None:
            return None
        self._open_structs.add(_struct_key(struct))
        try:
            return self.resolve(decl.type)
        finally:
            self._open_structs.discard(_struct_key(struct))

    def typename_dtype(self, node: c_ast.Typename, span=None) -> np.dtype:
        """The dtype of a cast's or sizeof's type name (scalars only)."""
        t = self.resolve(node.type)
        if t.kind != "scalar":
            raise UnsupportedConstructError(
                f"cast to {t.description or t.kind} is not supported in a region", span)
        return t.dtype

    # -- integer constant expressions ----------------------------------------------------

    def constant_value(self, node: c_ast.Node | None) -> int | None:
        """The value of an integer constant expression, or None if it is not one."""
        try:
            value = self._const(node)
        except (ZeroDivisionError, TypeError, ValueError):
            return None
        return int(value) if isinstance(value, int) else None

    def _const(self, node: c_ast.Node | None):
        if isinstance(node, c_ast.Constant):
            value, _ = parse_constant(node)
            return value
        if isinstance(node, c_ast.ID):
            return self.enum_values.get(node.name)
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                return self._sizeof(node.expr)
            v = self._const(node.expr)
            return None if v is None else _UNARY.get(node.op, lambda x: None)(v)
        if isinstance(node, c_ast.BinaryOp):
            a, b = self._const(node.left), self._const(node.right)
            if a is None or b is None:
                return None
            return _binary_const(node.op, a, b)
        if isinstance(node, c_ast.TernaryOp):
            c = self._const(node.cond)
            return None if c is None else self._const(node.iftrue if c else node.iffalse)
        if isinstance(node, c_ast.Cast):
            v = self._const(node.expr)
            t = self.resolve(node.to_type.type)
            if v is None or t.kind != "scalar" or t.dtype.kind not in "iu":
                return None
            return int(np.array(v).astype(t.dtype))
        return None

    def _sizeof(self, node: c_ast.Node):
        if isinstance(node, c_ast.Typename):
            t = self.resolve(node.type)
            if t.kind == "scalar":
                return t.dtype.itemsize
            if t.kind == "pointer":
                return 8
        return None


def _records(struct: CType, dim, restrict: bool) -> CType:
    """An array of (``dim``: None, a pointer to) structs of `struct`'s record: an array of its
    first member's type with a last axis over the struct's bytes."""
    dtype = struct.record.members[0][1]
    return CType("array", dtype, (dim, struct.record.size // dtype.itemsize),
                 restrict=restrict, const=struct.const, spelling=C_SPELLING[dtype],
                 record=struct.record)


def _struct_key(node: c_ast.Struct) -> str:
    """A struct type's name for `FileScope._open_structs` (an anonymous one cannot refer to
    itself: its node)."""
    return node.name or f"#{id(node)}"


def _member_kind(decl: c_ast.Decl, t: CType | None) -> str:
    """What a struct member that is not a number is, for a message."""
    if decl.bitsize is not None:
        return "a bit-field"
    if t is None:
        return "an unnamed member"
    if t.kind == "array":
        return ("an array of structs" if t.record is not None
                else "an array whose extents are not constants")
    what = "pointer" if t.kind == "pointer" else t.description or t.kind
    return ("an " if what[0] in "aeiou" else "a ") + what


_UNARY = {"-": lambda x: -x, "+": lambda x: x, "~": lambda x: ~x, "!": lambda x: int(not x)}


def _binary_const(op: str, a, b):
    if op == "/":
        if not (isinstance(a, int) and isinstance(b, int)):
            return a / b
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    if op == "%":
        return a - b * _binary_const("/", a, b)
    ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
           "<<": lambda: a << b, ">>": lambda: a >> b, "&": lambda: a & b, "|": lambda: a | b,
           "^": lambda: a ^ b, "<": lambda: int(a < b), "<=": lambda: int(a <= b),
           ">": lambda: int(a > b), ">=": lambda: int(a >= b), "==": lambda: int(a == b),
           "!=": lambda: int(a != b), "&&": lambda: int(bool(a and b)),
           "||": lambda: int(bool(a or b))}
    return ops[op]() if op in ops else None


# ---------------------------------------------------------------------------------------------
# literals

def parse_constant(node: c_ast.Constant) -> tuple[int | float, np.dtype]:
    """Value and C type of a literal (C11 6.4.4): integer, floating or character."""
    text = node.value
    if node.type == "string":
        raise ValueError("string literal")
    try:
        if node.type == "char" or text.startswith("'"):
            return _char_value(text), INT32
        if node.type in ("float", "double", "long double") or _is_float_text(text):
            return _float_literal(text)
        return _int_literal(text)
    except ValueError as err:
        if str(err).startswith(("long double", "integer literal")):
            raise
        raise ValueError(f"malformed literal {text}") from None


def _is_float_text(text: str) -> bool:
    low = text.lower()
    if low.startswith("0x"):
        return "p" in low
    return any(c in low for c in ".e")


def _float_literal(text: str) -> tuple[float, np.dtype]:
    low = text.lower()
    suffix = low[-1] if low[-1] in "fl" else ""
    body = low[:-1] if suffix else low
    if suffix == "l":
        raise ValueError(f"long double literal {text} is not supported: OpenCL C has no long "
                         "double")
    if suffix == "f":   # rounded once from the decimal, as gcc does (not through a double)
        return float(_rounded(_exact(body), *_FLOAT_BITS)), FLOAT32
    return float.fromhex(body) if body.startswith("0x") else float(body), FLOAT64


#: Significant bits, the exponent of the least subnormal and the first power of two past the
#: largest finite value: float, x86-64 long double.
_FLOAT_BITS = (24, -149, 128)
_LONG_DOUBLE_BITS = (64, -16445, 16384)


def long_double_literal_as(text: str, dtype: np.dtype) -> float | None:
    """The value of the long double literal `text` (``2.2e-16L``, as <float.h>'s
    ``DBL_EPSILON`` spells it inside ``(double)``) converted to `dtype` (float32 or float64):
    rounded to x86-64's long double first, then to `dtype`, as gcc computes it.  None for
    another literal or type."""
    low = text.lower()
    if not low.endswith("l") or not _is_float_text(low[:-1]) or dtype.kind != "f":
        return None
    wide = _rounded(_exact(low[:-1]), *_LONG_DOUBLE_BITS)
    return float(_rounded(wide, *_FLOAT_BITS)) if dtype == FLOAT32 else _to_double(wide)


def _exact(body: str) -> Fraction:
    """The exact value of a floating literal's digits (decimal or hexadecimal)."""
    if not body.startswith("0x"):
        return Fraction(body)
    mantissa, _, exponent = body[2:].partition("p")
    whole, _, frac = mantissa.partition(".")
    return Fraction(int(whole + frac or "0", 16), 16 ** len(frac)) * Fraction(2) ** int(exponent)


def _rounded(x: Fraction | float, bits: int, least: int, top: int) -> Fraction | float:
    """`x` rounded to nearest, ties to even, with `bits` significant bits and no bit below
    2**least (subnormals); a value past the format's largest finite one is infinite."""
    if x == 0 or not isinstance(x, Fraction):   # zero or infinite already
        return x
    e = x.numerator.bit_length() - x.denominator.bit_length()
    e += Fraction(2) ** (e + 1) <= abs(x)
    e -= Fraction(2) ** e > abs(x)
    quantum = Fraction(2) ** max(e - bits + 1, least)
    result = round(x / quantum) * quantum
    return result if abs(result) < Fraction(2) ** top else float("inf") * (1 if x > 0 else -1)


def _to_double(x: Fraction | float) -> float:
    try:
        return float(x)
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def _int_literal(text: str) -> tuple[int, np.dtype]:
    low = text.lower()
    body = low.rstrip("ul")
    suffix = low[len(body):]
    if body.startswith("0x"):
        value = int(body, 16)
    elif body.startswith("0b"):
        value = int(body, 2)
    elif len(body) > 1 and body.startswith("0"):
        value = int(body, 8)
    else:
        value = int(body)
    unsigned = "u" in suffix
    longs = suffix.count("l")
    decimal = not body.startswith("0") or body == "0"
    return value, _int_literal_type(value, unsigned, longs, decimal)


def _int_literal_type(value: int, unsigned: bool, longs: int, decimal: bool) -> np.dtype:
    candidates = []
    if longs == 0:
        candidates += [UINT32] if unsigned else ([INT32] if decimal else [INT32, UINT32])
    candidates += [UINT64] if unsigned else ([INT64] if decimal else [INT64, UINT64])
    for dt in candidates:
        info = np.iinfo(dt)
        if info.min <= value <= info.max:
            return dt
    raise ValueError(f"integer literal {value} is too large for any C integer type")


def _char_value(text: str) -> int:
    """The value of a character constant as gcc gives it on x86-64: a plain ``'c'`` is a
    (signed) char converted to int, so ``'\\xff'`` is -1; ``'ab'`` is ``'a' * 256 + 'b'``;
    a prefixed one (``L'c'``) is the code point."""
    quote = text.index("'")
    codes = [ord(c) for c in text[quote + 1:-1].encode("utf-8").decode("unicode_escape")]
    if quote or not codes:
        return codes[0] if codes else 0
    if len(codes) == 1:
        return codes[0] - 256 if codes[0] > 127 else codes[0]
    value = 0
    for code in codes:
        value = (value << 8 | code & 0xFF) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


# ---------------------------------------------------------------------------------------------
# conversions

def is_integer(dtype: np.dtype) -> bool:
    return dtype.kind in "iub"


def promote_integer(dtype: np.dtype) -> np.dtype:
    """Integer promotion: types narrower than int become int."""
    if dtype.kind in "iub" and dtype.itemsize < 4:
        return INT32
    return dtype


def common_type(a: np.dtype, b: np.dtype) -> np.dtype:
    """The usual arithmetic conversions of two (promoted) operand types."""
    if FLOAT64 in (a, b) or (a.kind == "f" and b.kind == "f" and max(a.itemsize, b.itemsize) > 4):
        return FLOAT64
    if a.kind == "f" or b.kind == "f":
        return a if a.kind == "f" else b
    a, b = promote_integer(a), promote_integer(b)
    if a == b:
        return a
    if (a.kind == "u") == (b.kind == "u"):
        return a if a.itemsize >= b.itemsize else b
    u, s = (a, b) if a.kind == "u" else (b, a)
    if u.itemsize >= s.itemsize:
        return u
    if s.itemsize > u.itemsize:
        return s
    return np.dtype(f"u{s.itemsize}")


def unsigned_comparison(var: np.dtype, bound: np.dtype) -> bool:
    """Whether C compares a signed loop variable of type `var` with a bound of type `bound`
    in unsigned arithmetic (``int i`` against a ``size_t`` or ``unsigned`` bound)."""
    return var.kind == "i" and common_type(promote_integer(var), promote_integer(bound)).kind == "u"
