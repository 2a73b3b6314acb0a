#define _POSIX_C_SOURCE 199309L
/* A field summary (five sums over a 2-D nest with a loop over the four corners) for the GPU
 * check of issue 29 item 1: ./field_summary NX NY CALLS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void summary(int nx, int ny, const double volume[ny][nx], const double density[ny][nx],
                    const double energy[ny][nx], const double pressure[ny][nx],
                    const double xvel[ny + 1][nx + 1], const double yvel[ny + 1][nx + 1],
                    double out[5])
{
  double vol = 0.0, mass = 0.0, ie = 0.0, ke = 0.0, press = 0.0;
#pragma translate kernel summary_k
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++) {
      double vsqrd = 0.0;
      for (int kv = k; kv <= k + 1; kv++)
        for (int jv = j; jv <= j + 1; jv++)
          vsqrd += 0.25 * (xvel[kv][jv] * xvel[kv][jv] + yvel[kv][jv] * yvel[kv][jv]);
      double cell_vol = volume[k][j];
      double cell_mass = cell_vol * density[k][j];
      vol += cell_vol;
      mass += cell_mass;
      ie += cell_mass * energy[k][j];
      ke += cell_mass * 0.5 * vsqrd;
      press += cell_vol * pressure[k][j];
    }
#pragma translate end kernel
  out[0] = vol; out[1] = mass; out[2] = ie; out[3] = ke; out[4] = press;
}

int main(int argc, char **argv)
{
  int nx = argc > 1 ? atoi(argv[1]) : 960, ny = argc > 2 ? atoi(argv[2]) : 960;
  int calls = argc > 3 ? atoi(argv[3]) : 5;
  double (*volume)[nx] = malloc(sizeof(double[ny][nx])), (*density)[nx] = malloc(sizeof(double[ny][nx]));
  double (*energy)[nx] = malloc(sizeof(double[ny][nx])), (*pressure)[nx] = malloc(sizeof(double[ny][nx]));
  double (*xvel)[nx + 1] = malloc(sizeof(double[ny + 1][nx + 1]));
  double (*yvel)[nx + 1] = malloc(sizeof(double[ny + 1][nx + 1]));
  double out[5];
  struct timespec t0, t1;
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++) {
      volume[k][j] = 1.0 + 0.001 * ((j * 7 + k * 3) % 11);
      density[k][j] = 0.2 + 0.01 * ((j + 2 * k) % 13);
      energy[k][j] = 2.5 - 0.003 * ((3 * j + k) % 17);
      pressure[k][j] = 0.1 * density[k][j] * energy[k][j];
    }
  for (int k = 0; k <= ny; k++)
    for (int j = 0; j <= nx; j++) {
      xvel[k][j] = 0.01 * ((j * k) % 19) - 0.05;
      yvel[k][j] = 0.02 * ((j + k * 5) % 23) - 0.2;
    }
  summary(nx, ny, volume, density, energy, pressure, xvel, yvel, out);   /* warm-up */
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int c = 0; c < calls; c++)
    summary(nx, ny, volume, density, energy, pressure, xvel, yvel, out);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%d x %d: %.17g %.17g %.17g %.17g %.17g\n", nx, ny, out[0], out[1], out[2], out[3], out[4]);
  printf("ms per call %.3f\n", ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6) / calls);
  return 0;
}
