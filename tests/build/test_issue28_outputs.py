"""The command line as a build step (issue 28): ``-MF`` may not name an output, the same input
twice, options between sources, separators on stdout, and a consistent output set after an
interrupted translation."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import AUTO_C, SAXPY, translate, write

# ---------------------------------------------------------------------------------------------
# -MF onto an output (item 5)


@pytest.mark.parametrize("source,text", [("a.f90", SAXPY), ("a.c", AUTO_C)])
@pytest.mark.parametrize("kind", ["host.c", "cl", "source"])
def test_depfile_may_not_name_an_output(tmp_path: Path, source: str, text: str,
                                        kind: str) -> None:
    write(tmp_path, source, text)
    target = f"out/{source}" if kind == "source" else f"out/a.{kind}"
    r = translate(source, "-o", "out", "-MD", "-MF", target, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert r.stderr == (f"translate: error: the dependency file (-MF) {target} is also an "
                        f"output of {source}\n")
    assert not (tmp_path / "out").exists()


def test_depfile_may_not_be_the_report(tmp_path: Path) -> None:
    write(tmp_path, "a.c", AUTO_C)
    r = translate("a.c", "-o", "out", "-MF", "a.txt", "--report=a.txt", cwd=tmp_path)
    assert r.returncode == 1
    assert "translate: error: the report file a.txt is also the dependency file (-MF)" \
        in r.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "a.txt").exists()


def test_depfile_elsewhere_is_written(tmp_path: Path) -> None:
    write(tmp_path, "a.c", AUTO_C)
    r = translate("a.c", "-o", "out", "-MD", "-MF", "out/a.deps", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out/a.deps").read_text().startswith("out/a.c out/a.cl out/a.host.c:")
