/* translate-test: translate=--directives=openmp */
/* Pixel arithmetic on uint8_t: saturation through int, wrap on store, blends in float with
   rounding, RGB packing in uint32_t, signed differences, collapse(2) over an image. */
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#define W 61
#define H 37
static uint8_t src[H][W][3], dst[H][W][3], gray[H][W], wrapd[H][W];
static uint32_t packed[H][W];
static int16_t diff[H][W];

static inline uint8_t sat(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

int main(void)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 3; c++)
        src[y][x][c] = (uint8_t)(x * 13 + y * 7 + c * 91);
#pragma omp parallel for collapse(2)
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      uint8_t r = src[y][x][0], g = src[y][x][1], b = src[y][x][2];
      dst[y][x][0] = sat(r * 2 - 60);
      dst[y][x][1] = sat((int)(g * 1.3f + 0.5f) - 10);
      dst[y][x][2] = (uint8_t)lrintf(0.5f * b + 0.25f * r);
      gray[y][x] = (uint8_t)((77 * r + 150 * g + 29 * b + 128) >> 8);
      wrapd[y][x] = r + g + b;
      packed[y][x] = (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | 0xffu;
      diff[y][x] = (int16_t)(r - b);
    }
  unsigned long long h = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      h = h * 1000003ull + dst[y][x][0] + dst[y][x][1] * 3 + dst[y][x][2] * 7 + gray[y][x] * 11
          + wrapd[y][x] * 13 + packed[y][x] + (unsigned)(diff[y][x] + 300);
  printf("%llu %u %d\n", h, packed[5][7], diff[3][4]);
  return 0;
}
