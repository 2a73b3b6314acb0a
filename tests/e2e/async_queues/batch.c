/* Update batches: `update device` of two sections returns without waiting for its copies, and
 * the host overwrites the array right after it; each step's kernel must still see the values
 * the update sent (a slow kernel before the update keeps its copies in the queue while the
 * host overwrites).  The host computes what the device should have (the original program,
 * whose kernel sees the overwritten values, prints "no": this test runs only the translated
 * program).  Then `update host` of two sections brings the edges back. */
#include <stdio.h>

#define N 262144   /* 2 MiB of doubles per array */
#define STEPS 4

static double a[N], b[N], c[N], e[N], d[N / 64];

int main(void)
{
    int same = 1, edges = 1;
    for (int i = 0; i < N; i++) {
        b[i] = 1.0 / (1 + i % 9);
        c[i] = e[i] = 0.0;
    }
#pragma translate data copyin(a, b, d) copy(c)
    for (int t = 0; t < STEPS; t++) {
        for (int i = 0; i < N; i++)
            a[i] = t + 0.5 * (i % 101);
#pragma translate kernel busy
        for (int i = 0; i < N / 64; i++)   /* the update's copies queue up behind it */
            for (int k = 0; k < 1000; k++)
                d[i] = 0.5 * d[i] + 1.0;
#pragma translate end kernel
#pragma translate update device(a[0:N/2], a[N/2:N/2])
        for (int i = 0; i < N; i++) {   /* the device keeps what was sent */
            e[i] = e[i] + a[i] + b[i];
            a[i] = -1.0;
        }
#pragma translate kernel accumulate
        for (int i = 0; i < N; i++)
            c[i] = c[i] + a[i] + b[i];
#pragma translate end kernel
    }
    for (int i = 0; i < N; i++)
        c[i] = 0.0;
#pragma translate update host(c[0:16], c[N-16:16])
    for (int i = 0; i < 16; i++)
        edges &= c[i] == e[i] && c[N - 16 + i] == e[N - 16 + i];
#pragma translate end data
    for (int i = 0; i < N; i++)
        same &= c[i] == e[i];
    printf("device sums match the values sent: %s\n", same ? "yes" : "no");
    printf("edges back: %s\n", edges ? "yes" : "no");
    return 0;
}
