"""The test suite's check that every emitted OpenCL program builds (tests/kernel_builds.py),
and `join_programs`, which makes a file's kernels one program that builds (issue 20)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyopencl as cl
import pytest

import transforms
import translator
from tests.kernel_builds import KernelBuilds, c_string_value, glue_programs, written_programs
from translator.codegen.host import c_string_literal
from translator.codegen.program import join_programs


def test_embedded_programs_read_back_exactly() -> None:
    text = 'x = "a\\b" ? 1 : 2;\n\tcaf\u00e9 \x01\n#line 3 "d\u00e9j\u00e0.c"\nend'
    host = f"static const char _tr_source_k[] =\n{c_string_literal(text)};\n"
    assert c_string_value(c_string_literal(text)) == text
    assert glue_programs(host + host.replace("_k[]", "_k_1[]")) == [text, text]


def test_a_program_that_does_not_build_is_reported(ctx, tmp_path: Path) -> None:
    builds = KernelBuilds(lambda: ctx, tmp_path / "cache")
    good = "__kernel void k(__global int *a) { a[0] = 1; }\n"
    bad = "__kernel void k(__global int *a) { a[0] = k_outer; }\n"
    assert builds.failure("good.cl", good) is None
    assert len(list((tmp_path / "cache").iterdir())) == 1     # remembered by its hash
    message = builds.failure("out/bad.host.c (program 0)", bad)
    assert message.startswith("an emitted OpenCL program does not build "
                              "(out/bad.host.c (program 0)):")
    assert "k_outer" in message and bad in message


def test_written_glue_and_cl_files_are_found(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    program = "__kernel void k(__global int *a) { a[0] = 1; }\n"
    (out / "f.host.c").write_text(f"static const char _tr_source_k[] =\n"
                                  f"{c_string_literal(program)};\n")
    (out / "f.cl").write_text(program)
    (out / "notes.cl").write_text("/* no kernel */\n")
    assert [p for _, p in written_programs(tmp_path)] == [program, program]


def _group_sum(name: str, dtype) -> str:
    knl = translator.make_kernel("{[i]: 0<=i<n}", "s[0] = s[0] + sum(i, a[i])", name=name)
    knl = transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0")
    return translator.generate_code(transforms.add_dtypes(knl, {"a": dtype, "s": dtype}))


def test_kernels_sharing_a_helper_join_into_one_program(ctx) -> None:
    """Before: the file's .cl defined the last-group finish once per region and did not
    build (``redefinition of '_tr_finish_sum_float64'``)."""
    first, second = _group_sum("one", np.float64), _group_sum("two", np.float64)
    helper = "_tr_finish_sum_float64(__global double *p"
    assert helper in first.device_code and helper in second.device_code
    joined = join_programs([first.device_code, second.device_code,
                            _group_sum("three", np.int32).device_code])
    assert joined.count(helper) == 1
    program = cl.Program(ctx, joined).build()
    assert sorted(k.function_name for k in program.all_kernels()) == ["one", "three", "two"]


@pytest.mark.parametrize("part", ["__kernel void k(void)\n{\n}\n", "#define X 1\n"])
def test_joining_one_program_keeps_it(part: str) -> None:
    assert join_programs([part]) == part


TWO_SUMS = """\
double first(int n, const double *restrict a)
{
  double s = 0.0;
#pragma translate kernel first_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s += a[i];
#pragma translate end kernel
  return s;
}

double second(int n, const double *restrict a)
{
  double s = 1.0;
#pragma translate kernel second_k
#pragma translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s += 2 * a[i];
#pragma translate end kernel
  return s;
}
"""


def test_cl_output_of_regions_sharing_a_helper_builds(ctx) -> None:
    from translator.driver import translate_text
    device = translate_text("sums.c", TWO_SUMS).outputs["sums.cl"]
    assert device.count("static inline void _tr_finish_sum_float64(") == 1
    program = cl.Program(ctx, device).build()
    assert sorted(k.function_name for k in program.all_kernels()) == ["first_k", "second_k"]
