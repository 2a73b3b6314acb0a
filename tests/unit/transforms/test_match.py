"""The match language: parsing, evaluation, stack matches and errors."""

from __future__ import annotations

import pytest

from tests.unit.transforms.builders import assign, build
from translator.diagnostics import TransformError
from transforms.match import (All, And, Id, Iname, InKernel, Not, Or, Reads, StackMatch,
                              Tagged, Writes, parse_match, parse_stack_match)


@pytest.fixture(scope="module")
def knl():
    return build("{[i, j]: 0<=i<n and 0<=j<n}", [
        assign("init", "acc[i]", "0", ["i"], tags=frozenset({"setup"})),
        assign("update", "acc[i]", "acc[i] + a[i, j]", ["i", "j"], tags=frozenset({"hot"})),
        assign("store_1", "out[i]", "acc[i] * b[i]", ["i"]),
    ])


def ids(knl, match) -> list[str]:
    return [s.id for s in parse_match(match).filter(knl)]


@pytest.mark.parametrize("text, expected", [
    ("id:init", Id("init")),
    ("tag:hot", Tagged("hot")),
    ("writes:acc", Writes("acc")),
    ("reads:a*", Reads("a*")),
    ("iname:j", Iname("j")),
    ("in_kernel:kn?", InKernel("kn?")),
    ("store_*", Id("store_*")),
    ("*", All()),
    ("id:*", All()),
    ("not id:a", Not(Id("a"))),
    ("id:a and tag:b or id:c", Or((And((Id("a"), Tagged("b"))), Id("c")))),
    ("id:a and (tag:b or id:c)", And((Id("a"), Or((Tagged("b"), Id("c")))))),
    ("not id:a and not tag:b", And((Not(Id("a")), Not(Tagged("b"))))),
    ("  id:a  ", Id("a")),
])
def test_parse_forms(text, expected):
    assert parse_match(text) == expected


def test_none_and_empty_match_everything(knl):
    assert parse_match(None) == All()
    assert parse_match("") == All()
    assert ids(knl, None) == ["init", "update", "store_1"]


def test_matcher_passes_through_and_collections_are_or():
    m = Id("x")
    assert parse_match(m) is m
    assert parse_match(["b", "a"]) == Or((Id("a"), Id("b")))
    assert parse_match({"a"}) == Id("a")


@pytest.mark.parametrize("match, expected", [
    ("id:init", ["init"]),
    ("tag:hot", ["update"]),
    ("tag:*", ["init", "update"]),
    ("writes:acc", ["init", "update"]),
    ("reads:acc", ["update", "store_1"]),
    ("reads:b", ["store_1"]),
    ("reads:i", ["init", "update", "store_1"]),   # the LHS subscript reads i
    ("iname:j", ["update"]),
    ("in_kernel:knl", ["init", "update", "store_1"]),
    ("in_kernel:other", []),
    ("store_?", ["store_1"]),
    ("writes:acc and not tag:hot", ["init"]),
    ("id:init or reads:b", ["init", "store_1"]),
    ("not (id:init or reads:b)", ["update"]),
    ("id:[iu]*", ["init", "update"]),
])
def test_evaluation(knl, match, expected):
    assert ids(knl, match) == expected


def test_str_round_trips():
    for text in ("id:a and (tag:b or not writes:c)", "reads:x* or iname:i and in_kernel:k"):
        m = parse_match(text)
        assert parse_match(str(m)) == m


@pytest.mark.parametrize("text, fragment", [
    ("id:a or", "expected a match term at the end"),
    ("(id:a", "expected ')' at the end"),
    ("id:a )", "expected 'and', 'or' or the end at ')'"),
    ("id:a id:b", "expected 'and', 'or' or the end at 'id:b'"),
    ("foo:bar", "unknown match term 'foo:'"),
    ("id:a & id:b", "unexpected character at '& id:b'"),
    ("and id:a", "expected a match term at 'and id:a'"),
])
def test_errors_name_the_text(text, fragment):
    with pytest.raises(TransformError) as err:
        parse_match(text)
    assert f"malformed match expression {text!r}" in err.value.message
    assert fragment in err.value.message


def test_non_string_is_an_error():
    with pytest.raises(TransformError, match="must be a string"):
        parse_match(42)
    with pytest.raises(TransformError, match="must be a string"):
        parse_match([1, 2])


# ---------------------------------------------------------------------------------------------
# stack matches


def test_stack_match_at_statement_level(knl):
    init, update = knl.statement("init"), knl.statement("update")
    for text in ("id:init", "... > id:init", "id:init $", "... > id:init $", "...", None, ""):
        m = parse_stack_match(text)
        assert m(knl, init), text
    assert not parse_stack_match("id:init")(knl, update)
    assert not parse_stack_match("id:init > myrule")(knl, init)
    assert parse_stack_match(None).is_all()
    assert not parse_stack_match("id:init").is_all()


def test_stack_match_with_rule_frames(knl):
    init = knl.statement("init")
    rules = (("outer_rule", frozenset()), ("inner_rule", frozenset({"t"})))
    assert parse_stack_match("id:init > outer_rule")(knl, init, rules)
    assert parse_stack_match("id:init > ... > inner_rule $")(knl, init, rules)
    assert parse_stack_match("... > tag:t $")(knl, init, rules)
    assert not parse_stack_match("id:init > inner_rule")(knl, init, rules)
    assert not parse_stack_match("id:init > outer_rule $")(knl, init, rules)


def test_stack_match_parse_forms():
    m = parse_stack_match("... > id:a > tag:b $")
    assert m == StackMatch((None, Id("a"), Tagged("b")), anchored_bottom=True)
    assert str(m) == "... > id:a > tag:b $"
    assert parse_stack_match(Id("a")) == StackMatch((Id("a"),))
    assert parse_stack_match(m) is m


def test_stack_match_errors():
    with pytest.raises(TransformError, match=r"malformed stack match 'id:a > > id:b'"):
        parse_stack_match("id:a > > id:b")
    with pytest.raises(TransformError, match=r"malformed match expression 'id:a or'"):
        parse_stack_match("... > id:a or")


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="idtagwrs:*?()[]! _-andornot>$.xyz01", max_size=30))
def test_arbitrary_text_parses_or_raises_transform_error(text):
    try:
        parse_match(text)
        parse_stack_match(text)
    except TransformError:
        pass
