double dot(int n, const double *restrict x, const double *restrict y)
{
  double s = 0.0;
#pragma acc parallel loop copyin(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
