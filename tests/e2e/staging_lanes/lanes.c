/* Staged copies of several arrays of one directive, back to back through the same lanes: a
 * staged write returns before the DMAs of its last chunks end, and the next array's staging
 * overlaps them; a staged read stores into the user's memory with non-temporal stores from the
 * first 16-byte boundary on.  Arrays of 1, 2, 4 and 8 bytes per element whose sizes are not
 * multiples of 4 KiB, of the chunk or of 64 bytes; sections that start off a 16-byte boundary;
 * copies in both directions at entry, exit and in updates; arrays smaller than one lane's part
 * next to arrays spread over every lane.  The output equals the original's. */
#include <stdio.h>
#include <stdlib.h>

static void mix(int n, const double *restrict a, const float *restrict b,
                const short *restrict c, double *restrict d, signed char *restrict e)
{
#pragma translate kernel mix
    for (int i = 0; i < n; i++) {
        d[i] = d[i] + 2.0 * a[i] + b[i] - c[i];
        e[i] = (signed char)(c[i] % 101 - 50);
    }
#pragma translate end kernel
}

static void bump(int n, double *restrict d, const signed char *restrict e)
{
#pragma translate kernel bump
    for (int i = 0; i < n; i++)
        d[i] = d[i] * 0.5 + e[i];
#pragma translate end kernel
}

static double sum_d(int n, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (1 + i % 7);
    return s;
}

static long sum_e(int n, const signed char *v)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)v[i] * (1 + i % 5);
    return s;
}

int main(void)
{
    enum { N = 12347, M = 37 };   /* N doubles: 98,776 bytes; M: less than one 4 KiB part */
    double *a = malloc((N + 1) * sizeof *a), *d = malloc((N + 1) * sizeof *d);
    float *b = malloc(N * sizeof *b);
    short *c = malloc(N * sizeof *c);
    signed char *e = malloc(N + 3);
    double *s = malloc(M * sizeof *s);
    for (int i = 0; i <= N; i++) {
        a[i] = 0.25 * (i % 1013) - 3.0;
        d[i] = 1.0 / (1 + i % 17);
    }
    for (int i = 0; i < N; i++) {
        b[i] = (float)(i % 29) * 0.5f;
        c[i] = (short)(i % 3001 - 1500);
    }
    for (int i = 0; i < N + 3; i++)
        e[i] = 0;
    for (int i = 0; i < M; i++)
        s[i] = i * 1.5;
#pragma translate data copyin(a[1:N], b[0:N], c[0:N], s[0:M]) copy(d[1:N]) copyout(e[3:N])
        mix(N, a + 1, b, c, d + 1, e + 3);
        for (int i = 0; i < N; i++)
            b[i] = -b[i];
#pragma translate update device(b[0:N])
#pragma translate update host(e[3:N], d[1:N])
        printf("inside d %.17g e %ld\n", sum_d(N, d + 1), sum_e(N, e + 3));
        for (int i = 0; i < N; i++)
            e[3 + i] = (signed char)(i % 9);
#pragma translate update device(e[3:N])
        bump(N, d + 1, e + 3);
        mix(N, a + 1, b, c, d + 1, e + 3);
#pragma translate end data
    printf("after d %.17g e %ld first %.17g last %.17g\n", sum_d(N, d + 1), sum_e(N, e + 3),
           d[1], d[N]);
    printf("untouched d[0] %.17g e[0..2] %d %d %d\n", d[0], e[0], e[1], e[2]);
    free(a), free(b), free(c), free(d), free(e), free(s);
    return 0;
}
