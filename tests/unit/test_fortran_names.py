"""Fortran names in translate pragmas are case-insensitive: inames, arrays, statement ids,
match expressions, conditions and keywords; messages show a name as the source spells it."""

from __future__ import annotations

import textwrap

import pytest

from frontends.base import TransformCall
from frontends.fortran import FRONTEND
from translator.diagnostics import SourceSpan, TranslatorError
from translator.ir.tags import GroupTag, LocalTag
from translator.pipeline import apply_transform_calls
from transforms.registry import fold_names


def fixed_form(pragmas: str, statement: str = "V(I) = (U(I - 1) + U(I + 1)) / 2") -> str:
    """A fixed-form subroutine in upper case; the pragmas start on line 5."""
    lines = ["      SUBROUTINE SMOOTH(N, U, V)",
             "      INTEGER N",
             "      DOUBLE PRECISION U(N), V(N)",
             "C$TRANSLATE KERNEL SMOOTH",
             *[f"C$TRANSLATE {p}" for p in pragmas.strip().splitlines()],
             "      DO 10 I = 2, N - 1",
             f"         {statement}",
             "   10 CONTINUE",
             "C$TRANSLATE END KERNEL",
             "      END"]
    return "\n".join(lines) + "\n"


def transformed(text: str, path: str = "t.f"):
    (region,) = FRONTEND.parse(path, text, {}).regions
    return apply_transform_calls(region.kernel, region.transform_calls)


def error_of(text: str, path: str = "t.f") -> TranslatorError:
    (region,) = FRONTEND.parse(path, text, {}).regions
    with pytest.raises(TranslatorError) as info:
        apply_transform_calls(region.kernel, region.transform_calls)
    assert info.value.span is not None and info.value.span.file == path
    return info.value


def test_upper_case_iname_and_keywords():
    k = transformed(fixed_form('SPLIT_INAME("I", 16, OUTER_TAG="g.0", INNER_TAG="l.0")'))
    assert k.tags_of("i_outer") == {GroupTag(0)} and k.tags_of("i_inner") == {LocalTag(0)}


def test_names_the_transforms_made_in_another_case():
    k = transformed(fixed_form('SPLIT_INAME("I", 16)\n'
                               'TAG_INAMES({"I_OUTER": "g.0", "i_Inner": "l.0"})'))
    assert k.tags_of("i_outer") == {GroupTag(0)} and k.tags_of("i_inner") == {LocalTag(0)}


def test_names_chosen_in_a_pragma_keep_its_spelling_and_match_any_case():
    k = transformed(fixed_form('SPLIT_INAME("I", 16, OUTER_INAME="IO", INNER_INAME="Ii")\n'
                               'TAG_INAMES("io:g.0, II:l.0")'))
    assert k.tags_of("IO") == {GroupTag(0)} and k.tags_of("Ii") == {LocalTag(0)}


def test_arrays_parameters_and_conditions():
    k = transformed(fixed_form('ASSUME("N >= 3")\nFIX_PARAMETERS(N=64)\n'
                               'SET_ARGUMENT_ORDER("V, U")'))
    assert k.arg_names == ("v", "u")
    assert "n" not in k.arg_names


def test_statement_ids_and_match_expressions():
    text = fixed_form('SPLIT_INAME("I", 8, INNER_TAG="l.0", WITHIN="id:Upd and writes:V")')
    text = text.replace("      DO 10", "      DO 10", 1).replace(
        "         V(I)", "C$TRANSLATE ID(UPD)\n         V(I)")
    k = transformed(text)
    assert [s.id for s in k.statements] == ["UPD"]
    assert k.tags_of("i_inner") == {LocalTag(0)}
    assert k.statements[0].within_inames == frozenset({"i_outer", "i_inner"})


def test_unknown_name_is_shown_as_written():
    err = error_of(fixed_form('SPLIT_INAME("K", 16)'))
    assert err.message.startswith("split_iname: unknown iname 'K'"), err.message
    assert (err.span.line, err.span.col) == (5, 1)


def test_message_about_a_known_name_uses_the_pragma_spelling():
    err = error_of(fixed_form('SPLIT_INAME("I", 16, OUTER_INAME="N")'))
    assert "'N'" in err.message and "'n'" not in err.message, err.message
    assert (err.span.line, err.span.col) == (5, 1)


def test_message_quoting_a_whole_argument_uses_the_pragma_text():
    err = error_of(fixed_form('ASSUME("N >= I")'))
    assert "'N >= I'" in err.message, err.message
    assert err.span.line == 5


def test_free_form_mixed_case():
    text = textwrap.dedent("""\
        subroutine s(n, a)
          integer :: n, i
          real(8) :: a(n)
          !$translate kernel s
          !$translate split_iname("I", 32, outer_tag="g.0", inner_tag="l.0")
          do I = 1, N
             A(i) = 2 * a(I)
          end do
          !$translate end kernel
        end subroutine
        """)
    k = transformed(text, "t.f90")
    assert k.tags_of("i_inner") == {LocalTag(0)}


def _call(name: str, *args, **kwargs) -> TransformCall:
    return TransformCall(name=name, args=args, kwargs=tuple(kwargs.items()),
                         span=SourceSpan(file="t.f", line=1), case_insensitive=True)


def test_code_and_fixed_spellings_are_left_alone():
    """Function definitions are C, orders are "C"/"F": even with arrays named C and F."""
    text = fixed_form("", "C(I) = F(I) * A").replace(
        "SMOOTH(N, U, V)", "SMOOTH(N, U, V, C, F, A)").replace(
        "V(N)\n", "V(N), C(N), F(N), A\n")
    (region,) = FRONTEND.parse("t.f", text, {}).regions
    kernel = region.kernel
    assert {"c", "f", "a"} <= set(kernel.arg_names)
    fn = _call("register_function", "F2", "double F2(double A) { return C + A; }",
               ["float64"], "float64")
    assert fold_names(fn, kernel) is fn
    split = _call("split_array_axis", "C", 0, 4, order="C")
    folded = fold_names(split, kernel)
    assert folded.args[0] == "c" and dict(folded.kwargs)["order"] == "C"
    assert folded.spellings == (("c", "C"),)


def test_case_sensitive_calls_are_unchanged():
    (region,) = FRONTEND.parse("t.f", fixed_form(""), {}).regions
    call = TransformCall(name="split_iname", args=("I", 16))
    with pytest.raises(TranslatorError, match="'I'"):
        apply_transform_calls(region.kernel, [call])
    folded = TransformCall(name="split_iname", args=("I", 16), case_insensitive=True)
    assert "i_inner" in apply_transform_calls(region.kernel, [folded]).all_inames
