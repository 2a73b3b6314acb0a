"""Naming and tagging statements from the source, for ``within=`` matches (both languages)."""

from __future__ import annotations

import pytest

from translator.diagnostics import FrontendError
from translator.driver import translate_text

FORTRAN = """\
subroutine s(n, a, b)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n)
  integer :: i
  !$translate kernel k
  !$translate split_iname("i", 16, within="tag:hot", outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     !$translate id(scale) tags(hot)
     a(i) = 2*a(i)
     !$translate block tags(cool)
     b(i) = b(i) + 1
     b(i) = b(i) * 3
     !$translate end block
  end do
  !$translate end kernel
end subroutine
"""

C = """\
void s(int n, double a[n], double b[n])
{
#pragma translate kernel k
#pragma translate split_iname("i", 16, within="tag:hot", outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
#pragma translate id(scale) tags(hot)
    a[i] = 2*a[i];
#pragma translate block tags(cool)
    b[i] = b[i] + 1;
    b[i] = b[i] * 3;
#pragma translate end block
  }
#pragma translate end kernel
}
"""

SOURCES = {"fortran": ("m.f90", FORTRAN, "!$translate"), "c": ("m.c", C, "#pragma translate")}


def _translate(lang: str, text: str | None = None):
    path, default, _ = SOURCES[lang]
    return translate_text(path, text if text is not None else default)


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_ids_and_tags_reach_the_statements_and_within(lang: str) -> None:
    result = _translate(lang)
    _, kernel, _ = result.regions[0]
    by_id = {s.id: s for s in kernel.statements}
    assert by_id["scale"].tags == frozenset({"hot"})
    cool = [s for s in kernel.statements if "cool" in s.tags]
    assert len(cool) == 2
    # within="tag:hot" split only the tagged statement's loop
    assert by_id["scale"].within_inames == frozenset({"i_outer", "i_inner"})
    assert all(s.within_inames == frozenset({"i"}) for s in cool)


def _error(lang: str, old: str, new: str) -> FrontendError:
    path, text, sentinel = SOURCES[lang]
    bad = text.replace(old.replace("SENT", sentinel), new.replace("SENT", sentinel))
    assert bad != text
    with pytest.raises(FrontendError) as info:
        _translate(lang, bad)
    return info.value


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_unclosed_block(lang: str) -> None:
    err = _error(lang, "SENT end block\n", "")
    assert "not closed with 'end block'" in err.message
    assert err.span.line == (10 if lang == "fortran" else 8)


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_end_block_without_block(lang: str) -> None:
    err = _error(lang, "SENT block tags(cool)\n", "")
    assert "'end block' without a matching" in err.message
    assert err.span.line == (12 if lang == "fortran" else 10)


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_duplicate_statement_id(lang: str) -> None:
    err = _error(lang, "SENT block tags(cool)\n", "SENT block tags(cool)\nSENT id(scale)\n")
    assert "statement id 'scale' is already used" in err.message
    assert err.span.line == (11 if lang == "fortran" else 9)


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_block_with_an_id_is_refused(lang: str) -> None:
    err = _error(lang, "SENT block tags(cool)", "SENT block id(x) tags(cool)")
    assert "takes tags(...) only" in err.message


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_statement_directive_outside_a_region(lang: str) -> None:
    path, text, sentinel = SOURCES[lang]
    line = 4 if lang == "fortran" else 3
    lines = text.splitlines(True)
    lines.insert(line - 1, f"{sentinel} tags(early)\n")
    with pytest.raises(FrontendError) as info:
        _translate(lang, "".join(lines))
    assert info.value.message == "statement directive outside a kernel region"
    assert info.value.span.line == line


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_nested_block(lang: str) -> None:
    err = _error(lang, "SENT block tags(cool)\n", "SENT block tags(cool)\nSENT block tags(x)\n")
    assert err.message.startswith("nested 'block' directive: close the block opened at line")
    assert err.span.line == (11 if lang == "fortran" else 9)


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_mark_with_no_statement_after_it(lang: str) -> None:
    err = _error(lang, "SENT end block\n", "SENT end block\nSENT id(last)\n")
    assert err.message.startswith("this directive marks no statement")
    assert err.span.line == (14 if lang == "fortran" else 12)
