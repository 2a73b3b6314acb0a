"""tests/slow_first.txt, the tests `make test` runs first (tests/conftest.py): each line names
a test function of a test file that exists, so that a renamed test is noticed, not silently
run last again (h82)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SLOW_FIRST

REPO = Path(__file__).resolve().parents[2]


def test_each_line_names_an_existing_test() -> None:
    lines = [line.split("#")[0].strip() for line in SLOW_FIRST.read_text().splitlines()]
    prefixes = [line for line in lines if line]
    assert prefixes and len(set(prefixes)) == len(prefixes)
    for prefix in prefixes:
        path, _, rest = prefix.partition("::")
        assert (REPO / path).is_file(), prefix
        name = re.match(r"\w*", rest).group(0)
        if name:
            assert re.search(rf"^(async )?def {name}\b", (REPO / path).read_text(), re.M), \
                prefix
