"""The suite's build check (tests/kernel_builds.py) builds a one-region file's ``src.cl`` and
the program its glue embeds once: they differ only by the ``.cl``'s stamp comment (h82)."""

from __future__ import annotations

from pathlib import Path

from tests.kernel_builds import KernelBuilds, written_programs

SAXPY = """\
void saxpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma translate kernel saxpy_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
#pragma translate end kernel
}
"""


def test_the_cl_of_one_region_is_not_built_again(ctx, tmp_path: Path) -> None:
    import translator
    (tmp_path / "saxpy.c").write_text(SAXPY)
    translator.translate_file(str(tmp_path / "saxpy.c"), str(tmp_path / "out"))
    programs = list(written_programs(tmp_path / "out"))
    assert [origin.rsplit("/", 1)[1] for origin, _ in programs] == \
        ["saxpy.host.c (program 0)", "saxpy.cl"]
    assert programs[1][1].startswith("// translate generation stamp ")
    builds = KernelBuilds(lambda: ctx, tmp_path / "cache")
    assert all(builds.failure(origin, program) is None for origin, program in programs)
    assert len(list((tmp_path / "cache").iterdir())) == 1     # one build, remembered


def test_a_program_that_only_looks_stamped_is_built(ctx, tmp_path: Path) -> None:
    """Only a leading stamp line is set aside: a program with other text first is another."""
    builds = KernelBuilds(lambda: ctx, tmp_path / "cache")
    kernel = "__kernel void k(__global int *a) { a[0] = 1; }\n"
    stamped = "// translate generation stamp 0123abcd\n" + kernel
    assert builds.failure("a.cl", kernel) is None
    assert builds.failure("b.cl", stamped) is None
    assert builds.failure("c.cl", "#define X 1\n" + stamped) is None
    assert builds.failure("d.cl", kernel.replace("= 1", "= k_outer") + "// translate "
                          "generation stamp 0123abcd\n") is not None
    assert len(list((tmp_path / "cache").iterdir())) == 2
