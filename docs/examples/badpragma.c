void scale(int n, double *restrict a)
{
#pragma translate kernel scale_k
#pragma translate split_iname("k", 64)
  for (int i = 0; i < n; i++)
    a[i] = 2.0 * a[i];
#pragma translate end kernel
}
