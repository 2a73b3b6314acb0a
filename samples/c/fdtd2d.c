/* An FDTD-like 2-D time loop over three fields (as in the polyhedral benchmark fdtd-2d):
 * each step sets a boundary row from the source, updates ey and ex from hz, then hz from ex
 * and ey.  hz reads the neighbours that the first three updates wrote, so each step is two
 * kernels (the first three updates are independent and share one) launched by a host loop;
 * the fields stay on the device for all steps. */
#include <stdio.h>

#define NX 40
#define NY 56
#define TMAX 12

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

void fdtd(int tmax, int nx, int ny)
{
#pragma translate kernel fdtd
  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++)
      ey[0][j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma translate end kernel
}

int main(void)
{
  double s = 0.0;
  for (int t = 0; t < TMAX; t++)
    fict[t] = t * 0.5;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      ex[i][j] = ((double)i * (j + 1)) / NX;
      ey[i][j] = ((double)i * (j + 2)) / NY;
      hz[i][j] = ((double)i * (j + 3)) / NX;
    }
  fdtd(TMAX, NX, NY);
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      s += ex[i][j] + 2 * ey[i][j] + 3 * hz[i][j];
  printf("checksum %.17g\nhz[5][7] %.17g\n", s, hz[5][7]);
  return 0;
}
