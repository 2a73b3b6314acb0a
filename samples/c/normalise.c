/* A normalisation: a reduction, then a statement on its result, then a loop that uses it.
 *
 * The squared norm of integer weights is an integer sum (the same in any order), so the
 * automatic mapping runs it as a parallel reduction; its result stays on the device in a
 * one-element buffer, `nrm = sqrt(...)` runs as a one-work-item kernel, and the scaling loop
 * reads nrm in a third kernel.  In one kernel these would race. */
#include <math.h>
#include <stdio.h>

#define N 3000

static int w[N];
static double y[N];

void normalise(int n)
{
#pragma translate kernel normalise
  long s = 0;
  for (int i = 0; i < n; i++)
    s += (long)w[i] * w[i];
  double nrm = sqrt((double)s);
  for (int i = 0; i < n; i++)
    y[i] = w[i] / nrm;
#pragma translate end kernel
}

int main(void)
{
  double check = 0.0;
  for (int i = 0; i < N; i++)
    w[i] = (i * 37) % 23 - 11;
  normalise(N);
  for (int i = 0; i < N; i++)
    check += y[i] * y[i] * (1 + i % 3);
  printf("y[0] %.17g y[N-1] %.17g\ncheck %.17g\n", y[0], y[N - 1], check);
  return 0;
}
