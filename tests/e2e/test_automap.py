"""Every sample with its mapping pragmas removed: mapped automatically, still matches.

A region that stays sequential must say why with a real dependence (a legality witness), not
for lack of trying.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from tests.e2e.test_samples import SAMPLES, _id
from translator.driver import translate_text

# every transform call (mapping pragmas and the transforms built on the inames they create);
# statement marks (id, tags, block) and assertions stay
MAPPING = re.compile(r"^\s*(?:[!cC*]\$translate|#pragma translate)\s+"
                     r"(?!(?:id|tags|block|independent|noalias)\b)[a-z_]+\s*\(.*$", re.M | re.I)


def strip_mapping(text: str) -> str:
    return MAPPING.sub(lambda m: "", text).replace("\n\n\n", "\n\n")


@pytest.mark.parametrize("src", SAMPLES, ids=_id)
def test_sample_without_mapping_pragmas(src: Path, tmp_path: Path) -> None:
    stripped = tmp_path / src.name
    text = strip_mapping(src.read_text())
    if MAPPING.search(text) or "&" in "".join(
            line for line in text.splitlines() if "$translate&" in line):
        pytest.skip("continued mapping pragmas")
    stripped.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = translate_text(str(stripped), text)
    mapped = [m for m in result.mappings if m.auto_mapping]
    for m in result.mappings:
        if not m.auto_mapping:
            assert m.sequential_reason.startswith("mapping "), m.sequential_reason
    work = tmp_path / "work"
    work.mkdir()
    check_sample(stripped, work)
    if not mapped:
        pytest.xfail("no region of this sample is parallel without a reduction mapping")
