/* Independent nests of one region (issue 23): bicg's two matrix-vector nests map to different
 * tilings and run as two launches; two tiny nests and two large nests of one mapping stay one
 * launch.  Prints sums and elements to compare with the translated program. */
#include <stdio.h>

#define N 290
#define T 16

static double a[N][N], r[N], p[N], s[N], q[N];
static double ta[T][T], tr[T], tp[T], ts[T], tq[T];
static double b[N][N], c[N][N];

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

static void tiny(const double a[T][T], const double r[T], const double p[T], double s[T],
                 double q[T])
{
#pragma translate kernel tiny
  for (int j = 0; j < T; j++) {
    double acc = 0.0;
    for (int i = 0; i < T; i++)
      acc += r[i] * a[i][j];
    s[j] = acc;
  }
  for (int i = 0; i < T; i++) {
    double acc = 0.0;
    for (int j = 0; j < T; j++)
      acc += a[i][j] * p[j];
    q[i] = acc;
  }
#pragma translate end kernel
}

static void same(int n, const double a[n][n], double b[n][n], double c[n][n])
{
#pragma translate kernel same
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      b[i][j] = 2.0 * a[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c[i][j] = a[i][j] + 1.0;
#pragma translate end kernel
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    r[i] = ((i * 7) % 13) * 0.25 - 1.0;
    p[i] = ((i * 5) % 11) * 0.125 + 0.5;
    for (int j = 0; j < N; j++)
      a[i][j] = ((i * 3 + j * 7) % 17) * 0.0625 - 0.5;
  }
  for (int i = 0; i < T; i++) {
    tr[i] = r[i];
    tp[i] = p[i];
    for (int j = 0; j < T; j++)
      ta[i][j] = a[i][j];
  }
  bicg(N, a, r, p, s, q);
  tiny(ta, tr, tp, ts, tq);
  same(N, a, b, c);
  double ss = 0, sq = 0, sts = 0, stq = 0, sb = 0, sc = 0;
  for (int i = 0; i < N; i++) {
    ss += s[i];
    sq += q[i];
    for (int j = 0; j < N; j++) {
      sb += b[i][j];
      sc += c[i][j];
    }
  }
  for (int i = 0; i < T; i++) {
    sts += ts[i];
    stq += tq[i];
  }
  printf("bicg %.17e %.17e %a %a\n", ss, sq, s[N - 1], q[137]);
  printf("tiny %.17e %.17e %a %a\n", sts, stq, ts[T - 1], tq[3]);
  printf("same %.17e %.17e %a %a\n", sb, sc, b[N - 1][N - 2], c[7][N - 1]);
  return 0;
}
