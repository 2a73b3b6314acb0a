void blas_call(int n, double *x);

void use_library(int n, double *x)
{
#pragma acc data copy(x[0:n])
  {
#pragma acc host_data use_device(x)
    blas_call(n, x);
  }
}
