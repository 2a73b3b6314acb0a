"""Small immutable containers and the one unique-name generator."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")



class FrozenDict(Mapping[K, V], Generic[K, V]):
    """An immutable, hashable mapping that keeps insertion order.

    Equality ignores order (like dict); iteration keeps it, so callers that emit text must
    either rely on a deliberate insertion order or sort.
    """

    __slots__ = ("_d", "_h")

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._d: dict[K, V] = dict(items)
        self._h: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self._d.items()))
        return self._h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._d == other._d
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({self._d!r})"

    def set(self, key: K, value: V) -> FrozenDict[K, V]:
        """A copy with `key` set to `value` (appended if new)."""
        d = dict(self._d)
        d[key] = value
        return FrozenDict(d)

    def delete(self, key: K) -> FrozenDict[K, V]:
        d = dict(self._d)
        del d[key]
        return FrozenDict(d)

    def update(self, other: Mapping[K, V]) -> FrozenDict[K, V]:
        d = dict(self._d)
        d.update(other)
        return FrozenDict(d)


class UniqueNameGenerator:
    """Hands out names not in `taken`, deterministically: base, base_0, base_1, ..."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.taken: set[str] = set(taken)

    def is_taken(self, name: str) -> bool:
        return name in self.taken

    def add(self, name: str) -> None:
        self.taken.add(name)

    def __call__(self, base: str) -> str:
        if base not in self.taken:
            self.taken.add(base)
            return base
        stem = re.sub(r"_\d+$", "", base)
        i = 0
        while f"{stem}_{i}" in self.taken:
            i += 1
        name = f"{stem}_{i}"
        self.taken.add(name)
        return name


def split_names(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """Accept 'a,b', 'a:b', ['a', 'b'] or None; return a tuple of stripped names."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(s.strip() for s in re.split(r"[,:]", value) if s.strip())
    return tuple(value)
