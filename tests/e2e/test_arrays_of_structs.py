"""End to end: arrays of structures in regions (h81).

C: ``p[i].x`` (also ``(p + i)->x``, ``p->x``, ``p[i].v[k]``, ``p[i].pos.x``) of an array of
(pointer to) structs whose members are numbers, arrays of numbers or such structs reads the
struct's memory as an array of x's type with one more axis over the struct (``p[i, k]``),
one view per member type, all passed the same memory; the layout is computed by the x86-64
rules and checked by the compiler at the call (a negative array size where ``sizeof`` or
``__builtin_offsetof`` differ).  Fortran: ``p(i)%x`` (``p(i)%q%x``) of an array of derived
type with a number component passes ``p%x``, the compiler's contiguous copy (no layout
assumed).  Before: every program here was refused ("a member of an array of structs ... is
not supported", "the subscripts of p(i)%vx before its last component depend on 'i'").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import SampleOptions, build_translated, check_sample

HERE = Path(__file__).parent / "arrays_of_structs"


@pytest.mark.parametrize("name", ["push.c", "mixed.c", "members.c", "nested.c",
                                  "timeloop.c", "particles.f90", "cells.f90"])
def test_arrays_of_structs_match_the_original(name: str, tmp_path: Path) -> None:
    check_sample(HERE / name, tmp_path)


def test_members_of_several_types_share_one_device_buffer(tmp_path: Path) -> None:
    """Each member type is an argument of its own over the struct's memory: none restrict,
    all TR_MAY_ALIAS with the same extent, so that the runtime gives them one buffer."""
    check_sample(HERE / "mixed.c", tmp_path)
    host = (tmp_path / "out" / "mixed.host.c").read_text()
    assert "tr_arg_array(&_tr_call, 0, _tr_c_double, (_tr_i_n - 1) * 3, sizeof(cl_double), " \
           "TR_IN | TR_OUT | TR_MAY_ALIAS);" in host
    assert "tr_arg_array(&_tr_call, 3, c, (_tr_i_n - 1) * 6, sizeof(cl_float), TR_IN | " \
           "TR_MAY_ALIAS);" in host
    rewritten = (tmp_path / "out" / "mixed.c").read_text()
    assert "translate_relax_k((double *)(c), (int *)(c), (short *)(c), (float *)(c), w, n);" \
        in rewritten
    kernels = (tmp_path / "out" / "mixed.cl").read_text()
    assert "(__global double *_tr_c_double, __global int const *_tr_c_int, " \
           "__global short *_tr_c_short, __global float const *c, " in kernels
    assert "typedef char _tr_layout_of_c_in_relax_k_is_not_the_one_the_kernel_was_generated_" \
           "for[(sizeof(c[0]) == 24 && __builtin_offsetof(__typeof__(c[0]), rho) == 0 && " \
           "__builtin_offsetof(__typeof__(c[0]), kind) == 4 && __builtin_offsetof(" \
           "__typeof__(c[0]), e) == 8 && __builtin_offsetof(__typeof__(c[0]), flag) == 16) ? " \
           "1 : -1] __attribute__((unused));" in rewritten


def _translate_error(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", name, "-o", "out"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "out").exists()
    return proc.stderr.splitlines()[0]


HEAD = """\
struct particle { double x, y, v[2]; };
struct node { double v; struct node *next; };
struct cell { struct particle p[4]; int n; };
void f(int n, struct node *nodes, struct cell *cells, struct particle *p, double *out)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
"""


@pytest.mark.parametrize("statement, message", [
    ("out[i] = 2 * nodes[i].v;",
     "a.c:8:18: error: a member of an array of structs ('nodes[i].v') is not supported in a "
     "region ('nodes' has type pointer to struct node (its member 'next' is a pointer to "
     "struct node; only structs whose members are numbers, arrays of numbers of constant "
     "extents or such structs can be used in a region)); keep each member in an array of its "
     "own"),
    ("out[i] = cells[i].p[0].x;",
     "a.c:8:14: error: a member of an array of structs ('cells[i].p[0].x') is not supported "
     "in a region ('cells' has type pointer to struct cell (its member 'p' is an array of "
     "structs; only structs whose members are numbers, arrays of numbers of constant "
     "extents or such structs can be used in a region)); keep each member"),
    ("p[i] = p[n - 1 - i];",
     "a.c:8:5: error: an element of the array of structs 'p' is used whole: only its members "
     "that are numbers ('p[i].x') can be used in a region"),
    ("out[i] = p[i].z;", "a.c:8:14: error: struct particle has no member 'z'"),
    ("out[i] = p[i].v;", "a.c:8:14: error: member 'v' of struct particle has 1 dimension(s) "
     "but is subscripted with 0: only its elements can be used in a region"),
])
def test_structs_that_cannot_be_read_as_numbers_are_refused(tmp_path: Path, statement: str,
                                                           message: str) -> None:
    text = HEAD + f"    {statement}\n#pragma translate end kernel\n}}\n"
    assert _translate_error(tmp_path, "a.c", text).startswith(message)


PACKED = """\
#include <stdio.h>
struct __attribute__((packed)) mix { char c; double d; };
static struct mix m[100];
int main(void)
{
  for (int i = 0; i < 100; i++) { m[i].c = (char)i; m[i].d = i; }
#pragma translate kernel packed_k
  for (int i = 0; i < 100; i++)
    m[i].d = m[i].d * 2 + m[i].c;
#pragma translate end kernel
  printf("%g\\n", m[99].d);
  return 0;
}
"""


def test_a_layout_other_than_the_computed_one_stops_the_build(tmp_path: Path) -> None:
    """A packed struct (the attribute is not seen by the translator, which computes the
    natural layout): the static assertion at the call fails to compile, never a kernel that
    reads the wrong bytes."""
    src = tmp_path / "packed.c"
    src.write_text(PACKED)
    with pytest.raises(AssertionError) as err:
        build_translated(src, tmp_path, SampleOptions())
    assert ("packed.c:8:16: error: size of array '_tr_layout_of_m_in_packed_k_is_not_the_one_"
            "the_kernel_was_generated_for' is negative") in str(err.value).replace("‘", "'") \
        .replace("’", "'")


def test_an_array_of_derived_type_in_a_data_clause_is_refused(tmp_path: Path) -> None:
    """Regions pass copies of its components, never its device copy: a data region holding
    it would copy stale data back (before the refusal: 4.57e4 instead of 3.32e4)."""
    text = (HERE / "cells.f90").read_text()
    text = text.replace("  do t = 1, 3\n", "  !$translate data copy(c)\n  do t = 1, 3\n", 1)
    text = text.replace("  s = 0; k = 0\n", "  !$translate end data\n  s = 0; k = 0\n", 1)
    assert _translate_error(tmp_path, "cells.f90", text) == (
        "cells.f90:26:3: error: 'c' in a data clause is an array of derived type: a region "
        "passes each component of its elements that it uses ('c%x' for 'c(i)%x') as a copy "
        "made at the call, never the device copy of 'c'; leave it out of data clauses")

