/* translate-test: translate=--directives=openmp rtol=1e-6 */
/* Unstructured OpenMP device data: target enter data in an init function, target exit data
   in a finish function, target update from/to inside a time loop, declare target helpers
   with mixed float/double arithmetic, simd reductions, lastprivate under collapse(2). */
#include <stdio.h>
#include <math.h>
#define NX 48
#define NY 36
static float u[NX * NY], v[NX * NY];

#pragma omp declare target
static float relax(float c, float n, float s, float e, float w)
{
  return c + 0.2 * (n + s + e + w - 4 * c);    /* computed in double, rounded to float */
}
#pragma omp end declare target

static void init(void)
{
  for (int i = 0; i < NX * NY; i++) { u[i] = (float)((i * 7) % 13) * 0.5f; v[i] = 0; }
#pragma omp target enter data map(to: u[0:NX*NY]) map(alloc: v[0:NX*NY])
}

static void step(void)
{
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 1; i < NX - 1; i++)
    for (int j = 1; j < NY - 1; j++)
      v[i * NY + j] = relax(u[i * NY + j], u[(i - 1) * NY + j], u[(i + 1) * NY + j], u[i * NY + j + 1], u[i * NY + j - 1]);
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 1; i < NX - 1; i++)
    for (int j = 1; j < NY - 1; j++)
      u[i * NY + j] = v[i * NY + j];
}

static void finish(void)
{
#pragma omp target exit data map(from: u[0:NX*NY]) map(release: v[0:NX*NY])
}

int main(void)
{
  init();
  double total = 0;
  for (int t = 0; t < 6; t++) {
    step();
    if (t % 2 == 1) {
#pragma omp target update from(u[0:NX*NY])
      total += u[NY + 1] + u[NX * NY / 2];
      u[0] = (float)t;
#pragma omp target update to(u[0:1])
    }
  }
  finish();
  float s = 0;
  int li = -1, lj = -1;
#pragma omp simd reduction(+:s)
  for (int i = 0; i < NX * NY; i++)
    s += u[i];
#pragma omp parallel for collapse(2) lastprivate(li, lj)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      li = i;
      lj = j * 2;
      v[i * NY + j] = u[i * NY + j] * li - lj;
    }
  double w = 0;
  for (int i = 0; i < NX * NY; i++) w += v[i] * (i % 5) + u[i];
  printf("%.9g %.6g %.17g %d %d\n", total, s, w, li, lj);
  return 0;
}
