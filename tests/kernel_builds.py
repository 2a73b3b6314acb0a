"""Every OpenCL program the translator emits during a test is built with PoCL (issue 20).

A test passes only if every device program it made compiles, whether or not the test runs it:

- in this process, every program code generation returns
  (`translator.codegen.opencl._generate`, which `generate_code`, `compile`, `translate_text`
  and the CLI's `main` all reach, and `translator.generate_code`'s result) is recorded as it
  is made;
- programs of CLI runs in subprocesses are read from the files the test wrote under its
  ``tmp_path``: each program a ``*.host.c`` embeds (the string the runtime builds) and each
  ``*.cl`` (all kernels of a source file, which must build as one program too).

At the end of the test each program is built once per worker with one context, and remembered
by the hash of its text on disk (pytest's cache directory), so a later run builds only
programs it has not seen.  A test whose programs are meant to be rejected (one that checks how
a build failure is reported) says so with ``@pytest.mark.unbuilt_kernels``.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

#: The options the runtime builds with on a device that rounds float division and sqrt
#: correctly (translator/runtime/translate_rt.c, device_build_options; PoCL does).
BUILD_OPTIONS = ["-cl-kernel-arg-info", "-cl-fp32-correctly-rounded-divide-sqrt"]

_SOURCE = re.compile(r'static const char _tr_source_\w+\[\] =\n'
                     r'((?:[ \t]*"(?:[^"\\\n]|\\.)*"\n?)+);')
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPE = re.compile(r"\\([0-7]{1,3}|x[0-9a-fA-F]+|.)")
_STAMP = re.compile(r"\A// translate generation stamp \w+\n")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?",
           "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _unescape(match: re.Match) -> str:
    code = match.group(1)
    if code[0] in "01234567":
        return chr(int(code, 8))
    if code[0] == "x":
        return chr(int(code[1:], 16))
    return _SIMPLE[code]


def c_string_value(literals: str) -> str:
    """The text of adjacent C string literals (as `translator.codegen.host.c_string_literal`
    writes them: bytes above 0x7f as octal escapes of their UTF-8 encoding)."""
    raw = "".join(_ESCAPE.sub(_unescape, m.group(1)) for m in _LITERAL.finditer(literals))
    return raw.encode("latin-1").decode("utf-8", "surrogateescape")


def glue_programs(host_c: str) -> list[str]:
    """The device programs a host glue file embeds, in file order."""
    return [c_string_value(m.group(1)) for m in _SOURCE.finditer(host_c)]


def written_programs(folder: Path) -> Iterator[tuple[str, str]]:
    """(origin, program) for every program embedded in a ``*.host.c`` under `folder`, and
    every ``*.cl`` there (all of a file's kernels as one program)."""
    for path in sorted(folder.rglob("*.host.c")) + sorted(folder.rglob("*.cl")):
        try:
            text = path.read_text(encoding="latin-1")
        except OSError:
            continue
        if path.suffix == ".cl":
            if "__kernel" in text:
                yield str(path), text.encode("latin-1").decode("utf-8", "surrogateescape")
            continue
        for k, program in enumerate(glue_programs(text)):
            yield f"{path} (program {k})", program


class KernelBuilds:
    """Builds programs with one context, each distinct text once (memory and disk)."""

    def __init__(self, make_context: Callable[[], object], cache_dir: Path | None) -> None:
        self._make_context = make_context
        self._context = None
        self._salt = ""
        self._cache_dir = cache_dir
        self._built: set[str] = set()
        #: (origin, program) recorded in this process since the last `take_recorded`.
        self.recorded: list[tuple[str, str]] = []

    def context(self):
        """The worker's one context (also the ``ctx`` fixture)."""
        if self._context is None:
            self._context = self._make_context()
            device = self._context.devices[0]
            self._salt = f"{device.platform.version}\n{device.name}\n{device.driver_version}\n"
        return self._context

    def record(self, origin: str, program: str) -> None:
        self.recorded.append((origin, program))

    def take_recorded(self) -> list[tuple[str, str]]:
        out, self.recorded = self.recorded, []
        return out

    def failure(self, origin: str, program: str) -> str | None:
        """None if `program` builds; else a message naming `origin` with the build log."""
        import pyopencl as cl
        context = self.context()
        # a file's stamp comment builds as nothing: ``src.cl`` of one region is the program
        # its glue embeds, built once
        text = self._salt + _STAMP.sub("", program, count=1)
        key = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
        if key in self._built or self._known(key):
            return None
        try:
            with warnings.catch_warnings():   # compiler remarks are not failures
                warnings.simplefilter("ignore", cl.CompilerWarning)
                source = program.encode("utf-8", "surrogateescape")   # bytes as written
                cl.Program(context, source).build(options=BUILD_OPTIONS)
        except cl.Error as e:
            return (f"an emitted OpenCL program does not build ({origin}):\n{e}\n"
                    f"--- program ---\n{program}")
        self._built.add(key)
        self._remember(key)
        return None

    def _known(self, key: str) -> bool:
        return self._cache_dir is not None and (self._cache_dir / key).exists()

    def _remember(self, key: str) -> None:
        if self._cache_dir is None:
            return
        try:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            (self._cache_dir / key).touch()
        except OSError:
            pass


def install_recorder(builds: KernelBuilds) -> None:
    """Wrap code generation of this process so that `builds` records every program: each
    kernel's (`opencl._generate`), and what `translator.generate_code` returns (a region cut
    into several kernels joins them into one program)."""
    from translator.codegen import opencl
    for name in ("_generate", "generate_code"):
        generate = getattr(opencl, name)
        if not getattr(generate, "_records_programs", False):
            setattr(opencl, name, _recording(generate, builds))


def _recording(generate: Callable, builds: KernelBuilds) -> Callable:
    def recording(kernel):
        code = generate(kernel)
        builds.record(f"kernel {code.kernel_name!r} generated in this process",
                      code.device_code)
        return code
    recording._records_programs = True
    recording.__doc__ = generate.__doc__
    return recording
