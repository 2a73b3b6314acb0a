/* Two matrix products in a row: e = (a*b)*d.  The second product reads every element of the
 * first one's result, so the region runs as two kernels, one after the other; c never leaves
 * the device between them.  Each product keeps its accumulator in a private scalar. */
#include <stdio.h>

#define N 48

static double a[N][N], b[N][N], c[N][N], d[N][N], e[N][N];

void products(int n)
{
#pragma translate kernel products
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += c[i][k] * d[k][j];
      e[i][j] = acc;
    }
#pragma translate end kernel
}

int main(void)
{
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = ((i + 2 * j) % 7) * 0.25 - 0.5;
      b[i][j] = ((3 * i + j) % 5) * 0.125;
      d[i][j] = (i == j) ? 1.5 : ((i * j) % 3) * 0.0625;
    }
  products(N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += e[i][j] * (1 + (i + j) % 4) + c[i][j];
  printf("checksum %.17g\ne[1][2] %.17g e[N-1][N-1] %.17g\n", s, e[1][2], e[N - 1][N - 1]);
  return 0;
}
