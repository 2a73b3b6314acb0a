"""Mutation fuzzing of the CLI's translation path (used by test_fuzz.py and bench/fuzz_cli.py).

A mutant is a sample source with a few lines or tokens deleted, duplicated, swapped or
replaced, a huge number put in, and its bytes perhaps changed the way real files differ: CRLF
line ends, a UTF-8 byte order mark, a Latin-1 comment.  The oracle is the CLI contract: every
input ends in exit 0 or exit 1 with a diagnostic; never an internal error (exit 2), a
traceback, a hang, or output left behind by a failed translation; and when it translates,
every line outside its regions is in the rewritten source byte for byte, in order.
"""

from __future__ import annotations

import os
import random
import re
import signal
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SEEDS = tuple(sorted(p for p in (REPO / "samples").rglob("*")
                     if p.suffix in (".f90", ".f", ".c")))
TOKEN = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d*)?(?:[eEdD][-+]?\d+)?|\"[^\"\n]*\""
                   r"|'[^'\n]*'|\S")
BASE_KINDS = ("del_line", "dup_line", "swap_lines", "del_token", "dup_token", "swap_tokens",
              "replace_token", "interesting_token")
#: ``region_*`` kinds apply the base kind to the text of one translate region only, so that
#: more mutants get past the frontend into transforms, analysis and code generation.
KINDS = BASE_KINDS + tuple(f"region_{k}" for k in BASE_KINDS)
#: Changes to the file's bytes (applied after the text mutations): CRLF line ends, a byte
#: order mark, a Latin-1 comment line; and numbers no integer type holds.
BYTE_KINDS = ("crlf", "bom", "latin1_comment")
HUGE = ("9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "1" + "0" * 40, "1e400", "99999999999999999999", "4294967296")
ALL_KINDS = KINDS + ("huge_literal", "region_huge_literal") + BYTE_KINDS
#: Tokens that often break assumptions: edge values, inames, tags, operators.
INTERESTING = ("0", "1", "-1", "2", "3", "7", "64", "1000000007", "2147483647", "-2147483648",
               "1.5", "1e300", "0.0", "i", "j", "k", "n", "i_1", '"i"', '"j"', '"i_inner"',
               '"l.0"', '"g.0"', '"l.1"', '"g.2"', '"ilp"', '"vec"', '"unr"', "(", ")", "[",
               "]", ",", "+", "-", "*", "/", "%", "**", "=", "==", ".and.", "&&", "||", "!",
               "if", "do", "for", "end", "kernel", "None", "True", "{", "}", ":", ";", "::",
               "translate", "split_iname", "tag_inames", "independent")
_DIRECTIVE = re.compile(r"^[ \t]*(?:[!*cC]\$|#[ \t]*pragma[ \t]+)translate[ \t]+(end[ \t]+)?kernel",
                        re.IGNORECASE | re.MULTILINE)


def mutate(text: str, ops: Sequence[tuple[str, int, int]]) -> str:
    """Apply text mutations `(kind, a, b)`; a and b pick lines or tokens (taken modulo).
    Byte kinds are left to `mutate_bytes`."""
    for kind, a, b in ops:
        if kind in BYTE_KINDS:
            continue
        if kind.startswith("region_"):
            text = _in_region(text, kind[len("region_"):], a, b)
        else:
            text = _apply(kind, text, a, b)
    return text


def mutate_bytes(name: str, text: str, ops: Sequence[tuple[str, int, int]]) -> bytes:
    """The file `name` after `mutate` and then the byte kinds of `ops`."""
    data = mutate(text, ops).encode("utf-8")
    for kind, a, _b in ops:
        if kind == "crlf":
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        elif kind == "bom" and not data.startswith(b"\xef\xbb\xbf"):
            data = b"\xef\xbb\xbf" + data
        elif kind == "latin1_comment":
            data = _latin1_comment(name, data, a)
    return data


def _latin1_comment(name: str, data: bytes, a: int) -> bytes:
    """A comment line holding the Latin-1 byte 0xE9 put before line `a` (modulo)."""
    lines = data.splitlines(keepends=True) or [b""]
    ending = b"\r\n" if data.count(b"\r\n") * 2 > data.count(b"\n") else b"\n"
    if name.endswith(".c"):
        comment = b"/* caf\xe9 cr\xe8me */"
    elif name.lower().endswith((".f", ".for", ".f77")):
        comment = b"c caf\xe9 cr\xe8me"
    else:
        comment = b"! caf\xe9 cr\xe8me"
    k = a % len(lines)
    if k == 0 and lines[0].startswith(b"\xef\xbb\xbf"):
        k = 1   # the byte order mark stays first
    lines.insert(k, comment + ending)
    return b"".join(lines)


def _apply(kind: str, text: str, a: int, b: int) -> str:
    if kind == "huge_literal":
        return _huge_literal(text, a, b)
    return _LINE_OPS[kind](text, a, b) if kind in _LINE_OPS else _token_op(kind, text, a, b)


def _huge_literal(text: str, a: int, b: int) -> str:
    """A number token (or any token, when there is none) replaced by a huge number."""
    spans = [m.span() for m in TOKEN.finditer(text)]
    numbers = [sp for sp in spans if text[sp[0]].isdigit()] or spans
    if not numbers:
        return text
    s, e = numbers[a % len(numbers)]
    return text[:s] + HUGE[b % len(HUGE)] + text[e:]


def region_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges from each ``kernel`` directive to the end of its ``end kernel`` line."""
    spans, start = [], None
    for m in _DIRECTIVE.finditer(text):
        if m.group(1) is None:
            start = m.start()
        elif start is not None:
            end = text.find("\n", m.end())
            spans.append((start, len(text) if end < 0 else end + 1))
            start = None
    return spans


def _in_region(text: str, kind: str, a: int, b: int) -> str:
    spans = region_spans(text)
    if not spans:
        return _apply(kind, text, a, b)
    s, e = spans[(a ^ b) % len(spans)]
    return text[:s] + _apply(kind, text[s:e], a, b) + text[e:]


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _del_line(text: str, a: int, b: int) -> str:
    lines = _lines(text)
    del lines[a % len(lines)]
    return "".join(lines)


def _dup_line(text: str, a: int, b: int) -> str:
    lines = _lines(text)
    k = a % len(lines)
    lines.insert(b % (len(lines) + 1), lines[k])
    return "".join(lines)


def _swap_lines(text: str, a: int, b: int) -> str:
    lines = _lines(text)
    i, j = a % len(lines), b % len(lines)
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


_LINE_OPS = {"del_line": _del_line, "dup_line": _dup_line, "swap_lines": _swap_lines}


def _token_op(kind: str, text: str, a: int, b: int) -> str:
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return text
    s, e = spans[a % len(spans)]
    t2 = spans[b % len(spans)]
    other = text[t2[0]:t2[1]]
    if kind == "del_token":
        return text[:s] + text[e:]
    if kind == "dup_token":
        return text[:e] + " " + text[s:e] + text[e:]
    if kind == "replace_token":
        return text[:s] + other + text[e:]
    if kind == "interesting_token":
        return text[:s] + INTERESTING[b % len(INTERESTING)] + text[e:]
    nxt = spans[(a + 1) % len(spans)]
    if nxt[0] <= s:
        return text
    return text[:s] + text[nxt[0]:nxt[1]] + text[e:nxt[0]] + text[s:e] + text[nxt[1]:]


def random_ops(rng: random.Random) -> list[tuple[str, int, int]]:
    return [(rng.choice(ALL_KINDS), rng.randrange(1 << 16), rng.randrange(1 << 16))
            for _ in range(rng.randint(1, 3))]


_DIRECTIVE_BYTES = re.compile(_DIRECTIVE.pattern.encode(), re.IGNORECASE | re.MULTILINE)


def _byte_region_spans(data: bytes) -> list[tuple[int, int]]:
    spans, start = [], None
    for m in _DIRECTIVE_BYTES.finditer(data):
        if m.group(1) is None:
            start = m.start()
        elif start is not None:
            end = data.find(b"\n", m.end())
            spans.append((start, len(data) if end < 0 else end + 1))
            start = None
    return spans


#: A data directive line (replaced by a call of its glue, like a region; `wait` too).
_DATA_DIRECTIVE = re.compile(rb"^\s*(?:#\s*pragma\s+translate|[!cC*]\$translate)\s+"
                             rb"(?:data|end\s*data|enter\s+data|exit\s+data|update|wait)\b",
                             re.IGNORECASE)


def outside_regions_changed(original: bytes, rewritten: bytes) -> str:
    """"" if every line of `original` outside its regions and data directives is a line of
    `rewritten`, byte for byte and in order (the rewrite only replaces regions and directives
    and inserts lines, also before the first line: a byte order mark stays first); else the
    first line that is not."""
    bom = b"\xef\xbb\xbf"
    if original.startswith(bom) != rewritten.startswith(bom):
        return "the byte order mark was not kept at the start of the file"
    original, rewritten = original.removeprefix(bom), rewritten.removeprefix(bom)
    spans = _byte_region_spans(original)
    out = rewritten.splitlines(keepends=True)
    k, pos, continued = 0, 0, False
    for number, line in enumerate(original.splitlines(keepends=True), 1):
        inside = any(s <= pos < e for s, e in spans)
        pos += len(line)
        directive = continued or _DATA_DIRECTIVE.match(line) is not None
        continued = directive and line.rstrip().endswith((b"&", b"\\"))
        if inside or directive:
            continue
        while k < len(out) and out[k] != line:
            k += 1
        if k == len(out):
            return f"line {number} {line!r} is not in the rewritten source"
        k += 1
    return ""


@dataclass
class Outcome:
    status: int
    problem: str = ""      # empty: the contract held
    stderr: str = ""


class _Timeout(BaseException):
    """Past the time bound (a BaseException: the job's ``except Exception`` would report it
    as an internal error)."""


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise _Timeout()


def run_input(name: str, text: str | bytes, *, timeout: int = 60) -> Outcome:
    """Translate `text` (or the bytes of a file) as the CLI would (in process) and judge the
    result."""
    from translator.build.job import JobOptions, translate_source_text
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="fuzz.") as tmp:
        src = os.path.join(tmp, name)
        Path(src).write_bytes(data)
        out = os.path.join(tmp, "out")
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(timeout)
        try:
            result = translate_source_text(src, data, JobOptions(output=out))
        except _Timeout:
            return Outcome(-1, f"hang (more than {timeout} s)")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        left = sorted(os.listdir(out)) if os.path.isdir(out) else []
        problem = _judge(result, left)
        if not problem and result.status == 0:
            problem = outside_regions_changed(data, Path(out, name).read_bytes())
        return Outcome(result.status, problem, result.stderr)


def _judge(result, left: list[str]) -> str:
    if result.status == 2:
        return "internal error"
    if "Traceback" in result.stderr:
        return "traceback on stderr"
    if result.status == 1 and "error:" not in result.stderr:
        return "exit 1 without a diagnostic"
    if result.status == 1 and left:
        return f"a failed translation wrote {left}"
    if result.status == 0 and not left:
        return "success without outputs"
    if result.status not in (0, 1):
        return f"exit status {result.status}"
    return ""


def run_bounded(name: str, data: bytes, *, seconds: int = 120,
                memory: int = 3 << 30) -> tuple[Outcome, float, float]:
    """`run_input` in a child process held to `seconds` of wall time and `memory` bytes of
    address space (RLIMIT_AS); a run past either bound is a problem.  Returns the outcome, the
    wall seconds and the child's peak RSS in MB."""
    import json
    import subprocess
    import sys
    import time
    with tempfile.TemporaryDirectory(prefix="fuzzb.") as tmp:
        src = Path(tmp, "input")
        src.write_bytes(data)
        code = ("import json, resource, sys; from tests.build.fuzzing import run_input; "
                f"o = run_input({name!r}, open({str(src)!r}, 'rb').read(), timeout={seconds}); "
                "print(json.dumps([o.status, o.problem, o.stderr[-2000:], "
                "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))")
        t0 = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  cwd=REPO, timeout=seconds + 30,
                                  preexec_fn=lambda: _limit_memory(memory))
        except subprocess.TimeoutExpired:
            return Outcome(-1, f"over the time bound ({seconds} s)"), seconds, 0.0
        wall = time.perf_counter() - t0
    try:
        status, problem, stderr, rss = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = proc.stderr.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
        what = "over the memory bound" if "MemoryError" in proc.stderr else "child died"
        return Outcome(2, f"{what} ({memory >> 20} MB): {tail[0][:200]}"), wall, 0.0
    if status == 2 and "MemoryError" in stderr:
        problem = f"over the memory bound ({memory >> 20} MB)"
    return Outcome(status, problem, stderr), wall, rss


def _limit_memory(memory: int) -> None:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
