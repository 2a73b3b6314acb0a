/* Stencils: a 5-point 2-D stencil on 2-D arrays, the same on linearised arrays, and a
 * 7-point 3-D stencil.  Usage: stencil [n2d] [nlin] [n3d] [reps] [resident|copies].
 * Automatic mapping; the variants s2d_pf16 and s2d_pf32 map the 2-D stencil by hand (16x16
 * and 32x8 tiles) and prefetch each tile of `a` with its halo into local memory
 * (add_prefetch), to measure what the prefetch costs or gains against s2d.
 * resident (the default): the calls run inside a data region, the arrays on the device as in
 * the CUDA references; copies: plain calls that copy their arrays in and out, printing each
 * region's end-to-end wall time per call ("e2e_call"). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void s2d(int n, const double a[n][n], double b[n][n])
{
#pragma translate kernel s2d
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
#pragma translate end kernel
}

static void s2d_pf16(int n, const double a[n][n], double b[n][n])
{
#pragma translate kernel s2d_pf16
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], fetch_bounding_box=True)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
#pragma translate end kernel
}

static void s2d_pf32(int n, const double a[n][n], double b[n][n])
{
#pragma translate kernel s2d_pf32
#pragma translate split_iname("i", 8, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], fetch_bounding_box=True)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
#pragma translate end kernel
}

static void slin(int n, const double *restrict a, double *restrict b)
{
#pragma translate kernel slin
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i * n + j] = 0.2 * (a[i * n + j] + a[(i - 1) * n + j] + a[(i + 1) * n + j]
                            + a[i * n + j - 1] + a[i * n + j + 1]);
#pragma translate end kernel
}

static void s3d(int n, const double a[n][n][n], double b[n][n][n])
{
#pragma translate kernel s3d
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        b[i][j][k] = 0.125 * (a[i - 1][j][k] + a[i + 1][j][k] + a[i][j - 1][k]
                              + a[i][j + 1][k] + a[i][j][k - 1] + a[i][j][k + 1])
                     + 0.25 * a[i][j][k];
#pragma translate end kernel
}

static double *filled(long count)
{
  double *p = malloc(count * sizeof *p);
  for (long i = 0; i < count; i++)
    p[i] = (double)(i % 97) / 97.0;
  return p;
}

static double sum(const double *p, long count)
{
  double s = 0.0;
  for (long i = 0; i < count; i++)
    s += p[i] * (double)(i % 5 + 1);
  return s;
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* One call of each region; adds each call's wall time (ms) to ms[0..4]. */
static void round_of_calls(int n2, int nl, int n3, double *a2, double *b2, double *p16,
                           double *p32, double *al, double *bl, double *a3, double *b3,
                           double ms[5])
{
  double t = now_ms();
  s2d(n2, (const double (*)[n2])a2, (double (*)[n2])b2);
  ms[0] += now_ms() - t;
  t = now_ms();
  s2d_pf16(n2, (const double (*)[n2])a2, (double (*)[n2])p16);
  ms[1] += now_ms() - t;
  t = now_ms();
  s2d_pf32(n2, (const double (*)[n2])a2, (double (*)[n2])p32);
  ms[2] += now_ms() - t;
  t = now_ms();
  slin(nl, al, bl);
  ms[3] += now_ms() - t;
  t = now_ms();
  s3d(n3, (const double (*)[n3][n3])a3, (double (*)[n3][n3])b3);
  ms[4] += now_ms() - t;
}

int main(int argc, char **argv)
{
  static const char *names[5] = {"s2d", "s2d_pf16", "s2d_pf32", "slin", "s3d"};
  int n2 = argc > 1 ? atoi(argv[1]) : 8192, nl = argc > 2 ? atoi(argv[2]) : 4096;
  int n3 = argc > 3 ? atoi(argv[3]) : 512, reps = argc > 4 ? atoi(argv[4]) : 10;
  double *a2 = filled((long)n2 * n2), *b2 = filled((long)n2 * n2);
  double *p16 = filled((long)n2 * n2), *p32 = filled((long)n2 * n2);
  double *al = filled((long)nl * nl), *bl = filled((long)nl * nl);
  double *a3 = filled((long)n3 * n3 * n3), *b3 = filled((long)n3 * n3 * n3);
  long c2 = (long)n2 * n2, cl = (long)nl * nl, c3 = (long)n3 * n3 * n3;
  double ms[5] = {0, 0, 0, 0, 0};
  if (argc > 5 && strcmp(argv[5], "copies") == 0) {
    double warm[5] = {0, 0, 0, 0, 0};
    /* untimed: builds the programs */
    round_of_calls(n2, nl, n3, a2, b2, p16, p32, al, bl, a3, b3, warm);
    for (int r = 0; r < reps; r++)
      round_of_calls(n2, nl, n3, a2, b2, p16, p32, al, bl, a3, b3, ms);
    for (int k = 0; k < 5; k++)   /* every call waits for its results: wall time is e2e */
      printf("e2e_call %s %.4f ms\n", names[k], ms[k] / reps);
  } else {
#pragma translate data copyin(a2[0:c2], al[0:cl], a3[0:c3]) \
    copy(b2[0:c2], p16[0:c2], p32[0:c2], bl[0:cl], b3[0:c3])
    for (int r = 0; r < reps; r++)
      round_of_calls(n2, nl, n3, a2, b2, p16, p32, al, bl, a3, b3, ms);
#pragma translate end data
  }
  printf("b2 %.17g bl %.17g b3 %.17g\n", b2[(long)n2 + 1], bl[(long)nl + 1],
         b3[(long)n3 * n3 + n3 + 1]);
  printf("b2 sum %.17g pf16 sum %.17g pf32 sum %.17g\n", sum(b2, (long)n2 * n2),
         sum(p16, (long)n2 * n2), sum(p32, (long)n2 * n2));
  free(p16); free(p32);
  free(a2); free(b2); free(al); free(bl); free(a3); free(b3);
  return 0;
}
