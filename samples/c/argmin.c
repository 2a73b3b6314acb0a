/* The smallest (largest) value of a nest and where it is, in one loop.
 *
 *     if (v < best) { best = v; bi = i; bj = j; }
 *
 * is an arg-min reduction: with both loops on the hardware each work group selects its best
 * (value, position) and the last group to finish selects the best of all groups.  The result
 * is the loop's, bit for bit: with < (>) the first position in loop order wins ties, with <=
 * (>=) the last; NaNs are never selected; where no value beats the initial one, the value and
 * the locations keep what they had before the loop.  `translate --report` names the
 * reduction. */
#include <math.h>
#include <stdio.h>

static void min_first(int nx, int ny, const double a[ny][nx], double scale, double *best,
                      int *bi, int *bj)
{
  double b = *best;
  int ii = *bi, jj = *bj;
#pragma translate kernel min_first_k
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      double v = scale * a[j][i];
      if (v < b) {
        b = v;
        ii = i;
        jj = j;
      }
    }
#pragma translate end kernel
  *best = b; *bi = ii; *bj = jj;
}

/* >= with the scalar on the right; the location is a flat cell number. */
static void max_last(int nx, int ny, const double a[ny][nx], double *best, int *cell)
{
  double b = *best;
  int c = *cell;
#pragma translate kernel max_last_k
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      if (a[j][i] >= b) {
        b = a[j][i];
        c = i + j * nx;
      }
#pragma translate end kernel
  *best = b; *cell = c;
}

/* Integers, written best > v (that is v < best), and <= / last for a 1-D loop. */
static void int_mins(int n, const int *k, int *first, int *at_first, int *last, int *at_last)
{
  int f = *first, af = *at_first, l = *last, al = *at_last;
#pragma translate kernel int_first_k
  for (int i = 0; i < n; i++)
    if (f > k[i]) {
      f = k[i];
      af = i;
    }
#pragma translate end kernel
#pragma translate kernel int_last_k
  for (int i = 0; i < n; i++)
    if (k[i] <= l) {
      l = k[i];
      al = 2 * i + 1;
    }
#pragma translate end kernel
  *first = f; *at_first = af; *last = l; *at_last = al;
}

enum { NX = 300, NY = 77 };

int main(void)
{
  static double a[NY][NX];
  static int k[NX * NY];
  for (int t = 1; t <= 6; t++) {
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        a[j][i] = 1.0 + ((i * 7 + j * 13) % 101) * 0.25;
        k[i + j * NX] = 5 + (i * 3 + j * 11) % 97;
      }
    if (t == 2) {          /* ties at the first, a middle and the last cell; NaNs around */
      a[0][0] = a[39][149] = a[NY - 1][NX - 1] = 0.5;
      a[0][1] = a[0][NX - 1] = a[NY - 1][6] = NAN;
      a[1][0] = a[75][298] = 26.25;
      k[0] = k[4000] = k[NX * NY - 1] = -3;
    } else if (t == 3) {   /* ties in the middle only, in different work groups */
      a[2][256] = a[59][12] = a[59][255] = -2.0;
      k[257] = k[9000] = k[20000] = 1;
    } else if (t == 4) {   /* NaNs but a zero of each sign */
      for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
          a[j][i] = NAN;
      a[8][39] = -0.0; a[8][40] = 0.0; a[49][2] = 0.0;
    } else if (t == 5) {   /* NaNs only */
      for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
          a[j][i] = NAN;
    }
    double best = t == 6 ? 1.0 : 1e300;   /* t = 6: nothing is below 1.0 */
    int bi = -1, bj = -1, cell = -1;
    min_first(NX, NY, a, 1.0, &best, &bi, &bj);
    printf("min <  %d %a %d %d\n", t, best, bi, bj);
    best = t == 6 ? 26.0 : -1e300;        /* t = 6: 26.0 is the largest value: ties */
    max_last(NX, NY, a, &best, &cell);
    printf("max >= %d %a %d\n", t, best, cell);
    int first = t == 6 ? 5 : 1000, at_first = -1, last = t == 6 ? 5 : 1000, at_last = -1;
    int_mins(NX * NY, k, &first, &at_first, &last, &at_last);
    printf("int    %d %d %d %d %d\n", t, first, at_first, last, at_last);
  }
  return 0;
}
