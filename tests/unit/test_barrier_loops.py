"""Every work item of a group runs each loop that holds a barrier equally often (h64).

A loop whose bounds depend on the local id (a triangular tile loop,
``123*j_outer <= i_inner + 32*i_outer``) lets the first work items leave before the others
reach the barrier: on an H200 the others then read tiles nobody fetched (bench/h50_hunt/trmv.c
printed other sums); PoCL happened to agree, so the generated code is checked here: no `for`
around a `barrier(` may name a variable bound to ``get_local_id``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import translator

REPO = Path(__file__).resolve().parents[2]
LOCAL_ID = re.compile(r"int const (\w+) = \(int\) get_local_id\(")


def barrier_loops_naming_local_ids(cl: str) -> list[str]:
    """The headers of `for` loops that enclose a barrier and name a local-id variable."""
    local = set(LOCAL_ID.findall(cl))
    open_loops: list[tuple[int, str]] = []   # (brace depth of the body, header)
    depth, bad = 0, []
    pending: str | None = None
    for line in cl.splitlines():
        text = line.strip()
        if text.startswith("for ("):
            pending = text
        if "barrier(" in text:
            bad += [h for _, h in open_loops
                    if set(re.findall(r"\w+", h.split(";")[1] + h.split(";")[0])) & local]
        for ch in text:
            if ch == "{":
                depth += 1
                if pending is not None:
                    open_loops.append((depth, pending))
                    pending = None
            elif ch == "}":
                if open_loops and open_loops[-1][0] == depth:
                    open_loops.pop()
                depth -= 1
    return sorted(set(bad))


@pytest.mark.parametrize("src", ["bench/h50_hunt/trmv.c", "bench/h50_hunt/tri1.c",
                                 "bench/h50_hunt/tri2.f90", "samples/fortran/matmul_tiled.f90",
                                 "samples/c/matmul_tiled.c", "bench/h50_hunt/idle1.c"])
def test_no_barrier_loop_bound_depends_on_the_local_id(src: str, tmp_path: Path) -> None:
    translator.translate_file(str(REPO / src), str(tmp_path))
    cl = next(tmp_path.glob("*.cl")).read_text()
    assert "barrier(" in cl
    assert barrier_loops_naming_local_ids(cl) == []
