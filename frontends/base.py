"""What every frontend produces and consumes (the contract with `translator.driver`).

A frontend is an object with:

- ``language``: "fortran" or "c"; ``suffixes``: file suffixes it claims.
- ``parse(path, text, options) -> ParsedFile``: find regions, build their kernels.  Raises
  `TranslatorError` subclasses with spans for bad input; never writes files.
- ``rewrite(parsed, glue) -> str``: the original text with each region replaced by a call to
  its glue function and the glue's interface declared; every other byte unchanged.

Frontends know nothing of OpenCL: the glue signature comes in as `GlueSignature`
(`translator.ir.glue`, re-exported here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from translator.diagnostics import SourceSpan
from translator.ir.glue import GlueParam, GlueSignature  # noqa: F401 (the frontend contract)
from translator.ir.kernel import Kernel


@dataclass(frozen=True, slots=True, kw_only=True)
class TransformCall:
    """One transform pragma: ``name(*args, **kwargs)`` with Python-literal arguments."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    span: SourceSpan | None = field(default=None, compare=False)
    #: Names in the arguments are case-insensitive (Fortran): `for_kernel` resolves them.
    case_insensitive: bool = False
    #: (name as resolved, name as the source spells it), for messages about the call.
    spellings: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def for_kernel(self, kernel: Kernel) -> TransformCall:
        """The call as the transform receives it: with case-insensitive names, every name
        in the arguments spelled as `kernel` spells it (see `frontends.pragmas.fold_names`)."""
        if not self.case_insensitive:
            return self
        from frontends.pragmas import fold_names
        return fold_names(self, kernel)


@dataclass(frozen=True, slots=True, kw_only=True)
class Region:
    """A pragma-marked region and the kernel built from it.

    `start`/`end` are character offsets into the file text: [start, end) is replaced by the
    call (it covers the ``kernel`` directive line through the ``end kernel`` line, including
    the final newline).  `indent` is the indentation of the directive line, used for the call.
    `call_args` maps each kernel argument name to the source-language expression the call
    passes for it (default: the name itself).  `procedure` names the enclosing procedure.
    """

    name: str
    kernel: Kernel
    transform_calls: tuple[TransformCall, ...]
    start: int
    end: int
    indent: str
    procedure: str
    span: SourceSpan
    call_args: tuple[tuple[str, str], ...] = ()
    #: Kernel arguments that are scalars in the source but passed as 1-element arrays because
    #: the region writes them (their values come back to the caller).
    written_scalars: frozenset[str] = frozenset()
    #: The source's spelling of argument element types (name -> e.g. "long"), where the glue's
    #: declaration must match the caller's pointer types exactly.
    param_types: tuple[tuple[str, str], ...] = ()
    #: Statements after the call, in the source language: the values of loop variables the
    #: rest of the procedure reads after the region.
    after_call: tuple[str, ...] = ()
    #: What became of the OpenMP/OpenACC directives of the region, one line each, for the
    #: report (`frontends.directives`).
    directive_notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedFile:
    path: str
    text: str
    language: str
    regions: tuple[Region, ...]


class Frontend(Protocol):
    language: str
    suffixes: tuple[str, ...]

    def parse(self, path: str, text: str, options: dict[str, Any]) -> ParsedFile: ...

    def rewrite(self, parsed: ParsedFile, glue: dict[str, GlueSignature]) -> str: ...
