/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* LINPACK's C benchmark forms (clinpack): daxpy/ddot/dscal with m = n % 5 clean-up loops and
   unrolled step-5 main loops under `omp parallel for`, the unequal-increment paths left on
   the host (linpack_strided.c), idamax's arg-max in a translate region, dgefa's column
   updates (the pivot loop's j loop, an inlined daxpy on column-major a[lda*j + i]) under
   `omp parallel for`, dgesl (b declared b[n]: its footprint b[l] is not known before). */
#include <math.h>
#include <stdio.h>
#define N 64
#define LDA 65

static void daxpy(int n, double da, const double *restrict dx, int incx, double *restrict dy,
                  int incy)
{
  if (n <= 0 || da == 0.0) return;
  if (incx != 1 || incy != 1) {
    int ix = incx < 0 ? (-n + 1) * incx : 0, iy = incy < 0 ? (-n + 1) * incy : 0;
    for (int i = 0; i < n; i++) {
      dy[iy] += da * dx[ix];
      ix += incx;
      iy += incy;
    }
    return;
  }
  int m = n % 5;
  if (m != 0) {
#pragma omp parallel for
    for (int i = 0; i < m; i++) dy[i] += da * dx[i];
    if (n < 5) return;
  }
#pragma omp parallel for
  for (int i = m; i < n; i = i + 5) {
    dy[i] += da * dx[i];
    dy[i + 1] += da * dx[i + 1];
    dy[i + 2] += da * dx[i + 2];
    dy[i + 3] += da * dx[i + 3];
    dy[i + 4] += da * dx[i + 4];
  }
}

static double ddot(int n, const double *restrict dx, int incx, const double *restrict dy,
                   int incy)
{
  double dtemp = 0.0;
  if (n <= 0) return 0.0;
  if (incx != 1 || incy != 1) {
    int ix = incx < 0 ? (-n + 1) * incx : 0, iy = incy < 0 ? (-n + 1) * incy : 0;
    for (int i = 0; i < n; i++) {
      dtemp += dx[ix] * dy[iy];
      ix += incx;
      iy += incy;
    }
    return dtemp;
  }
  int m = n % 5;
  if (m != 0) {
#pragma omp parallel for reduction(+:dtemp)
    for (int i = 0; i < m; i++) dtemp += dx[i] * dy[i];
    if (n < 5) return dtemp;
  }
#pragma omp parallel for reduction(+:dtemp)
  for (int i = m; i < n; i = i + 5)
    dtemp = dtemp + dx[i] * dy[i] + dx[i + 1] * dy[i + 1] + dx[i + 2] * dy[i + 2]
        + dx[i + 3] * dy[i + 3] + dx[i + 4] * dy[i + 4];
  return dtemp;
}

static void dscal(int n, double da, double *dx, int incx)
{
  if (n <= 0) return;
  if (incx != 1) {
    int nincx = n * incx;
    for (int i = 0; i < nincx; i = i + incx) dx[i] = da * dx[i];
    return;
  }
  int m = n % 5;
  if (m != 0) {
#pragma omp parallel for
    for (int i = 0; i < m; i++) dx[i] = da * dx[i];
    if (n < 5) return;
  }
#pragma omp parallel for
  for (int i = m; i < n; i = i + 5) {
    dx[i] = da * dx[i];
    dx[i + 1] = da * dx[i + 1];
    dx[i + 2] = da * dx[i + 2];
    dx[i + 3] = da * dx[i + 3];
    dx[i + 4] = da * dx[i + 4];
  }
}

static int idamax(int n, const double *dx, int incx)
{
  if (n < 1) return -1;
  if (n == 1) return 0;
  int itemp = 0;
  double dmax = fabs(dx[0]);
  if (incx != 1) {
    int ix = incx;
    for (int i = 1; i < n; i++) {
      if (fabs(dx[ix]) > dmax) {
        itemp = i;
        dmax = fabs(dx[ix]);
      }
      ix += incx;
    }
    return itemp;
  }
#pragma translate kernel idamax_k
  for (int i = 1; i < n; i++)
    if (fabs(dx[i]) > dmax) {
      itemp = i;
      dmax = fabs(dx[i]);
    }
#pragma translate end kernel
  return itemp;
}

static void dgefa(double *restrict a, int lda, int n, int *ipvt, int *info)
{
  *info = 0;
  for (int k = 0; k < n - 1; k++) {
    int l = idamax(n - k, &a[lda * k + k], 1) + k;
    ipvt[k] = l;
    if (a[lda * k + l] == 0.0) {
      *info = k;
      continue;
    }
    if (l != k) {
      double t = a[lda * k + l];
      a[lda * k + l] = a[lda * k + k];
      a[lda * k + k] = t;
    }
    double t = -1.0 / a[lda * k + k];
    dscal(n - (k + 1), t, &a[lda * k + k + 1], 1);
    /* l < lda and n <= lda: what the message of the bare `parallel for` asks for
       (linpack_dgefa.c) */
#pragma translate kernel dgefa_cols
#pragma translate assume("0 <= l < lda and n <= lda")
#pragma omp parallel for
    for (int j = k + 1; j < n; j++) {
      double tj = a[lda * j + l];
      if (l != k) {
        a[lda * j + l] = a[lda * j + k];
        a[lda * j + k] = tj;
      }
      for (int i = k + 1; i < n; i++) a[lda * j + i] += tj * a[lda * k + i];
    }
#pragma translate end kernel
  }
  ipvt[n - 1] = n - 1;
  if (a[lda * (n - 1) + (n - 1)] == 0.0) *info = n - 1;
}

static void dgesl(const double *restrict a, int lda, int n, const int *ipvt, double b[n])
{
#pragma translate kernel dgesl_forward
  for (int k = 0; k < n - 1; k++) {
    int l = ipvt[k];
    double t = b[l];
    if (l != k) {
      b[l] = b[k];
      b[k] = t;
    }
    for (int i = k + 1; i < n; i++) b[i] += t * a[lda * k + i];
  }
#pragma translate end kernel
  for (int kb = 0; kb < n; kb++) {
    int k = n - (kb + 1);
    b[k] = b[k] / a[lda * k + k];
    double t = -b[k];
#pragma omp parallel for
    for (int i = 0; i < k; i++) b[i] += t * a[lda * k + i];
  }
}

static double a[LDA * N], b[N], x[N], y[2 * N];
static int ipvt[N];

int main(void)
{
  int n = N, info;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) a[LDA * j + i] = ((i * 7 + j * 13 + 20) % 31) / 31.0 - 0.5;
    a[LDA * j + j] += 4.0;
  }
  for (int i = 0; i < n; i++) x[i] = 1.0 + 0.01 * ((i + 1) % 9);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) b[i] += a[LDA * j + i] * x[j];
  for (int i = 0; i < 2 * n; i++) y[i] = 0.5 * ((i + 1) % 5);
  daxpy(n, 0.25, x, 1, y, 1);
  daxpy(n / 2, -0.5, x, 2, y, 2);
  daxpy(n / 2, 0.75, x, -2, y, 1);
  double s = ddot(n, x, 1, y, 1) + ddot(n / 2, x, 2, y, 2) + ddot(n - 3, x, 1, y + 3, 1);
  dscal(n, 1.5, y, 1);
  dscal(n / 2, 0.5, y, 2);
  dscal(n - 2, 0.5, y + 1, 1);
  int k = idamax(n, y, 1) + idamax(n / 2, y, 2) + idamax(n - 4, y + 3, 1);
  printf("%.15e %d\n", s, k);
  dgefa(a, LDA, n, ipvt, &info);
  dgesl(a, LDA, n, ipvt, b);
  s = 0.0;
  for (int i = 0; i < n; i++) s += fabs(b[i] - x[i]);
  printf("%d %.15e %.15e %.15e\n", info, b[0], b[n - 1], s);
  for (int i = 0; i < 8; i++) printf("%d ", ipvt[i]);
  printf("\n");
  return 0;
}
