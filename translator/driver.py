"""Translate whole files: frontend -> pipeline per region -> rewrite + device code + host glue.

The only module (with `translator.cli`) that imports frontends, transforms and translator alike.
Nothing is written until every output of a file exists in memory; each file is then written
atomically (temporary file + rename), so a failed translation leaves no output at all.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import field, replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from translator.deep import call_deep
from translator.diagnostics import (FrontendError, TranslatorError, readable_warning,
                                    source_names, with_readable_names)
from translator.passthrough import builtin_language
from translator.pipeline import PassOptions, fewer_collections, file_stage, run_region
from translator.records import dataclass

if TYPE_CHECKING:   # not imported at run time: a result-cache hit imports nothing heavy
    from frontends.base import Frontend, ParsedFile
    from translator.ir.glue import GlueSignature
    from translator.sourcebytes import SourceBytes

_BUILTIN_FRONTENDS = {"fortran": "frontends.fortran", "c": "frontends.c"}


@dataclass
class TranslationResult:
    """Everything produced for one source file, keyed by output file name."""

    source: str
    outputs: dict[str, str] = field(default_factory=dict)
    regions: list[Any] = field(default_factory=list)
    mappings: list[Any] = field(default_factory=list)
    #: The frontend's language ("fortran", "c", or a plugin's), the parsed file and the glue
    #: signature of each region: what `translator.build.check` needs to instrument the source.
    language: str = ""
    parsed: ParsedFile | None = None
    glue: dict[str, GlueSignature] = field(default_factory=dict)

    @property
    def ir(self) -> str:
        """The mapped kernels in the kernel language (``--emit ir``), printed when asked: a
        file of hundreds of regions printed every kernel for nothing otherwise."""
        from translator.ir.printer import print_kernel
        return "\n".join(print_kernel(kernel) for _, kernel, _ in self.regions)


def load_frontends() -> dict[str, Frontend]:
    """Built-in frontends plus those registered under the ``translator.frontends`` group."""
    import importlib
    found = {name: importlib.import_module(mod).FRONTEND
             for name, mod in _BUILTIN_FRONTENDS.items()}
    for ep in entry_points(group="translator.frontends"):
        if ep.name not in found:
            found[ep.name] = ep.load()
    return found


def frontend_for(path: str, language: str | None = None) -> Frontend:
    builtin = _builtin_frontend(path, language)
    if builtin is not None:
        return builtin
    frontends = load_frontends()
    if language:
        if language not in frontends:
            raise FrontendError(f"unknown language {language!r} "
                                f"(known: {', '.join(sorted(frontends))})")
        return frontends[language]
    suffix = Path(path).suffix
    for fe in frontends.values():
        if suffix in fe.suffixes or suffix.lower() in fe.suffixes:
            return fe
    raise FrontendError(f"{path}: cannot tell the language from the suffix {suffix!r} "
                        "(use --language)")


def _builtin_frontend(path: str, language: str | None):
    """The built-in frontend that `frontend_for` would choose (built-ins come first), found
    without importing the other one or looking up plugins (start-up time: pycparser for a
    Fortran file, the entry points of every installed package); None when a plugin may be
    meant."""
    import importlib
    name = builtin_language(path, {"language": language} if language else {})
    return importlib.import_module(_BUILTIN_FRONTENDS[name]).FRONTEND if name else None


def translate_text(path: str, text: str | bytes, options: dict[str, Any] | None = None,
                   pass_options: PassOptions | None = None) -> TranslationResult:
    """Translate one file's text (or its bytes) in memory.  Raises `TranslatorError` for bad
    input.  The rewritten source keeps every byte outside the regions; as text, bytes that
    are not UTF-8 are lone surrogates (`translator.sourcebytes.encode` writes them)."""
    with fewer_collections():
        return call_deep(_translate_text, path, text, options, pass_options)


def _translate_text(path: str, text: str | bytes, options: dict[str, Any] | None,
                    pass_options: PassOptions | None) -> TranslationResult:
    from translator.automap import profile_hint
    from translator.sourcebytes import SourceBytes
    from translator.codegen.generation import device_note, generation_symbol, glue_reference
    from translator.codegen.host import (HostUnit, generate_data_glue, generate_host_file,
                                         glue_signature)
    options = dict(options or {})
    frontend = frontend_for(path, options.get("language"))
    source = (SourceBytes.from_bytes(text) if isinstance(text, bytes)
              else SourceBytes.from_text(text))
    with file_stage(pass_options, "parse"):
        parsed = with_claims_proven(frontend.parse(path, source.text, options))
    base = os.path.basename(path)
    stem, _ = os.path.splitext(base)
    result = TranslationResult(source=path, language=frontend.language, parsed=parsed)
    _check_unique_names(parsed.regions)
    units, glue, device, dispatchers = [], {}, [], []
    for region in parsed.regions:
        kernel = _with_command_options(region.kernel, options)
        done = _region_result(region, kernel, options, pass_options, base)
        kernel, code = done.kernel, done.code
        sig = _with_suffix(glue_signature(region.name, code), options.get("glue_suffix"))
        glue[region.name] = sig
        where = f"{region.span.file}:{region.span.line}"
        unit = HostUnit(region_name=region.name, signature=sig, generated=code,
                        where=where, hint=profile_hint(done.sequential_reason),
                        async_queue=getattr(region, "async_queue", None),
                        shown=source_names(region.call_args))
        tune_units, tune_lines = _tune_units(region, unit, options, pass_options, base,
                                             dispatchers) \
            if options.get("tune_candidates") else ([], ())
        done = replace(done, tuning=tune_lines) if tune_lines else done
        units += tune_units or [unit]
        device += [u.generated.device_code for u in tune_units] or [code.device_code]
        result.regions.append((region, kernel, code))
        result.mappings.append(done)
    result.glue = glue
    data = tuple(site.glue for site in parsed.data_sites)
    if not (parsed.regions or data):
        result.outputs[base] = source.original
        return result
    with file_stage(pass_options, "host-glue"):
        host = generate_host_file(units, source_name=base) + "".join(dispatchers) \
            + generate_data_glue(data)
    symbol = generation_symbol(host)
    with file_stage(pass_options, "rewrite"):
        result.outputs[base] = _rewritten(frontend, parsed, glue, source, symbol)
    result.outputs[f"{stem}.cl"] = (device_note(symbol) if symbol else "") + \
        _join_device_code(device)
    result.outputs[f"{stem}.host.c"] = host + (glue_reference(symbol, base) if symbol else "")
    return result


def with_claims_proven(parsed: ParsedFile) -> ParsedFile:
    """`parsed` with the OpenMP/OpenACC claims of each region proven
    (`translator.directive_proof`): the proof's kernel, the transform calls it adds after the
    region's own and its report lines.  A race is a ``directive-race`` warning (an error
    unless ``-Wno-error=directive-race``) and the region keeps its sequential meaning."""
    if not any(r.claims for r in parsed.regions):
        return parsed
    from translator.directive_proof import prove_region_claims
    regions = []
    for region in parsed.regions:
        if region.claims is not None:
            done = prove_region_claims(region.kernel, region.claims)
            region = replace(region, kernel=done.kernel, directive_notes=done.notes,
                             transform_calls=region.transform_calls + done.calls)
        regions.append(region)
    return replace(parsed, regions=tuple(regions))


def _tuned(region, kernel, done, options: dict[str, Any], pass_options, base: str):
    """`done`, or the region mapped with the winner of its tuning record (``--tune-file``;
    `translator.tuning`)."""
    record = options.get("tuning", {}).get(f"{base}\0{region.name}")
    if record is None:
        return done
    import json

    from translator.tuning import tuned_result
    return tuned_result(kernel, region.transform_calls, json.loads(record), pass_options,
                        done, region.span)


def _region_result(region, kernel, options: dict[str, Any], pass_options, base: str):
    """`run_region` and `_tuned` on one region; its errors and warnings write the values the
    frontend made up for the call as the source text passed for them (``size(v, 1)`` for
    ``_tr_size_v_1``)."""
    shown = dict(source_names(region.call_args))
    if not shown:
        done = run_region(kernel, region.transform_calls, pass_options)
        return _tuned(region, kernel, done, options, pass_options, base)
    done, failure = None, None
    with warnings.catch_warnings(record=True) as caught:
        try:
            done = run_region(kernel, region.transform_calls, pass_options)
            done = _tuned(region, kernel, done, options, pass_options, base)
        except TranslatorError as err:
            failure = with_readable_names(err, shown)
    for w in caught:
        warnings.warn(readable_warning(w, shown), stacklevel=2)
    if failure is not None:
        raise failure
    return done


def _tune_units(region, unit, options: dict[str, Any], pass_options, base: str,
                dispatchers: list[str]) -> tuple[list, tuple[str, ...]]:
    """``--tune-candidates``: a glue function per candidate mapping of the region (each named
    ``<symbol>__tune<k>``) and, into `dispatchers`, the region's own glue function, which
    chooses one per call; with the report's lines.  ([], ()) when the region has no
    candidates (`translator.tuning`)."""
    from translator.codegen.host import glue_signature, prototype
    from translator.tuning import (candidate_lines, candidate_symbol, candidates,
                                   dispatcher_text, fingerprint)
    kernel = _with_command_options(region.kernel, options)
    found = candidates(kernel, region.transform_calls, pass_options)
    units = []
    for k, cand in enumerate(found):
        sig = glue_signature(region.name, cand.result.code)
        if sig.params != unit.signature.params:
            return [], ()   # the candidates must take the region's parameters
        sig = replace(sig, symbol=candidate_symbol(unit.signature.symbol, k))
        units.append(replace(unit, region_name=f"{region.name}__tune{k}", signature=sig,
                             generated=cand.result.code))
    if units:
        dispatchers.append("\n" + dispatcher_text(
            region.name, base, unit.where, prototype(unit), unit.signature, found,
            fingerprint(kernel, region.transform_calls)))
    return units, candidate_lines(found) if units else ()


def _with_command_options(kernel, options: dict[str, Any]):
    """Kernel options given on the command line (``--reassociate``); a region's own
    ``set_options`` pragmas come later and win."""
    if options.get("reassociate") and not kernel.options.reassociate:
        return kernel.copy(options=replace(kernel.options, reassociate=True))
    return kernel


#: The line directive that makes a compiler count the rewritten file's lines as the user's.
LINE_MARKERS = {"c": '#line {line} "{file}"\n', "fortran": '# {line} "{file}"\n'}


def _rewritten(frontend: Frontend, parsed: ParsedFile, glue: dict[str, GlueSignature],
               source: SourceBytes, symbol: str | None = None) -> str:
    """The rewritten source: the frontend's edits applied to the file's own bytes, with line
    directives after each edit that changes the line count (so compiler messages about lines
    outside the regions give the user's file and line).  With `symbol`, the definition of
    that generation stamp goes first (`translator.codegen.generation`)."""
    edits = frontend.rewrite_edits(parsed, glue)
    if symbol:
        edits = [(0, 0, frontend.generation_definition(parsed, symbol)), *edits]
    marker = LINE_MARKERS.get(frontend.language)
    if marker is not None:
        edits = with_line_markers(edits, source.text, marker, parsed.path)
    return source.apply(edits)


def with_line_markers(edits: list[tuple[int, int, str]], text: str, marker: str,
                      path: str) -> list[tuple[int, int, str]]:
    """`edits` with a line directive after each whole-line edit whose line count differs from
    the text it replaces; the directive names the next original line of `path`."""
    from translator.sourcebytes import line_number
    from translator.codegen.cnames import line_directive_file
    name = line_directive_file(path)
    out = []
    for start, end, new in edits:
        whole = new.endswith("\n") and (end == 0 or text[end - 1] == "\n")
        if whole and new.count("\n") != text.count("\n", start, end):
            new += marker.format(line=line_number(text, end), file=name)
        out.append((start, end, new))
    return out


def symbol_suffix(path: str) -> str:
    """What ``--unique-symbols`` appends to the glue functions of `path`: a hash of the path
    as given, so that same-named regions of different files can be linked together."""
    import hashlib
    return hashlib.sha256(os.path.normpath(path).encode("utf-8", "surrogateescape")
                          ).hexdigest()[:8]


def _with_suffix(sig: Any, suffix: str | None) -> Any:
    return replace(sig, symbol=f"{sig.symbol}_{suffix}") if suffix else sig


def _check_unique_names(regions) -> None:
    seen = {}
    for r in regions:
        if r.name in seen:
            raise FrontendError(f"region name {r.name!r} is used twice in this file "
                                f"(first at {seen[r.name]})", r.span)
        seen[r.name] = r.span


def _join_device_code(parts: list[str]) -> str:
    from translator.codegen.program import join_programs
    return join_programs(parts)


def unmapped_ir(path: str, text: str | bytes, options: dict[str, Any] | None = None
                ) -> dict[str, str]:
    """``translate --emit ir-unmapped``: ``{<stem>.ir: text}``, each region's kernel in the
    kernel language as the frontend builds it, before its transform pragmas and automatic
    mapping (what the pragmas see, and what `translator.parse_kernel` reads back for Python
    transforms).  Only the frontend runs: a pragma that fails does not hide the text."""
    from translator.sourcebytes import SourceBytes
    from translator.ir.printer import print_kernel
    options = dict(options or {})
    frontend = frontend_for(path, options.get("language"))
    source = (SourceBytes.from_bytes(text) if isinstance(text, bytes)
              else SourceBytes.from_text(text))
    parsed = with_claims_proven(frontend.parse(path, source.text, options))
    stem = os.path.splitext(os.path.basename(path))[0]
    return {f"{stem}.ir": "\n".join(print_kernel(_with_command_options(r.kernel, options))
                                    for r in parsed.regions)}


def outputs_for_emit(result: TranslationResult, emit: str) -> dict[str, str]:
    """The subset of outputs that ``--emit`` asks for (``ir`` becomes ``<stem>.ir``)."""
    base = os.path.basename(result.source)
    stem, _ = os.path.splitext(base)
    if emit == "all":
        return dict(result.outputs)
    if emit == "ir":
        return {f"{stem}.ir": result.ir}
    key = {"cl": f"{stem}.cl", "host": f"{stem}.host.c", "source": base}[emit]
    return {key: result.outputs[key]} if key in result.outputs else {}


def write_outputs(out_dir: str, outputs: dict[str, str]) -> list[str]:
    """Write the outputs as one unit (all or none); returns the paths, in name order.

    A file that already holds exactly the new text is left alone (its modification time is
    kept), so build tools rebuild only what really changed.
    """
    from translator.atomic_files import write_files
    os.makedirs(out_dir, exist_ok=True)
    files = {os.path.join(out_dir, name): outputs[name] for name in sorted(outputs)}
    write_files(files)
    return list(files)
