"""``translate --emit ir-unmapped`` (issue 26): each region's kernel as the frontend builds it,
before its pragmas and automatic mapping, in the kernel language that `parse_kernel` reads
back, so that loopy-style Python transforms apply to it."""

from __future__ import annotations

from pathlib import Path

import transforms as tr
from tests.build.helpers import translate, write
from translator import parse_kernel, print_kernel
from translator.build.job import translate_file

SCALE = """\
subroutine s(n, x)
  integer n, i
  real*8 x(n)
  !$translate kernel s_k
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
    x(i) = 2 * x(i)
  end do
  !$translate end kernel
end subroutine
"""


def test_the_unmapped_kernel_reads_back_and_transforms(tmp_path: Path) -> None:
    write(tmp_path, "a.f90", SCALE)
    r = translate("a.f90", "--emit", "ir-unmapped", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "{ [i] : 0 < i <= n }" in r.stdout and "i_inner" not in r.stdout
    mapped = translate("a.f90", "--emit", "ir", cwd=tmp_path)
    assert "i_inner" in mapped.stdout
    knl = parse_kernel(r.stdout)
    assert print_kernel(knl) == r.stdout
    split = tr.split_iname(knl, "i", 64, outer_tag="g.0", inner_tag="l.0")
    assert {"i_inner", "i_outer"} <= set(split.all_inames)


def test_a_failing_pragma_does_not_hide_the_unmapped_kernel(tmp_path: Path) -> None:
    write(tmp_path, "a.f90", SCALE.replace('"i", 64', '"q", 64'))
    assert translate("a.f90", "--emit", "ir", cwd=tmp_path).returncode == 1
    r = translate("a.f90", "--emit", "ir-unmapped", "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.ir"]
    assert "kernel s_k" in (tmp_path / "out" / "a.ir").read_text()


def test_translate_file_emits_it(tmp_path: Path) -> None:
    src = write(tmp_path, "a.f90", SCALE)
    paths = translate_file(str(src), str(tmp_path / "o"), emit="ir-unmapped")
    assert [Path(p).name for p in paths] == ["a.ir"]
