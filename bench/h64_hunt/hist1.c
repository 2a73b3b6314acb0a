/* A histogram (data-dependent subscript): whatever the translator does with it must give the
 * original's counts. */
#include <stdio.h>
#include <stdlib.h>
#define N 1000037
#define B 97

static void hist(int n, const int key[N], long h[B])
{
#pragma translate kernel hist
    for (int i = 0; i < n; i++)
        h[key[i]] += 1;
#pragma translate end kernel
}

int main(void)
{
    int *key = malloc(sizeof(int) * N);
    long h[B] = {0};
    unsigned r = 12345u;
    for (int i = 0; i < N; i++) { r = r * 1103515245u + 12345u; key[i] = (r >> 8) % B; }
    hist(N, key, h);
    for (int b = 0; b < B; b++) printf("%ld%c", h[b], b % 10 == 9 ? '\n' : ' ');
    printf("\n");
    return 0;
}
