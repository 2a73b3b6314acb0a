/* translate-test: translate=--directives=openmp */
/* structs: a struct of restrict arrays unpacked into locals (as LULESH does), an array of
   structs read through p[i].x, a struct passed by pointer to a helper */
#include <stdio.h>
#define N 1000
typedef struct { double *restrict x, *restrict v; int n; } Fields;
typedef struct { double x, y; int tag; } Part;
static double X[N], V[N];
static Part parts[N];
static double out[N];
static void step(Fields *f, double dt)
{
  double *restrict x = f->x;
  double *restrict v = f->v;
  int n = f->n;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    v[i] -= dt * x[i];
    x[i] += dt * v[i];
  }
}
int main(void)
{
  for (int i = 0; i < N; i++) {
    X[i] = i * 0.01; V[i] = 0.0;
    parts[i].x = i * 0.5; parts[i].y = -i * 0.25; parts[i].tag = i % 3;
  }
  Fields f = {X, V, N};
  for (int t = 0; t < 5; t++) step(&f, 0.1);
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    out[i] = parts[i].tag == 1 ? parts[i].x * parts[i].y : parts[i].x - parts[i].y;
  double s = 0;
  for (int i = 0; i < N; i++) s += X[i] + V[i] * 2 + out[i];
  printf("%a\n", s);
  return 0;
}
