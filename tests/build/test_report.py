"""``translate --report``: per-region offload report, pasteable mappings, deterministic."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import AUTO_C, REPO, SAXPY, SUM_C, write
from translator.cli import main


def report(capsys, *args: str) -> tuple[int, str, str]:
    code = main([*args])
    out, err = capsys.readouterr()
    return code, out, err


def test_fortran_user_mapping(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "saxpy.f90", SAXPY)
    code, out, err = report(capsys, str(src), "-o", str(tmp_path / "out"), "--report")
    assert code == 0 and out == ""
    assert f"region saxpy_k at {src}:7 (in saxpy)\n" in err
    assert "  your pragmas:\n" in err
    assert '    !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")\n' in err
    assert "    i_inner  l.0  legal\n" in err and "    i_outer  g.0  legal\n" in err
    assert "  asserted independent: none\n" in err
    assert "  private temporaries: none\n" in err
    assert "  launch grid: global (max(n // 128 + 1, 0)*128), local (128) work items\n" in err
    assert "    y: in/out, float64[n], 8*n B\n" in err
    assert "    x: in, float64[n], 8*n B\n" in err
    assert "    = 16*n B to the device, 8*n B back\n" in err


def test_automatic_mapping_is_pasteable(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "auto.c", AUTO_C)
    code, out, _ = report(capsys, str(src), "-o", str(tmp_path / "a"), "--report=-")
    assert code == 0
    assert "mapping (automatic; paste these lines" in out
    lines = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("#pragma")]
    assert lines == ['#pragma translate split_iname("i", 256, outer_tag="g.0", '
                     'inner_tag="l.0")']
    # pasting the reported mapping gives the same kernel, now as the user's mapping
    pasted = AUTO_C.replace("#pragma translate kernel scale_k\n",
                            "#pragma translate kernel scale_k\n" + lines[0] + "\n")
    src2 = write(tmp_path / "pasted", "auto.c", pasted)
    code, out2, _ = report(capsys, str(src2), "-o", str(tmp_path / "b"), "--report=-")
    assert code == 0 and "your pragmas:" in out2
    assert _code(tmp_path / "a" / "auto.cl") == _code(tmp_path / "b" / "auto.cl")


def _code(path: Path) -> list[str]:
    """Device code without its #line directives and its generation stamp (the pasted file is
    another file)."""
    return [ln for ln in path.read_text().splitlines()
            if not ln.startswith(("#line", "// translate generation stamp"))]


def test_sequential_region_says_why(tmp_path: Path, capsys) -> None:
    src = write(tmp_path, "sum.c", SUM_C)
    code, out, err = report(capsys, str(src), "-o", str(tmp_path / "o"), "--report=-")
    assert code == 0
    assert "  mapping: sequential (one work item): mapping i to g.0 races: " in out
    assert "  parallel inames: none\n" in out
    assert "  launch grid: global (1), local (1) work items\n" in out
    assert "    t: in/out, float64[1], 8 B\n" in out
    assert "[-Wsequential-region]" in err   # the warning still goes to stderr


def test_private_temporaries_and_constant_sizes(tmp_path: Path, capsys) -> None:
    code, out, _ = report(capsys, str(REPO / "samples/c/gemm.c"), "-o", str(tmp_path),
                          "--report=-")
    assert code == 0
    assert "  private temporaries: acc: float64\n" in out
    assert "    A: in, float64[40, 50], 16000 B\n" in out
    assert "  launch grid: global (40, 40), local (8, 8) work items\n" in out


def test_asserted_independent(tmp_path: Path, capsys) -> None:
    text = SAXPY.replace('  !$translate split_iname',
                         '  !$translate independent("i")\n  !$translate split_iname')
    src = write(tmp_path, "saxpy.f90", text)
    code, out, _ = report(capsys, str(src), "-o", str(tmp_path / "o"), "--report=-")
    assert code == 0
    assert "  asserted independent: i, i_inner, i_outer\n" in out
    assert "    i_inner  l.0  asserted independent\n" in out


def test_report_file_is_deterministic_and_covers_every_file(tmp_path: Path, capsys) -> None:
    a = write(tmp_path, "src/saxpy.f90", SAXPY)
    b = write(tmp_path, "src/auto.c", AUTO_C)
    texts = []
    for k in range(2):
        rep = tmp_path / f"report{k}.txt"
        code, out, err = report(capsys, str(a), str(b), "-o", str(tmp_path / "out"),
                                f"--report={rep}")
        assert code == 0 and "region" not in err
        texts.append(rep.read_text())
    assert texts[0] == texts[1]
    assert texts[0].index("saxpy_k") < texts[0].index("scale_k")
    assert texts[0].startswith(f"translate: report for {a}: 1 region(s)\n")


@pytest.mark.parametrize("language", ["fortran", "c"])
def test_no_regions(tmp_path: Path, capsys, language: str) -> None:
    name, text = ("p.f90", "program p\nend program\n") if language == "fortran" else \
        ("p.c", "int main(void) { return 0; }\n")
    src = write(tmp_path, name, text)
    code, out, _ = report(capsys, str(src), "-o", str(tmp_path / "o"), "--report=-")
    assert code == 0 and out == f"translate: report for {src}: no regions\n"
