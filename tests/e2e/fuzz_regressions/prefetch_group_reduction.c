/* e2e fuzzer (h76), seed c:4029 with --features all, minimised; OPEN: a max reduction over
   a loop split onto g.0/l.0, read by a statement inside the region (sp[0] = s0), and a prefetch
   of b0 over j_inner read only outside the j loop: the translated program prints other values
   of a1 (the i-level update a1[i+2][3-i] += b0[..]), exit 0.  Without the prefetch, or with
   sp[0] = s0 after the region, it matches. */
#include <stdio.h>
#include <math.h>
void p9(int n, const float b0[12][12][12], double a1[24][24], float *sp)
{
  int i;
  float s0 = -1000.0f;
#pragma translate kernel p9_r0
#pragma translate split_iname("j", 5, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("b0", ["j_inner"], fetch_bounding_box=True)
  for (i = 0; i <= (n - 2); i++) {
    for (int j = 2; j <= 6; j++) {
      a1[(i + 6)][(j + 2)] = j;
      s0 = fmaxf(s0, ((float) i));
    }
    a1[(i + 2)][(((-1) * i) + 3)] += (((double) b0[(i + 3)][i][(i + 5)]) + ((double) i));
  }
  sp[0] = s0;
#pragma translate end kernel
}
int main(void)
{
  static float b0[12][12][12];
  static double a1[24][24];
  for (int q = 0; q < 1728; q++) ((float *) b0)[q] = (((q*7 + 3) % 17) - 8) / 4.0;
  float sv;
  p9(5, b0, a1, &sv);
  printf("%a\n", sv);
  for (int q = 0; q < 576; q++) printf("%a\n", ((double *) a1)[q]);
  return 0;
}
