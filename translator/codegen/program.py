"""Generated host programs: a region that runs as several kernels inside host loops.

`HostProgramCode` is what code generation returns for a region that `translator.split` cut into
parts (a region that runs as one launch keeps its `GeneratedCode`).  Its `params` are the
region's own parameters (the host function's), with the data movement of the whole call:

- an array is copied to the device once, at region entry, unless the first kernel that touches
  it writes every element without reading it (and runs unconditionally: not inside a host loop,
  which may run zero times);
- it is copied back once, at exit, if any kernel writes it;
- `buffers` (temporaries that live across launches: reduction results, scalars between
  kernels) exist only on the device and never move.

Nothing moves between the launches: every kernel argument is the region's buffer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from translator.codegen.result import FixedParam, GeneratedCode, KernelParam
from translator.ir.expr import Expression, dependencies
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class KernelLaunch:
    """One launch of a generated kernel; `mapping` / `sequential_reason` as the automatic
    mapper chose them for this kernel."""

    code: GeneratedCode
    mapping: tuple[str, ...] = ()
    sequential_reason: str = ""
    #: What chose `mapping` when not the simple mapping ("dense tiling (automatic)").
    mapping_kind: str = ""
    #: The region's loops (inames before mapping) that this kernel runs, outermost first.
    loops: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class HostLoopCode:
    """``for (iname = lower; iname <= upper; ++iname) body`` on the host."""

    iname: str
    lower: Expression
    upper: Expression
    body: tuple[KernelLaunch | HostLoopCode, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HostProgramCode:
    """A region as a host program (module docstring)."""

    name: str
    params: tuple[KernelParam, ...]
    buffers: tuple[KernelParam, ...]
    body: tuple[KernelLaunch | HostLoopCode, ...]

    def launches(self) -> Iterator[tuple[KernelLaunch, tuple[str, ...]]]:
        """Every launch in program order, with the host loops around it."""
        return _walk(self.body, ())

    @property
    def host_params(self) -> tuple[KernelParam, ...]:
        """The parameters a caller passes (the kernels' "scratch" buffers are not among
        `params`), then the fixed values."""
        return self.params + tuple(f.param for f in self.fixed)

    @property
    def fixed(self) -> tuple[FixedParam, ...]:
        """The value arguments `fix_parameters` fixed (every kernel of the region has them)."""
        kernels = self.kernels
        return kernels[0].fixed if kernels else ()

    @property
    def kernels(self) -> tuple[GeneratedCode, ...]:
        return tuple(launch.code for launch, _ in self.launches())

    @property
    def device_code(self) -> str:
        """All kernels' OpenCL sources as one program (`join_programs`; each also builds
        alone)."""
        return join_programs([k.device_code for k in self.kernels])

    @property
    def uses_fp64(self) -> bool:
        return any(k.uses_fp64 for k in self.kernels)

    @property
    def kernel_name(self) -> str:
        return self.name

    @property
    def assumptions(self) -> tuple[Expression, ...]:
        """The kernels' assumptions on the region's value parameters (each once, in order):
        the host program tests them at entry, as a one-kernel region does."""
        values = {prm.name for prm in self.params if prm.kind == "value"}
        out: list[Expression] = []
        for code in self.kernels:
            for cond in code.assumptions:
                if dependencies(cond) <= values and cond not in out:
                    out.append(cond)
        return tuple(out)


def join_programs(parts: Sequence[str]) -> str:
    """OpenCL programs one after the other, as one program that builds: a top-level
    definition that an earlier part already made (a helper two kernels use, such as the
    last-group finish of a reduction) is left out; everything else is kept, in order."""
    seen: set[str] = set()
    out: list[str] = []
    for part in parts:
        kept = []
        for block in _top_level_blocks(part):
            if _is_definition(block) and not block.startswith("__kernel"):
                if block in seen:
                    continue
                seen.add(block)
            kept.append(block)
        text = "".join(kept)
        out.append(text if text.endswith("\n") else text + "\n")
    return "\n".join(out)


def _top_level_blocks(text: str) -> list[str]:
    """`text` cut into lines outside definitions and whole definitions (from an unindented
    line that is no preprocessor directive to the next unindented ``}``, or that line alone
    where it ends with ``;``)."""
    blocks: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines(keepends=True):
        if current is not None:
            current.append(line)
            if line.startswith("}"):
                blocks.append("".join(current))
                current = None
        elif _is_definition(line) and not line.rstrip().endswith(";"):
            current = [line]
        else:
            blocks.append(line)
    if current is not None:
        blocks.append("".join(current))
    return blocks


def _is_definition(text: str) -> bool:
    return bool(text.strip()) and not text[0].isspace() and not text.startswith("#")


def _walk(body, host: tuple[str, ...]) -> Iterator[tuple[KernelLaunch, tuple[str, ...]]]:
    for part in body:
        if isinstance(part, KernelLaunch):
            yield part, host
        else:
            yield from _walk(part.body, host + (part.iname,))


def _uses_by_name(program_body: Sequence) -> dict[str, list[tuple[KernelParam, tuple]]]:
    """For each parameter name, (the first parameter of that name of a launch, the launch's
    host loops) over the launches in program order (one walk, not one per parameter)."""
    out: dict[str, list[tuple[KernelParam, tuple]]] = {}
    for launch, host in _walk(program_body, ()):
        seen: set[str] = set()
        for q in launch.code.params:
            if q.name not in seen:
                seen.add(q.name)
                out.setdefault(q.name, []).append((q, host))
    return out


def region_params(whole: Sequence[KernelParam], program_body: Sequence,
                  buffers: Sequence[str]) -> tuple[tuple[KernelParam, ...],
                                                   tuple[KernelParam, ...]]:
    """(the region's parameters, the device-only buffers) with the data movement of one call
    (module docstring).  `whole` are the parameters of the whole region kernel."""
    uses_of = _uses_by_name(program_body)
    params, bufs = [], []
    for prm in whole:
        if prm.kind == "value":
            params.append(prm)
            continue
        uses = uses_of.get(prm.name, [])
        reads = any(q.is_input for q, _ in uses)
        writes = any(q.is_output for q, _ in uses)
        first, first_host = uses[0] if uses else (None, ())
        overwrites = bool(first is not None and not first_host and first.overwrites
                          and not first.is_input)
        moved = replace(prm, is_input=reads and not overwrites, is_output=writes,
                        overwrites=overwrites)
        (bufs if prm.name in buffers else params).append(moved)
    return tuple(params), tuple(bufs)


__all__ = ["HostLoopCode", "HostProgramCode", "KernelLaunch", "join_programs",
           "region_params"]
