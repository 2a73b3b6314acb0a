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


# ---------------------------------------------------------------------------------------------
# friction of the command line


@pytest.mark.parametrize("second,message", [
    ("a.f90", "a.f90 is given twice: give each source once"),
    ("./a.f90", "./a.f90 is the same file as a.f90: give each source once"),
    ("link.f90", "link.f90 is the same file as a.f90: give each source once"),
])
def test_same_input_twice_is_refused(tmp_path: Path, second: str, message: str) -> None:
    write(tmp_path, "a.f90", SAXPY)
    (tmp_path / "link.f90").symlink_to("a.f90")
    for args in (["-o", "out"], []):
        r = translate("a.f90", second, *args, cwd=tmp_path)
        assert r.returncode == 1
        assert r.stderr == f"translate: error: {message}\n" and r.stdout == ""
    assert not (tmp_path / "out").exists()


def test_options_between_sources(tmp_path: Path) -> None:
    write(tmp_path, "a.f90", SAXPY)
    write(tmp_path, "b.c", AUTO_C.replace("double s", "double SCALE_T s"))
    r = translate("a.f90", "-o", "out", "b.c", "-DSCALE_T=const", "--report=rep.txt",
                  cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "a.cl", "a.f90", "a.host.c", "b.c", "b.cl", "b.host.c"]
    assert "region scale_k at b.c:3" in (tmp_path / "rep.txt").read_text()


def test_report_usage_takes_no_word(tmp_path: Path) -> None:
    r = translate("--help", cwd=tmp_path)
    assert r.returncode == 0
    usage = r.stdout.split("\n\n")[0]
    assert "[--report]" in usage and "[--report [FILE]]" not in usage
    assert "--report [FILE]" not in r.stdout and "--report-file" not in r.stdout
    assert "--report=FILE into FILE (only with '=': the next word is never taken" in \
        " ".join(r.stdout.split())
    write(tmp_path, "a.c", AUTO_C)
    r = translate("--report", "a.c", "-o", "out", cwd=tmp_path)   # a.c stays a source
    assert r.returncode == 0 and "region scale_k at a.c:3" in r.stderr
    assert (tmp_path / "out" / "a.cl").exists()


def test_stdout_names_each_printed_file(tmp_path: Path) -> None:
    """Without -o, several printed files each start with a comment line naming them, in their
    own comment syntax; between those lines are exactly the files -o writes."""
    write(tmp_path, "a.f90", SAXPY)
    write(tmp_path, "b.c", AUTO_C)
    r = translate("a.f90", "b.c", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    headers = {"a.cl": "// translate: a.cl (from a.f90)",
               "a.f90": "! translate: a.f90 (from a.f90)",
               "a.host.c": "/* translate: a.host.c (from a.f90) */",
               "b.c": "/* translate: b.c (from b.c) */",
               "b.cl": "// translate: b.cl (from b.c)",
               "b.host.c": "/* translate: b.host.c (from b.c) */"}
    must = translate("a.f90", "b.c", "-o", "out", cwd=tmp_path)
    assert must.returncode == 0
    expected = "".join(headers[n] + "\n" + (tmp_path / "out" / n).read_text()
                       for n in sorted(headers))
    assert r.stdout == expected
    r = translate("a.f90", "b.c", "--emit", "ir", cwd=tmp_path)
    assert [ln for ln in r.stdout.splitlines() if "translate: " in ln] == [
        "# translate: a.ir (from a.f90)", "# translate: b.ir (from b.c)"]
    # one file printed: nothing added, it can be piped as it is
    r = translate("a.f90", "--emit", "cl", cwd=tmp_path)
    assert r.stdout == (tmp_path / "out" / "a.cl").read_text()


def test_sources_after_double_dash_with_options_between(tmp_path: Path) -> None:
    write(tmp_path, "a.f90", SAXPY)
    write(tmp_path, "-b.c", AUTO_C)
    r = translate("a.f90", "-o", "out", "--", "-b.c", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "-b.c", "-b.cl", "-b.host.c", "a.cl", "a.f90", "a.host.c"]
    r = translate("a.f90", "--", "--report", cwd=tmp_path)   # a source named --report
    assert r.returncode == 1 and "--report: cannot read" in r.stderr, r.stderr
