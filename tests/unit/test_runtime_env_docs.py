"""Every environment variable the runtime library reads (``getenv``, ``env_flag``,
``env_bytes`` in translate_rt.c) has a row in docs/environment.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READS = re.compile(r'\b(?:getenv|env_flag|env_bytes)\("(TRANSLATE_[A-Z_]+)"')


def test_runtime_variables_are_documented() -> None:
    source = (ROOT / "translator" / "runtime" / "translate_rt.c").read_text()
    names = set(READS.findall(source))
    assert {"TRANSLATE_DEVICE", "TRANSLATE_PROFILE", "TRANSLATE_STAGING"} <= names, names
    docs = (ROOT / "docs" / "environment.md").read_text()
    rows = set(re.findall(r"^\| `(TRANSLATE_[A-Z_]+)` \|", docs, flags=re.M))
    assert names <= rows, f"undocumented: {sorted(names - rows)}"
