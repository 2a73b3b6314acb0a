"""What every frontend produces and consumes (the contract with `translator.driver`).

A frontend is an object with:

- ``language``: "fortran" or "c"; ``suffixes``: file suffixes it claims.
- ``parse(path, text, options) -> ParsedFile``: find regions, build their kernels.  Raises
  `TranslatorError` subclasses with spans for bad input; never writes files.
- ``rewrite(parsed, glue) -> str``: the original text with each region replaced by a call to
  its glue function and the glue's interface declared; every other byte unchanged.
- ``rewrite_edits(parsed, glue)``: the same as (start, end, new text) edits, which the driver
  applies to the file's own bytes; ``generation_definition(parsed, symbol)``: the lines that
  define the generation stamp.

`Frontend` declares this contract; `ParsedFile` carries the regions, the data directives and
the other files read.

Frontends know nothing of OpenCL: the glue signature comes in as `GlueSignature`
(`translator.ir.glue`, re-exported here).
"""

from __future__ import annotations

from typing import Any, Protocol


from translator.diagnostics import SourceSpan
from translator.ir.claims import RegionFacts, TransformCall
from translator.ir.glue import GlueParam, GlueSignature  # noqa: F401 (the frontend contract)
from translator.ir.kernel import Kernel
from translator.records import dataclass


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
    #: ``kernel NAME async(N)``: the queue id N of the region's calls (-1: a bare ``async``);
    #: None: the calls run without async.
    async_queue: int | None = None
    #: The OpenMP/OpenACC claims of the region and what the proof needs to know of it; the
    #: driver proves them (`translator.directive_proof`) before the region runs the pipeline.
    claims: RegionFacts | None = None
    #: Declarations the call needs in the rewritten source before the glue's prototypes
    #: (the runtime's index-table scans: `frontends.c.gathers`).
    declarations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedFile:
    """What a frontend found in one file: its regions and data directives, and the other
    files it read (module sources, includes) for dependency files and caches."""

    path: str
    text: str
    language: str
    regions: tuple[Region, ...]
    #: The data directives (data regions, enter/exit data, update), in source order
    #: (`frontends.pragmas.DataSite`).
    data_sites: tuple[Any, ...] = ()
    #: Other files the translation read.
    dependencies: tuple[str, ...] = ()


class Frontend(Protocol):
    """The contract between the driver and a language: built-in frontends and those of the
    ``translator.frontends`` entry-point group implement all of it."""

    language: str
    suffixes: tuple[str, ...]

    def parse(self, path: str, text: str, options: dict[str, Any]) -> ParsedFile:
        """Find the regions and data directives of `text` and build each region's kernel;
        bad input raises a `TranslatorError` with a span."""

    def rewrite(self, parsed: ParsedFile, glue: dict[str, GlueSignature]) -> str:
        """The file's text with each region replaced by a call of its glue function."""

    def rewrite_edits(self, parsed: ParsedFile, glue: dict[str, GlueSignature]
                      ) -> list[tuple[int, int, str]]:
        """`rewrite` as (start, end, new text) edits of `parsed.text`, in order, so that the
        driver can apply them to the file's own bytes."""

    def generation_definition(self, parsed: ParsedFile, symbol: str) -> str:
        """Lines defining the generation stamp `symbol`, to go before the first line."""
