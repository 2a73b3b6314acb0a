"""Files with nothing to translate take a path that imports no parser, IR or isl
(`translator.passthrough`, `frontends.quick`; issue 24).  That path must give exactly what the
full translation gives such a file: these tests run both on every source of the repository,
as written and with the lines that could hold a sentinel removed."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from frontends.fortran import FortranFrontend
from translator import passthrough
from translator.cli import main
from translator.driver import translate_text
from translator.languages import FORTRAN_SUFFIXES
from translator.sourcebytes import SourceBytes

ROOT = Path(__file__).resolve().parents[2]
_SUFFIXES = (".f", ".F", ".f90", ".F90", ".for", ".f77", ".c")
#: Lines that may hold a sentinel, an include or a near miss.
_MAYBE = re.compile(r"\$|pragma|include", re.IGNORECASE)


def _sources() -> list[Path]:
    return sorted(p for d in ("samples", "tests", "bench") for p in (ROOT / d).rglob("*")
                  if p.suffix in _SUFFIXES and "gpu_build" not in p.parts and p.is_file())


def _full(path: str, data: bytes) -> tuple[dict, list[str], int]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = translate_text(path, data, {})
    data_sites = getattr(result.parsed, "data_sites", ())
    return result.outputs, [str(w.message) for w in caught], len(result.regions) + len(data_sites)


def test_the_light_path_agrees_with_the_full_translation_on_every_source():
    answered = 0
    for src in _sources():
        data = src.read_bytes()
        stripped = b"".join(line for line in data.splitlines(keepends=True)
                            if not _MAYBE.search(line.decode("latin-1")))
        for variant in (data, stripped):
            plain = passthrough.untranslated(str(src), variant, {})
            if plain is None:
                continue
            answered += 1
            language, source = plain
            outputs, warned, found = _full(str(src), variant)
            assert (found, warned) == (0, []), src
            assert outputs == passthrough.passthrough_outputs(str(src), source, "all", False), src
            assert outputs == {src.name: SourceBytes.from_bytes(variant).original}
    assert answered > 400   # most stripped files (and the sources without any sentinel)


@pytest.mark.parametrize("name, text, options", [
    # fixed form: code past column 72 draws the line-truncation warning
    ("long.f", "      program p\n      x = 1.0 + 2.0 + 3.0 + 4.0 + 5.0 + 6.0 + 7.0 + 8.0 + 9.0"
               " + 1.0 + 2.0 + 3.0\n      end\n", {}),
    ("near.f90", "program p\n!$tranlsate kernel\nend program\n", {}),   # a near miss
    ("inc.f90", "program p\ninclude 'x.inc'\nend program\n", {}),
    ("near.c", "#pragma tranlsate kernel\nint main(void) { return 0; }\n", {}),
    ("bad_form.f90", "program p\nend program\n", {"form": "card"}),
    (".f90", "program p\nend program\n", {}),        # no suffix: the plugins are asked
    ("x.For", "program p\nend program\n", {}),       # a suffix only the frontend's lookup knows
    ("x.h", "int f(void);\n", {}),
])
def test_the_light_path_leaves_what_it_cannot_tell(name, text, options):
    assert passthrough.untranslated(name, text, options) is None


def test_a_fixed_form_file_within_its_line_length_or_with_none_is_plain():
    long = "      x = 1.0 + 2.0 + 3.0 + 4.0 + 5.0 + 6.0 + 7.0 + 8.0 + 9.0 + 1.0 + 2.0 + 3.0\n"
    assert len(long) > 73
    assert passthrough.untranslated("a.f", "      program p\n      end\n", {}) is not None
    assert passthrough.untranslated("a.f", long, {"fixed_line_length": 0}) is not None
    assert passthrough.untranslated("a.h", "int f(void);\n", {"language": "c"}) is not None


def test_the_suffixes_are_the_frontends():
    assert set(FORTRAN_SUFFIXES) == set(FortranFrontend.suffixes)


@pytest.mark.parametrize("text, name", [
    ("program p\n  integer :: i\n  do i = 1, 3\n  end do\nend program p\n", "plain.f90"),
    ("#include <stdio.h>\r\nint main(void) { puts(\"x\"); return 0; }\r\n", "plain.c"),
])
@pytest.mark.parametrize("args", [["--report", "-MD", "--all-outputs"], ["--emit", "source"],
                                  ["--emit", "cl", "--report=-"]])
def test_the_command_line_writes_what_the_full_translation_writes(tmp_path, monkeypatch, capsys,
                                                                 text, name, args):
    src = tmp_path / name
    src.write_bytes(b"\xef\xbb\xbf" + text.encode())   # a byte order mark, kept
    runs = []
    for light in (True, False):
        out = tmp_path / f"out_{light}"
        if not light:
            monkeypatch.setattr(passthrough, "untranslated", lambda *a: None)
        code = main([str(src), "-o", str(out), "--no-cache", *args])
        printed = capsys.readouterr()
        files = {p.name: p.read_bytes().replace(str(out).encode(), b"OUT")
                 for p in sorted(out.iterdir() if out.exists() else ())}
        runs.append((code, printed.out, printed.err, files))
    assert runs[0] == runs[1]
    assert runs[0][0] == 0 and (runs[0][3] or args[1] == "cl")
