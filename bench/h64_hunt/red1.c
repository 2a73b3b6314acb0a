/* translate-test: translate=--reassociate rtol=1e-12 */
/* Reductions over 10^7 elements, called many times: integer sums in 64 bits, fmax/fmin,
 * selection minimum, arg-min with location, and a double sum with consent (reassociate). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#define N 10000003

static void reds(long n, const double *restrict x, const int *restrict k, long long *isum,
                 double *mx, double *mn, double *sel, long *loc, double *dsum, long long *ksq)
{
    long long s = 0, q = 0;
    double a = -1e300, b = 1e300, m = 1e300, d = 0.0;
    long l = -1;
#pragma translate kernel reds_k
    for (long i = 0; i < n; i++) {
        s += k[i];
        q += (long long)k[i] * k[i];
        a = fmax(a, x[i]);
        b = fmin(b, x[i]);
        d += x[i];
    }
    for (long i = 0; i < n; i++) {
        if (x[i] < m) { m = x[i]; l = i; }
    }
#pragma translate end kernel
    *isum = s; *mx = a; *mn = b; *sel = m; *loc = l; *dsum = d; *ksq = q;
}

int main(void)
{
    double *x = malloc(sizeof(double) * N);
    int *k = malloc(sizeof(int) * N);
    unsigned long long r = 88172645463325252ULL;
    for (long i = 0; i < N; i++) {
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        x[i] = (double)(r % 1000000007ULL) / 1000.0 - 4.0e5;
        k[i] = (int)(r >> 33) - (1 << 30);
    }
    for (int t = 0; t < 40; t++) {
        long long s, q; double a, b, m, d; long l;
        x[(t * 7919L) % N] = -5.0e5 - t;      /* a new minimum each call */
        k[(t * 104729L) % N] += 1000 * t;
        reds(N - t, x, k, &s, &a, &b, &m, &l, &d, &q);
        printf("%d %lld %lld %.17g %.17g %.17g %ld %.15e\n", t, s, q, a, b, m, l, d);
    }
    free(x); free(k);
    return 0;
}
