/* Plain calls on small arrays, counted by count_cl.c (h49, issue 23 item 5): 40 calls of axpy
 * (x in, y in and out) and 40 of two (x in, y in and out, z out), 16 doubles each. */
#include <stdio.h>

static double x[16], y[16], z[16];

static void axpy(int n, double a)
{
#pragma translate kernel axpy
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
#pragma translate end kernel
}

static void two(int n, double a)
{
#pragma translate kernel two
    for (int i = 0; i < n; i++) {
        y[i] = a * x[i] + y[i];
        z[i] = y[i] - x[i];
    }
#pragma translate end kernel
}

int main(void)
{
    for (int i = 0; i < 16; i++)
        x[i] = i;
    for (int c = 0; c < 40; c++)
        axpy(16, 1.0);
    for (int c = 0; c < 40; c++)
        two(16, 0.5);
    printf("y %.17g %.17g z %.17g %.17g\n", y[1], y[15], z[1], z[15]);
    return 0;
}
