/* translate-test: translate=--directives=openmp */
/* C integer semantics in real-code shapes: size_t bounds compared with int counters,
   unsigned index locals that wrap, uint8_t image arithmetic, float->int conversions,
   arithmetic right shifts of negatives, `c - '0'`-style char offsets, enum sizes. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <math.h>
enum { W = 37, H = 23 };
static uint8_t img[W * H], out8[W * H];
static int q[W * H], sh[W * H];
static float f[W * H];
static double y[W * H];

static void bright(size_t n, int add)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    unsigned k = i - 1;            /* wraps at i == 0 */
    uint8_t v = img[i] + add;      /* wraps modulo 256 */
    out8[i] = v + (uint8_t)(k + 1 == 0 ? 7 : 0);
  }
}

static void conv(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    float x = f[i] * 255.0f - 300.0f;
    q[i] = (int)x + (int)floorf(x) + (int)roundf(x) + (int)lrintf(x);
    sh[i] = (q[i] >> 3) + (-q[i] >> 2) + (q[i] / 8) + (q[i] % 8) + abs(q[i] % 5 - 2);
  }
}

static void stencil(int w, int h)
{
#pragma omp parallel for collapse(2)
  for (unsigned r = 1; r < (unsigned)h - 1; r++)
    for (unsigned c = 1; c < (unsigned)w - 1; c++) {
      unsigned idx = r * w + c;
      int gx = img[idx + 1] - img[idx - 1];
      int gy = img[idx + w] - img[idx - w];
      y[idx] = sqrt((double)(gx * gx + gy * gy)) + (double)(uint8_t)(gx * 3);
    }
}

int main(void)
{
  for (int i = 0; i < W * H; i++) {
    img[i] = (uint8_t)(i * 37 + 11);
    f[i] = (float)((i * 13) % 97) / 41.0f;
  }
  bright((size_t)W * H, 200);
  conv(W * H);
  stencil(W, H);
  long s = 0;
  double t = 0;
  for (int i = 0; i < W * H; i++) { s += out8[i] * (i % 3 + 1) + q[i] * 7 + sh[i]; t += y[i] * (i % 5); }
  printf("%ld %.17g %d %d %d\n", s, t, out8[0], q[5], sh[W * H - 1]);
  return 0;
}
