"""OpenCL images: read-only array arguments passed as ``image1d_t``/``image2d_t``/``image3d_t``.

Which arrays can be images and how their axes map to x/y/z is `translator.ir.images`.  Each
element is one channel (``CL_R``): float32 as ``CL_FLOAT`` read with ``read_imagef``, int32 as
``CL_SIGNED_INT32`` read with ``read_imagei``.  Reads use unnormalised integer coordinates, no
addressing mode and nearest filtering, so ``a[i, j]`` reads exactly element (i, j).

This module holds the OpenCL C text the device code and the host glue share: declarations,
the sampler, reads and channel types.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from translator.ir.data import ArrayArg
from translator.ir.images import IMAGE_DTYPES, xyz_axes

#: The kernel-scope sampler every image read uses.
SAMPLER_NAME = "_tr_sampler"

_COORD_TYPES = {1: "int", 2: "int2", 3: "int4"}


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


__all__ = ["SAMPLER_NAME", "channel_type", "image_type", "param_declaration", "read_text",
           "sampler_declaration"]
