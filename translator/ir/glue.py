"""The glue signature: what a frontend needs to call a region's host function.

Code generation produces it; frontends declare and call it.  It lives with the IR because the
IR is the only thing frontends and code generation share.
"""

from __future__ import annotations

import numpy as np

from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class GlueParam:
    """One parameter of a region's glue function, in order.

    kind "array": passed by reference (C pointer); kind "value": passed by value.
    """

    name: str
    kind: str
    dtype: np.dtype
    is_output: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class GlueSignature:
    """The C function that runs one region: ``void <symbol>(<params>)``."""

    region: str
    symbol: str
    params: tuple[GlueParam, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DataGlueItem:
    """One array of a data directive: its source name and clause (copyin, copyout, copy,
    create, present, delete, host or device).  `box` > 0: a section of that many dimensions
    that need not be contiguous, moved exactly (two more glue parameters per dimension: the
    section's element count and the array's extent, fastest varying first)."""

    name: str
    action: str
    box: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class DataGlue:
    """The C function behind one data directive (``data``, ``end_data``, ``enter_data``,
    ``exit_data`` or ``update``): ``void <symbol>(...)`` takes, per item in order, the host
    array's address, the first element, the element count and the element size in bytes."""

    symbol: str
    kind: str
    where: str
    items: tuple[DataGlueItem, ...] = ()
    #: ``update ... async(N)``: the queue id N (-1: a bare ``async``); None: no async clause.
    async_queue: int | None = None
    #: ``wait(N, ...)``: the queue ids (empty: every queue).
    queues: tuple[int, ...] = ()
    #: ``update ... if_present``: an array not present on the device is left alone.
    if_present: bool = False
