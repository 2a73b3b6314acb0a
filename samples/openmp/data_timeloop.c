/* translate-test: translate=--directives=openmp
 *
 * A time loop under an OpenMP target data construct (it covers the statement after it): u and
 * tmp stay on the device for all steps (as samples/c/data_timeloop.c).
 */
#include <stdio.h>
#include <stdlib.h>

static void step(int n, double *restrict u, double *restrict tmp)
{
#pragma omp parallel for
    for (int i = 1; i <= n; i++)
        tmp[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
#pragma omp parallel for
    for (int i = 1; i <= n; i++)
        u[i] = tmp[i];
}

int main(void)
{
    const int n = 4000, nsteps = 50;
    double *u = calloc(n + 2, sizeof *u), *tmp = calloc(n + 2, sizeof *tmp);
    double sum = 0.0;
    u[n / 2] = 1000.0;
    u[n + 1] = 1.0;
#pragma omp target data map(tofrom: u[0:n+2]) map(to: tmp[0:n+2])
    for (int t = 0; t < nsteps; t++)
        step(n, u, tmp);
    for (int i = n / 2 - 3; i <= n / 2 + 3; i++)
        printf("%6d %24.16e\n", i, u[i]);
    for (int i = 0; i < n + 2; i++)
        sum += u[i];
    printf("sum %24.16e\n", sum);
    free(u);
    free(tmp);
    return 0;
}
