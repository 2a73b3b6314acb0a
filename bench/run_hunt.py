"""Differential hunt (h50, h52): translate each program given (bench/h50_hunt/*,
bench/h52_hunt/*), build it, run it on PoCL and compare with the original
(tests/e2e/harness.py check_sample).  Prints one line per program: ok / DIFF / FAIL
(translate or build failure) / REFUSED (exit 1 of translate)."""

from __future__ import annotations

import sys
import tempfile
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.e2e.harness import check_sample


def hunt(paths: list[Path]) -> int:
    bad = 0
    for src in paths:
        with tempfile.TemporaryDirectory() as work:
            try:
                check_sample(src, Path(work))
                print(f"ok      {src.name}", flush=True)
            except AssertionError as exc:
                text = str(exc)
                kind = ("REFUSED" if "translator.cli" in text.split("\n")[0] else
                        "FAIL" if text.startswith("command failed") else "DIFF")
                bad += kind == "DIFF"
                print(f"{kind:8}{src.name}\n    " + text[:1500].replace("\n", "\n    "),
                      flush=True)
            except Exception:  # noqa: BLE001
                print(f"ERROR   {src.name}\n{traceback.format_exc()}", flush=True)
    return bad


if __name__ == "__main__":
    args = [Path(a).resolve() for a in sys.argv[1:]]
    sys.exit(1 if hunt(args) else 0)
