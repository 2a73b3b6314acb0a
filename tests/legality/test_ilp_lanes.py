"""ILP lanes belong to one work item (issue 13): the register-blocking recipe with ``ilp``
is accepted like the one with ``unr``, and computes the product on the CPU OpenCL device.

A statement outside an ILP (or vector) loop runs once in its work item, not once per lane,
so it does not race with the lanes; lanes inside one loop are still checked against each
other.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import LegalityError
from translator.driver import translate_text

RECIPE = (Path(__file__).parent / "data" / "register_blocking.c").read_text()


@pytest.mark.parametrize("tag", ["unr", "ilp"])
def test_register_blocking_runs(tmp_path: Path, tag: str) -> None:
    src = tmp_path / "mm.c"
    src.write_text(RECIPE.replace("TAG", tag))
    check_sample(src, tmp_path)


def test_lanes_writing_one_element_still_race() -> None:
    text = """\
void f(int n, double a[n], double b[n][4])
{
  int i, j;
#pragma translate kernel k
#pragma translate tag_inames("j:ilp")
  for (i = 0; i < n; i++)
    for (j = 0; j < 4; j++)
      a[i] = b[i][j];
#pragma translate end kernel
}
"""
    with pytest.raises(LegalityError) as info:
        translate_text("lanes.c", text)
    message = info.value.message
    assert message.startswith("mapping j to ilp.unr races: iteration i=0, j="), message
    assert message.endswith("writes a[0] (lanes.c:8)"), message
    assert info.value.span.line == 8
