/* translate-test: translate=--directives=openmp */
/* static inline helpers with early returns, nested calls, helpers taking rows and scalars */
#include <math.h>
#include <stdio.h>
#define N 2048
static double u[N], v[N], w[N];
static int cls[N];
static inline double clampd(double x, double lo, double hi)
{
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
static inline int sign(double x) { return (x > 0) - (x < 0); }
static inline double limiter(double a, double b)
{
  if (a * b <= 0.0)
    return 0.0;
  double r = a / b;
  if (r > 2.0) return 2.0 * b;
  return sign(a) * fmin(fabs(a), fabs(b));
}
static inline int classify(double x)
{
  if (isnan(x)) return -1;
  if (x == 0.0) return 0;
  int c = x > 0 ? 1 : 2;
  if (fabs(x) > 10.0) c += 10;
  return c;
}
int main(void)
{
  for (int i = 0; i < N; i++) {
    u[i] = sin(i * 0.37) * 12.0;
    v[i] = cos(i * 0.11) * 3.0;
  }
  u[5] = NAN; u[6] = 0.0;
#pragma omp parallel for
  for (int i = 1; i < N - 1; i++) {
    w[i] = clampd(u[i], -4.0, 4.0) + limiter(u[i] - u[i - 1], u[i + 1] - u[i]);
    cls[i] = classify(u[i]) * 3 + sign(v[i]);
  }
  double s = 0;
  long c = 0;
  for (int i = 0; i < N; i++) { s += isnan(w[i]) ? 1.0 : w[i] * (i % 5); c = c * 7 + cls[i]; }
  printf("%a %ld\n", s, c);
  return 0;
}
