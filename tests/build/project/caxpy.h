#define OFFSET 0.5
void c_axpy(int n, double a, const double *restrict x, double *restrict y);
