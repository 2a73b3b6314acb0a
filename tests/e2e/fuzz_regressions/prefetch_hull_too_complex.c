/* e2e fuzzer (h73), seed c:363: add_prefetch(..., fetch_bounding_box=True) of eight reads of
 * b0 in a triangular nest over a loop stepping by three.  Even each dimension's hull of the
 * bounding box ran for minutes in isl; now the prefetch is refused at its pragma. */
void hull(int n, const int b0[40], float a0[24][24])
{
  int i;
#pragma translate kernel too_complex
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate tag_inames("j:l.1")
#pragma translate add_prefetch("b0", ["i_inner"], fetch_bounding_box=True)
  for (i = 0; i <= n - 2; i += 3) {
    for (int j = 1; j <= i - 1; j++) {
      a0[j][j + 2] = fmaxf(a0[i + 10][3 - j], (float) b0[i + 33]) + b0[i + 26];
      a0[2 * j + 2][j + 2] = (float) b0[j + i + 12] - (float) b0[i - j + 13];
      a0[i + 2][j + 4] = ((float) b0[j + 36] - (float) j) * fmaxf((float) b0[j + 31], (float) i);
    }
    a0[i + 2][i + 2] = (float) b0[i + 35];
  }
#pragma translate end kernel
}
