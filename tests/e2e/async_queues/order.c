/* Async queues: results that depend on the order of the regions.  Queue 1 runs `slow` then
 * `plus_one` (x*s+1 differs from (x+1)*s); `mix`, without async, reads what queue 1 wrote;
 * `scale_z` on queue 2 reads what `mix` wrote; the next step's `slow` on queue 1 runs after
 * `mix` of this step.  `square` runs outside data regions on queue 3: its copies in and back
 * are async too, and the host reads its result after wait(3).  `slow` takes long enough that a
 * region started without waiting for it would read old values. */
#include <stdio.h>

#define N 4096
#define WORK 300

static double x[N], y[N], z[N], w[N], a[N], b[N];

int main(void)
{
    double sx = 0.0, sy = 0.0, sz = 0.0, sa = 0.0;
    for (int i = 0; i < N; i++) {
        x[i] = 0.25 * i;
        y[i] = z[i] = 0.0;
        w[i] = 1.0 + (i % 7);
        a[i] = 0.5 * (i % 13);
        b[i] = 1.0 / (1 + i % 5);
    }
#pragma translate data copy(x, y, z) copyin(w)
    for (int t = 0; t < 3; t++) {
#pragma translate kernel slow async(1)
        for (int i = 0; i < N; i++) {
            double v = x[i];
            for (int k = 0; k < WORK; k++)
                v = 0.5 * v + 0.25 * x[i];
            x[i] = v;
        }
#pragma translate end kernel
#pragma translate kernel plus_one async(1)
        for (int i = 0; i < N; i++)
            x[i] = x[i] + 1.0;
#pragma translate end kernel
#pragma translate kernel mix
        for (int i = 0; i < N; i++)
            y[i] = 3.0 * x[i] + y[i];
#pragma translate end kernel
#pragma translate kernel scale_z async(2)
        for (int i = 0; i < N; i++)
            z[i] = y[i] - 0.5 * z[i] + w[i];
#pragma translate end kernel
    }
#pragma translate wait
#pragma translate end data
#pragma translate kernel square async(3)
    for (int i = 0; i < N; i++)
        a[i] = a[i] * a[i] + b[i];
#pragma translate end kernel
#pragma translate wait(3)
    for (int i = 0; i < N; i++) {
        sx += x[i] * (i % 11);
        sy += y[i] * (i % 3);
        sz += z[i];
        sa += a[i] * (i % 17);
    }
    printf("x %.17g\ny %.17g\nz %.17g\na %.17g\n", sx, sy, sz, sa);
    return 0;
}
