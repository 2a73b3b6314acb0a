void scale(int n, double *restrict a)
{
#pragma translate kernel scale_k
  for (int i = 0; i < n; i++)
    a[i] = 2.0 * a[i];
}
