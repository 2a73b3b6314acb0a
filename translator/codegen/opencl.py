"""OpenCL C code generation: `generate_code(kernel) -> GeneratedCode` (static, no device).

Stages, in order (each needs the previous one):

1. type inference (`translator.ir.types`): every variable needs a dtype to be declared;
2. reduction lowering: reductions across work items first (`translator.codegen.
   parallel_reductions`: trees in local memory, atomics across groups), then the sequential
   ones (`translator.codegen.reductions`); accumulators are ordinary statements, so they must
   exist before scheduling;
3. scheduling (`translator.schedule`) and local barriers (`translator.codegen.barriers`);
4. the NDRange (`translator.codegen.grid`): sizes and the facts every work item may assume;
5. printing (`translator.codegen.emit`): loops, guards, statements; then declarations,
   helper functions and the signature, which depend on what the body used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar

import numpy as np
from pymbolic import evaluate
import pymbolic.primitives as p

from translator.codegen import registry
from translator.codegen.barriers import insert_barriers
from translator.codegen.cexpr import (CExpressionPrinter, c_type_name, float_literal,
                                      int_literal, safe_name)
from translator.codegen.math_functions import helper_definition
from translator.codegen.complex import (COMPLEX128, check_complex_reductions,
                                        complex_helper_definitions, complex_literal,
                                        is_complex_helper)
from translator.codegen.emit import TreeEmitter, line_text
from translator.codegen.vector_loads import VECTOR_BYTES, VectorLoadEmitter
from translator.codegen import images
from translator.codegen.grid import Grid, compute_grid
from translator.codegen.group_updates import finish_buffer_name
from translator.codegen.arg_reductions import is_arg_finish, local_rank_buffer_name
from translator.codegen.parallel_reductions import (SCRATCH_PREFIX, atomic_preamble,
                                                    lower_parallel_reductions)
from translator.codegen.program import HostProgramCode, KernelLaunch, region_params
from translator.codegen.reductions import lower_reductions
from translator.codegen.result import FixedParam, GeneratedCode, KernelParam
from translator.records import replace
from translator.schedule import schedule_kernel
from translator.diagnostics import CodegenError
from translator.ir import images as image_rules
from translator.ir import isl_glue as glue
from translator.ir.data import (AddressSpace, ArrayArg, FixedStrideTag, NestingTag,
                                TemporaryVariable, ValueArg, storage_span, strides)
from translator.ir.expr import Expression, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, BarrierInstruction, CallInstruction
from translator.ir.parse_infer import expand_rules
from translator.ir.registrations import generator_names
from translator.ir.shape_memo import KernelMemo, span_slots
from translator.ir.slicing import loop_order, referenced_names, sub_kernel
from translator.ir.tags import GroupTag
from translator.ir.types import FLOAT64, TypeOracle, infer_unknown_types


def prepare_kernel(kernel: Kernel) -> Kernel:
    """Types inferred (all must be known) and reductions lowered."""
    kernel = default_input_dtypes(infer_unknown_types(expand_rules(kernel)))
    kernel = infer_unknown_types(kernel, expect_completion=True)
    check_complex_reductions(kernel)
    return lower_reductions(lower_parallel_reductions(kernel))


def default_input_dtypes(kernel: Kernel, dtype=FLOAT64) -> Kernel:
    """Give `dtype` to arguments that are read and still have no type, arrays and scalars
    alike (``y[i] = a*x[i] + y[i]``): static generation of an untyped kernel-language kernel
    then works (`translator.compile` specialises on the arrays and numpy scalars it is
    called with instead).  Scalars whose use fixes their type (loop bounds, subscripts) have
    it from inference before this runs."""
    args = tuple(replace(a, dtype=dtype) if a.dtype is None and _read_input(a) else a
                 for a in kernel.args)
    return kernel if args == kernel.args else kernel.copy(args=args)


def _read_input(arg) -> bool:
    if isinstance(arg, ArrayArg):
        return arg.is_input is not False
    return isinstance(arg, ValueArg)


def host_view(kernel: Kernel) -> Kernel:
    """`kernel` with the types its host-side parameters need (for `kernel_params` of a whole
    region that runs as several kernels)."""
    return default_input_dtypes(infer_unknown_types(expand_rules(kernel)))


def generate_code(kernel: Kernel) -> GeneratedCode:
    """OpenCL C source and launch description of `kernel` (see module docstring).

    A kernel that runs several work groups and has global barriers outside its loops becomes a
    `translator.codegen.program.HostProgramCode`: one kernel per stretch between barriers,
    launched in order (its `kernels` are the device programs; `device_code` joins them)."""
    cuts = global_barrier_cuts(kernel)
    if cuts is not None:
        return generate_program(kernel, cuts)
    slots = span_slots(kernel)
    # a preamble generator is Python code that sees the kernel: its text is not remembered
    remember = not generator_names(kernel)
    held = _SHAPES.find(kernel) if remember else None
    if held is not None:
        return _filled(held, slots, kernel.name)
    asked = kernel
    token = _SLOTS.set(slots)
    try:
        kernel = prepare_kernel(kernel)
        # User functions are printable only while the registry's session for this kernel
        # is open.
        with registry.generation(kernel):
            code = _generate(kernel)
    finally:
        _SLOTS.reset(token)
    made = _MADE.get()
    _MADE.set(None)
    if remember and made is not None and made[2] is code and not made[1]:
        _SHAPES.keep(asked, made[0])
    return code


#: Generated code by kernel shape, up to the kernel's name and spans (`translator.ir.
#: shape_memo`), as templates (`_template`).  The text depends on the name in the signature
#: only, and on the spans through the ``#line`` directives only (`TreeEmitter.
#: line_directive`): both are placeholders in a template, filled in per asker (`_filled`).
_SHAPES = KernelMemo()

#: The span slots of the kernel `generate_code` was asked for, while its prepared kernel
#: (whose statements keep those spans) is generated.
_SLOTS: ContextVar[list | None] = ContextVar("codegen_span_slots", default=None)

#: The last `_generate`'s (template, whether a ``#line`` span was not a slot, code), per
#: thread (a context variable, as `_SLOTS`): the API may generate code on several threads.
_MADE: ContextVar[tuple[GeneratedCode, bool, GeneratedCode] | None] = ContextVar(
    "codegen_made", default=None)

#: The kernel's name in a template's signature (`_filled` puts the asker's in its place).
_NAME_MARK = "\x00name\x00"
_LINES = re.compile("\x00([0-9]+)\x00")


def _generate(kernel: Kernel) -> GeneratedCode:
    """The code of a prepared kernel, made from a template (`_template`) whose placeholders
    stand for the spans of `generate_code`'s kernel (`_SLOTS`) or else of `kernel`."""
    slots = _SLOTS.get()
    slots = span_slots(kernel) if slots is None else slots
    template, unplaced = _template(kernel, slots)
    code = _filled(template, slots, kernel.name)
    _MADE.set((template, unplaced, code))
    return code


def _filled(template: GeneratedCode, slots: list, name: str) -> GeneratedCode:
    """`template` (`_template`) for the kernel named `name` whose spans are `slots`."""
    name = safe_name(name)
    text = template.device_code.replace(_NAME_MARK, name, 1)
    if "\x00" in text:
        text = _LINES.sub(lambda found: line_text(slots[int(found.group(1))]), text)
    return replace(template, kernel_name=name, device_code=text)


def _template(kernel: Kernel, slots: list) -> tuple[GeneratedCode, bool]:
    """The code of a prepared kernel with its name and the ``#line`` directive of each span
    in `slots` as placeholders; and whether some directive's span was not among `slots`
    (the template is then good for this kernel alone)."""
    first: dict[int, int] = {}
    for k, span in enumerate(slots):
        if span is not None:
            first.setdefault(id(span), k)
    params = kernel_params(kernel)   # first: it refuses arguments that cannot be images
    schedule = insert_barriers(schedule_kernel(kernel))
    grid = compute_grid(kernel, schedule.hardware)
    oracle = TypeOracle(kernel)
    emitter = VectorLoadEmitter(schedule, grid, oracle)
    emitter.line_slots = first
    body = emitter.emit(depth=1)
    declarations = _declarations(kernel, grid, emitter.helpers, emitter.aligned_arrays)
    uses_fp64 = emitter.uses_fp64 or _declares_fp64(kernel) or registry.needs_fp64(kernel)
    # The header goes last: it holds the helpers that the body and declarations used.
    parts = [_header(kernel, emitter, uses_fp64),
             _signature(kernel, grid, params, _NAME_MARK), "{\n", *declarations,
             *(line + "\n" for line in body), "}\n"]
    code = GeneratedCode(kernel_name=_NAME_MARK, device_code="".join(parts),
                         params=params, global_size=grid.global_size,
                         local_size=tuple(grid.local_size), uses_fp64=uses_fp64,
                         assumptions=assumption_conditions(kernel),
                         fixed=fixed_params(kernel))
    return code, emitter.unplaced


def fixed_params(kernel: Kernel) -> tuple[FixedParam, ...]:
    """The value arguments `fix_parameters` replaced, for the host glue to check."""
    return tuple(FixedParam(param=KernelParam(name=name, kind="value", dtype=np.dtype(dtype)),
                            value=value)
                 for name, value, dtype in kernel.options.fixed_parameters)


def assumption_conditions(kernel: Kernel) -> tuple[Expression, ...]:
    """The kernel's assumptions on its value arguments, as conditions the host can test."""
    if kernel.assumptions is None:
        return ()
    values = {a.name for a in kernel.value_args}
    conds = glue.set_conditions(kernel.assumptions)
    return tuple(c for c in conds if dependencies(c) and dependencies(c) <= values)


# ---------------------------------------------------------------------------------------------
# text pieces

def _header(kernel: Kernel, emitter: TreeEmitter, uses_fp64: bool) -> str:
    out = []
    if uses_fp64:
        out.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
    if not kernel.options.fp_contract:
        out.append("#pragma OPENCL FP_CONTRACT OFF\n")
    if out:
        out.append("\n")
    if kernel.options.preamble:
        out.append(kernel.options.preamble.rstrip("\n") + "\n\n")
    out.append(registry.header_text(kernel))
    out.extend(helper_definition(kind, dt) for kind, dt in sorted(emitter.helpers)
               if not is_complex_helper((kind, dt)))
    out.append(complex_helper_definitions(emitter.helpers))
    out.append(atomic_preamble(emitter.atomics))
    return "".join(out)


def _signature(kernel: Kernel, grid: Grid, params: tuple[KernelParam, ...], name: str) -> str:
    """The kernel's signature, its name printed as `name`."""
    sizes = list(grid.local_size) + [1] * (3 - len(grid.local_size))
    attr = f"__attribute__ ((reqd_work_group_size({sizes[0]}, {sizes[1]}, {sizes[2]})))"
    args = ", ".join(_param_decl(kernel, prm) for prm in params)
    return f"__kernel void {attr} {name}({args})\n"


def _param_decl(kernel: Kernel, prm: KernelParam) -> str:
    t = c_type_name(prm.dtype)
    name = safe_name(prm.name)
    if prm.kind == "value":
        return f"{t} const {name}"
    if prm.kind == "image":
        return images.param_declaration(name, len(prm.shape))
    if prm.kind == "scratch":
        return f"__global {t} *{name}"
    arg = kernel.arg(prm.name)
    const = "" if prm.is_output else " const"
    restrict = "" if _may_alias(kernel, arg) else "restrict "
    return f"__global {t}{const} *{restrict}{name}"


def _may_alias(kernel: Kernel, arg: ArrayArg) -> bool:
    if arg.may_alias or arg.name in shared_buffer_names(kernel):
        return True
    return arg.name in _aliased_names(kernel.args)


def shared_buffer_names(kernel: Kernel) -> frozenset[str]:
    """Arrays whose memory the call passes for several arguments: an array of structs seen
    as arrays of its members' types (``extra["shared_buffers"]``: (view, array) pairs, from
    the C frontend).  Their subscripts keep members apart; the glue marks them TR_MAY_ALIAS
    so that the runtime gives them one device buffer, and none is ``restrict``."""
    pairs = kernel.options.extra.get("shared_buffers", ()) if kernel.options.extra else ()
    return frozenset(n for pair in pairs for n in pair)


#: `_aliased_names` by the identity of the argument tuple (held): asked once per parameter,
#: a scan of every argument each time was quadratic in a kernel of hundreds of arrays.
_ALIASED: dict[int, tuple[tuple, frozenset[str]]] = {}


def _aliased_names(args: tuple) -> frozenset[str]:
    """Names that some array argument declares it may alias."""
    held = _ALIASED.get(id(args))
    if held is None or held[0] is not args:
        if len(_ALIASED) >= 256:
            _ALIASED.clear()
        names = frozenset(n for a in args if isinstance(a, ArrayArg) for n in a.may_alias)
        held = _ALIASED[id(args)] = (args, names)
    return held[1]


def _declarations(kernel: Kernel, grid: Grid, helpers: set,
                  aligned: set[str] = frozenset()) -> list[str]:
    used = _used_names(kernel)
    lines = [f"  {_temporary_decl(t, t.name in aligned)}\n" for t in kernel.temporaries.values()
             if t.name in used]
    if any(a.is_image for a in kernel.array_args):
        lines.insert(0, f"  {images.sampler_declaration()}\n")
    for hw in grid.inames:
        base = "" if hw.base == 0 else f"{_param_text(kernel, hw.base, helpers)} + "
        lines.append(f"  int const {safe_name(hw.iname)} = {base}{grid.id_expression(hw)};\n")
    if lines:
        lines.append("\n")
    return lines


def _param_text(kernel: Kernel, expr: Expression, helpers: set) -> str:
    """An expression in value arguments (floor division proved or helped, as in the body)."""
    ctx = glue.context_set((), kernel.assumptions)
    printer = CExpressionPrinter(lambda e: None, target="opencl",
                                 is_nonnegative=lambda e: glue.nonnegative_in(e, ctx))
    printer.helpers = helpers
    return printer(expr)


def _temporary_decl(temp: TemporaryVariable, aligned: bool = False) -> str:
    """The declaration; `aligned`: 16-byte aligned (read through vector loads)."""
    if temp.dtype is None:
        raise CodegenError(f"temporary {temp.name!r} has no type", temp.span)
    space = temp.address_space or AddressSpace.PRIVATE
    if space == AddressSpace.GLOBAL:
        raise CodegenError(f"temporary {temp.name!r}: global temporaries are not supported yet",
                           temp.span)
    t = c_type_name(temp.dtype)
    prefix = "__local " if space == AddressSpace.LOCAL else ""
    name = safe_name(temp.name)
    if not temp.shape:
        init = f" = {_literal(temp.initializer[0], temp.dtype)}" if temp.initializer else ""
        return f"{prefix}{t} {name}{init};"
    size = _constant_size(temp)
    if temp.initializer:
        values = ", ".join(_literal(v, temp.dtype) for v in temp.initializer)
        return f"{prefix}{t} const {name}[{size}] = {{{values}}};"
    align = f" __attribute__((aligned({VECTOR_BYTES})))" if aligned else ""
    return f"{prefix}{t} {name}[{size}]{align};"


def _literal(value, dtype: np.dtype) -> str:
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return complex_literal(value, dt)
    return float_literal(float(value), dt) if dt.kind == "f" else int_literal(int(value), dt)


def _constant_size(temp: TemporaryVariable) -> int:
    """Elements of the temporary's storage: the product of its extents, or with fixed strides
    (a padded or transposed tile, add_prefetch's ``storage_axes``) one past the last
    element."""
    extents = []
    for extent in temp.shape:
        try:
            extents.append(int(evaluate(extent, {})))
        except Exception:
            raise CodegenError(f"temporary {temp.name!r}: shape {extent} is not a constant "
                               "(temporaries need a size known at code generation)",
                               temp.span) from None
    if not any(isinstance(t, FixedStrideTag) for t in temp.dim_tags or ()):
        return int(np.prod(extents))
    span = storage_span(replace(temp, shape=tuple(extents)))
    if span is None:
        raise CodegenError(f"temporary {temp.name!r}: strides {temp.dim_tags} are not "
                           "constants", temp.span)
    return span


def _used_names(kernel: Kernel) -> set[str]:
    """Every variable a statement writes or reads (one walk, not one per temporary); an
    update finished by the last work group also uses its local buffer."""
    used: set[str] = set()
    for s in kernel.statements:
        used.update(s.assignee_names())
        if getattr(s, "atomicity", None):
            used.add(finish_buffer_name(s.id))
        if is_arg_finish(s):    # the helper of an arg-reduction uses both local buffers
            used |= {finish_buffer_name(s.id), local_rank_buffer_name(s.id)}
        for e in s.read_expressions():
            used.update(dependencies(e))
    return used


def _declares_fp64(kernel: Kernel) -> bool:
    used = _used_names(kernel)
    vs = [*kernel.args, *(t for t in kernel.temporaries.values() if t.name in used)]
    return any(v.dtype is not None and np.dtype(v.dtype) in (FLOAT64, COMPLEX128) for v in vs)


# ---------------------------------------------------------------------------------------------
# kernel parameters

def kernel_params(kernel: Kernel) -> tuple[KernelParam, ...]:
    """Array arguments then value arguments, each group in `kernel.args` order.  The
    per-group value buffers of group reductions (`SCRATCH_PREFIX`) are of kind "scratch"."""
    read, written = _reads_and_writes(kernel)
    out: list[KernelParam] = []
    for arg in kernel.array_args:
        if arg.name.startswith(SCRATCH_PREFIX):
            out.append(KernelParam(name=arg.name, kind="scratch", dtype=np.dtype(arg.dtype),
                                   is_input=False, is_output=False, size=arg.shape[0],
                                   shape=arg.shape))
            continue
        # What the statements do decides; a declared flag can only add a transfer (flags
        # set when the kernel was made go stale when transforms remove statements).
        is_output = arg.name in written or bool(arg.is_output)
        is_input = arg.name in read or bool(arg.is_input)
        covered = _Once(lambda arg=arg: _fully_written(kernel, arg))
        if arg.is_input is None and not is_input:
            is_input = is_output and not covered()
        if arg.is_image:
            out.append(_image_param(arg, is_output))
            continue
        overwrites = arg.name in written and arg.name not in read and covered()
        out.append(KernelParam(name=arg.name, kind="array", dtype=np.dtype(arg.dtype),
                               is_input=bool(is_input), is_output=bool(is_output),
                               overwrites=overwrites, may_alias=_may_alias(kernel, arg),
                               size=array_size(arg), shape=arg.shape))
    for arg in kernel.value_args:
        out.append(KernelParam(name=arg.name, kind="value", dtype=np.dtype(arg.dtype),
                               is_input=True, is_output=False))
    return tuple(out)


class _Once:
    """A question asked at most once (`_fully_written` costs isl work)."""

    def __init__(self, compute: Callable[[], bool]) -> None:
        self._compute = compute
        self._value: bool | None = None

    def __call__(self) -> bool:
        if self._value is None:
            self._value = self._compute()
        return self._value


def _image_param(arg: ArrayArg, written: bool) -> KernelParam:
    """The parameter of an image argument; errors for what an image cannot be."""
    problem = image_rules.image_problem(arg, written=written)
    if problem is None and np.dtype(arg.dtype).name not in image_rules.IMAGE_DTYPES:
        problem = image_rules.dtype_problem(np.dtype(arg.dtype))
    if problem is not None:
        raise CodegenError(f"argument {arg.name!r} cannot be an image: {problem}", arg.span)
    return KernelParam(name=arg.name, kind="image", dtype=np.dtype(arg.dtype), is_input=True,
                       is_output=False, size=array_size(arg), shape=arg.shape,
                       image_extents=image_rules.image_extents(arg))


def _reads_and_writes(kernel: Kernel) -> tuple[set[str], set[str]]:
    read: set[str] = set()
    written: set[str] = set()
    for s in kernel.statements:
        written.update(s.assignee_names())
        for e in s.read_expressions():
            read.update(dependencies(e))
    return read, written


def _fully_written(kernel: Kernel, arg: ArrayArg) -> bool:
    """Whether the statements provably overwrite every element (no copy-in needed)."""
    if arg.shape is None:
        return False
    accesses = []
    for s in kernel.statements:
        if arg.name not in s.assignee_names():
            continue
        if s.predicates or not isinstance(s, (Assignment, CallInstruction)):
            return False
        targets = (s.assignee,) if isinstance(s, Assignment) else s.assignees
        for t in targets:
            if not isinstance(t, p.Subscript):
                return False
            try:
                dom = glue.statement_domain(kernel.domains, s.within_inames)
            except Exception:
                return False
            accesses.append((dom, tuple(t.index_tuple)))
    return glue.writes_cover_box(accesses, arg.shape, kernel.assumptions)


def array_size(arg: ArrayArg) -> Expression | None:
    """Elements to allocate: offset + 1 + sum((extent_k - 1) * stride_k) (the shape product
    for C/F order)."""
    if arg.shape is None or any(e is None for e in arg.shape):
        return None
    if not arg.shape:
        return _plus(arg.offset, 1)
    if all(isinstance(t, NestingTag) for t in arg.dim_tags):
        product = arg.shape[0] if len(arg.shape) == 1 else p.Product(tuple(arg.shape))
        return _plus(arg.offset, product)
    terms: list[Expression] = [arg.offset, 1]
    for extent, stride in zip(arg.shape, strides(arg.shape, arg.dim_tags)):
        terms.append(p.Product((p.Sum((extent, -1)), stride)))
    return p.Sum(tuple(t for t in terms if t != 0))


def _plus(a: Expression, b: Expression) -> Expression:
    if a == 0:
        return b
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return p.Sum((a, b))


# ---------------------------------------------------------------------------------------------
# kernels cut at global barriers (the Python API)

def global_barrier_cuts(kernel: Kernel) -> list[list[str]] | None:
    """Statement ids of the kernels that global barriers outside every loop separate, when
    `kernel` runs several work groups (one group synchronizes with a barrier instruction);
    None when there is nothing to cut."""
    if not any(isinstance(t, GroupTag) for tags in kernel.iname_tags.values() for t in tags):
        return None
    parts: list[list[str]] = [[]]
    cut = False
    for s in kernel.statements:
        if (isinstance(s, BarrierInstruction) and s.synchronization_kind == "global"
                and not s.within_inames):
            parts.append([])
            cut = True
        else:
            parts[-1].append(s.id)
    parts = [q for q in parts if q]
    return parts if cut and len(parts) > 1 else None


def generate_program(kernel: Kernel, cuts: list[list[str]]):
    """A host program of one kernel per part of `cuts`, launched in order."""
    _check_no_live_temporaries(kernel, cuts, CodegenError)
    body = []
    for k, ids in enumerate(cuts):
        part = sub_kernel(kernel, ids, (), f"{kernel.name}_k{k}")
        body.append(KernelLaunch(code=generate_code(part), loops=tuple(loop_order(part))))
    params, _ = region_params(kernel_params(host_view(kernel)), body, ())
    return HostProgramCode(name=kernel.name, params=params, buffers=(), body=tuple(body))


def _check_no_live_temporaries(kernel, cuts, error) -> None:
    seen: dict[str, int] = {}
    by_id = kernel.id_to_statement
    for k, ids in enumerate(cuts):
        for name in referenced_names([by_id[i] for i in ids]):
            if name in kernel.temporaries and seen.setdefault(name, k) != k:
                raise error(f"temporary {name} is live across a global barrier of a kernel "
                            "that runs several work groups: each side runs as its own kernel; "
                            "make it an argument or call save_and_reload_temporaries",
                            kernel.span)


__all__ = ["array_size", "generate_code", "host_view", "kernel_params", "prepare_kernel"]
