"""Finishing up (docs/transforms.md, "Finishing up"): linearized kernels, the
structured code-generation result, headers, and temporaries across global barriers.

The code generator is deterministic: a kernel has exactly one linearization (the scheduler's
greedy order, `translator.schedule`), so `generate_loop_schedules` yields one kernel and
needs no recursion-limit context manager.  A region becomes a host program of one or more
launches (`translator.split` decides where); the host program is the C glue `translate` writes
(`translator.codegen.host`).

``save_and_reload_temporaries`` is about kernels that a global barrier splits into several
device kernels, whose private and local temporaries would be lost in between.  An explicit
global barrier statement never splits a kernel here (the region splitter splits at dependences,
before barriers exist): a global barrier is emitted only when the region runs as one work group (no ``g.N``
axis), where it is an ordinary work-group barrier with a global memory fence and every
temporary survives it.  So the transform returns the kernel unchanged when it has no global
barrier or no group axis, and raises a `TransformError` naming the temporaries when a kernel
with group axes keeps one live across a global barrier (that kernel would need a split the
code generator cannot make).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from translator.codegen.barriers import insert_barriers
from translator.codegen.host import HostUnit, generate_host_file, glue_signature
from translator.codegen.opencl import generate_code, prepare_kernel
from translator.codegen.result import GeneratedCode
from translator.records import dataclass
from translator.schedule import (BarrierNode, LoopNode, Schedule, ScheduleNode, StatementNode,
                                 schedule_kernel)
from translator.diagnostics import TransformError
from translator.ir.data import AddressSpace, ArrayArg, strides
from translator.ir.expr import Expression, dependencies
from translator.ir.isl_glue import statement_domain
from translator.ir.kernel import Kernel
from translator.ir.statements import BarrierInstruction
from translator.ir.tags import GroupTag
from translator.ir.util import FrozenDict

# ---------------------------------------------------------------------------------------------
# linearization


@dataclass(frozen=True, slots=True)
class LinearItem:
    """One step of a linearization: `kind` is "enter_loop" / "leave_loop" (name: the iname),
    "run_statement" (name: the statement id) or "barrier" (name: "local" or "global")."""

    kind: str
    name: str

    def __str__(self) -> str:
        return {"enter_loop": "for {}", "leave_loop": "end {}", "run_statement": "{}",
                "barrier": "barrier({})"}[self.kind].format(self.name)


@dataclass(frozen=True, slots=True, kw_only=True)
class LinearizedKernel:
    """A kernel ready for printing: types inferred and reductions lowered (`kernel`), and the
    loop tree its code follows, barriers included (`schedule`)."""

    kernel: Kernel
    schedule: Schedule

    @property
    def linearization(self) -> tuple[LinearItem, ...]:
        """The loop tree as a flat sequence (the reference's ``linearization``)."""
        return tuple(_flatten(self.schedule.body))

    def __str__(self) -> str:
        lines, depth = [], 0
        for item in self.linearization:
            depth -= item.kind == "leave_loop"
            lines.append("  " * depth + str(item))
            depth += item.kind == "enter_loop"
        return "\n".join(lines)


def _flatten(nodes: tuple[ScheduleNode, ...]) -> Iterator[LinearItem]:
    for node in nodes:
        if isinstance(node, LoopNode):
            yield LinearItem("enter_loop", node.iname)
            yield from _flatten(node.body)
            yield LinearItem("leave_loop", node.iname)
        elif isinstance(node, BarrierNode):
            yield LinearItem("barrier", node.kind)
        else:
            yield LinearItem("run_statement", node.statement_id)


def generate_loop_schedules(kernel: Kernel, callables_table: Any = None,
                            debug_args: Any = None) -> Iterator[LinearizedKernel]:
    """Yield the linearizations of `kernel`: exactly one, the code generator's (its scheduler
    is deterministic).  `callables_table` and `debug_args` are accepted for compatibility with
    the reference and unused: registered functions live in the kernel itself."""
    yield get_one_linearized_kernel(kernel, callables_table)


def get_one_linearized_kernel(kernel: Kernel, callables_table: Any = None) -> LinearizedKernel:
    """The linearized kernel that `translator.generate_code` prints."""
    if isinstance(kernel, LinearizedKernel):
        return kernel
    prepared = prepare_kernel(kernel)
    return LinearizedKernel(kernel=prepared, schedule=insert_barriers(schedule_kernel(prepared)))


# ---------------------------------------------------------------------------------------------
# temporaries across global barriers


def save_and_reload_temporaries(kernel: Kernel, entrypoint: str | None = None) -> Kernel:
    """Keep temporaries alive across global barriers (see the module docstring): a no-op for
    a kernel without a global barrier or without a group axis; otherwise a `TransformError`
    names the temporaries live across a barrier.  `entrypoint` is accepted for compatibility
    and unused."""
    barriers = {s.id for s in kernel.statements
                if isinstance(s, BarrierInstruction) and s.synchronization_kind == "global"}
    if not barriers:
        return kernel
    linear = get_one_linearized_kernel(kernel)
    groups = sorted(n for n, t in linear.schedule.hardware.items() if isinstance(t, GroupTag))
    if not groups:
        return kernel
    for barrier, live in _live_across(linear, barriers):
        if live:
            raise TransformError(
                f"save_and_reload_temporaries: temporar{'y' if len(live) == 1 else 'ies'} "
                f"{', '.join(live)} {'is' if len(live) == 1 else 'are'} live across global "
                f"barrier {barrier!r} in a kernel that runs several work groups "
                f"({', '.join(groups)} on group axes); the code generator emits one OpenCL "
                "kernel per region and cannot split it at the barrier to save and reload them "
                "(map the region onto one work group, or end the region at the barrier)",
                kernel.statement(barrier).span)
    return kernel


@dataclass(frozen=True, slots=True)
class _Step:
    position: int
    statement_id: str
    loops: tuple[str, ...]


def _steps(nodes: tuple[ScheduleNode, ...], loops: tuple[str, ...] = (),
           out: list[_Step] | None = None) -> list[_Step]:
    out = [] if out is None else out
    for node in nodes:
        if isinstance(node, LoopNode):
            _steps(node.body, loops + (node.iname,), out)
        elif isinstance(node, StatementNode):
            out.append(_Step(len(out), node.statement_id, loops))
    return out


def _live_across(linear: LinearizedKernel, barriers: set[str]
                 ) -> list[tuple[str, list[str]]]:
    """For each global barrier, in order, the non-global temporaries one of whose values is
    written before it and read after it (also around an enclosing loop)."""
    kernel = linear.kernel
    steps = _steps(linear.schedule.body)
    stmts = kernel.id_to_statement
    out = []
    for bar in (s for s in steps if s.statement_id in barriers):
        live = []
        for name, temp in kernel.temporaries.items():
            if temp.address_space == AddressSpace.GLOBAL:
                continue
            writes = [s for s in steps if name in stmts[s.statement_id].assignee_names()]
            reads = [s for s in steps if any(name in dependencies(e) for e in
                                             stmts[s.statement_id].read_expressions())]
            if _crosses(bar, writes, reads):
                live.append(name)
        out.append((bar.statement_id, sorted(live)))
    return out


def _crosses(bar: _Step, writes: list[_Step], reads: list[_Step]) -> bool:
    if any(w.position < bar.position for w in writes) and any(
            r.position > bar.position for r in reads):
        return True
    # Around a loop: written after the barrier, read before it in the next iteration.
    return any(loop in w.loops and loop in r.loops and r.position < bar.position < w.position
               for loop in bar.loops for w in writes for r in reads)


# ---------------------------------------------------------------------------------------------
# the structured result


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratedProgram:
    """One generated function: `ast` is its whole definition (text), `body_ast` the part
    between its braces (declarations of temporaries included)."""

    name: str
    is_device_program: bool
    ast: str
    body_ast: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ImplementedDataInfo:
    """How one kernel argument is passed: ``kind`` "array" (a buffer of `size` elements laid
    out with `strides` from `offset`) or "value"."""

    name: str
    dtype: np.dtype
    kind: str
    shape: tuple[Expression, ...] | None = None
    strides: tuple[Expression, ...] | None = None
    offset: Expression = 0
    size: Expression | None = None
    is_input: bool = True
    is_output: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeGenerationResult:
    """What `generate_code_v2` returns (the reference's CodeGenerationResult)."""

    host_program: GeneratedProgram
    device_programs: tuple[GeneratedProgram, ...]
    device_preambles: tuple[str, ...]
    #: statement id -> the isl sets of its instances that the code runs (lowered kernel).
    implemented_domains: FrozenDict[str, tuple[Any, ...]]
    implemented_data_info: tuple[ImplementedDataInfo, ...]
    #: The flat result of `translator.generate_code`, for the execution layer.
    generated: GeneratedCode

    def device_code(self) -> str:
        """The device source: preambles, then every device program."""
        return self.generated.device_code

    def host_code(self) -> str:
        return self.host_program.ast


def generate_code_v2(kernel: Kernel | LinearizedKernel) -> CodeGenerationResult:
    """Generate code for `kernel` and describe it (programs, domains, data layout)."""
    linear = get_one_linearized_kernel(kernel)
    generated = generate_code(linear.kernel)
    # a kernel cut at global barriers has several device programs (`HostProgramCode.kernels`)
    devices, preambles = [], []
    for code in getattr(generated, "kernels", (generated,)):
        preamble, definition, body = _split_device_code(code.device_code)
        devices.append(GeneratedProgram(name=code.kernel_name, is_device_program=True,
                                        ast=definition, body_ast=body))
        if preamble and preamble not in preambles:
            preambles.append(preamble)
    return CodeGenerationResult(
        host_program=_host_program(linear.kernel, generated), device_programs=tuple(devices),
        device_preambles=tuple(preambles),
        implemented_domains=_implemented_domains(linear.kernel),
        implemented_data_info=_data_info(linear.kernel, generated), generated=generated)


def generate_header(kernel: Kernel | LinearizedKernel,
                    codegen_result: CodeGenerationResult | None = None) -> list[str]:
    """Declarations (prototypes) of the generated device functions, as C text."""
    result = codegen_result if codegen_result is not None else generate_code_v2(kernel)
    return [prog.ast.split("\n", 1)[0].rstrip() + ";" for prog in result.device_programs]


def _split_device_code(code: str) -> tuple[str, str, str]:
    """(preamble, kernel definition, body) of device code: the definition starts at the
    unindented ``__kernel`` line that the opening brace follows."""
    lines = code.splitlines(keepends=True)
    for k, line in enumerate(lines[:-1]):
        if line.startswith("__kernel ") and lines[k + 1].rstrip("\n") == "{":
            body = "".join(lines[k + 2:])
            body = body[:body.rstrip().rfind("}")]
            return "".join(lines[:k]).rstrip("\n"), "".join(lines[k:]), body
    raise AssertionError("generate_code_v2: no kernel definition in the generated code")


def _host_program(kernel: Kernel, generated: GeneratedCode) -> GeneratedProgram:
    region = kernel.name
    signature = glue_signature(region, generated)
    where = str(kernel.span) if kernel.span is not None else "<python>"
    unit = HostUnit(region_name=region, signature=signature, generated=generated, where=where)
    text = generate_host_file([unit], source_name=kernel.name)
    return GeneratedProgram(name=signature.symbol, is_device_program=False, ast=text,
                            body_ast=text)


def _implemented_domains(kernel: Kernel) -> FrozenDict[str, tuple[Any, ...]]:
    return FrozenDict((s.id, (statement_domain(kernel.domains, s.within_inames),))
                      for s in kernel.statements)


def _data_info(kernel: Kernel, generated: GeneratedCode) -> tuple[ImplementedDataInfo, ...]:
    out = []
    for prm in generated.params:
        arg = kernel.arg(prm.name)
        if isinstance(arg, ArrayArg) and arg.shape is not None and arg.dim_tags is not None:
            layout = {"strides": strides(arg.shape, arg.dim_tags), "offset": arg.offset}
        else:
            layout = {}
        out.append(ImplementedDataInfo(name=prm.name, dtype=np.dtype(prm.dtype), kind=prm.kind,
                                       shape=prm.shape, size=prm.size, is_input=prm.is_input,
                                       is_output=prm.is_output, **layout))
    return tuple(out)


__all__ = ["CodeGenerationResult", "GeneratedProgram", "ImplementedDataInfo", "LinearItem",
           "LinearizedKernel", "generate_code_v2", "generate_header", "generate_loop_schedules",
           "get_one_linearized_kernel", "save_and_reload_temporaries"]
