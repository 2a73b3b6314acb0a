/* Pointers derived inside the translated function are their base array at an offset
 * (issue 20, item 9): a pointer into a local array, one derived from a restrict parameter,
 * one from an array parameter with an offset parameter, a chain of them, and a pointer into
 * an array present in a data region.  Each region is mapped automatically. */
#include <stdio.h>

#define N 32

static void local_array(int n)
{
    double u[N + 1];
    for (int i = 0; i <= n; i++)
        u[i] = i;
    double *p = u + 1;
#pragma translate kernel local_array_k
    for (int i = 0; i < n; i++)
        p[i] = 2 * u[i] + 1;
#pragma translate end kernel
    for (int i = 0; i <= n; i++)
        printf("%g ", u[i]);
    printf("\n");
}

static void from_restrict(int n, double *restrict a)
{
    double *p = a + 1;
#pragma translate kernel from_restrict_k
    for (int i = 0; i < n; i++)
        p[i] = 2 * a[i] + 1;
#pragma translate end kernel
}

static void chained(int n, int k, double a[])
{
    double *q = &a[k];
    double *p = q - 1;
#pragma translate kernel chained_k
    for (int i = 0; i < n; i++)
        q[i] = p[i] + a[i + k];
#pragma translate end kernel
}

static void private_through_pointer(int n, double *out)
{
    double t[N];
    double *view = t;
#pragma translate kernel private_through_pointer_k
    for (int i = 0; i < n; i++)
        t[i] = 3.0 * i;
#pragma translate end kernel
    for (int i = 0; i < n; i++)
        out[i] = view[i];
}

static void present(int n, double *u)
{
    double *p = u + 1;
#pragma translate kernel present_k
    for (int i = 0; i < n; i++)
        p[i] = p[i] + u[i];
#pragma translate end kernel
}

static void print(const char *what, const double *a, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %g", a[i]);
    printf("\n");
}

int main(void)
{
    double a[N + 4], out[N];
    local_array(N);
    for (int i = 0; i < N + 4; i++)
        a[i] = i;
    from_restrict(N, a);
    print("from_restrict", a, N + 4);
    for (int i = 0; i < N + 4; i++)
        a[i] = 1;
    chained(N, 2, a);
    print("chained", a, N + 4);
    private_through_pointer(N, out);
    print("private_through_pointer", out, N);
    for (int i = 0; i < N + 4; i++)
        a[i] = i % 3;
#pragma translate data copy(a[0:N + 4])
    present(N, a);
#pragma translate end data
    print("present", a, N + 4);
    return 0;
}
