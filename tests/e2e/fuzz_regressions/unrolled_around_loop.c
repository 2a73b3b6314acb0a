/* e2e fuzzer (h73), seed fortran:212 in C: a loop split with inner_tag="unr" around another
 * loop and a statement after it; the unrolled copies ran interleaved with the inner loop. */
void unrolled(int n, const float b0[40], float a1[40])
{
#pragma translate kernel around_j
#pragma translate split_iname("i", 5, inner_tag="unr")
  for (int i = 1; i <= n - 2; i++) {
    for (int j = 0; j <= 5; j++)
      a1[j + 2] = b0[i + 34] + i;
    a1[i + 2] = a1[i + 2] + 100 * i;
  }
#pragma translate end kernel
}
