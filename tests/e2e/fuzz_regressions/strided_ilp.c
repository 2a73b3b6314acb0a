/* e2e fuzzer (h73), seed c:5: a loop with a non-unit step split with an ilp inner loop.
 * Code generation's guard of the statement asked isl for a gist that crashed the translator
 * (SIGSEGV inside isl); the same loop counting up and down, steps 2 and 3. */
#include <stdio.h>

#define N 24

void strided(int n, double a[N][N], double b[N][N], double c[N])
{
#pragma translate kernel down_by_two
#pragma translate split_iname("i", 13, inner_tag="ilp")
  for (int i = n + 1; i >= 1; i -= 2) {
    b[i][i] = a[i][i] + i;
  }
#pragma translate end kernel
#pragma translate kernel up_by_three
#pragma translate split_iname("i", 5, inner_tag="ilp")
  for (int i = 0; i < n; i += 3) {
    c[i] = a[i][1] * 2.0 - i;
  }
#pragma translate end kernel
}

int main(void)
{
  static double a[N][N], b[N][N], c[N];
  for (int i = 0; i < N; i++) {
    c[i] = -1.0;
    for (int j = 0; j < N; j++) {
      a[i][j] = 0.25 * ((i * 7 + j * 3) % 17);
      b[i][j] = 0.5 * ((i + j) % 5);
    }
  }
  for (int n = 4; n <= 22; n += 9)
    strided(n, a, b, c);
  for (int i = 0; i < N; i++)
    printf("%d %a %a\n", i, b[i][i], c[i]);
  return 0;
}
