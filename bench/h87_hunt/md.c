/* translate-test: translate=--directives=openmp rtol=1e-12 */
/* CoMD-like Lennard-Jones force over link cells: atoms sorted into cells (host code), each
   atom loops over the 27 neighbour cells (periodic, index arithmetic with %), each cell's
   atoms through the cell's start/count, cutoff `if (r2 < rc2)`; forces per atom (no Newton
   3rd-law scatter), potential energy and virial reductions; a velocity-Verlet step. */
#include <math.h>
#include <stdio.h>
#define NC 4
#define NCELL (NC * NC * NC)
#define PER 3
#define NATOM (NCELL * PER)
static double pos[NATOM][3], vel[NATOM][3], force[NATOM][3];
static int cell_start[NCELL], cell_count[NCELL], cell_atoms[NATOM];

int main(void)
{
  const double box = 6.0, cw = box / NC, rc2 = 1.9 * 1.9, dt = 0.002;
  int na = 0;
  for (int c = 0; c < NCELL; c++) {
    int cx = c % NC, cy = (c / NC) % NC, cz = c / (NC * NC);
    cell_start[c] = na;
    cell_count[c] = PER;
    for (int t = 0; t < PER; t++) {
      pos[na][0] = (cx + 0.2 + 0.3 * t) * cw;
      pos[na][1] = (cy + 0.25 + 0.25 * ((t + c) % 3)) * cw;
      pos[na][2] = (cz + 0.3 + 0.2 * ((t * 7 + c) % 4)) * cw;
      for (int d = 0; d < 3; d++) vel[na][d] = 0.01 * (((na + d) * 13) % 7 - 3);
      cell_atoms[na] = na;
      na++;
    }
  }
  double epot = 0.0, vir = 0.0;
  for (int step = 0; step < 3; step++) {
    epot = 0.0;
    vir = 0.0;
#pragma omp parallel for reduction(+:epot, vir)
    for (int i = 0; i < NATOM; i++) {
      double fx = 0.0, fy = 0.0, fz = 0.0;
      int ci = i / PER;
      int cx = ci % NC, cy = (ci / NC) % NC, cz = ci / (NC * NC);
      for (int nb = 0; nb < 27; nb++) {
        int nx = (cx + nb % 3 - 1 + NC) % NC;
        int ny = (cy + (nb / 3) % 3 - 1 + NC) % NC;
        int nz = (cz + nb / 9 - 1 + NC) % NC;
        int cj = nx + NC * (ny + NC * nz);
        for (int m = 0; m < cell_count[cj]; m++) {
          int j = cell_atoms[cell_start[cj] + m];
          if (j == i) continue;
          double dx = pos[i][0] - pos[j][0], dy = pos[i][1] - pos[j][1],
                 dz = pos[i][2] - pos[j][2];
          dx -= box * rint(dx / box);
          dy -= box * rint(dy / box);
          dz -= box * rint(dz / box);
          double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < rc2) {
            double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2;
            double f = 24.0 * ir2 * ir6 * (2.0 * ir6 - 1.0);
            fx += f * dx;
            fy += f * dy;
            fz += f * dz;
            epot += 2.0 * ir6 * (ir6 - 1.0);
            vir += f * r2;
          }
        }
      }
      force[i][0] = fx;
      force[i][1] = fy;
      force[i][2] = fz;
    }
#pragma omp parallel for
    for (int i = 0; i < NATOM; i++)
      for (int d = 0; d < 3; d++) {
        vel[i][d] += dt * force[i][d];
        pos[i][d] += dt * vel[i][d];
      }
  }
  double ekin = 0.0;
#pragma omp parallel for reduction(+:ekin)
  for (int i = 0; i < NATOM; i++)
    ekin += 0.5 * (vel[i][0] * vel[i][0] + vel[i][1] * vel[i][1] + vel[i][2] * vel[i][2]);
  printf("%.15e %.15e %.15e\n", epot, vir, ekin);
  printf("%.15e %.15e %.15e\n", force[0][0], force[NATOM / 2][1], pos[NATOM - 1][2]);
  return 0;
}
