/* translate-test: rtol=1e-12 translate=--directives=openacc
 *
 * OpenACC "routine seq" functions called inside a parallel loop.  Each call is inlined into
 * the loop's kernel (smooth calls clamp, row_update writes the caller's row through a
 * pointer), and the loop is proven independent as if the bodies were written in it.  The
 * routine directives stay in the rewritten source for an OpenACC compiler.  (rtol: the
 * device may fuse a multiply and an add into one rounding.)
 */
#include <stdio.h>
#include <math.h>

#define N 300
#define M 24

#pragma acc routine seq
static double clamp(double v, double lo, double hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

#pragma acc routine seq
static double smooth(double x)
{
  double y = x * x / (1.0 + x * x);
  return clamp(y, 0.05, 0.95);
}

#pragma acc routine seq
static void row_update(int m, const double *u, double *v, double f)
{
  for (int k = 0; k < m; k++)
    v[k] = f * u[k] + smooth(u[k]);
}

void step(int n, int m, const double *restrict u, double *restrict v,
          const double *restrict f)
{
#pragma acc parallel loop copyin(u[0:n*m], f[0:n]) copyout(v[0:n*m])
  for (int i = 0; i < n; i++)
    row_update(m, &u[i * m], &v[i * m], f[i]);
}

int main(void)
{
  static double u[N * M], v[N * M], f[N];
  for (int k = 0; k < N * M; k++)
    u[k] = sin(0.013 * k) * 2.0;
  for (int i = 0; i < N; i++)
    f[i] = 1.0 / (i + 1);
  step(N, M, u, v, f);
  double s = 0.0;
  for (int k = 0; k < N * M; k++)
    s += v[k];
  printf("%.15e %.15e %.15e\n", s, v[0], v[N * M - 1]);
  return 0;
}
