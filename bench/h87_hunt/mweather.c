/* translate-test: translate=--directives=openmp rtol=1e-12 */
/* miniWeather-like in C: state[v][k][i] with halos, z-direction fluxes this time (the
   tendency reads flux[k+1] - flux[k]), OpenMP target data around the time loop, a
   reduction of mass and total energy in one loop. */
#include <math.h>
#include <stdio.h>
#define NX 36
#define NZ 28
#define HS 2
#define NV 4
#define ID_DENS 0
#define ID_UMOM 1
#define ID_WMOM 2
#define ID_RHOT 3
static double state[NV][NZ + 2 * HS][NX + 2 * HS], state_tmp[NV][NZ + 2 * HS][NX + 2 * HS];
static double flux[NV][NZ + 1][NX], tend[NV][NZ][NX];
static double hy_dens_int[NZ + 1], hy_pressure_int[NZ + 1];

int main(void)
{
  const double dz = 0.4, dt = 0.02, hv_beta = 0.05;
  for (int k = 0; k <= NZ; k++) {
    hy_dens_int[k] = 1.0 + 0.02 * k;
    hy_pressure_int[k] = 100.0 - 0.5 * k;
  }
  for (int ll = 0; ll < NV; ll++)
    for (int k = 0; k < NZ + 2 * HS; k++)
      for (int i = 0; i < NX + 2 * HS; i++)
        state[ll][k][i] = (ll == ID_DENS ? 0.01 * sin(0.2 * i + 0.1 * k)
                           : ll == ID_RHOT ? 0.3 * cos(0.05 * (i - k))
                           : 0.01 * ((i * 5 + k * 3 + ll) % 7));
  double mass = 0.0, te = 0.0;
#pragma omp target data map(tofrom: state) map(alloc: state_tmp, flux, tend) \
    map(to: hy_dens_int, hy_pressure_int)
  {
    for (int step = 0; step < 5; step++) {
      /* solid-wall halos in z: copy the last interior rows, negate the vertical momentum */
#pragma omp target teams distribute parallel for collapse(2)
      for (int ll = 0; ll < NV; ll++)
        for (int i = 0; i < NX + 2 * HS; i++) {
          double s = (ll == ID_WMOM) ? 0.0 : 1.0;
          state[ll][0][i] = s * state[ll][HS][i];
          state[ll][1][i] = s * state[ll][HS][i];
          state[ll][NZ + HS][i] = s * state[ll][NZ + HS - 1][i];
          state[ll][NZ + HS + 1][i] = s * state[ll][NZ + HS - 1][i];
        }
#pragma omp target teams distribute parallel for collapse(2)
      for (int k = 0; k <= NZ; k++)
        for (int i = 0; i < NX; i++) {
          double vals[NV], coef = -hv_beta * dz / (16 * dt);
          for (int ll = 0; ll < NV; ll++)
            vals[ll] = -state[ll][k][i + HS] / 12 + 7 * state[ll][k + 1][i + HS] / 12
                       + 7 * state[ll][k + 2][i + HS] / 12 - state[ll][k + 3][i + HS] / 12;
          double d3 = -state[ID_DENS][k][i + HS] + 3 * state[ID_DENS][k + 1][i + HS]
                      - 3 * state[ID_DENS][k + 2][i + HS] + state[ID_DENS][k + 3][i + HS];
          double r = vals[ID_DENS] + hy_dens_int[k];
          double u = vals[ID_UMOM] / r, w = vals[ID_WMOM] / r;
          double t = vals[ID_RHOT] / r;
          double p = hy_pressure_int[k] + 0.1 * t;
          if (k == 0 || k == NZ) { w = 0.0; d3 = 0.0; }
          flux[ID_DENS][k][i] = r * w - coef * d3;
          flux[ID_UMOM][k][i] = r * w * u - coef * d3;
          flux[ID_WMOM][k][i] = r * w * w + p - coef * d3;
          flux[ID_RHOT][k][i] = r * w * t - coef * d3;
        }
#pragma omp target teams distribute parallel for collapse(3)
      for (int ll = 0; ll < NV; ll++)
        for (int k = 0; k < NZ; k++)
          for (int i = 0; i < NX; i++) {
            tend[ll][k][i] = -(flux[ll][k + 1][i] - flux[ll][k][i]) / dz;
            if (ll == ID_WMOM) tend[ll][k][i] -= 0.01 * state[ID_DENS][k + HS][i + HS];
          }
#pragma omp target teams distribute parallel for collapse(3)
      for (int ll = 0; ll < NV; ll++)
        for (int k = 0; k < NZ; k++)
          for (int i = 0; i < NX; i++) {
            state_tmp[ll][k + HS][i + HS] = state[ll][k + HS][i + HS] + dt * tend[ll][k][i];
            state[ll][k + HS][i + HS] = state_tmp[ll][k + HS][i + HS];
          }
    }
#pragma omp target teams distribute parallel for collapse(2) reduction(+:mass, te)
    for (int k = 0; k < NZ; k++)
      for (int i = 0; i < NX; i++) {
        double r = state[ID_DENS][k + HS][i + HS] + hy_dens_int[k];
        double u = state[ID_UMOM][k + HS][i + HS] / r;
        double w = state[ID_WMOM][k + HS][i + HS] / r;
        mass += r * dz;
        te += 0.5 * r * (u * u + w * w) * dz;
      }
  }
  printf("%.15e %.15e\n", mass, te);
  for (int ll = 0; ll < NV; ll++)
    printf("%.15e %.15e\n", state[ll][HS][HS], state[ll][NZ][NX / 2]);
  return 0;
}
