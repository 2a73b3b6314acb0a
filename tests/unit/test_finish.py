"""Finishing up: linearized kernels, generate_code_v2 and its parts, generate_header, and
save_and_reload_temporaries (a no-op where code generation needs none, an error where it would
need a kernel split)."""

from __future__ import annotations

import subprocess

import numpy as np
import pyopencl as cl
import pytest

import transforms
import translator
from translator.diagnostics import TransformError
from translator.execution import evaluate
from translator.finish import CodeGenerationResult, LinearItem, LinearizedKernel


def _row_sums():
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<m}", "c[i] = sum(j, a[i, j])",
                                 [translator.GlobalArg("a", np.float64, shape="n, m",
                                                       order="F"), "..."])
    return transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")


# ---------------------------------------------------------------------------------------------
# linearization


def test_generate_loop_schedules_yields_one_linearized_kernel():
    knl = _row_sums()
    found = list(translator.generate_loop_schedules(knl))
    assert len(found) == 1 and isinstance(found[0], LinearizedKernel)
    assert found[0] == translator.get_one_linearized_kernel(knl)
    items = found[0].linearization
    assert [str(it) for it in items] == ["_tr_insn_init", "for j", "_tr_insn_update", "end j",
                                         "insn"]
    assert str(found[0]) == "_tr_insn_init\nfor j\n  _tr_insn_update\nend j\ninsn"


def test_linearization_has_barriers_and_balanced_loops():
    knl = translator.make_kernel("{[i, k]: 0<=i<16 and 0<=k<4}",
                                 ["t[i] = a[i] {id=w}",
                                  "out[k, i] = t[(i + 1) % 16] * k {id=r, dep=w}"],
                                 [translator.GlobalArg("a", np.float64, shape=(16,)),
                                  translator.TemporaryVariable("t", np.float64, shape=(16,),
                                                               address_space="local"), "..."])
    knl = transforms.tag_inames(knl, "i:l.0")
    items = translator.get_one_linearized_kernel(knl).linearization
    assert LinearItem("barrier", "local") in items
    depth = 0
    for item in items:
        depth += (item.kind == "enter_loop") - (item.kind == "leave_loop")
        assert depth >= 0
    assert depth == 0


# ---------------------------------------------------------------------------------------------
# generate_code_v2 and generate_header


def test_generate_code_v2_parts():
    knl = _row_sums()
    result = translator.generate_code_v2(knl)
    assert isinstance(result, CodeGenerationResult)
    assert result.device_code() == translator.generate_code(knl).device_code
    (prog,) = result.device_programs
    assert prog.is_device_program and prog.name == "_tr_kernel"
    assert prog.ast.startswith("__kernel void") and prog.body_ast in prog.ast
    assert prog.body_ast.startswith("  double _tr_acc;")
    assert result.device_preambles == ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                       "#pragma OPENCL FP_CONTRACT OFF",)
    assert result.device_code() == result.device_preambles[0] + "\n\n" + prog.ast
    assert set(result.implemented_domains) == {"_tr_insn_init", "_tr_insn_update", "insn"}
    info = {d.name: d for d in result.implemented_data_info}
    assert info["a"].kind == "array" and info["a"].is_input and not info["a"].is_output
    assert evaluate(info["a"].strides[0], {"n": 5, "m": 7}) == 1       # Fortran order
    assert evaluate(info["a"].strides[1], {"n": 5, "m": 7}) == 5
    assert info["c"].is_output and info["m"].kind == "value"
    assert translator.generate_code_v2(translator.get_one_linearized_kernel(knl)) \
        .device_code() == result.device_code()


def test_implemented_domains_are_the_statement_domains():
    from translator.ir.isl_glue import inames_of, statement_domain
    knl = _row_sums()
    result = translator.generate_code_v2(knl)
    lowered = translator.get_one_linearized_kernel(knl).kernel
    for stmt in lowered.statements:
        (dom,) = result.implemented_domains[stmt.id]
        assert dom == statement_domain(lowered.domains, stmt.within_inames)
        assert set(inames_of(dom)) == set(stmt.within_inames)


def test_code_and_data_info_run_on_the_device(ctx, queue):
    """Build the device code ourselves and lay the buffers out from implemented_data_info."""
    knl = _row_sums()
    result = translator.generate_code_v2(knl)
    n, m = 37, 5
    a = np.asfortranarray(np.random.default_rng(0).uniform(-1, 1, (n, m)))
    prg = cl.Program(ctx, result.device_code()).build()
    sizes = {"n": n, "m": m}
    args, c_buf = [], None
    for d in result.implemented_data_info:
        if d.kind == "value":
            args.append(np.int32(sizes[d.name]))
            continue
        count = evaluate(d.size, sizes)
        host = a.ravel(order="F") if d.name == "a" else np.zeros(count)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
        args.append(buf)
        c_buf = buf if d.name == "c" else c_buf
    gsize = tuple(evaluate(e, sizes) for e in result.generated.global_size)
    lsize = tuple(int(e) for e in result.generated.local_size)
    getattr(prg, result.device_programs[0].name)(queue, gsize, lsize, *args)
    c = np.zeros(n)
    cl.enqueue_copy(queue, c, c_buf)
    np.testing.assert_allclose(c, a.sum(axis=1), rtol=1e-14)


def test_generate_header_declares_the_kernel(ctx):
    knl = _row_sums()
    result = translator.generate_code_v2(knl)
    header = translator.generate_header(knl, result)
    assert header == [result.device_programs[0].ast.split("\n", 1)[0] + ";"]
    assert translator.generate_header(knl) == header
    # a prototype, then the definition: what a header is for
    source = (result.device_preambles[0] + "\n" + "\n".join(header) + "\n"
              + result.device_programs[0].ast)
    cl.Program(ctx, source).build()


def test_host_program_compiles(tmp_path):
    result = translator.generate_code_v2(_row_sums())
    host = result.host_program
    assert not host.is_device_program and host.name == "translate_kernel"
    assert "void translate_kernel(const cl_double *a, cl_double *c, cl_int m, cl_int n)" \
        in result.host_code()
    src = tmp_path / "glue.c"
    src.write_text(result.host_code())
    from tests.e2e.harness import runtime_dir
    subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror", f"-I{runtime_dir()}", str(src)],
                   check=True)


# ---------------------------------------------------------------------------------------------
# save_and_reload_temporaries


def _barrier_kernel():
    return translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["<> t = 2*a[i] {id=w}", "... gbarrier {id=gb, dep=w}",
         "out[i] = t + a[(i + 1) % n] {id=r, dep=gb}"],
        [translator.GlobalArg("a", np.float64, shape="n"), "..."])


def test_no_global_barrier_is_no_change():
    knl = _row_sums()
    assert translator.save_and_reload_temporaries(knl) is knl


def test_one_work_group_keeps_temporaries_across_the_barrier(ctx, queue):
    knl = transforms.fix_parameters(transforms.tag_inames(_barrier_kernel(), "i:l.0"), n=16)
    assert translator.save_and_reload_temporaries(knl) is knl
    a = np.arange(16.0)
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    np.testing.assert_array_equal(out, 2 * a + np.roll(a, -1))


def test_several_work_groups_with_a_live_temporary_is_an_error():
    knl = transforms.split_iname(_barrier_kernel(), "i", 16, outer_tag="g.0", inner_tag="l.0")
    with pytest.raises(TransformError, match=r"temporary t is live across global barrier 'gb' "
                                             r"in a kernel that runs several work groups "
                                             r"\(i_outer on group axes\)"):
        translator.save_and_reload_temporaries(knl)


def test_several_work_groups_without_live_temporaries_is_no_change():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["b[i] = 2*a[i] {id=w}", "... gbarrier {id=gb, dep=w}",
                          "out[i] = b[i] {id=r, dep=gb}"],
        [translator.GlobalArg("a", np.float64, shape="n"), "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    assert translator.save_and_reload_temporaries(knl) is knl


def test_temporary_live_around_a_loop_is_found():
    """Written after the barrier, read before it in the next iteration of the loop."""
    knl = translator.make_kernel(
        "{[k, i]: 0<=k<4 and 0<=i<n}",
        ["<> t = 0 {id=init, inames=i}", "out[k, i] = t {id=r, dep=init, inames=k:i}",
         "... gbarrier {id=gb, dep=r, inames=k}", "t = a[i] * k {id=w, dep=gb, inames=k:i}"],
        [translator.GlobalArg("a", np.float64, shape="n"), "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    with pytest.raises(TransformError, match="temporary t is live across global barrier"):
        translator.save_and_reload_temporaries(knl)
