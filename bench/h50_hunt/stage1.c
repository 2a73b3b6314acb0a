/* translate-test: */
#include <stdio.h>
#include <stdlib.h>
static void step(int n, double *restrict a, double *restrict b, float *restrict c)
{
#pragma translate kernel step
    for (int i = 0; i < n; i++) {
        a[i] = a[i] * 0.5 + b[i];
        c[i] = c[i] + 1.0f;
    }
#pragma translate end kernel
}
static double sum(int n, const double *a) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * (1 + i % 7); return s; }
static double fsum(int n, const float *a) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * (1 + i % 5); return s; }
int main(void)
{
    static const int sizes[] = {1, 511, 512, 513, 1023, 1025, 262143, 262144, 262145, 3 * 262144 + 7};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        float *c = malloc(n * sizeof *c);
        for (int i = 0; i < n; i++) { a[i] = i % 19; b[i] = 0.25 * (i % 23); c[i] = (float)(i % 3); }
#pragma translate enter data copyin(a[0:n], b[0:n], c[0:n])
        step(n, a, b, c);
        a[0] = -7.0; a[n - 1] = 99.0; b[n / 2] = 5.0;
#pragma translate update device(a[0:1], a[n-1:1], b[n/2:1])
        step(n, a, b, c);
#pragma translate update host(a[n/3:n - n/3], c[0:(n + 1) / 2])
        printf("%d mid %.17g %.17g\n", n, sum(n - n / 3, a + n / 3), fsum((n + 1) / 2, c));
        step(n, a, b, c);
#pragma translate exit data copyout(a[0:n], c[0:n]) delete(b[0:n])
        printf("%d end %.17g %.17g %.17g\n", n, sum(n, a), sum(n, b), fsum(n, c));
        free(a); free(b); free(c);
    }
    return 0;
}
