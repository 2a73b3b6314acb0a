/* One region call on an array of 1 MiB (y in and out), counted by count_cl.c under forced
 * staging (h49, issue 23 item 1): the staging ring sends `group` adjacent chunks as one
 * command each way. */
#include <stdio.h>

#define N 131072

static double y[N];

static void twice(int n)
{
#pragma translate kernel twice
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * y[i] + 1.0;
#pragma translate end kernel
}

int main(void)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        y[i] = i % 1000;
    twice(N);
    for (int i = 0; i < N; i++)
        s += y[i] * (1 + i % 7);
    printf("sum %.17g first %.17g last %.17g\n", s, y[0], y[N - 1]);
    return 0;
}
