/* The neighbour of reduction_reads_loop_writes.c: the term reads a[i] before the loop body
 * writes it, so the accumulation cannot move after the loop; it is summed in place, in each
 * work item's private accumulator (h87), and matches (test_e2e_fuzz_third_round.py). */
void reduce_then_write(int n, const int b[40], int a[40], long res[1])
{
  int s = 0;
#pragma translate kernel read_first
#pragma translate split_iname("i", 16, inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    s = s + a[i];
    a[i] = b[i] * 2;
  }
#pragma translate end kernel
  res[0] = s;
}
