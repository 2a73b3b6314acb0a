"""The layout the C frontend computes for structs of numbers (`frontends.c.typemodel.Record`)
against gcc's own: every size and member offset, printed by a compiled program (h81)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from pycparser import c_parser

from frontends.c.typemodel import FileScope

STRUCTS = """\
struct a { double x, y, vx, vy; };
struct b { double x, y; int tag; };
struct c { float rho; int kind; double e; short flag; };
struct d { char c; double d; short s; unsigned char u[3]; };
struct e { int id; struct a pos; float m; struct { short s; double w[2]; } extra; };
struct f { _Bool on; long n[2][3]; unsigned short k; };
struct g { signed char c; struct { char a, b; } pair; };
"""


def test_struct_layouts_are_gccs(tmp_path: Path) -> None:
    scope = FileScope.from_ast(c_parser.CParser().parse(STRUCTS))
    lines, expected = [], []
    for tag in "abcdefg":
        record = scope.resolve(c_parser.CParser().parse(
            STRUCTS + f"struct {tag} *v_{tag};").ext[-1].type).record
        lines.append(f'  printf("%zu\\n", sizeof(struct {tag}));')
        expected.append(record.size)
        for member, _, offset, _ in record.members:
            lines.append(f'  printf("%zu\\n", __builtin_offsetof(struct {tag}, {member}));')
            expected.append(offset)
    src = tmp_path / "layout.c"
    src.write_text("#include <stdio.h>\n" + STRUCTS + "int main(void)\n{\n" + "\n".join(lines)
                   + "\n  return 0;\n}\n")
    subprocess.run(["gcc", "-O0", str(src), "-o", str(tmp_path / "layout")], check=True)
    out = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True,
                         check=True).stdout
    assert [int(v) for v in out.split()] == expected
    assert len(expected) > 30
