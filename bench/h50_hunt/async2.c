#include <stdio.h>
#define N 5000
static double tot;
static void sum_async(int n, const double *restrict x)
{
    double s = 0.0;
#pragma translate kernel sum_async async(1)
#pragma translate set_options(reassociate=True)
    for (int i = 0; i < n; i++)
        s += x[i];
#pragma translate end kernel
#pragma translate wait(1)
    tot = s;
}
static void scale(int n, double *restrict x, double f)
{
#pragma translate kernel scale async(2)
    for (int i = 0; i < n; i++)
        x[i] *= f;
#pragma translate end kernel
}
static void shift(int n, double *restrict x)
{
#pragma translate kernel shift
    for (int i = 0; i < n; i++)
        x[i] += 1.0;
#pragma translate end kernel
}
int main(void)
{
    static double x[N];
    for (int i = 0; i < N; i++) x[i] = (i % 8) * 0.5;
    for (int t = 0; t < 5; t++) {
        int n = N - 1000 * t;
        scale(n, x, 2.0);
        shift(n, x);            /* after scale (queue 2), no wait */
        scale(n / 2, x, 0.5);
        scale(n / 3, x + n / 2, 0.25);
#pragma translate wait
        sum_async(n, x);
        printf("%d %.17g\n", t, tot);
    }
#pragma translate data copy(x)
    for (int t = 0; t < 3; t++) {
        scale(N, x, 0.5);
        shift(N / 2, x);
    }
#pragma translate end data
    double s = 0; for (int i = 0; i < N; i++) s += x[i] * (i % 3 + 1);
    printf("%.17g\n", s);
    return 0;
}
