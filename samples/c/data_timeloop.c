/* A host time loop calling a function with two regions, inside one data region.
 *
 * `step` holds two kernel regions (a Jacobi sweep into `tmp`, then the copy back into `u`).
 * main's data region makes `u` and `tmp` present for the whole loop (`tmp` is copied in: the sweep
 * never writes its boundary cells, and `translate check` compares every element): the regions find
 * them on the device and nothing moves per step; `u` is copied in once and out once. */
#include <stdio.h>
#include <stdlib.h>

static void step(int n, double *restrict u, double *restrict tmp)
{
#pragma translate kernel sweep
    for (int i = 1; i <= n; i++)
        tmp[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
#pragma translate end kernel
#pragma translate kernel copy_back
    for (int i = 1; i <= n; i++)
        u[i] = tmp[i];
#pragma translate end kernel
}

int main(void)
{
    const int n = 4000, nsteps = 50;
    double *u = calloc(n + 2, sizeof *u), *tmp = calloc(n + 2, sizeof *tmp);
    double sum = 0.0;
    u[n / 2] = 1000.0;
    u[n + 1] = 1.0;
#pragma translate data copy(u[0:n+2]) copyin(tmp[0:n+2])
    for (int t = 0; t < nsteps; t++)
        step(n, u, tmp);
#pragma translate end data
    for (int i = n / 2 - 3; i <= n / 2 + 3; i++)
        printf("%6d %24.16e\n", i, u[i]);
    for (int i = 0; i < n + 2; i++)
        sum += u[i];
    printf("sum %24.16e\n", sum);
    free(u);
    free(tmp);
    return 0;
}
