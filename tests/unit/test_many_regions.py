"""Costs that are per function or per file, paid once however many regions a file has (issue
24): the C frontend walks a function once for its references and once for its pointers' names
(not once per region, or twice); a region's kernel is printed only for ``--emit ir``.  The
translated program of a function of several regions still runs as the original does."""

from __future__ import annotations

from pathlib import Path

from frontends.c import FRONTEND as C_FRONTEND
from frontends.c import liveness, provenance
from tests.e2e.harness import check_sample
from translator import driver
from translator.ir import printer

REGIONS = 12


def _c_function(regions: int) -> str:
    """One function of `regions` regions: copies through a local pointer of known origin, a
    scalar read after the last region, a local array."""
    body = []
    for k in range(regions):
        body.append(f"""#pragma translate kernel
  for (int i = 0; i < n - 1; i++)
    q[i] = q[i] + {k + 1}.0 * x[i];
#pragma translate end kernel
""")
    return f"""/* translate-test: rtol=1e-12 */
#include <stdio.h>

static double work(int n, const double *restrict x, double *restrict y)
{{
  double *q = y + 1;
  double t[64];
  double s = 0.0;
{''.join(body)}#pragma translate kernel
  for (int i = 0; i < n; i++) {{
    t[i] = 2.0 * y[i];
    y[i] = t[i] + 1.0;
  }}
#pragma translate end kernel
#pragma translate kernel
#pragma translate set_options(reassociate=True)
  for (int i = 0; i < n; i++)
    s = s + y[i];
#pragma translate end kernel
  return s;
}}

int main(void)
{{
  double x[64], y[64];
  for (int i = 0; i < 64; i++) {{
    x[i] = 0.25 * i;
    y[i] = 1.0 / (1 + i);
  }}
  double s = work(64, x, y);
  for (int i = 0; i < 64; i += 7)
    printf("%d %.17g\\n", i, y[i]);
  printf("sum %.17g\\n", s);
  return 0;
}}
"""


def _counting(monkeypatch, owner, name: str) -> list[int]:
    calls = [0]
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_c_function_is_walked_once_for_all_its_regions(monkeypatch):
    """Before: References were built per region (``dict.setdefault`` evaluates its default)
    and the pointer names walked twice per region (builder and assembler): 14 and 84 walks
    for these 14 regions."""
    references = _counting(monkeypatch, liveness.References, "_walk")
    walks = _counting(monkeypatch, provenance, "_function_names")
    top = []
    original = liveness.References.__init__

    def init(self, func):
        top.append(func)
        original(self, func)
    monkeypatch.setattr(liveness.References, "__init__", init)
    parsed = C_FRONTEND.parse("many.c", _c_function(REGIONS), {})
    assert len(parsed.regions) == REGIONS + 2
    assert len(top) == 1 and references[0] > 0
    assert walks[0] == 1


def test_kernels_are_printed_only_when_the_ir_is_asked(monkeypatch):
    calls = _counting(monkeypatch, printer, "print_kernel")
    monkeypatch.setattr(driver, "print_kernel", printer.print_kernel, raising=False)
    result = driver.translate_text("many.c", _c_function(3))
    assert calls[0] == 0
    assert result.ir.count("kernel ") >= 5 and calls[0] == 5


def test_a_function_of_many_regions_runs_as_written(tmp_path: Path):
    src = tmp_path / "many.c"
    src.write_text(_c_function(REGIONS))
    out = check_sample(src, tmp_path)
    assert "sum " in out
