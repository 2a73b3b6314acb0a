"""`dataclass`: `dataclasses.dataclass` with the same methods, cheaper to create at import.

A cold ``translate`` creates about 150 dataclasses before it translates anything, and
`dataclasses` compiles the source text of six methods for each frozen class on every run
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``: no
``.pyc`` keeps them), about half a millisecond a class (bench/RESULTS.md, "Cold translate").
Here `dataclasses` still collects the fields, adds ``__slots__`` and ``__match_args__``; of
the methods only ``__init__`` is compiled (the same text `dataclasses` writes, so it runs as
fast), the others are shared functions bound to the class's field names: the same results
(equality and hash over the same tuples, the same repr, `FrozenInstanceError` for the same
assignments) without compiling anything.

Differences that no caller sees: ``__dataclass_params__`` records the options handed to
`dataclasses` (``init``, ``repr``, ``eq`` and ``frozen`` false: the methods are ours), so a
stdlib ``@dataclass(frozen=True)`` cannot subclass one of these classes (a TypeError at import:
decorate the subclass with this `dataclass`).  Shapes this module does not build (``order``,
``unsafe_hash``, ``InitVar``, fields out of ``__init__``, a frozen stdlib base) go to
`dataclasses.dataclass` itself.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
from dataclasses import MISSING, Field, FrozenInstanceError, fields
from operator import attrgetter

#: typing is not imported at run time (the build layer's result-cache hit uses this module)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeVar

    _C = TypeVar("_C", bound=type)

#: Class attribute naming a class built here frozen (its subclasses must be frozen too).
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


def _build(cls: _C, *, init: bool, repr: bool, eq: bool, order: bool,
           unsafe_hash: bool, frozen: bool, match_args: bool, kw_only: bool,
           slots: bool) -> _C:
    if order or unsafe_hash or not init or _stdlib_base(cls, frozen) or _unsupported(cls):
        return dataclasses.dataclass(cls, init=init, repr=repr, eq=eq, order=order,
                                     unsafe_hash=unsafe_hash, frozen=frozen,
                                     match_args=match_args, kw_only=kw_only, slots=slots)
    _check_frozen_bases(cls, frozen)
    explicit_hash = _has_explicit_hash(cls)
    documented = bool(cls.__doc__)
    cls.__doc__ = cls.__doc__ or "-"   # dataclasses would document the class without __init__
    new = dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=False,
                                match_args=match_args, kw_only=kw_only, slots=slots)
    flds = fields(new)
    _set(new, "__init__", _init_fn(new, flds, frozen))
    if not documented:
        new.__doc__ = new.__name__ + str(inspect.signature(new)).replace(" -> None", "")
    if repr:
        _set(new, "__repr__", _repr_fn([f.name for f in flds if f.repr]))
    if eq:
        _set(new, "__eq__", _lazy(new, "__eq__", _eq_text([f.name for f in flds if f.compare])))
        if frozen and not explicit_hash:
            hashed = [f.name for f in flds if (f.compare if f.hash is None else f.hash)]
            new.__hash__ = _qualify(new, _lazy(new, "__hash__", _hash_text(hashed)))
        elif not frozen and not explicit_hash:
            new.__hash__ = None   # as dataclasses: a mutable class with __eq__ is unhashable
    if frozen:
        _make_frozen(new, frozenset(f.name for f in flds), slots)
    return new


def _stdlib_base(cls: type, frozen: bool) -> bool:
    """A base built by `dataclasses` itself: frozen (this module's call would be refused), or
    not frozen under a frozen class (let `dataclasses` say so)."""
    for base in cls.__mro__[1:]:
        params = base.__dict__.get("__dataclass_params__")
        if params is not None and not hasattr(base, _FROZEN) and (params.frozen or frozen):
            return True
    return False


def _check_frozen_bases(cls: type, frozen: bool) -> None:
    """`dataclasses`' rule for this module's bases: all frozen or none."""
    ours = [getattr(b, _FROZEN) for b in cls.__mro__[1:] if _FROZEN in b.__dict__]
    if ours and any(ours) and not frozen:
        raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
    if ours and not any(ours) and frozen:
        raise TypeError("cannot inherit frozen dataclass from a non-frozen one")


def _has_explicit_hash(cls: type) -> bool:
    """A ``__hash__`` written in the class body (an ``__eq__`` alone sets it to None)."""
    class_hash = cls.__dict__.get("__hash__", MISSING)
    return not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))


def _unsupported(cls: type) -> bool:
    """An ``InitVar`` or a field out of ``__init__``, in the class or a base."""
    annotations = cls.__dict__.get("__annotations__", {})   # noqa: RUF063 - the class's own
    own = [(v, cls.__dict__.get(n)) for n, v in annotations.items()]
    inherited = [(f.type, f) for base in cls.__mro__[1:]
                 for f in base.__dict__.get("__dataclass_fields__", {}).values()]
    return any(isinstance(t, dataclasses.InitVar) or "InitVar" in str(t)
               or (isinstance(f, Field) and not f.init) for t, f in own + inherited)


def _set(cls: type, name: str, fn: Callable[..., Any]) -> None:
    """Add method `name` unless the class body wrote one (as `dataclasses` does)."""
    if name not in cls.__dict__:
        setattr(cls, name, _qualify(cls, fn))


def _qualify(cls: type, fn: Callable[..., Any]) -> Callable[..., Any]:
    fn.__qualname__ = f"{cls.__qualname__}.{fn.__name__}"
    return fn


def _lazy(cls: type, name: str, text: str) -> Callable[..., Any]:
    """A method that compiles `text` (defining `name`) on its first call and puts the
    result on `cls`: a class whose equality or hash is never asked pays no compilation, one
    that is asked runs `dataclasses`' own code from then on."""
    def first_call(self: Any, *args: Any) -> Any:
        namespace: dict[str, Any] = {}
        exec(text, namespace)   # noqa: S102 - the text is built from the field names
        method = _qualify(cls, namespace[name])
        setattr(cls, name, method)
        return method(self, *args)
    first_call.__name__ = name
    return first_call


def _tuple_text(obj: str, names: list[str]) -> str:
    """``(obj.a,obj.b,)``: the tuple `dataclasses` compares and hashes."""
    return f"({','.join(f'{obj}.{name}' for name in names)},)" if names else "()"


def _eq_text(names: list[str]) -> str:
    return (f"def __eq__(self, other):\n if other.__class__ is self.__class__:\n"
            f"  return {_tuple_text('self', names)}=={_tuple_text('other', names)}\n"
            f" return NotImplemented")


def _hash_text(names: list[str]) -> str:
    return f"def __hash__(self):\n return hash({_tuple_text('self', names)})"


def _repr_fn(names: list[str]) -> Callable[[Any], str]:
    getters = [(f"{name}=", attrgetter(name)) for name in names]

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inner = ", ".join(label + repr(get(self)) for label, get in getters)
        return f"{self.__class__.__qualname__}({inner})"
    return __repr__


def _make_frozen(cls: type, names: frozenset[str], slots: bool) -> None:
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    cls.__setattr__ = _qualify(cls, __setattr__)
    cls.__delattr__ = _qualify(cls, __delattr__)
    setattr(cls, _FROZEN, True)
    if slots and "__getstate__" not in cls.__dict__:
        cls.__getstate__ = _qualify(cls, _getstate)   # pickle and copy go through __init__'s
        cls.__setstate__ = _qualify(cls, _setstate)   # way of setting fields, as dataclasses


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(fields(self), state):
        object.__setattr__(self, f.name, value)


def _init_fn(cls: type, flds: tuple[Field, ...], frozen: bool) -> Callable[..., None]:
    """``__init__`` compiled from the text `dataclasses` writes for these fields."""
    self_name = "__dataclass_self__" if "self" in {f.name for f in flds} else "self"
    namespace: dict[str, Any] = {"__dataclass_builtins_object__": object,
                                 "_HAS_DEFAULT_FACTORY": _HAS_FACTORY}
    std = [f for f in flds if not f.kw_only]
    _check_default_order(std)
    params = [_param(f, namespace) for f in std]
    keywords = [_param(f, namespace) for f in flds if f.kw_only]
    if keywords:
        params += ["*", *keywords]
    body = [_assign(f, frozen, self_name) for f in flds]
    if hasattr(cls, "__post_init__"):
        body.append(f"{self_name}.__post_init__()")
    text = (f"def __init__({', '.join([self_name, *params])}):\n "
            + "\n ".join(body or ["pass"]))
    exec(text, namespace)   # noqa: S102 - the text is built from the field names above
    fn = namespace["__init__"]
    fn.__annotations__ = {**{f.name: f.type for f in flds}, "return": None}
    return fn


def _check_default_order(std: Iterable[Field]) -> None:
    seen_default = False
    for f in std:
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _param(f: Field, namespace: dict[str, Any]) -> str:
    if f.default is not MISSING:
        namespace[f"_dflt_{f.name}"] = f.default
        return f"{f.name}=_dflt_{f.name}"
    if f.default_factory is not MISSING:
        namespace[f"_dflt_{f.name}"] = f.default_factory
        return f"{f.name}=_HAS_DEFAULT_FACTORY"
    return f.name


def _assign(f: Field, frozen: bool, self_name: str) -> str:
    value = f.name
    if f.default_factory is not MISSING:
        value = f"_dflt_{f.name}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}"
    if frozen:
        return f"__dataclass_builtins_object__.__setattr__({self_name},{f.name!r},{value})"
    return f"{self_name}.{f.name}={value}"
