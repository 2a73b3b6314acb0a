"""The tuning file (docs/tuning.md): read it, check it, choose the record of each region.

The file is JSON Lines, appended to by the runtime (``TRANSLATE_TUNE=1``): one record per
line, each written whole with one ``write`` under an exclusive ``fcntl`` lock, so concurrent
tuners interleave whole lines and never corrupt one another.  A later record for the same
source, region, device and size class supersedes an earlier one.  A line that is not a record
of this format is an error at its line (``file:line:col: error: ...``), so a build never runs
on a misread file.

Choice per region (`select`): the records of the device named by ``--tune-device`` (a
case-insensitive substring of the device name, as ``TRANSLATE_DEVICE``), or of the only device
in the file; of those, the largest size class (the largest sum of the extents' log2, then
the largest extents in order), and the latest record of that class.

Only the standard library is imported: the result cache's key includes the chosen records.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from translator.diagnostics import FrontendError, SourceSpan

FORMAT = "translate-tune-1"
#: ``TRANSLATE_TUNE_FILE``'s default (run time); at build time it names the file to read.
DEFAULT_FILE = "translate-tune.jsonl"

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "source": str, "region": str, "fingerprint": str, "device": str, "size_class": str,
    "candidates": list, "winner": int}
_CANDIDATE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "variant": str, "label": str, "mapping": str, "calls": int, "ms": (int, float, type(None))}


def load(path: str) -> list[dict[str, Any]]:
    """The records of the file at `path`, in file order; `FrontendError` at the first line
    that is not one."""
    try:
        data = _read_locked(path)
    except OSError as e:
        raise FrontendError(f"{path}: cannot read the tuning file: {e.strerror}") from None
    records = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        if raw.strip():
            records.append(_record(path, number, raw))
    return records


def _read_locked(path: str) -> bytes:
    """The file's bytes, read under a shared ``fcntl`` lock: a tuner appending at that
    moment (under its exclusive lock) has written all of its lines or none."""
    with open(path, "rb") as f:
        try:
            import fcntl
            fcntl.lockf(f, fcntl.LOCK_SH)
        except (ImportError, OSError):
            pass   # no POSIX locks here (or on this file system): read as it is
        return f.read()


def _record(path: str, number: int, raw: bytes) -> dict[str, Any]:
    text = raw.decode("utf-8", "replace")
    span = SourceSpan(file=path, line=number, col=1, source_line=text)
    try:
        value = json.loads(text)
    except ValueError as e:
        raise FrontendError(f"not a tuning record (invalid JSON: {e.msg}); a tuning file is "
                            "written by TRANSLATE_TUNE=1 runs (docs/tuning.md)", span) from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        found = value.get("format") if isinstance(value, dict) else None
        raise FrontendError(f"not a tuning record of this translator (format {found!r}, "
                            f"expected {FORMAT!r})", span)
    problem = _shape_problem(value)
    if problem:
        raise FrontendError(f"malformed tuning record: {problem}", span)
    return value


def _shape_problem(value: dict[str, Any]) -> str:
    problem = _fields_problem(value, _FIELDS, "")
    if problem:
        return problem
    for k, cand in enumerate(value["candidates"]):
        if not isinstance(cand, dict):
            return f"candidate {k} is not an object"
        problem = _fields_problem(cand, _CANDIDATE_FIELDS, f"candidate {k}: ")
        if problem:
            return problem
    if not 0 <= value["winner"] < len(value["candidates"]):
        return f"winner {value['winner']} is not a candidate"
    if value["candidates"][value["winner"]]["ms"] is None:
        return "the winner was not timed"
    return ""


def _fields_problem(value: dict[str, Any], fields: dict[str, Any], where: str) -> str:
    for name, kind in fields.items():
        if name not in value:
            return f"{where}field {name!r} is missing"
        if not isinstance(value[name], kind) or isinstance(value[name], bool):
            return f"{where}field {name!r} has the wrong type"
    return ""


def size_key(size_class: str) -> tuple[int, tuple[int, ...]]:
    """How large a size class (``n=2^10 m=2^9``; ``n=0`` for a value <= 0) is: the sum of
    the exponents (-1 for a value <= 0), then the exponents in order."""
    exps = tuple(int(e) if e else -1 for e in re.findall(r"=(?:2\^(-?\d+)|0)", size_class))
    return sum(exps), exps


def devices(records: list[dict[str, Any]]) -> list[str]:
    return sorted({r["device"] for r in records})


def select(records: list[dict[str, Any]], path: str, device: str | None
           ) -> dict[tuple[str, str], dict[str, Any]]:
    """The record that decides each (source, region) (module docstring); `FrontendError`
    when the device is ambiguous or has no record."""
    chosen = _device_records(records, path, device)
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for record in chosen:   # file order: a later record of the same class wins
        key = (record["source"], record["region"])
        old = best.get(key)
        if old is None or size_key(record["size_class"]) >= size_key(old["size_class"]):
            best[key] = record
    return best


def _device_records(records: list[dict[str, Any]], path: str, device: str | None
                    ) -> list[dict[str, Any]]:
    names = devices(records)
    if device is not None:
        matching = [r for r in records if device.lower() in r["device"].lower()]
        if records and not matching:
            raise FrontendError(f"{path}: no tuning record for a device matching "
                                f"{device!r} (devices in the file: {'; '.join(names)})")
        return matching
    if len(names) > 1:
        raise FrontendError(f"{path}: the tuning file has records for several devices "
                            f"({'; '.join(names)}): choose one with --tune-device NAME")
    return records


def for_options(path: str, device: str | None) -> dict[str, str]:
    """The chosen records as ``{"source\\0region": record JSON}`` (canonical text: the
    result cache's key and the job's options carry it)."""
    chosen = select(load(path), path, device)
    return {f"{src}\0{region}": json.dumps(rec, sort_keys=True)
            for (src, region), rec in sorted(chosen.items())}


def for_source(tuning: dict[str, str], src: str) -> dict[str, str]:
    """The entries of `tuning` (`for_options`) for the source file `src` (by base name)."""
    base = os.path.basename(src)
    return {k: v for k, v in tuning.items() if k.split("\0", 1)[0] == base}


def table(records: list[dict[str, Any]]) -> str:
    """The records as ``translate tune`` prints them: per region, device and size class,
    each candidate's time, the winner marked with ``*``."""
    latest: dict[tuple[str, ...], dict[str, Any]] = {}
    for r in records:
        latest[(r["source"], r["region"], r["device"], r["size_class"])] = r
    lines = []
    for key in sorted(latest):
        r = latest[key]
        lines.append(f"region {r['region']} ({r['source']}), device \"{r['device']}\", "
                     f"sizes {r['size_class']}:")
        width = max([18] + [len(c["label"]) for c in r["candidates"]])
        lines.append(f"    {'candidate':<{width}} {'calls':>6} {'best ms':>12}  mapping")
        for k, cand in enumerate(r["candidates"]):
            ms = "-" if cand["ms"] is None else f"{cand['ms']:.4f}"
            mark = "*" if k == r["winner"] else " "
            lines.append(f"  {mark} {cand['label']:<{width}} {cand['calls']:>6} {ms:>12}  "
                         f"{cand['mapping']}")
        lines.append(_speedup_line(r))
    return "\n".join(lines) + ("\n" if lines else "")


def _speedup_line(record: dict[str, Any]) -> str:
    """How much faster the winner ran than the first candidate (the automatic mapping)."""
    first, best = record["candidates"][0], record["candidates"][record["winner"]]
    if first["ms"] is None or not best["ms"]:
        return f"    winner: {best['label']}"
    return (f"    winner: {best['label']}, {first['ms'] / best['ms']:.2f}x the speed of the "
            f"automatic mapping ({first['label']})")
