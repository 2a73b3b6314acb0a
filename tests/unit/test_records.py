"""`translator.records.dataclass` behaves as `dataclasses.dataclass` (issue 24: it only costs
less to create).  Each shape is built twice, by the stdlib and by `records`, and every
observable behaviour is compared: construction, signature, defaults and factories,
``__post_init__``, equality, hash, repr, frozen assignment, `replace`, pickling and copying,
``__match_args__``, ``__slots__``, subclassing, and the errors `dataclasses` raises."""

from __future__ import annotations

import builtins
import copy
import dataclasses
import inspect
import pickle
from dataclasses import field, replace
from typing import Any, ClassVar

import pytest

from translator import records

DECORATORS = {"stdlib": dataclasses.dataclass, "records": records.dataclass}


def _shapes(deco: Any) -> dict[str, type]:
    @deco(frozen=True, slots=True, kw_only=True)
    class Node:
        """A node."""
        name: str
        count: int = 2
        items: list = field(default_factory=list)
        span: object = field(default=None, compare=False, repr=False)
        kind: ClassVar[str] = "node"

        def __post_init__(self) -> None:
            if self.count < 0:
                raise ValueError("negative count")

    @deco(frozen=True)
    class Pair:
        left: int
        right: tuple = ()

    @deco(frozen=True, slots=True)
    class Tag:
        """A tag."""

    @deco(frozen=True, slots=True)
    class Split(Tag):
        factor: int = 4
        weight: float = field(default=0.0, hash=False)

    @deco
    class Mutable:
        x: int
        table: dict = field(default_factory=dict)

    @deco(eq=False)
    class ByIdentity:
        x: int

    @deco(frozen=True, slots=True)
    class OwnEquality:
        x: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, OwnEquality)

    @deco(frozen=True)
    class OwnHash:
        x: int

        def __hash__(self) -> int:
            return 7

    @deco(frozen=True, slots=True)
    class Self:
        self: int

    return {c.__name__: c for c in (Node, Pair, Tag, Split, Mutable, ByIdentity, OwnEquality,
                                     OwnHash, Self)}


STDLIB = _shapes(dataclasses.dataclass)
RECORDS = _shapes(records.dataclass)


def _outcome(fn: Any) -> Any:
    try:
        return ("ok", fn())
    except Exception as err:   # noqa: BLE001 - the error is the observation
        return (type(err).__name__, str(err))


def _observations(shapes: dict[str, type]) -> list[Any]:
    node, pair, tag, split = shapes["Node"], shapes["Pair"], shapes["Tag"], shapes["Split"]
    mutable, identity = shapes["Mutable"], shapes["ByIdentity"]
    a, b = node(name="a", items=[1]), node(name="a", items=[1], span="elsewhere")
    nan = float("nan")
    seen: list[Any] = [
        repr(a), a == b, a != node(name="b"), hash(node(name="a", items=())) ==
        hash(node(name="a", items=(), span=1)), str(inspect.signature(node)),
        node.__match_args__, node.__slots__, node.__doc__, node.kind,
        _outcome(lambda: node(name="a", count=-1)), _outcome(lambda: node("a")),
        _outcome(lambda: setattr(a, "name", "z")), _outcome(lambda: delattr(a, "name")),
        repr(replace(a, count=5)),
        repr(copy.copy(a)), repr(copy.deepcopy(a)), [f.name for f in dataclasses.fields(node)],
        dataclasses.is_dataclass(a), dataclasses.asdict(a) == {"name": "a", "count": 2,
                                                               "items": [1], "span": None},
        repr(pair(1)), pair(1) == pair(1, ()), hash(pair(1)) == hash((1, ())),
        str(inspect.signature(pair)), pair.__match_args__, pair.__doc__,
        _outcome(lambda: setattr(pair(1), "other", 2)), repr(copy.deepcopy(pair(2, (3,)))),
        repr(tag()), tag() == tag(), hash(tag()) == hash(()), repr(split()), split() == split(4),
        split(2) == tag(), hash(split(3, 1.0)) == hash((3,)), split.__doc__,
        split.__match_args__, split(1, nan) == split(1, nan),
        mutable.__hash__ is None, str(inspect.signature(mutable)),
        identity(1) == identity(1), hash(identity(1)) == id(identity(1)) or True,
        shapes["OwnEquality"](1) == shapes["OwnEquality"](2),
        hash(shapes["OwnEquality"](1)) == hash((1,)), hash(shapes["OwnHash"](1)),
        repr(shapes["Self"](3)), shapes["Self"](3) == shapes["Self"](3),
    ]
    m = mutable(1)
    m.x = 5
    seen += [repr(m), m == mutable(5), repr(mutable(1)) + repr(mutable(2).table)]
    return seen


def test_every_behaviour_matches_the_stdlib():
    assert _observations(RECORDS) == _observations(STDLIB)


@records.dataclass(frozen=True, slots=True, kw_only=True)
class Pickled:
    """Pickle finds a class by its module-level name."""
    name: str
    items: tuple = ()
    span: object = field(default=None, compare=False)


def test_a_frozen_slotted_record_pickles():
    node = Pickled(name="p", items=(1, 2), span="here")
    again = pickle.loads(pickle.dumps(node))
    assert again == node and again.span == "here" and again is not node


def test_nan_fields_compare_as_tuples_do():
    """Equality compares tuples, which take an identical object as equal (NaN included)."""
    for shapes in (STDLIB, RECORDS):
        nan = float("nan")
        assert shapes["Pair"](nan) == shapes["Pair"](nan)
        assert shapes["Pair"](nan) != shapes["Pair"](float("nan"))


def test_a_recursive_repr_stops_as_the_stdlib_does():
    for deco in DECORATORS.values():
        @deco(frozen=True)
        class Box:
            items: list
        box = Box([])
        box.items.append(box)
        assert repr(box).endswith(".Box(items=[...])")


@pytest.mark.parametrize("name", sorted(DECORATORS))
def test_the_errors_of_dataclasses(name):
    deco = DECORATORS[name]

    @deco(frozen=True)
    class Frozen:
        a: int = 0

    @deco
    class Thawed:
        a: int = 0

    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        @deco
        class A(Frozen):
            b: int = 0
    with pytest.raises(TypeError, match="cannot inherit frozen dataclass from a non-frozen one"):
        @deco(frozen=True)
        class B(Thawed):
            b: int = 0
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @deco
        class C:
            a: int = 0
            b: int
    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        @deco(frozen=True)
        class D:
            a: int

            def __setattr__(self, name: str, value: object) -> None:
                pass


def test_shapes_it_does_not_build_go_to_the_stdlib():
    @records.dataclass(order=True, frozen=True)
    class Ordered:
        a: int

    @records.dataclass
    class Hidden:
        a: int
        b: int = field(default=1, init=False)

    @records.dataclass
    class WithInitVar:
        a: int
        scale: dataclasses.InitVar[int] = 1

        def __post_init__(self, scale: int) -> None:
            self.a *= scale

    assert Ordered(1) < Ordered(2)
    assert Hidden(3).b == 1 and "b" not in str(inspect.signature(Hidden))
    assert WithInitVar(2, 3).a == 6


def test_methods_are_compiled_on_first_use_only():
    """Until looked up, a method is a stand-in on the class; the first look-up compiles
    dataclasses' text and puts the function on the class, where later calls find it."""
    @records.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int

    stand_ins = {name: Point.__dict__[name] for name in ("__init__", "__eq__", "__hash__",
                                                         "__repr__", "__setattr__")}
    assert not any(inspect.isfunction(m) for m in stand_ins.values())
    assert Point(1, 2) == Point(1, 2) and hash(Point(1, 2)) == hash((1, 2))
    for name in ("__init__", "__eq__", "__hash__"):
        assert inspect.isfunction(Point.__dict__[name]), name
        assert Point.__dict__[name].__qualname__.endswith(f"Point.{name}")
        assert Point.__dict__[name].__code__.co_filename == "<string>"   # compiled text
    assert Point.__dict__["__repr__"] is stand_ins["__repr__"]   # never printed yet
    assert repr(Point(1, 2)).endswith("Point(x=1, y=2)")
    assert Point.__dict__["__repr__"] is not stand_ins["__repr__"]


def _execs_to_create(deco: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The source texts `exec` runs while `deco` creates a frozen class of two fields."""
    texts: list[str] = []
    original = builtins.exec

    def counting(source: Any, *args: Any, **kwargs: Any) -> Any:
        texts.append(source)
        return original(source, *args, **kwargs)

    monkeypatch.setattr(builtins, "exec", counting)
    deco(frozen=True, slots=True)(type("Fresh", (), {
        "__annotations__": {"a": "int", "b": "str"}, "__module__": __name__, "__doc__": None}))
    monkeypatch.setattr(builtins, "exec", original)
    return texts


def test_creating_a_class_compiles_nothing(monkeypatch):
    """The point of the module: creating a frozen class compiles none of its methods, where
    `dataclasses` compiles six."""
    assert len(_execs_to_create(dataclasses.dataclass, monkeypatch)) == 6
    assert _execs_to_create(records.dataclass, monkeypatch) == []


#: A child that builds a class with `records`, its cache file at argv[1], and reports how
#: many method texts it compiled (the module's `compile`, counted) and what the methods do.
_CACHED_CHILD = """
import json, sys
from translator import records
records.CODE_CACHE = sys.argv[1]
compiled = []
def counting(*args, **kwargs):
    compiled.append(args[0])
    return compile(*args, **kwargs)
records.compile = counting
@records.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 3
p = Point(1)
seen = [repr(p), p == Point(1, 3), hash(p) == hash((1, 3)), Point.__init__.__code__.co_filename]
print(json.dumps([len(compiled), *seen]))
"""


def _cached_child(cache: Any, **env: str) -> list:
    import json
    import os
    import subprocess
    import sys
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run([sys.executable, "-c", _CACHED_CHILD, str(cache)],
                          env={**environ, **env}, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_compiled_methods_are_kept_for_the_next_run(tmp_path):
    """A method text compiled in one run is loaded, not compiled, in the next, and behaves
    the same (issue 24: a small translation compiled 63 method texts on every start, 7 ms);
    without bytecode writing (``PYTHONDONTWRITEBYTECODE``) nothing is kept."""
    cache = tmp_path / "pycache" / "records.test.marshal"
    untouched = _cached_child(cache, PYTHONDONTWRITEBYTECODE="1")
    assert untouched[0] == 4 and not cache.exists()   # __init__, __repr__, __eq__, __hash__
    first = _cached_child(cache)
    assert cache.exists()
    second = _cached_child(cache)
    assert first[0] == 4 and second[0] == 0
    assert first[1:] == second[1:] == untouched[1:]
    assert second[1].endswith("Point(x=1, y=3)") and second[2:4] == [True, True]
    assert second[4] == "<string>"


def test_a_cache_file_that_does_not_load_is_ignored_and_replaced(tmp_path):
    cache = tmp_path / "records.test.marshal"
    cache.write_bytes(b"\x00not marshal data")
    assert _cached_child(cache)[0] == 4
    assert _cached_child(cache)[0] == 0   # rewritten at the first run's exit
