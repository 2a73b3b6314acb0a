"""The result of code generation: what both the Python execution layer and the host glue use."""

from __future__ import annotations

import numpy as np

from translator.ir.expr import Expression
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class KernelParam:
    """One parameter of the generated OpenCL kernel, in signature order.

    kind "array": a ``__global T *`` buffer whose element count is `size` (an expression in
    value parameters, C-order-flattened footprint incl. offset); kind "value": a scalar;
    kind "image": a read-only OpenCL image of `shape` (float32 or int32; the host passes the
    array as for "array"); `image_extents` are its (width, height, depth)[:ndim], the array
    extents from the contiguous axis (x) outwards; kind "scratch": a device-only buffer of
    `size` elements that the caller never sees, zero-filled when new (the per-group values
    and arrival counter of a reduction over work groups, whose kernel leaves the counter at
    zero for the next launch).
    """

    name: str
    kind: str
    dtype: np.dtype
    is_input: bool = True
    is_output: bool = False
    #: Every element is written and none read: the host glue need not copy it to the device.
    overwrites: bool = False
    #: The kernel allows for this array overlapping others (`ArrayArg.may_alias`): the glue
    #: may pass it parts of one device buffer.
    may_alias: bool = False
    size: Expression | None = None
    shape: tuple[Expression, ...] | None = None
    image_extents: tuple[Expression, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FixedParam:
    """A value argument that `fix_parameters` replaced by `value`: the kernel no longer takes
    it, the host glue still does and stops the program when it differs."""

    param: KernelParam
    value: int | float


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratedCode:
    """Static output of `translator.generate_code` (no device needed).

    `global_size`/`local_size` are OpenCL NDRange sizes (work items, not groups) as expressions
    in the value parameters; both have the same length (1..3).  A kernel with no hardware axes
    has global_size == local_size == (1,).
    """

    kernel_name: str
    device_code: str
    params: tuple[KernelParam, ...]
    global_size: tuple[Expression, ...]
    local_size: tuple[Expression, ...]
    uses_fp64: bool = False
    #: What the kernel was generated assuming (`assume`), as conditions ``e >= 0`` / ``e == 0``
    #: on value parameters; the host glue checks them before launching.
    assumptions: tuple[Expression, ...] = ()
    #: Value arguments fixed by `fix_parameters`, checked by the host glue.
    fixed: tuple[FixedParam, ...] = ()

    @property
    def host_params(self) -> tuple[KernelParam, ...]:
        """The parameters a caller passes (all but the device-only "scratch" buffers, then
        the fixed values)."""
        return (tuple(kp for kp in self.params if kp.kind != "scratch")
                + tuple(f.param for f in self.fixed))
