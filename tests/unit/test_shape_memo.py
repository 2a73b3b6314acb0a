"""Answers remembered by kernel shape up to the kernel's name and spans (issue 24,
`translator.ir.shape_memo`): the automatic mapper and code generation answer a kernel equal to
an earlier one but for its name and source spans from the earlier answer, with the asker's
name and spans put back; what a fresh process answers.  Kernels that differ in any other part
(a literal's type, a dtype, a bound, an option, the mapper's variant, the spans' pattern) get
answers of their own: each test below fails if the key drops that part."""

from __future__ import annotations

import warnings
from dataclasses import replace

import numpy as np
import pytest

import transforms
import translator
from translator import automap
from translator.codegen import opencl
from translator.diagnostics import SourceSpan
from translator.driver import frontend_for
from translator.ir.shape_memo import shape_key, span_slots
from translator.pipeline import privatize_arrays

REGION = """subroutine s{k}(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel
  do i = {low}, n
     y(i) = y(i) + 2.0d0 * x(i)
  end do
  !$translate end kernel
end subroutine s{k}
"""


def _regions(*lows: int) -> list:
    """The kernels of one Fortran file holding a region per entry of `lows` (its loop's
    lower bound), each in a subroutine of its own: names and lines differ."""
    text = "".join(REGION.format(k=k, low=low) for k, low in enumerate(lows))
    parsed = frontend_for("m.f90").parse("m.f90", text, {})
    return [privatize_arrays(r.kernel) for r in parsed.regions]


def _counted(monkeypatch, module, name: str) -> list[int]:
    calls = [0]
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counting)
    return calls


def _spans(kernel) -> list:
    return [(s.file, s.line, s.col) if s is not None else None for s in span_slots(kernel)]


def test_key_leaves_out_name_and_spans_only():
    first, second, other = _regions(1, 1, 2)
    assert first.name != second.name and _spans(first) != _spans(second)
    assert shape_key(first) == shape_key(second)
    assert shape_key(first) != shape_key(other)


def test_a_mapping_is_remembered_up_to_name_and_spans(monkeypatch):
    """The second region is mapped from the first's answer (the mapper runs once), with its
    own name and spans: equal, span for span, to a fresh mapping of it."""
    first, second = _regions(1, 1)
    runs = _counted(monkeypatch, automap, "_map_unmapped")
    automap.auto_map(first)
    mapped, mapping = automap.auto_map(second)
    assert runs[0] == 1
    automap._SHAPES.clear()
    fresh, fresh_mapping = automap.auto_map(second)
    assert runs[0] == 2
    assert mapped == fresh and mapping == fresh_mapping and mapped.name == second.name
    assert _spans(mapped) == _spans(fresh) == _spans(second)
    assert [s.span for s in mapped.statements] == [s.span for s in second.statements]


def _mapped(kernel, variant=None):
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        if variant is None:
            return automap.auto_map(kernel)
        with automap.using_variant(variant):
            return automap.auto_map(kernel)


def _apart(first, second, answer) -> None:
    """`answer(second)` after `answer(first)` is what it is without the memo, and differs
    from `answer(first)`."""
    one, two = answer(first), answer(second)
    automap._SHAPES.clear()
    opencl._SHAPES.clear()
    assert answer(second) == two
    assert one != two


def test_mappings_of_other_bounds_are_apart():
    first, second = _regions(1, 2)
    _apart(first, second, lambda k: _mapped(k)[0].domains[0].get_constraints().__repr__())


def test_mappings_under_another_variant_are_apart():
    kernel, = _regions(1)
    narrow = automap.Variant(shapes=((1, (64,)), (2, (32, 8)), (3, (32, 8, 1))))
    answers = [_mapped(kernel)[1].pragmas, _mapped(kernel, narrow)[1].pragmas]
    automap._SHAPES.clear()
    assert _mapped(kernel, narrow)[1].pragmas == answers[1] != answers[0]


SUM = """void f(int n, const {t} *restrict x, {t} *restrict total)
{{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    total[0] += x[i];
#pragma translate end kernel
}}
"""


def test_mappings_of_other_dtypes_are_apart():
    """An integer sum is mapped as a reduction; the same sum of doubles stays sequential (its
    rounding would change): the key holds the arguments' dtypes."""
    ints, doubles = (privatize_arrays(frontend_for("f.c").parse(
        "f.c", SUM.format(t=t), {}).regions[0].kernel) for t in ("int", "double"))
    _apart(ints, doubles, lambda k: _mapped(k)[1])
    assert _mapped(doubles)[1].reason and not _mapped(ints)[1].reason


def _split(expr: str, dtype=np.float64, domain="{[i]: 0<=i<n}", name="k"):
    knl = translator.make_kernel(domain, f"y[i] = {expr}",
                                 [translator.GlobalArg("x", dtype, shape="n"),
                                  translator.GlobalArg("y", dtype, shape="n"), "..."],
                                 name=name)
    return transforms.split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")


def _placed(kernel, line: int | None):
    """`kernel` with its statements at `line` of ``m.c`` (None: no span)."""
    span = None if line is None else SourceSpan(file="m.c", line=line, col=3)
    return kernel.copy(statements=tuple(replace(s, span=span) for s in kernel.statements))


def _code(kernel):
    return translator.generate_code(kernel).device_code


def test_code_is_remembered_up_to_name_and_spans(monkeypatch):
    """A kernel named otherwise with its statement on another line: the code generator runs
    once; the second text has its own name and ``#line`` directive, as a fresh one has."""
    made = _counted(monkeypatch, opencl, "_template")
    _code(_placed(_split("2*x[i]", name="first"), 10))
    again = _code(_placed(_split("2*x[i]", name="second"), 20))
    assert made[0] == 1
    opencl._SHAPES.clear()
    fresh = _code(_placed(_split("2*x[i]", name="second"), 20))
    assert again == fresh and made[0] == 2
    assert '#line 20 "m.c"' in again and " second(" in again and "first" not in again


@pytest.mark.parametrize("second", [
    lambda: _placed(_split("2.0*x[i]"), 6),               # a literal's type (pymbolic: equal)
    lambda: _placed(_split("2*x[i]", np.float32), 6),     # the arrays' dtype
    lambda: _placed(_split("2*x[i]", domain="{[i]: 1<=i<n}"), 6),    # a bound
    lambda: _placed(transforms.set_options(_split("2*x[i]"), fp_contract=True), 6),  # option
    lambda: _placed(_split("2*x[i]"), None),              # the spans' pattern (no span)
], ids=["literal-type", "dtype", "bound", "option", "span-pattern"])
def test_code_of_kernels_differing_beyond_name_and_spans_is_apart(second):
    _apart(_placed(_split("2*x[i]"), 5), second(), _code)
