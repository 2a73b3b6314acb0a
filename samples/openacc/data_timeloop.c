/* translate-test: translate=--directives=openacc
 *
 * A host time loop calling a function with two regions, inside one data region: the OpenACC
 * version of samples/c/data_timeloop.c (translate --directives openacc).  "enter data" and
 * "exit data" bracket the time loop (unstructured data lifetime), "update self" copies u
 * back to the host half-way.
 *
 * `step` holds two kernel regions (a Jacobi sweep into `tmp`, then the copy back into `u`).
 * main's data region makes `u` and `tmp` present for the whole loop (`tmp` is copied in: the sweep
 * never writes its boundary cells, and `translate check` compares every element): the regions find
 * them on the device and nothing moves per step; `u` is copied in once and out once. */
#include <stdio.h>
#include <stdlib.h>

static void step(int n, double *restrict u, double *restrict tmp)
{
#pragma acc parallel loop present(u[0:n+2], tmp[0:n+2])
    for (int i = 1; i <= n; i++)
        tmp[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
#pragma acc parallel loop present(u[0:n+2], tmp[0:n+2])
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
#pragma acc enter data copyin(u[0:n+2], tmp[0:n+2])
    for (int t = 0; t < nsteps; t++) {
        step(n, u, tmp);
        if (t == nsteps / 2 - 1) {
#pragma acc update self(u[0:n+2])
            double half = 0.0;
            for (int i = 0; i < n + 2; i++)
                half += u[i];
            printf("half-way sum %24.16e\n", half);
        }
    }
#pragma acc exit data copyout(u[0:n+2]) delete(tmp[0:n+2])
    for (int i = n / 2 - 3; i <= n / 2 + 3; i++)
        printf("%6d %24.16e\n", i, u[i]);
    for (int i = 0; i < n + 2; i++)
        sum += u[i];
    printf("sum %24.16e\n", sum);
    free(u);
    free(tmp);
    return 0;
}
