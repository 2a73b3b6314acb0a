/* translate-test: translate=--directives=openmp */
/* hotspot-like in float: constants as doubles (promotions), a do/while over time steps with
   a convergence test, boundary ternary chains, pointer swap between steps */
#include <math.h>
#include <stdio.h>
#define R 64
#define C 48
static float t0[R * C], t1[R * C], pw[R * C];
static void step(int rows, int cols, const float *restrict in, float *restrict out,
                 const float *restrict p, float cap)
{
#pragma omp parallel for collapse(2)
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      float ctr = in[r * cols + c];
      float n = r == 0 ? ctr : in[(r - 1) * cols + c];
      float s = r == rows - 1 ? ctr : in[(r + 1) * cols + c];
      float w = c == 0 ? ctr : in[r * cols + c - 1];
      float e = c == cols - 1 ? ctr : in[r * cols + c + 1];
      out[r * cols + c] = ctr + cap * (p[r * cols + c] + (n + s - 2.0 * ctr) * 0.5
                                       + (e + w - 2.0f * ctr) / 3 + (80.0 - ctr) * 0.01);
    }
}
int main(void)
{
  for (int i = 0; i < R * C; i++) { t0[i] = 60.0f + (i % 17) * 0.5f; pw[i] = (i % 5) * 0.01f; }
  float *a = t0, *b = t1;
  int it = 0;
  float delta;
  do {
    step(R, C, a, b, pw, 0.05f);
    delta = 0.0f;
#pragma omp parallel for reduction(max:delta)
    for (int i = 0; i < R * C; i++) delta = fmaxf(delta, fabsf(b[i] - a[i]));
    float *t = a; a = b; b = t;
    it++;
  } while (delta > 1e-3f && it < 40);
  double s = 0;
  for (int i = 0; i < R * C; i++) s += a[i] * (i % 7);
  printf("%d %a %a\n", it, delta, s);
  return 0;
}
