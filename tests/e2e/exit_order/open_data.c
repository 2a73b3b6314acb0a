/* The program ends inside an unstructured data region: its last region call runs on present
 * data and returns before its kernel has run; the exit handler must wait for it before the
 * OpenCL implementation tears itself down.  Nothing is copied back at exit. */
#include <stdio.h>

#define N 100000
static double a[N];

static void scale(int n, double *x)
{
#pragma translate kernel scale_k
    for (int i = 0; i < n; i++)
        x[i] = 2.0 * x[i];
#pragma translate end kernel
}

static void last_value(int n)
{
    double s = 0.0;
#pragma translate kernel last_value_k
    for (int i = 0; i < n; i++)
        s = i * 2.0;
#pragma translate end kernel
}

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
    printf("start\n");
#pragma translate enter data copyin(a[0:N])
    scale(N, a);
#pragma translate update host(a[0:N])
    printf("%g %g\n", a[1], a[N - 1]);
    scale(N, a);
    last_value(N);
    printf("done\n");
    return 0;
}
