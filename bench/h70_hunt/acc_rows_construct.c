/* translate-test: translate=--directives=openacc rtol=1e-13 */
/* OpenACC in C: loop gang inside parallel / kernels constructs and parallel loop gang;
   scalars of the gang loop are the gang's (firstprivate). */
#include <stdio.h>
#define N 37
#define M 29
static double a[N][M], b[N], c[N], d[N], e[N], f[N];
int main(void) {
  double s, t, u, w;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      a[j][i] = (double)((i * j) % 11) * 0.25 - 1.0;
#pragma acc parallel
  {
#pragma acc loop gang
    for (int j = 0; j < N; j++) {
      s = 0.0;
#pragma acc loop vector reduction(+:s)
      for (int i = 0; i < M; i++)
        s += a[j][i];
      b[j] = s;
    }
  }
#pragma acc parallel loop gang
  for (int j = 0; j < N; j++) {
    t = -1.0e30;
#pragma acc loop vector reduction(max:t)
    for (int i = 0; i < M; i++)
      t = t > a[j][i] * j ? t : a[j][i] * j;
    c[j] = t;
  }
#pragma acc kernels
  {
#pragma acc loop gang
    for (int j = 0; j < N; j++) {
      u = 0.0;
#pragma acc loop vector reduction(+:u)
      for (int i = 0; i < M; i++)
        u += a[j][i] * a[j][i];
      d[j] = u;
    }
  }
#pragma acc parallel vector_length(32)
  {
#pragma acc loop gang
    for (int j = 0; j < N; j++) {
      w = j * 0.5;
      e[j] = w * w;
      f[j] = w + 1.0;
    }
  }
  double tb = 0, tc = 0, td = 0, te = 0;
  for (int j = 0; j < N; j++) { tb += b[j]; tc += c[j]; td += d[j]; te += e[j] + f[j]; }
  printf("%.16e %.16e %.16e %.16e %.16e %.16e\n", b[0], b[N-1], tb, tc, td, te);
  return 0;
}
