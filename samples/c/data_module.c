/* File-scope data with enter/exit data: the field is allocated and sent to the device by an
 * init function (`enter data`), stays there while the time loop calls `advance`, and comes
 * back in a finish function (`exit data copyout`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int n;
static double *f, *g;

static void init(int npoints)
{
    n = npoints;
    f = malloc(n * sizeof *f);
    g = calloc(n, sizeof *g);
    for (int i = 0; i < n; i++)
        f[i] = sin(0.01 * (i + 1));
#pragma translate enter data copyin(f[0:n]) create(g[0:n])
}

static void advance(int m, double *restrict a, double *restrict b)
{
#pragma translate kernel decay
    for (int i = 0; i < m; i++)
        b[i] = 0.9 * a[i] + 0.05;
#pragma translate end kernel
#pragma translate kernel swap
    for (int i = 0; i < m; i++)
        a[i] = b[i];
#pragma translate end kernel
}

static void finish(void)
{
#pragma translate exit data copyout(f[0:n]) delete(g[0:n])
}

int main(void)
{
    double sum = 0.0;
    init(3000);
    for (int t = 0; t < 25; t++)
        advance(n, f, g);
    finish();
    printf("%24.16e %24.16e %24.16e\n", f[0], f[n / 2 - 1], f[n - 1]);
    for (int i = 0; i < n; i++)
        sum += f[i];
    printf("sum %24.16e\n", sum);
    free(f);
    free(g);
    return 0;
}
