/* translate-test: translate=--directives=openmp */
/* Rodinia-hotspot-like: a 2-D heat grid as a flat float array, indexing macros,
   boundary cases with if/else chains, private(...) declared outside, schedule(static). */
#include <stdio.h>
#include <math.h>
#define ROWS 96
#define COLS 80
#define IDX(r, c) ((r) * COLS + (c))
#define MAX_PD 3.0e6f
#define PRECISION 0.001f
static float temp[ROWS * COLS], power[ROWS * COLS], result[ROWS * COLS];

static void single_iteration(float *res, const float *tmp, const float *pw, int row, int col,
                             float Cap_1, float Rx_1, float Ry_1, float Rz_1, float step)
{
  float delta;
  int r, c;
  float amb_temp = 80.0f;
#pragma omp parallel for shared(pw, tmp, res) private(r, c, delta) firstprivate(row, col) schedule(static)
  for (r = 0; r < row; r++) {
    for (c = 0; c < col; c++) {
      if (r == 0 && c == 0) {
        delta = Cap_1 * (pw[0] + (tmp[1] - tmp[0]) * Rx_1 + (tmp[col] - tmp[0]) * Ry_1 +
                         (amb_temp - tmp[0]) * Rz_1);
      } else if (r == 0 && c == col - 1) {
        delta = Cap_1 * (pw[c] + (tmp[c - 1] - tmp[c]) * Rx_1 + (tmp[c + col] - tmp[c]) * Ry_1 +
                         (amb_temp - tmp[c]) * Rz_1);
      } else if (r == row - 1 && c == col - 1) {
        delta = Cap_1 * (pw[IDX(r, c)] + (tmp[IDX(r, c - 1)] - tmp[IDX(r, c)]) * Rx_1 +
                         (tmp[IDX(r - 1, c)] - tmp[IDX(r, c)]) * Ry_1 +
                         (amb_temp - tmp[IDX(r, c)]) * Rz_1);
      } else if (r == row - 1 && c == 0) {
        delta = Cap_1 * (pw[IDX(r, 0)] + (tmp[IDX(r, 1)] - tmp[IDX(r, 0)]) * Rx_1 +
                         (tmp[IDX(r - 1, 0)] - tmp[IDX(r, 0)]) * Ry_1 +
                         (amb_temp - tmp[IDX(r, 0)]) * Rz_1);
      } else if (r == 0) {
        delta = Cap_1 * (pw[c] + (tmp[c + 1] + tmp[c - 1] - 2.0f * tmp[c]) * Rx_1 +
                         (tmp[col + c] - tmp[c]) * Ry_1 + (amb_temp - tmp[c]) * Rz_1);
      } else if (c == col - 1) {
        delta = Cap_1 * (pw[IDX(r, c)] + (tmp[IDX(r + 1, c)] + tmp[IDX(r - 1, c)] - 2.0f * tmp[IDX(r, c)]) * Ry_1 +
                         (tmp[IDX(r, c - 1)] - tmp[IDX(r, c)]) * Rx_1 + (amb_temp - tmp[IDX(r, c)]) * Rz_1);
      } else if (r == row - 1) {
        delta = Cap_1 * (pw[IDX(r, c)] + (tmp[IDX(r, c + 1)] + tmp[IDX(r, c - 1)] - 2.0f * tmp[IDX(r, c)]) * Rx_1 +
                         (tmp[IDX(r - 1, c)] - tmp[IDX(r, c)]) * Ry_1 + (amb_temp - tmp[IDX(r, c)]) * Rz_1);
      } else if (c == 0) {
        delta = Cap_1 * (pw[IDX(r, 0)] + (tmp[IDX(r + 1, 0)] + tmp[IDX(r - 1, 0)] - 2.0f * tmp[IDX(r, 0)]) * Ry_1 +
                         (tmp[IDX(r, 1)] - tmp[IDX(r, 0)]) * Rx_1 + (amb_temp - tmp[IDX(r, 0)]) * Rz_1);
      } else {
        delta = Cap_1 * (pw[IDX(r, c)] +
                         (tmp[IDX(r + 1, c)] + tmp[IDX(r - 1, c)] - 2.0f * tmp[IDX(r, c)]) * Ry_1 +
                         (tmp[IDX(r, c + 1)] + tmp[IDX(r, c - 1)] - 2.0f * tmp[IDX(r, c)]) * Rx_1 +
                         (amb_temp - tmp[IDX(r, c)]) * Rz_1);
      }
      res[IDX(r, c)] = tmp[IDX(r, c)] + delta;
    }
  }
}

int main(void)
{
  for (int i = 0; i < ROWS * COLS; i++) {
    temp[i] = 320.0f + (float)((i * 7919) % 113) * 0.25f;
    power[i] = (float)((i * 31) % 17) * 1.0e-3f;
  }
  float grid_height = 0.016f / ROWS, grid_width = 0.016f / COLS;
  float Cap = 0.5f * 1.75e6f * 0.0005f * grid_width * grid_height;
  float Rx = grid_width / (2.0f * 100.0f * 0.0005f * grid_height);
  float Ry = grid_height / (2.0f * 100.0f * 0.0005f * grid_width);
  float Rz = 0.0005f / (100.0f * grid_height * grid_width);
  float max_slope = MAX_PD / (0.5f * 1.75e6f * 0.0005f);
  float step = PRECISION / max_slope;
  float *src = temp, *dst = result;
  for (int it = 0; it < 6; it++) {
    single_iteration(dst, src, power, ROWS, COLS, step / Cap, 1.0f / Rx, 1.0f / Ry, 1.0f / Rz, step);
    float *t = src; src = dst; dst = t;
  }
  double s = 0;
  for (int i = 0; i < ROWS * COLS; i++) s += src[i] * (1 + i % 5);
  printf("%.9g %.9g %.9g %.17g\n", src[0], src[IDX(40, 33)], src[ROWS * COLS - 1], s);
  return 0;
}
