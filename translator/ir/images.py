"""Which array arguments can be OpenCL images, and how an image's axes lie.

An array argument becomes an image through `transforms.arrays.change_arg_to_image` (its
address space is `AddressSpace.IMAGE`).  The data keeps its memory layout on the host: the
image's x axis is the array axis that is contiguous in memory (nesting level N0, the last axis
of a C-order array), y the next slower one, z the slowest.  Each element is one channel: only
the element types of `IMAGE_DTYPES` have one.

This module holds the rules the transform, code generation and the pyopencl execution layer
share: which arrays can be images (`image_problem`) and the image's extents in x/y/z order
(`image_extents`); the OpenCL C text of declarations and reads is
`translator.codegen.images`'.
"""

from __future__ import annotations

import numpy as np

from translator.ir.data import ArrayArg, NestingTag
from translator.ir.expr import Expression

#: numpy dtype name -> (read function suffix, OpenCL channel type) of the supported images.
IMAGE_DTYPES: dict[str, tuple[str, str]] = {
    "float32": ("f", "CL_FLOAT"),
    "int32": ("i", "CL_SIGNED_INT32"),
}

def image_problem(arg: ArrayArg, *, written: bool = False) -> str | None:
    """Why `arg` cannot be an image (a sentence fragment), or None when it can.

    The dtype may still be unknown (None): it is checked again at code generation.
    """
    if written:
        return "the kernel writes it, and images are read-only"
    if arg.shape is None:
        return "its shape is not known"
    if not 1 <= len(arg.shape) <= 3:
        return f"it has {len(arg.shape)} axes; images have 1 to 3"
    if any(extent is None for extent in arg.shape):
        return "an axis has no known extent"
    if arg.dtype is not None and np.dtype(arg.dtype).name not in IMAGE_DTYPES:
        return dtype_problem(np.dtype(arg.dtype))
    if not all(isinstance(t, NestingTag) for t in arg.dim_tags or ()):
        return "its layout has fixed strides or sep/vec axes; an image needs a dense layout"
    if arg.offset != 0:
        return "it has an offset; an image starts at the first element"
    return None


def dtype_problem(dtype: np.dtype) -> str:
    """The message for an element type images cannot hold."""
    extra = " (float64 has no image channel type; use float32)" if dtype.name == "float64" else ""
    return (f"images hold float32 or int32 elements, not {dtype.name}{extra}")


def xyz_axes(arg: ArrayArg) -> tuple[int, ...]:
    """The array axes in image coordinate order: the contiguous axis (x) first."""
    return tuple(sorted(range(len(arg.shape)), key=lambda k: arg.dim_tags[k].level))


def image_extents(arg: ArrayArg) -> tuple[Expression, ...]:
    """(width, height, depth)[:ndim]: the array extents in x, y, z order."""
    return tuple(arg.shape[k] for k in xyz_axes(arg))


__all__ = ["IMAGE_DTYPES", "dtype_problem", "image_extents", "image_problem", "xyz_axes"]
