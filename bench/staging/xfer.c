/* bench/staging/xfer.c: host <-> device copy bandwidth through the runtime's data directives
 * (tr_update_device / tr_update_host on a present array), for sizes 1 MiB .. 256 MiB, and the
 * host memcpy bandwidth for comparison.  Run it under different TRANSLATE_STAGING and
 * TRANSLATE_STAGING_CHUNK settings (see run.sh) to decide when pinned staging pays.
 * usage: xfer LABEL [reps] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "translate_rt.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Best-of-`reps` GB/s of one direction for `bytes`. */
static double rate(tr_data_site *site, int to_device, char *host, size_t bytes, int reps)
{
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    if (to_device)
      tr_update_device(site, "a", host, 0, (long long)bytes, 1);
    else
      tr_update_host(site, "a", host, 0, (long long)bytes, 1);
    double t = now() - t0;
    if (t < best)
      best = t;
  }
  return bytes / best * 1e-9;
}

int main(int argc, char **argv)
{
  static tr_data_site enter = TR_DATA_SITE("enter data", "xfer.c:1");
  static tr_data_site exit_ = TR_DATA_SITE("exit data", "xfer.c:2");
  static tr_data_site upd = TR_DATA_SITE("update", "xfer.c:3");
  const char *label = argc > 1 ? argv[1] : "run";
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t max = (size_t)256 << 20;
  char *host = malloc(max), *copy = malloc(max);
  double t0, best = 1e30;
  memset(host, 1, max);   /* first touch */
  memset(copy, 2, max);
  for (int r = 0; r < 3; r++) {
    t0 = now();
    memcpy(copy, host, max);
    if (now() - t0 < best)
      best = now() - t0;
  }
  printf("%s memcpy 256MiB %.2f GB/s\n", label, max / best * 1e-9);
  for (size_t bytes = (size_t)1 << 20; bytes <= max; bytes *= 4) {
    tr_data_enter(&enter, "a", host, 0, (long long)bytes, 1, TR_DATA_CREATE);
    double in = rate(&upd, 1, host, bytes, reps), out = rate(&upd, 0, host, bytes, reps);
    tr_data_exit(&exit_, "a", host, 0, (long long)bytes, 1, TR_DATA_DELETE);
    printf("%s bytes %zu MiB to_device %.2f GB/s from_device %.2f GB/s\n", label, bytes >> 20,
           in, out);
  }
  free(host);
  free(copy);
  return 0;
}
