/* An update in the middle of a data region, read by host code; and host changes sent back.
 *
 * Every 10 steps the host needs the field: `update host(u)` brings it back, the host prints a
 * checksum and pins the source cell, and `update device(u[n/2:1])` sends the change to the
 * device.  The regions inside the loop find `u` and `unew` present and move nothing. */
#include <stdio.h>

#define N 2000

static double u[N], unew[N];

static double checksum(void)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += u[i];
    return s;
}

int main(void)
{
    const int n = N, nsteps = 40;
    for (int i = 0; i < n; i++)
        u[i] = (double)((i + 1) * 7 % 13);
#pragma translate data copy(u) copyin(unew)
    for (int t = 1; t <= nsteps; t++) {
#pragma translate kernel smooth
        for (int i = 1; i < n - 1; i++)
            unew[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
#pragma translate end kernel
#pragma translate kernel store
        for (int i = 1; i < n - 1; i++)
            u[i] = unew[i];
#pragma translate end kernel
        if (t % 10 == 0) {
#pragma translate update host(u)
            printf("step %4d %24.16e\n", t, checksum());
            u[n / 2] = 5.0;
#pragma translate update device(u[n/2:1])
        }
    }
#pragma translate end data
    printf("final %24.16e\n", checksum());
    return 0;
}
