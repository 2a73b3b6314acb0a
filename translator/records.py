"""`dataclass`: `dataclasses.dataclass` with the same methods, compiled when first used.

A cold ``translate`` creates about 150 dataclasses before it translates anything, and
`dataclasses` compiles the source text of up to six methods for each class on every run
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``: no
``.pyc`` keeps them), about half a millisecond a frozen class, while a small translation
creates instances of fewer than half of the classes and compares or prints fewer still
(bench/RESULTS.md, "Cold translate (h60, issue 24)").

Here `dataclasses` collects the fields and adds ``__slots__`` and ``__match_args__`` as it
always does; each method is the text `dataclasses` writes for the
same fields, compiled on its first look-up (creating an instance, comparing, hashing,
printing, assigning to a frozen instance, `inspect.signature`) and from then on found on
the class as a plain function: the same behaviour, the same speed after the first call.
An undocumented class's ``__doc__`` (its signature) is likewise written when read.

Differences that no caller sees: ``__dataclass_params__`` records the options handed to
`dataclasses` (``init``, ``repr``, ``eq`` and ``frozen`` false: the methods are this module's),
so a stdlib ``@dataclass(frozen=True)`` cannot subclass one of these classes (a TypeError at
import: decorate the subclass with this `dataclass`).  Shapes this module does not build
(``order``, ``unsafe_hash``, ``init=False``, ``InitVar``, fields out of ``__init__``, a
stdlib dataclass base) go to `dataclasses.dataclass` itself.

The compiled methods are kept between runs as ``.pyc`` files keep modules (`_code`): in
``__pycache__/records.<interpreter>.marshal`` beside this module, the code object of each
method text compiled, loaded at the first compile of a run (63 methods of a small
translation: 7 ms to compile, 0.1 ms to load).  The entry is the exact text, so a changed
class compiles anew; the file is written at exit when the run compiled something new
(atomically; not with ``PYTHONDONTWRITEBYTECODE``; a file that does not load is ignored).
"""

from __future__ import annotations

import atexit
import dataclasses
import inspect
import marshal
import os
import reprlib
import sys
from dataclasses import MISSING, Field, FrozenInstanceError, fields
from types import CodeType

#: typing is not imported at run time (the build layer's result-cache hit uses this module)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeVar

    _C = TypeVar("_C", bound=type)

#: Class attribute of every class built here: whether it is frozen (its subclasses must agree).
_FROZEN = "__records_frozen__"


class _FactoryMarker:
    """The default of a parameter whose field has a ``default_factory`` (shown as
    ``<factory>`` in signatures, as `dataclasses` shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _FactoryMarker()


def dataclass(cls: _C | None = None, /, *, init: bool = True, repr: bool = True,
              eq: bool = True, order: bool = False, unsafe_hash: bool = False,
              frozen: bool = False, match_args: bool = True, kw_only: bool = False,
              slots: bool = False) -> Any:
    """`dataclasses.dataclass`, same options, same behaviour of the class it returns."""
    options = {"init": init, "repr": repr, "eq": eq, "order": order,
               "unsafe_hash": unsafe_hash, "frozen": frozen, "match_args": match_args,
               "kw_only": kw_only, "slots": slots}

    def wrap(klass: _C) -> _C:
        return _build(klass, **options)

    return wrap if cls is None else wrap(cls)


def replace(obj: Any, /, **changes: Any) -> Any:
    """`dataclasses.replace`: a new instance of `obj`'s class with the fields in `changes`
    and the others of `obj`.  For a class whose fields are all ``__init__`` parameters
    (every class `dataclass` builds itself) the names are looked up once per class, not
    read from each field's options on every call (a kernel has about thirty fields and is
    replaced on every transform); `dataclasses.replace` answers any other object, errors
    included."""
    cls = type(obj)
    names = _INIT_NAMES.get(cls)
    if names is None:
        names = _INIT_NAMES[cls] = _init_names(cls)
    if names is False:
        return dataclasses.replace(obj, **changes)
    for name in names:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return cls(**changes)


#: `replace`'s field names by class (False: `dataclasses.replace` answers).
_INIT_NAMES: dict[type, tuple[str, ...] | bool] = {}


def _init_names(cls: type) -> tuple[str, ...] | bool:
    """The names of `cls`'s fields where each is a plain ``__init__`` parameter, else False
    (not a dataclass, a field out of ``__init__``, an ``InitVar``)."""
    declared = getattr(cls, "__dataclass_fields__", None)
    if not isinstance(declared, dict):
        return False
    own = fields(cls)
    pseudo = len(declared) - len(own)   # ClassVar and InitVar entries
    if pseudo and any(f._field_type is dataclasses._FIELD_INITVAR  # noqa: SLF001
                      for f in declared.values()):
        return False
    if not all(f.init for f in own):
        return False
    return tuple(f.name for f in own)


def _build(cls: _C, *, init: bool, repr: bool, eq: bool, order: bool,
           unsafe_hash: bool, frozen: bool, match_args: bool, kw_only: bool,
           slots: bool) -> _C:
    if order or unsafe_hash or not init or _stdlib_base(cls) or _unsupported(cls):
        return dataclasses.dataclass(cls, init=init, repr=repr, eq=eq, order=order,
                                     unsafe_hash=unsafe_hash, frozen=frozen,
                                     match_args=match_args, kw_only=kw_only, slots=slots)
    _check_frozen_bases(cls, frozen)
    explicit_hash = _has_explicit_hash(cls)
    documented = bool(cls.__doc__)
    cls.__doc__ = cls.__doc__ or "-"   # dataclasses would document the class without __init__
    new = dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=False,
                                match_args=match_args, kw_only=kw_only, slots=slots)
    setattr(new, _FROZEN, frozen)
    _check_default_order([f for f in fields(new) if not f.kw_only])
    _add_methods(new, fields(new), repr=repr, eq=eq, frozen=frozen,
                 hash_action=_hash_action(eq, frozen, explicit_hash))
    if frozen and slots and "__getstate__" not in new.__dict__:
        new.__getstate__ = _getstate   # pickle and copy set the fields as __init__ does
        new.__setstate__ = _setstate
    if not documented:
        new.__doc__ = _SIGNATURE_DOC
    return new


class _SignatureDoc:
    """``__doc__`` of an undocumented class: its name and signature, as `dataclasses` writes
    it, computed when read (the signature compiles ``__init__``)."""

    __slots__ = ()

    def __get__(self, instance: object, owner: type | None = None) -> str:
        cls = owner if owner is not None else type(instance)
        return cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")


_SIGNATURE_DOC = _SignatureDoc()


def _stdlib_base(cls: type) -> bool:
    """A dataclass base built by `dataclasses` itself (its checks and ours would differ)."""
    return any("__dataclass_params__" in b.__dict__ and _FROZEN not in b.__dict__
               for b in cls.__mro__[1:])


def _check_frozen_bases(cls: type, frozen: bool) -> None:
    """`dataclasses`' rule for the dataclass bases: all frozen or none."""
    bases = [b.__dict__[_FROZEN] for b in cls.__mro__[1:] if _FROZEN in b.__dict__]
    if any(bases) and not frozen:
        raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
    if bases and not any(bases) and frozen:
        raise TypeError("cannot inherit frozen dataclass from a non-frozen one")


def _unsupported(cls: type) -> bool:
    """An ``InitVar`` or a field out of ``__init__``, in the class or a base."""
    annotations = cls.__dict__.get("__annotations__", {})   # noqa: RUF063 - the class's own
    own = [(v, cls.__dict__.get(n)) for n, v in annotations.items()]
    inherited = [(f.type, f) for base in cls.__mro__[1:]
                 for f in base.__dict__.get("__dataclass_fields__", {}).values()]
    return any(isinstance(t, dataclasses.InitVar) or "InitVar" in str(t)
               or (isinstance(f, Field) and not f.init) for t, f in own + inherited)


def _has_explicit_hash(cls: type) -> bool:
    """A ``__hash__`` written in the class body (an ``__eq__`` alone sets it to None)."""
    class_hash = cls.__dict__.get("__hash__", MISSING)
    return not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))


def _hash_action(eq: bool, frozen: bool, explicit_hash: bool) -> str:
    """`dataclasses`' table (without ``unsafe_hash``): "add", "none" or "" (leave it)."""
    if not eq or explicit_hash:
        return ""
    return "add" if frozen else "none"


def _add_methods(cls: type, flds: tuple[Field, ...], *, repr: bool, eq: bool,
                 frozen: bool, hash_action: str) -> None:
    methods: dict[str, Callable[[], str]] = {"__init__": lambda: _init_text(cls, flds, frozen)}
    if repr:
        methods["__repr__"] = lambda: _repr_text([f for f in flds if f.repr])
    if eq:
        methods["__eq__"] = lambda: _eq_text([f for f in flds if f.compare])
    if hash_action == "add":
        methods["__hash__"] = lambda: _hash_text(
            [f for f in flds if (f.compare if f.hash is None else f.hash)])
    elif hash_action == "none":
        cls.__hash__ = None   # a mutable class with __eq__ is unhashable
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in cls.__dict__:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        methods["__setattr__"] = methods["__delattr__"] = lambda: _frozen_text(flds)
    for name, text in methods.items():
        if name not in cls.__dict__ or name == "__hash__":   # the class body's own win
            setattr(cls, name, _Compiled(cls, name, text))


class _Compiled:
    """Method `name` of `owner`, compiled from the text `source()` returns when it is first
    looked up; the function then replaces this descriptor on `owner`."""

    __slots__ = ("name", "owner", "source")

    def __init__(self, owner: type, name: str, source: Callable[[], str]) -> None:
        self.owner, self.name, self.source = owner, name, source

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        namespace = _namespace(self.owner)
        exec(_code(self.source()), namespace)   # noqa: S102 - text built from the field names
        method = namespace[self.name]
        if self.name == "__repr__":
            method = reprlib.recursive_repr()(method)
        if self.name == "__init__":   # what inspect.signature shows, as for dataclasses'
            method.__annotations__ = {**{f.name: f.type for f in fields(self.owner)},
                                      "return": None}
        method.__qualname__ = f"{self.owner.__qualname__}.{self.name}"
        setattr(self.owner, self.name, method)
        return method.__get__(instance, owner)


#: Where compiled method texts are kept between runs (see the module docstring).
CODE_CACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                          f"records.{sys.implementation.cache_tag}.marshal")
#: text -> code object: the file's entries once loaded, and this run's.
_codes: dict[str, CodeType] = {}
#: [loaded], then [loaded, changed] once this run compiled a text the file lacked.
_state: list[bool] = []


def _code(text: str) -> CodeType:
    """The code object of a method's `text`: from the cache file if it holds the text,
    else compiled (as ``exec(text)`` compiles it) and saved at exit."""
    if not _state:
        _state.append(True)
        _codes.update(_load_codes(CODE_CACHE))
    code = _codes.get(text)
    if not isinstance(code, CodeType):
        code = _codes[text] = compile(text, "<string>", "exec")
        if len(_state) == 1 and not sys.dont_write_bytecode:
            _state.append(True)
            atexit.register(_save_codes, CODE_CACHE)
    return code


def _load_codes(path: str) -> dict[str, CodeType]:
    try:
        with open(path, "rb") as f:
            codes = marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):   # absent, or not ours: ignored
        return {}
    return codes if isinstance(codes, dict) else {}


def _save_codes(path: str) -> None:
    """Write the compiled texts to `path` atomically; nothing if the directory is not
    writable (an installation's site-packages)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as f:
            marshal.dump({k: v for k, v in _codes.items() if isinstance(v, CodeType)}, f)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _namespace(cls: type) -> dict[str, Any]:
    """What the compiled texts refer to besides builtins: the class, the field defaults
    and factories (``_dflt_<name>``, as `dataclasses` names them)."""
    namespace = {"__dataclass_builtins_object__": object, "_HAS_DEFAULT_FACTORY": _HAS_FACTORY,
                 "FrozenInstanceError": FrozenInstanceError, "cls": cls}
    for f in fields(cls):
        if f.default is not MISSING or f.default_factory is not MISSING:
            namespace[f"_dflt_{f.name}"] = (f.default if f.default is not MISSING
                                            else f.default_factory)
    return namespace


def _tuple_text(obj: str, flds: list[Field]) -> str:
    """``(obj.a,obj.b,)``: the tuple `dataclasses` compares and hashes."""
    return f"({','.join(f'{obj}.{f.name}' for f in flds)},)" if flds else "()"


def _eq_text(flds: list[Field]) -> str:
    return (f"def __eq__(self, other):\n if other.__class__ is self.__class__:\n"
            f"  return {_tuple_text('self', flds)}=={_tuple_text('other', flds)}\n"
            f" return NotImplemented")


def _hash_text(flds: list[Field]) -> str:
    return f"def __hash__(self):\n return hash({_tuple_text('self', flds)})"


def _repr_text(flds: list[Field]) -> str:
    inner = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in flds)
    return f'def __repr__(self):\n return self.__class__.__qualname__ + f"({inner})"'


def _frozen_text(flds: Iterable[Field]) -> str:
    names = f"({''.join(f'{f.name!r},' for f in flds)})"
    return "\n".join((
        "def __setattr__(self, name, value):",
        f" if type(self) is cls or name in {names}:",
        "  raise FrozenInstanceError(f'cannot assign to field {name!r}')",
        " super(cls, self).__setattr__(name, value)",
        "def __delattr__(self, name):",
        f" if type(self) is cls or name in {names}:",
        "  raise FrozenInstanceError(f'cannot delete field {name!r}')",
        " super(cls, self).__delattr__(name)"))


def _init_text(cls: type, flds: tuple[Field, ...], frozen: bool) -> str:
    """The ``__init__`` `dataclasses` writes for these fields."""
    self_name = "__dataclass_self__" if "self" in {f.name for f in flds} else "self"
    params = [_param(f) for f in flds if not f.kw_only]
    keywords = [_param(f) for f in flds if f.kw_only]
    if keywords:
        params += ["*", *keywords]
    body = [_assign(f, frozen, self_name) for f in flds]
    if hasattr(cls, "__post_init__"):
        body.append(f"{self_name}.__post_init__()")
    return (f"def __init__({', '.join([self_name, *params])}):\n "
            + "\n ".join(body or ["pass"]))


def _check_default_order(std: Iterable[Field]) -> None:
    seen_default = False
    for f in std:
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _param(f: Field) -> str:
    if f.default is not MISSING:
        return f"{f.name}=_dflt_{f.name}"
    if f.default_factory is not MISSING:
        return f"{f.name}=_HAS_DEFAULT_FACTORY"
    return f.name


def _assign(f: Field, frozen: bool, self_name: str) -> str:
    value = f.name
    if f.default_factory is not MISSING:
        value = f"_dflt_{f.name}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}"
    if frozen:
        return f"__dataclass_builtins_object__.__setattr__({self_name},{f.name!r},{value})"
    return f"{self_name}.{f.name}={value}"


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(fields(self), state):
        object.__setattr__(self, f.name, value)
