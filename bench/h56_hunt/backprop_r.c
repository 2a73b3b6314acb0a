/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* Rodinia-backprop-like: layer forward with 2-D VLA weights `double (*w)[n2+1]`, a squash
   helper (static inline, exp), a `parallel for` with private sum and j, reduction over the
   output error, and the weight adjustment with collapse(2). */
#include <stdio.h>
#include <math.h>
#define IN 40
#define HID 16
#define ETA 0.3
#define MOMENTUM 0.3
static double squash(double x) { return 1.0 / (1.0 + exp(-x)); }

static void layerforward(const double *restrict l1, double *restrict l2, int n1, int n2, double (*conn)[n2 + 1])
{
  double sum;
  int j, k;
#pragma omp parallel for shared(conn, n1, n2, l1) private(k, j, sum) schedule(static)
  for (j = 1; j <= n2; j++) {
    sum = 0.0;
    for (k = 0; k <= n1; k++) sum += conn[k][j] * l1[k];
    l2[j] = squash(sum);
  }
}

static double output_error(const double *restrict target, const double *restrict o, double *restrict delta, int nj)
{
  double errsum = 0.0;
#pragma omp parallel for reduction(+:errsum)
  for (int j = 1; j <= nj; j++) {
    double oj = o[j], t = target[j];
    delta[j] = oj * (1.0 - oj) * (t - oj);
    errsum += fabs(delta[j]);
  }
  return errsum;
}

static void adjust_weights(const double *restrict delta, int ndelta, const double *restrict ly, int nly,
                           double (*w)[ndelta + 1], double (*oldw)[ndelta + 1])
{
#pragma omp parallel for collapse(2) shared(oldw, w, delta)
  for (int k = 0; k <= nly; k++)
    for (int j = 1; j <= ndelta; j++) {
      double new_dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[k][j];
      w[k][j] += new_dw;
      oldw[k][j] = new_dw;
    }
}

int main(void)
{
  static double in[IN + 1], hid[HID + 1], target[HID + 1], delta[HID + 1];
  static double w[IN + 1][HID + 1], oldw[IN + 1][HID + 1];
  for (int k = 0; k <= IN; k++) {
    in[k] = (k % 5) * 0.2;
    for (int j = 0; j <= HID; j++) w[k][j] = ((k * 31 + j * 17) % 23 - 11) / 50.0;
  }
  in[0] = 1.0;
  for (int j = 0; j <= HID; j++) target[j] = (j % 2) ? 0.9 : 0.1;
  double e = 0;
  for (int it = 0; it < 3; it++) {
    layerforward(in, hid, IN, HID, w);
    e = output_error(target, hid, delta, HID);
    adjust_weights(delta, HID, in, IN, w, oldw);
  }
  printf("%.17g %.17g %.17g %.17g\n", e, hid[1], hid[HID], w[IN][HID]);
  return 0;
}
