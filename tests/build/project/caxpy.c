#include "caxpy.h"

void c_axpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma translate kernel axpy_k
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i] + OFFSET;
#pragma translate end kernel
}
