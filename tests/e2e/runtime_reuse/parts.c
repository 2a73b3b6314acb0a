/* Staged copies whose size is not a multiple of the lanes' 4 KiB parts: N ints, where N*4
 * bytes over 8 (or 16) lanes leaves 4 bytes beyond eight 4 KiB-rounded parts of the
 * truncated share.  Every element must travel both ways. */
#include <stdio.h>

#define N (16384 + 1)

static int a[N], b[N];

int main(void)
{
    long sum = 0;
    int i;
    for (i = 0; i < N; i++)
        a[i] = i % 97 + 1;
#pragma translate kernel twice_plus_one
    for (i = 0; i < N; i++)
        b[i] = 2 * a[i] + 1;
#pragma translate end kernel
    for (i = 0; i < N; i++)
        sum += b[i];
    printf("sum %ld first %d last %d\n", sum, b[0], b[N - 1]);
    return 0;
}
