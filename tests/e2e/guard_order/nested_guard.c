#include <stdio.h>
#define N 1000
void f(int n, double t, const double *restrict a, double *restrict b) {
#pragma translate kernel guarded
  for (int i = 0; i < n; i++) {
    b[i] = 0.0;
    if (i > 0) {
      if (a[i - 1] > t)
        b[i] = a[i - 1];
    }
  }
#pragma translate end kernel
}
int main(void) {
  static double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = (i * 37 % 101) / 100.0;
  f(N, 0.5, a, b);
  double s = 0; for (int i = 0; i < N; i++) s += b[i] * (i + 1);
  printf("%.17g\n", s);
  return 0;
}
