"""OpenCL images: read-only array arguments passed as ``image1d_t``/``image2d_t``/``image3d_t``.

An array argument becomes an image through `transforms.arrays.change_arg_to_image` (its
address space is `AddressSpace.IMAGE`).  The data keeps its memory layout on the host: the
image's x axis is the array axis that is contiguous in memory (nesting level N0, the last axis
of a C-order array), y the next slower one, z the slowest.  Each element is one channel
(``CL_R``): float32 as ``CL_FLOAT`` read with ``read_imagef``, int32 as ``CL_SIGNED_INT32``
read with ``read_imagei``.  Reads use unnormalised integer coordinates, no addressing mode and
nearest filtering, so ``a[i, j]`` reads exactly element (i, j).

This module holds what the device code, the host glue and the pyopencl execution layer share:
which arrays can be images (`image_problem`), the image's extents in x/y/z order
(`image_extents`), and the text of declarations and reads.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from translator.ir.data import ArrayArg, NestingTag
from translator.ir.expr import Expression

#: numpy dtype name -> (read function suffix, OpenCL channel type) of the supported images.
IMAGE_DTYPES: dict[str, tuple[str, str]] = {
    "float32": ("f", "CL_FLOAT"),
    "int32": ("i", "CL_SIGNED_INT32"),
}

#: The kernel-scope sampler every image read uses.
SAMPLER_NAME = "_tr_sampler"

_COORD_TYPES = {1: "int", 2: "int2", 3: "int4"}


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


def image_type(ndim: int) -> str:
    """``image1d_t``, ``image2d_t`` or ``image3d_t``."""
    return f"image{ndim}d_t"


def channel_type(dtype: np.dtype) -> str:
    """The OpenCL channel type constant (``CL_FLOAT``...) of an image element type."""
    return IMAGE_DTYPES[np.dtype(dtype).name][1]


def param_declaration(name: str, ndim: int) -> str:
    """The kernel parameter: ``__read_only image2d_t a``."""
    return f"__read_only {image_type(ndim)} {name}"


def sampler_declaration() -> str:
    """The sampler declaration at the top of a kernel body that reads images."""
    return (f"const sampler_t {SAMPLER_NAME} = CLK_NORMALIZED_COORDS_FALSE | "
            "CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;")


def read_text(name: str, arg: ArrayArg, index_texts: Sequence[str]) -> str:
    """``read_imagef(a, _tr_sampler, (int2)(j, i)).x`` for the element ``a[i, j]``;
    `index_texts` are the printed indices in array axis order (integer expressions)."""
    suffix = IMAGE_DTYPES[np.dtype(arg.dtype).name][0]
    coords = [index_texts[k] for k in xyz_axes(arg)]
    ndim = len(coords)
    if ndim == 3:
        coords.append("0")   # 3-D images take an int4 coordinate
    coord = coords[0] if ndim == 1 else f"({_COORD_TYPES[ndim]})({', '.join(coords)})"
    return f"read_image{suffix}({name}, {SAMPLER_NAME}, {coord}).x"


__all__ = ["IMAGE_DTYPES", "SAMPLER_NAME", "channel_type", "dtype_problem", "image_extents",
           "image_problem", "image_type", "param_declaration", "read_text",
           "sampler_declaration", "xyz_axes"]
