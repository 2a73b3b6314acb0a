/* PolyBench-like kernels, double precision, each one region with automatic mapping:
 * gemm_pb, twomm, threemm, syrk, syr2k (dense products), atax, bicg, mvt, gemver, gesummv
 * (matrix-vector), jacobi2d, fdtd2d, heat3d (time loops inside the region).  The dense
 * products and matrix-vector nests are written as users write them (a triple loop, a scalar
 * accumulator): the automatic mapper tiles them ("dense tiling (automatic)", --report).
 * Usage: polybench [nmm] [nmv] [n2d] [t2d] [n3d] [t3d] [reps] [only]
 * nmm: gemm/2mm order, nmv: matrix-vector order, n2d/t2d: jacobi-2d and fdtd-2d order and time
 * steps, n3d/t3d: heat-3d order and time steps; each region runs reps times.  only: a comma
 * list of region names to run (default: all).  Prints one checksum line per kernel run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *only;   /* comma list of regions to run, or NULL for all */

static int wanted(const char *name)
{
  size_t len = strlen(name);
  for (const char *p = only; p != NULL; p = strchr(p, ',')) {
    p += *p == ',';
    if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
      return 1;
  }
  return only == NULL;
}

static void gemm_pb(int n, double alpha, double beta, const double a[n][n],
                    const double b[n][n], double c[n][n])
{
#pragma translate kernel gemm_pb
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

/* tmp = alpha*A*B; D = tmp*C + beta*D */
static void twomm(int n, double alpha, double beta, const double a[n][n], const double b[n][n],
                  const double c[n][n], double tmp[n][n], double d[n][n])
{
#pragma translate kernel twomm
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * b[k][j];
      tmp[i][j] = acc;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = beta * d[i][j];
      for (int k = 0; k < n; k++)
        acc += tmp[i][k] * c[k][j];
      d[i][j] = acc;
    }
#pragma translate end kernel
}

/* E = A*B; F = C*D; G = E*F */
static void threemm(int n, const double a[n][n], const double b[n][n], const double c[n][n],
                    const double d[n][n], double e[n][n], double f[n][n], double g[n][n])
{
#pragma translate kernel threemm
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += a[i][k] * b[k][j];
      e[i][j] = acc;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += c[i][k] * d[k][j];
      f[i][j] = acc;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += e[i][k] * f[k][j];
      g[i][j] = acc;
    }
#pragma translate end kernel
}

/* lower triangle of C = alpha*A*A^T + beta*C */
static void syrk(int n, double alpha, double beta, const double a[n][n], double c[n][n])
{
#pragma translate kernel syrk
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * a[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

/* lower triangle of C = alpha*A*B^T + alpha*B*A^T + beta*C */
static void syr2k(int n, double alpha, double beta, const double a[n][n], const double b[n][n],
                  double c[n][n])
{
#pragma translate kernel syr2k
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[j][k] * b[i][k] + alpha * b[j][k] * a[i][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

/* y = A^T (A x) */
static void atax(int n, const double a[n][n], const double x[n], double tmp[n], double y[n])
{
#pragma translate kernel atax
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int j = 0; j < n; j++)
      acc += a[i][j] * x[j];
    tmp[i] = acc;
  }
  for (int j = 0; j < n; j++) {
    double acc = 0.0;
    for (int i = 0; i < n; i++)
      acc += a[i][j] * tmp[i];
    y[j] = acc;
  }
#pragma translate end kernel
}

/* s = A^T r, q = A p */
static void bicg(int n, const double a[n][n], const double r[n], const double p[n], double s[n],
                 double q[n])
{
#pragma translate kernel bicg
  for (int j = 0; j < n; j++) {
    double acc = 0.0;
    for (int i = 0; i < n; i++)
      acc += r[i] * a[i][j];
    s[j] = acc;
  }
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int j = 0; j < n; j++)
      acc += a[i][j] * p[j];
    q[i] = acc;
  }
#pragma translate end kernel
}

/* x1 += A y1, x2 += A^T y2 */
static void mvt(int n, const double a[n][n], const double y1[n], const double y2[n], double x1[n],
                double x2[n])
{
#pragma translate kernel mvt
  for (int i = 0; i < n; i++) {
    double acc = x1[i];
    for (int j = 0; j < n; j++)
      acc += a[i][j] * y1[j];
    x1[i] = acc;
  }
  for (int i = 0; i < n; i++) {
    double acc = x2[i];
    for (int j = 0; j < n; j++)
      acc += a[j][i] * y2[j];
    x2[i] = acc;
  }
#pragma translate end kernel
}

/* A += u1 v1^T + u2 v2^T; x += beta A^T y + z; w += alpha A x */
static void gemver(int n, double alpha, double beta, double a[n][n], const double u1[n],
                   const double v1[n], const double u2[n], const double v2[n], double w[n],
                   double x[n], const double y[n], const double z[n])
{
#pragma translate kernel gemver
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i][j] = a[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (int i = 0; i < n; i++) {
    double acc = x[i];
    for (int j = 0; j < n; j++)
      acc += beta * a[j][i] * y[j];
    x[i] = acc + z[i];
  }
  for (int i = 0; i < n; i++) {
    double acc = w[i];
    for (int j = 0; j < n; j++)
      acc += alpha * a[i][j] * x[j];
    w[i] = acc;
  }
#pragma translate end kernel
}

/* y = alpha A x + beta B x */
static void gesummv(int n, double alpha, double beta, const double a[n][n],
                    const double b[n][n], const double x[n], double y[n])
{
#pragma translate kernel gesummv
  for (int i = 0; i < n; i++) {
    double t = 0.0, u = 0.0;
    for (int j = 0; j < n; j++) {
      t += a[i][j] * x[j];
      u += b[i][j] * x[j];
    }
    y[i] = alpha * t + beta * u;
  }
#pragma translate end kernel
}

/* steps of two Jacobi sweeps: a -> b, b -> a */
static void jacobi2d(int n, int steps, double a[n][n], double b[n][n])
{
#pragma translate kernel jacobi2d
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[i][j] = 0.2 * (a[i][j] + a[i][j - 1] + a[i][j + 1] + a[i + 1][j] + a[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        a[i][j] = 0.2 * (b[i][j] + b[i][j - 1] + b[i][j + 1] + b[i + 1][j] + b[i - 1][j]);
  }
#pragma translate end kernel
}

static void fdtd2d(int n, int steps, const double fict[steps], double ex[n][n], double ey[n][n],
                   double hz[n][n])
{
#pragma translate kernel fdtd2d
  for (int t = 0; t < steps; t++) {
    for (int j = 0; j < n; j++)
      ey[0][j] = fict[t];
    for (int i = 1; i < n; i++)
      for (int j = 0; j < n; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < n; i++)
      for (int j = 1; j < n; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < n - 1; i++)
      for (int j = 0; j < n - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma translate end kernel
}

static void heat3d(int n, int steps, double a[n][n][n], double b[n][n][n])
{
#pragma translate kernel heat3d
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          b[i][j][k] = 0.125 * (a[i + 1][j][k] - 2.0 * a[i][j][k] + a[i - 1][j][k])
                       + 0.125 * (a[i][j + 1][k] - 2.0 * a[i][j][k] + a[i][j - 1][k])
                       + 0.125 * (a[i][j][k + 1] - 2.0 * a[i][j][k] + a[i][j][k - 1])
                       + a[i][j][k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          a[i][j][k] = 0.125 * (b[i + 1][j][k] - 2.0 * b[i][j][k] + b[i - 1][j][k])
                       + 0.125 * (b[i][j + 1][k] - 2.0 * b[i][j][k] + b[i][j - 1][k])
                       + 0.125 * (b[i][j][k + 1] - 2.0 * b[i][j][k] + b[i][j][k - 1])
                       + b[i][j][k];
  }
#pragma translate end kernel
}

/* count doubles with values (i*seed % 101) / 101, deterministic and exact in binary */
static double *filled(long count, int seed)
{
  double *p = malloc((count > 0 ? count : 1) * sizeof *p);
  for (long i = 0; i < count; i++)
    p[i] = (double)((i * seed + 1) % 101) / 101.0;
  return p;
}

static double checksum(const double *p, long count)
{
  double s = 0.0;
  for (long i = 0; i < count; i++)
    s += p[i] * (double)(i % 7 + 1);
  return s;
}

static void dense(int n, int reps)
{
  long nn = (long)n * n;
  double *a = filled(nn, 3), *b = filled(nn, 5), *c = filled(nn, 7), *tmp = filled(nn, 1);
  double *d = filled(nn, 11), *g = filled(nn, 13), *e = filled(nn, 17), *f = filled(nn, 19);
  double *h = filled(nn, 23), *sy = filled(nn, 29), *s2 = filled(nn, 31);
  for (int r = 0; r < reps; r++) {
    if (wanted("gemm_pb"))
      gemm_pb(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])g);
    if (wanted("twomm"))
      twomm(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b,
            (const double (*)[n])c, (double (*)[n])tmp, (double (*)[n])d);
    if (wanted("threemm"))
      threemm(n, (const double (*)[n])a, (const double (*)[n])b, (const double (*)[n])c,
              (const double (*)[n])d, (double (*)[n])e, (double (*)[n])f, (double (*)[n])h);
    if (wanted("syrk"))
      syrk(n, 1.5, 1.2, (const double (*)[n])a, (double (*)[n])sy);
    if (wanted("syr2k"))
      syr2k(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])s2);
  }
  if (wanted("gemm_pb"))
    printf("gemm_pb %.17g\n", checksum(g, nn));
  if (wanted("twomm"))
    printf("twomm %.17g %.17g\n", checksum(tmp, nn), checksum(d, nn));
  if (wanted("threemm"))
    printf("threemm %.17g %.17g %.17g\n", checksum(e, nn), checksum(f, nn), checksum(h, nn));
  if (wanted("syrk"))
    printf("syrk %.17g\n", checksum(sy, nn));
  if (wanted("syr2k"))
    printf("syr2k %.17g\n", checksum(s2, nn));
  free(a); free(b); free(c); free(tmp); free(d); free(g); free(e); free(f); free(h);
  free(sy); free(s2);
}

static void matvec(int n, int reps)
{
  double *a = filled((long)n * n, 3), *x = filled(n, 5), *y = filled(n, 7), *tmp = filled(n, 1);
  double *r = filled(n, 11), *p = filled(n, 13), *s = filled(n, 1), *q = filled(n, 1);
  double *x1 = filled(n, 17), *x2 = filled(n, 19), *b = filled((long)n * n, 7);
  double *gx = filled(n, 23), *gw = filled(n, 29), *gy = filled(n, 31), *a2 = filled((long)n * n, 5);
  for (int k = 0; k < reps; k++) {
    if (wanted("atax"))
      atax(n, (const double (*)[n])a, x, tmp, y);
    if (wanted("bicg"))
      bicg(n, (const double (*)[n])a, r, p, s, q);
    if (wanted("mvt"))
      mvt(n, (const double (*)[n])a, x, r, x1, x2);
    if (wanted("gemver"))
      gemver(n, 1.5, 1.2, (double (*)[n])a2, x, y, r, p, gw, gx, x1, x2);
    if (wanted("gesummv"))
      gesummv(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, x, gy);
  }
  if (wanted("atax"))
    printf("atax %.17g %.17g\n", checksum(tmp, n), checksum(y, n));
  if (wanted("bicg"))
    printf("bicg %.17g %.17g\n", checksum(s, n), checksum(q, n));
  if (wanted("mvt"))
    printf("mvt %.17g %.17g\n", checksum(x1, n), checksum(x2, n));
  if (wanted("gemver"))
    printf("gemver %.17g %.17g %.17g\n", checksum(a2, (long)n * n), checksum(gx, n),
           checksum(gw, n));
  if (wanted("gesummv"))
    printf("gesummv %.17g\n", checksum(gy, n));
  free(a); free(x); free(y); free(tmp); free(r); free(p); free(s); free(q); free(x1); free(x2);
  free(b); free(gx); free(gw); free(gy); free(a2);
}

static void stencils2d(int n, int steps, int reps)
{
  long nn = (long)n * n;
  double *a = filled(nn, 3), *b = filled(nn, 5), *ex = filled(nn, 7), *ey = filled(nn, 11);
  double *hz = filled(nn, 13), *fict = filled(steps, 17);
  for (int r = 0; r < reps; r++) {
    if (wanted("jacobi2d"))
      jacobi2d(n, steps, (double (*)[n])a, (double (*)[n])b);
    if (wanted("fdtd2d"))
      fdtd2d(n, steps, fict, (double (*)[n])ex, (double (*)[n])ey, (double (*)[n])hz);
  }
  if (wanted("jacobi2d"))
    printf("jacobi2d %.17g %.17g\n", checksum(a, nn), checksum(b, nn));
  if (wanted("fdtd2d"))
    printf("fdtd2d %.17g %.17g %.17g\n", checksum(ex, nn), checksum(ey, nn),
           checksum(hz, nn));
  free(a); free(b); free(ex); free(ey); free(hz); free(fict);
}

static void stencil3d(int n, int steps, int reps)
{
  long nnn = (long)n * n * n;
  double *a = filled(nnn, 3), *b = filled(nnn, 5);
  for (int r = 0; r < reps && wanted("heat3d"); r++)
    heat3d(n, steps, (double (*)[n][n])a, (double (*)[n][n])b);
  if (wanted("heat3d"))
    printf("heat3d %.17g %.17g\n", checksum(a, nnn), checksum(b, nnn));
  free(a); free(b);
}

int main(int argc, char **argv)
{
  int nmm = argc > 1 ? atoi(argv[1]) : 2048, nmv = argc > 2 ? atoi(argv[2]) : 16384;
  int n2d = argc > 3 ? atoi(argv[3]) : 4096, t2d = argc > 4 ? atoi(argv[4]) : 10;
  int n3d = argc > 5 ? atoi(argv[5]) : 256, t3d = argc > 6 ? atoi(argv[6]) : 10;
  int reps = argc > 7 ? atoi(argv[7]) : 3;
  only = argc > 8 && strcmp(argv[8], "all") != 0 ? argv[8] : NULL;
  if (nmm > 0)
    dense(nmm, reps);
  if (nmv > 0)
    matvec(nmv, reps);
  if (n2d > 0)
    stencils2d(n2d, t2d, reps);
  if (n3d > 0)
    stencil3d(n3d, t3d, reps);
  return 0;
}
