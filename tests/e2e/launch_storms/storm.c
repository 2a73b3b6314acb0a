/* Launch storms: host loops around tiny kernels (issue 21 item 9) */
#include <stdio.h>

void fill(int nx, int ny, double xv[ny + 1][nx + 1], double e[ny][nx])
{
#pragma translate kernel fill_k
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++) {
      e[k][j] = 0.5 * j + k;
      for (int kt = k; kt <= k + 1; kt++)
        for (int jt = j; jt <= j + 1; jt++)
          xv[kt][jt] = e[k][j] + jt;
    }
#pragma translate end kernel
}

void sweep(int nz, int ny, double a[nz][ny][4], double b[nz][ny][4])
{
#pragma translate kernel sweep_k
  for (int k = 1; k < nz; k++)
    for (int j = 1; j < ny; j++) {
      for (int i = 0; i < 4; i++)
        a[k][j][i] = a[k][j-1][i] + 0.5 * a[k-1][j][i];
      for (int i = 0; i < 4; i++)
        b[k][j][i] = a[k][j][3-i] - 0.25 * b[k][j-1][i];
    }
#pragma translate end kernel
}

#define NX 37
#define NY 23
#define NZ 19
static double xv[NY + 1][NX + 1], e[NY][NX], a[NZ][NY][4], b[NZ][NY][4];

int main(void)
{
  double sx = 0, se = 0, sa = 0, sb = 0;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < 4; i++) {
        a[k][j][i] = ((i * 7 + j * 3 + k) % 11) * 0.125;
        b[k][j][i] = ((i + j * 5 + k * 2) % 13) * 0.25;
      }
  fill(NX, NY, xv, e);
  sweep(NZ, NY, a, b);
  for (int k = 0; k <= NY; k++)
    for (int j = 0; j <= NX; j++)
      sx += xv[k][j];
  for (int k = 0; k < NY; k++)
    for (int j = 0; j < NX; j++)
      se += e[k][j];
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < 4; i++) {
        sa += a[k][j][i];
        sb += b[k][j][i];
      }
  printf("fill  %.16e %.16e\n", sx, se);
  printf("sweep %.16e %.16e\n", sa, sb);
  printf("probe %.16e %.16e %.16e %.16e\n", xv[NY][NX], e[NY-1][NX-1], a[NZ-1][NY-1][2],
         b[NZ-1][NY-1][1]);
  return 0;
}
