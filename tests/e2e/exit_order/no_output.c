/* The last device work is a region with no outputs: s is assigned and never read.  The
 * translated program must exit cleanly and keep its buffered output (issue 20, item 10). */
#include <stdio.h>

static void last_value(int n)
{
    double s = 0.0;
#pragma translate kernel last_value_k
    for (int i = 0; i < n; i++)
        s = i * 2.0;
#pragma translate end kernel
}

int main(void)
{
    printf("start\n");
    last_value(100000);
    printf("done\n");
    return 0;
}
