"""`translator.patterns.LazyPattern`: a regular expression compiled on first use (h89)."""

from __future__ import annotations

import copy
import re

import pytest

from translator.patterns import LazyPattern


def test_a_lazy_pattern_answers_as_the_compiled_one():
    text = "DO i = 1, n\n  do j = 2, m\n"
    lazy = LazyPattern(r"^\s*do\s+(\w+)\s*=\s*(\w+)", re.I | re.M)
    real = re.compile(r"^\s*do\s+(\w+)\s*=\s*(\w+)", re.I | re.M)
    assert lazy.match(text).groups() == real.match(text).groups() == ("i", "1")
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text)
    assert lazy.sub("<do>", text) == real.sub("<do>", text)
    assert lazy.search("x\n do k=3") and lazy.fullmatch("do k = 3")
    assert (lazy.pattern, lazy.flags, lazy.groups) == (real.pattern, real.flags, real.groups)


def test_it_compiles_at_the_first_use_and_keeps_what_it_looked_up():
    lazy = LazyPattern(r"(?P<word>[a-z]+)")
    assert "match" not in vars(lazy)   # nothing compiled yet
    assert lazy.match("abc").group("word") == "abc"
    assert vars(lazy)["match"] == re.compile(r"(?P<word>[a-z]+)").match
    assert lazy.groupindex == {"word": 1}


def test_a_bad_pattern_fails_at_its_first_use():
    lazy = LazyPattern(r"(unclosed")
    with pytest.raises(re.error):
        lazy.match("x")


def test_private_names_are_not_forwarded():
    lazy = LazyPattern("a")
    with pytest.raises(AttributeError):
        lazy._missing   # noqa: B018
    assert repr(lazy) == "LazyPattern('a', 0)"
    assert copy.deepcopy(lazy).match("a")   # copying does not recurse through __getattr__
