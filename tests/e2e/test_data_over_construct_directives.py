"""A C data construct whose statement is another directive's construct (h92):
``#pragma acc data copy(a)`` directly over ``#pragma acc parallel loop``, ``#pragma omp target
data`` over ``#pragma omp target teams`` + ``distribute parallel for``, and over a ``#pragma
omp parallel`` block.  The data construct took the loop's directive for its statement: the
loop was left as written with no word (acc), and over a ``parallel`` block its ``end data``
went after the next statement past the block (the ``return``): never run, the arrays never
copied back, the program printed the values from before the construct."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

ACC = """\
/* translate-test: translate=--directives=openacc */
#include <stdio.h>
#define N 100
static double a[N];
int main(void) {
    for (int i = 0; i < N; i++) a[i] = i;
#pragma acc data copy(a)
#pragma acc parallel loop
    for (int i = 0; i < N; i++)
        a[i] = 2 * a[i] + 1;
    printf("%g %g\\n", a[0], a[N - 1]);
    return 0;
}
"""

TEAMS = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 100
static double a[N];
int main(void) {
    for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target data map(tofrom: a)
#pragma omp target teams
#pragma omp distribute parallel for
    for (int i = 0; i < N; i++)
        a[i] = 2 * a[i] + 1;
    printf("%g %g\\n", a[0], a[N - 1]);
    return 0;
}
"""

PARALLEL = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 100
static double a[N], b[N];
static double twice(void) {
    double s = 0.0;
#pragma omp target data map(tofrom: a, b)
#pragma omp parallel
    {
        for (int it = 0; it < 3; it++) {
#pragma omp for
            for (int i = 0; i < N; i++)
                b[i] = 2 * a[i] + it;
#pragma omp for reduction(+:s)
            for (int i = 0; i < N; i++) {
                a[i] = b[i] * 0.5;
                s += a[i];
            }
        }
    }
    return s;
}
int main(void) {
    for (int i = 0; i < N; i++) a[i] = i;
    double s = twice();
    printf("%.17g %.17g %.17g\\n", s, a[0], b[N - 1]);
    return 0;
}
"""


@pytest.mark.parametrize("name, text, regions", [("acc_data.c", ACC, 1),
                                                 ("teams_data.c", TEAMS, 1),
                                                 ("parallel_data.c", PARALLEL, 2)])
def test_data_construct_over_a_directive(tmp_path: Path, name: str, text: str,
                                         regions: int) -> None:
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
    host = (tmp_path / "out" / f"{src.stem}.host.c").read_text()
    assert len(re.findall(r"^void translate_(?:main|twice)_\d+\(.*\);$", host,
                          re.MULTILINE)) == regions
