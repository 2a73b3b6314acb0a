"""Execution through pyopencl: `compile(kernel, context)(queue, **arrays) -> dict of outputs`.

Code generation is static (`translator.codegen.opencl.generate_code`); this layer adds a device:
it builds the program once per (device code, device), infers value arguments from array shapes,
lays arrays out as the kernel expects (C, Fortran or any strides), launches, and returns every
output array by name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import field, replace

import numpy as np
import pymbolic.primitives as p
import pyopencl as cl
from pymbolic.mapper.evaluator import EvaluationMapper

from translator.codegen.opencl import array_size, generate_code
from translator.codegen.program import HostLoopCode, HostProgramCode
from translator.codegen.result import GeneratedCode, KernelParam
from translator.diagnostics import CodegenError, TranslatorError
from translator.ir import images
from translator.ir.data import strides
from translator.ir.expr import Expression, dependencies
from translator.ir.kernel import Kernel
from translator.ir.types import add_known_dtypes
from translator.records import dataclass

_PROGRAMS: dict[tuple[str, int], cl.Program] = {}


class _Evaluator(EvaluationMapper):
    """Evaluates size expressions with Python (floor) semantics, incl. min/max calls."""

    def map_call(self, expr: p.Call):
        name = getattr(expr.function, "name", None)
        args = [self.rec(a) for a in expr.parameters]
        if name in ("min", "max"):
            return min(args) if name == "min" else max(args)
        raise TranslatorError(f"cannot evaluate {expr} on the host")

    def map_min(self, expr):
        return min(self.rec(c) for c in expr.children)

    def map_max(self, expr):
        return max(self.rec(c) for c in expr.children)


def evaluate(expr: Expression, values: Mapping[str, int]) -> int:
    """Value of a size expression; a missing name raises `TranslatorError` naming it."""
    missing = sorted(dependencies(expr) - set(values))
    if missing:
        raise TranslatorError(f"missing value for {', '.join(missing)} (needed for {expr})")
    return int(_Evaluator(dict(values))(expr))


def _program(context: cl.Context, code: GeneratedCode) -> cl.Program:
    device = context.devices[0]
    key = (hashlib.sha256(code.device_code.encode()).hexdigest(), device.int_ptr)
    prg = _PROGRAMS.get(key)
    if prg is None:
        try:
            prg = cl.Program(context, code.device_code).build()
        except cl.RuntimeError as e:
            raise CodegenError(f"the OpenCL compiler rejected the generated code for kernel "
                               f"{code.kernel_name!r} (a translator bug):\n{e}\n"
                               f"{code.device_code}") from None
        _PROGRAMS[key] = prg
    return prg


@dataclass
class CompiledKernel:
    """A kernel ready to run on `context`; call it with a queue and keyword arrays/values.

    Arguments without a declared dtype take the dtype of the array (or numpy scalar) passed
    for them: the kernel is specialised (and its program built) once per combination of such
    dtypes.  Others default to float64 (`translator.codegen.opencl.default_input_dtypes`).
    """

    kernel: Kernel
    context: cl.Context
    variants: dict = field(default_factory=dict)

    @property
    def code(self) -> GeneratedCode:
        """The code for the declared dtypes (unknown array types default to float64)."""
        return self._variant(())

    def _variant(self, given: tuple[tuple[str, np.dtype], ...]) -> GeneratedCode:
        if given not in self.variants:
            self.variants[given] = generate_code(add_known_dtypes(self.kernel, dict(given)))
        return self.variants[given]

    def _dtypes_from(self, kwargs: dict) -> tuple[tuple[str, np.dtype], ...]:
        """The dtypes of the arrays and numpy scalars passed for untyped arguments (a plain
        Python number says nothing: its argument keeps the default)."""
        untyped = {a.name for a in self.kernel.args if a.dtype is None}
        return tuple(sorted((n, np.asarray(v).dtype) for n, v in kwargs.items()
                            if n in untyped and hasattr(v, "dtype")))

    def __call__(self, queue: cl.CommandQueue, **kwargs) -> dict[str, np.ndarray]:
        code = self._variant(self._dtypes_from(kwargs))
        params = code.params
        values = self._values(code, kwargs)
        known = {prm.name for prm in params}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TranslatorError(f"kernel {self.kernel.name!r} has no argument(s) "
                                  f"{', '.join(unknown)}")
        hosts: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        buffers: dict[str, cl.MemoryObject] = {}
        for prm in params:
            if prm.kind == "image":
                host, _ = self._host_buffer(prm, kwargs.get(prm.name), values)
                buffers[prm.name] = _image(self.context, self.kernel.arg(prm.name), host, values)
            elif prm.kind == "array":
                host, view = self._host_buffer(prm, kwargs.get(prm.name), values)
                hosts[prm.name] = (host, view)
                # Outputs that are not inputs start as zeros: untouched elements are defined.
                buffers[prm.name] = cl.Buffer(
                    self.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                    hostbuf=host)
        self._run(queue, code, values, buffers)
        out: dict[str, np.ndarray] = {}
        for prm in params:
            if prm.kind == "array" and prm.is_output:
                host, view = hosts[prm.name]
                cl.enqueue_copy(queue, host, buffers[prm.name])
                out[prm.name] = np.array(view)
        return out

    # -- value arguments ------------------------------------------------------------------

    def _values(self, code: GeneratedCode, kwargs: dict) -> dict[str, int | float]:
        values: dict[str, int | float] = {}
        for prm in code.params:
            if prm.kind == "value" and prm.name in kwargs:
                values[prm.name] = prm.dtype.type(kwargs[prm.name]).item()
        self._infer_from_shapes(code, kwargs, values)
        missing = [prm.name for prm in code.params
                   if prm.kind == "value" and prm.name not in values]
        missing += [prm.name for prm in code.params
                    if prm.kind in ("array", "image") and prm.is_input
                    and kwargs.get(prm.name) is None]
        if missing:
            raise TranslatorError(f"kernel {self.kernel.name!r}: missing input(s) "
                                  f"{', '.join(missing)}")
        return values

    def _infer_from_shapes(self, code: GeneratedCode, kwargs: dict, values: dict) -> None:
        """n from a.shape[0] when a's declared shape[0] is n (and the like)."""
        for prm in code.params:
            arr = kwargs.get(prm.name)
            if prm.kind not in ("array", "image") or arr is None or prm.shape is None:
                continue
            arr = np.asarray(arr)
            if arr.ndim != len(prm.shape):
                continue
            for extent, actual in zip(prm.shape, arr.shape):
                if isinstance(extent, p.Variable) and extent.name not in values:
                    values[extent.name] = int(actual)

    # -- arrays ---------------------------------------------------------------------------

    def _host_buffer(self, prm: KernelParam, given, values: dict
                     ) -> tuple[np.ndarray, np.ndarray]:
        """A flat host buffer of the kernel's layout and a view of it with the array's shape."""
        arg = self.kernel.arg(prm.name)
        shape = self._shape(prm, given, values)
        size = evaluate(array_size(_with_shape(arg, shape)), values)
        host = np.zeros(max(size, 1), dtype=prm.dtype)
        offset = evaluate(arg.offset, values)
        elem = [evaluate(s, values) for s in strides(shape, arg.dim_tags)] if shape else []
        view = np.lib.stride_tricks.as_strided(
            host[offset:], shape=tuple(int(evaluate(e, values)) for e in shape),
            strides=tuple(s * prm.dtype.itemsize for s in elem))
        if given is not None:
            data = np.asarray(given)
            if data.shape != view.shape and data.size == view.size and data.size <= 1:
                data = data.reshape(view.shape)
            if data.shape != view.shape:
                raise TranslatorError(f"argument {prm.name!r}: expected shape {view.shape}, "
                                      f"got {data.shape}")
            view[...] = data.astype(prm.dtype, copy=False)
        return host, view

    def _shape(self, prm: KernelParam, given, values: dict) -> tuple[Expression, ...]:
        if prm.shape is None:
            if given is None:
                raise TranslatorError(f"argument {prm.name!r} has no declared shape: pass it")
            return tuple(np.asarray(given).shape) or (1,)
        return tuple(prm.shape)

    def _run(self, queue: cl.CommandQueue, code, values: dict,
             buffers: dict[str, cl.MemoryObject]) -> None:
        """One launch, or a host program's launches in order with buffers shared by all of
        them (device-only buffers are created here and never copied)."""
        if not isinstance(code, HostProgramCode):
            self._launch(queue, code, values, buffers)
            return
        for prm in code.buffers:
            size = max(evaluate(prm.size, values), 1) * prm.dtype.itemsize
            buffers[prm.name] = cl.Buffer(self.context, cl.mem_flags.READ_WRITE, size)

        def run(body, values) -> None:
            for part in body:
                if isinstance(part, HostLoopCode):
                    lo, hi = evaluate(part.lower, values), evaluate(part.upper, values)
                    for k in range(lo, hi + 1):
                        run(part.body, {**values, part.iname: k})
                else:
                    self._launch(queue, part.code, values, buffers)

        run(code.body, values)

    def _launch(self, queue: cl.CommandQueue, code: GeneratedCode, values: dict,
                buffers: dict[str, cl.MemoryObject]) -> None:
        gsize = tuple(evaluate(g, values) for g in code.global_size)
        lsize = tuple(evaluate(s, values) for s in code.local_size)
        if any(g <= 0 for g in gsize):
            return
        knl = cl.Kernel(_program(self.context, code), code.kernel_name)
        args = [prm.dtype.type(values[prm.name]) if prm.kind == "value"
                else _zeroed(self.context, prm, values) if prm.kind == "scratch"
                else buffers[prm.name] for prm in code.params]
        knl.set_args(*args)
        cl.enqueue_nd_range_kernel(queue, knl, gsize, lsize)


def _zeroed(context: cl.Context, prm: KernelParam, values: dict) -> cl.Buffer:
    """A device-only buffer of zeros for a "scratch" parameter."""
    host = np.zeros(max(1, evaluate(prm.size, values)), dtype=prm.dtype)
    return cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                     hostbuf=host)


def _image(context: cl.Context, arg, host: np.ndarray, values: dict) -> cl.Image:
    """A read-only single-channel image holding `host` (the array in its dense layout; the
    contiguous axis is x).  An empty array gets a 1-pixel image that the kernel never reads."""
    extents = [evaluate(e, values) for e in images.image_extents(arg)]
    kind = (cl.channel_type.FLOAT if host.dtype == np.float32
            else cl.channel_type.SIGNED_INT32)
    fmt = cl.ImageFormat(cl.channel_order.R, kind)
    if min(extents) <= 0:
        extents, host = [1] * len(extents), np.zeros(1, host.dtype)
    data = np.ascontiguousarray(host[:int(np.prod(extents))].reshape(extents[::-1]))
    flags = cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR
    return cl.create_image(context, flags, fmt, shape=tuple(extents), hostbuf=data)


def _with_shape(arg, shape):
    return replace(arg, shape=tuple(shape))


def compile(kernel: Kernel, context: cl.Context) -> CompiledKernel:  # noqa: A001
    """A callable ``run(queue, **kwargs)`` for `kernel` (code is generated per dtype
    signature of untyped arguments; programs are built on first use and cached per device code
    and device)."""
    return CompiledKernel(kernel=kernel, context=context)
