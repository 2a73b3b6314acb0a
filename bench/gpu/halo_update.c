/* Latency of halo updates (issue 25): the `update host` / `update device` pairs of a 1-D
 * domain decomposition (samples/mpi/heat_mpi.c) without MPI, on a field that stays on the
 * device (usage: halo_update [reps]; NX, NY at compile time, default 1024 x 1024).
 * Prints microseconds per directive:
 *   halo_update_host    `update host` of the two edge columns (two rectangular reads)
 *   halo_update_device  `update device` of the two halo columns (two rectangular writes)
 *   halo_update_pair    both, back to back (what a step of the sample does around MPI)
 *   halo_update_async   both with async(1) and one `wait(1)` after the reads
 * The check at the end fails (exit 1) if a column did not make the round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef NX
#define NX 1024
#endif
#ifndef NY
#define NY 1024
#endif

static double u[NX][NY + 2];

static double since_us(const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0->tv_sec) * 1e6 + (t1.tv_nsec - t0->tv_nsec) / 1e3;
}

static void touch(int reps)   /* one update pair: edges to the host, halos back */
{
  for (int r = 0; r < reps; r++) {
#pragma translate update host(u[0:NX][1:1], u[0:NX][NY:1])
#pragma translate update device(u[0:NX][0:1], u[0:NX][NY+1:1])
  }
}

int main(int argc, char **argv)
{
  int reps = argc > 1 ? atoi(argv[1]) : 2000, bad = 0;
  struct timespec t0;
  double host, device, pair, async;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY + 2; j++)
      u[i][j] = i + 0.5 * j;
#pragma translate data copy(u)
  touch(10);   /* warm up */
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int r = 0; r < reps; r++) {
#pragma translate update host(u[0:NX][1:1], u[0:NX][NY:1])
  }
  host = since_us(&t0) / reps;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int r = 0; r < reps; r++) {
#pragma translate update device(u[0:NX][0:1], u[0:NX][NY+1:1])
  }
  device = since_us(&t0) / reps;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  touch(reps);
  pair = since_us(&t0) / reps;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int r = 0; r < reps; r++) {
#pragma translate update host(u[0:NX][1:1], u[0:NX][NY:1]) async(1)
#pragma translate wait(1)
#pragma translate update device(u[0:NX][0:1], u[0:NX][NY+1:1]) async(1)
  }
#pragma translate wait(1)
  async = since_us(&t0) / reps;
  for (int i = 0; i < NX; i++)   /* new halo values go to the device; end data brings */
    u[i][0] = u[i][NY + 1] = -1.0 - i;   /* them back with the rest */
#pragma translate update device(u[0:NX][0:1], u[0:NX][NY+1:1])
#pragma translate end data
  for (int i = 0; i < NX; i++)
    bad += u[i][0] != -1.0 - i || u[i][NY + 1] != -1.0 - i || u[i][1] != i + 0.5
           || u[i][NY] != i + 0.5 * NY;
  printf("halo_update_host   %.3f us\nhalo_update_device %.3f us\n", host, device);
  printf("halo_update_pair   %.3f us\nhalo_update_async  %.3f us\n", pair, async);
  printf("halo_update reps %d grid %d x %d check %s\n", reps, NX, NY, bad ? "FAILED" : "ok");
  return bad != 0;
}
