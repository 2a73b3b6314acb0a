/* translate-test: rtol=1e-12 translate=--directives=openacc
 * One function per OpenACC directive family (translate --directives openacc), each checked
 * against the original program (built without -fopenacc). */
#include <stdio.h>

#define N 300
#define M 20

void constructs(int n, double *restrict a, double *restrict b, double *restrict c)
{
  /* a parallel construct with two loop directives: one region, two kernels */
#pragma acc parallel copyin(a[0:n]) copy(b[0:n]) vector_length(32)
  {
#pragma acc loop
    for (int i = 0; i < n; i++)
      b[i] = b[i] + a[i];
#pragma acc loop gang vector
    for (int i = 0; i < n; i++)
      c[i] = b[i] * 2;
  }
  /* a bare loop inside kernels is automatic: this recurrence stays sequential */
#pragma acc kernels
  {
#pragma acc loop
    for (int i = 1; i < n; i++)
      c[i] = c[i - 1] * 0.5 + a[i];
  }
  /* kernels around plain loops; if/async accepted, wait left as written */
#pragma acc kernels if(n > 10) async(1)
  {
    for (int i = 0; i < n; i++)
      a[i] = a[i] + 1;
    for (int i = 0; i < n; i++)
      b[i] = b[i] - a[i];
  }
#pragma acc wait(1)
#pragma acc kernels
  for (int i = 0; i < n; i++)
    c[i] = c[i] + 1;
}

void loops(int m, double u[m][m], double v[m][m], double *s, int *p)
{
  double t = *s, w, total = *s;
  int big = *p;
#pragma acc parallel loop collapse(2) firstprivate(t) private(w) present_or_copyin(u[0:m][0:m])
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) {
      w = u[i][j] * t;
      v[i][j] = w - u[j][i];
    }
#pragma acc parallel loop independent
  for (int i = 0; i < m; i++) {
#pragma acc loop seq
    for (int j = 1; j < m; j++)
      u[i][j] = u[i][j - 1] + v[i][j];
  }
#pragma acc kernels loop auto
  for (int i = 1; i < m; i++)
    v[i][0] = v[i - 1][0] + 1;
#pragma acc serial loop reduction(+:total) reduction(max:big)
  for (int i = 0; i < m; i++) {
    total += u[i][m - 1];
    big = big > i * 3 ? big : i * 3;
  }
  *s = total;
  *p = big;
}

void data_moves(int n, double *restrict a, double *restrict b)
{
#pragma acc enter data pcopyin(a[0:n]) create(b[0:n])
  for (int t = 1; t <= 3; t++) {
#pragma acc parallel loop default(present)
    for (int i = 0; i < n; i++)
      b[i] = a[i] * t;
#pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++)
      a[i] = a[i] + b[i];
  }
#pragma acc update self(a[0:n])
  a[0] = -1;
#pragma acc update device(a[0:1])
#pragma acc exit data copyout(a[0:n]) delete(b[0:n]) finalize
}

static double a[N], b[N], c[N], u[M][M], v[M][M];

int main(void)
{
  double s = 1.5, sa = 0, sb = 0, sc = 0, su = 0, sv = 0;
  int p = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (7 * (i + 1) % 13) * 0.125;
    b[i] = (5 * (i + 1) % 11) * 0.25;
  }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      u[i][j] = (i + 1 + 3 * (j + 1)) % 7 * 0.5;
  constructs(N, a, b, c);
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sb += b[i];
    sc += c[i];
  }
  printf("constructs %.16e %.16e %.16e\n", sa, sb, sc);
  loops(M, u, v, &s, &p);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      su += u[i][j];
      sv += v[i][j];
    }
  printf("loops %.16e %.16e %.16e %d\n", su, sv, s, p);
  data_moves(N, a, b);
  sa = 0;
  for (int i = 0; i < N; i++)
    sa += a[i];
  printf("data %.16e %.16e\n", sa, a[0]);
  return 0;
}
