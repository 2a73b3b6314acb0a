"""Character constants in C regions (h63 differential hunt): ``'\\xff'`` and ``'\\377'`` are a
`char` converted to `int`, so -1 where `char` is signed (gcc on x86-64); ``'ab'`` is
``'a' * 256 + 'b'``.  The frontend took the code of the first character (255, 97): exit 0,
other numbers.  Enumerators defined by character constants take the same values."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
#include <stdio.h>
#define N 64
enum { MARK = '\\x80', PAIR = 'ab' };
static char s[N];
static int o[N];
int main(void)
{
  for (int i = 0; i < N; i++) s[i] = (char)(i * 9 - 200);
#pragma translate kernel chars
  for (int i = 0; i < N; i++)
    o[i] = (s[i] == '\\xff') + (s[i] < '\\200') * 2 + (s[i] > MARK) * 4 + '\\377' * 8
           + (PAIR + 'cd') % 1000 + (s[i] & '\\xf0');
#pragma translate end kernel
  long t = 0;
  for (int i = 0; i < N; i++) t = t * 7 % 100003 + o[i];
  printf("%ld %d %d\\n", t, o[0], o[N - 1]);
  return 0;
}
"""


def test_char_constants_have_gccs_values(tmp_path: Path):
    src = tmp_path / "chars.c"
    src.write_text(PROGRAM)
    assert check_sample(src, tmp_path) == "56080 418 466\n"
