/* Arguments that C allows to overlap (issue 20, item 9).  `overlap ok` makes only calls the
 * translated program can run: disjoint arrays, one array passed twice to plain pointers (one
 * device buffer for both), overlapping arrays that are only read, and overlapping plain
 * pointers inside a data region (one device buffer for both).  `overlap plain`, `overlap
 * array` and `overlap unknown` (a local pointer of unknown origin) pass overlapping arrays,
 * one of them written, outside a data region: the translated program must stop with a message
 * rather than give the kernel two copies of one memory. */
#include <stdio.h>
#include <string.h>

#define N 32

static void plain(int n, double *x, double *y)
{
#pragma translate kernel plain_k
    for (int i = 0; i < n; i++)
        y[i] = 2 * x[i] + 1;
#pragma translate end kernel
}

static void array_params(int n, double x[N], double y[N])
{
#pragma translate kernel array_params_k
    for (int i = 0; i < n; i++)
        y[i] = 2 * x[i] + 1;
#pragma translate end kernel
}

static void reads_only(int n, const double x[N], const double y[N], double out[N])
{
#pragma translate kernel reads_only_k
    for (int i = 0; i < n; i++)
        out[i] = x[i] - y[i];
#pragma translate end kernel
}

/* p may point anywhere: it aliases every array of the region. */
static void unknown_origin(int n, int which, double *out)
{
    double u[N], v[N];
    double *p = which == 1 ? u + 1 : which == 2 ? u : v;
    for (int i = 0; i < n; i++)
        u[i] = v[i] = i;
#pragma translate kernel unknown_origin_k
    for (int i = 0; i < n; i++)
        p[i] = u[i] + 1;
#pragma translate end kernel
    for (int i = 0; i < n; i++)
        out[i] = u[i] + v[i];
}

static void print(const char *what, const double *a, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %g", a[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    static double a[N + 16], b[N + 16], out[N];
    const char *what = argc > 1 ? argv[1] : "ok";
    for (int i = 0; i < N + 16; i++)
        a[i] = b[i] = i;
    if (strcmp(what, "plain") == 0)
        plain(N, a, a + 1);
    if (strcmp(what, "array") == 0)
        array_params(N, a, a + 1);
    if (strcmp(what, "unknown") == 0)
        unknown_origin(N - 1, 1, out);
    if (strcmp(what, "ok") != 0)
        return 0;
    plain(N, a, b);
    array_params(N, b, a + 16);
    print("disjoint", a, N + 16);
    plain(N, b, b);
    print("in_place", b, N);
    reads_only(N, a, a + 1, out);
    print("reads_only", out, N);
    for (int i = 0; i < N + 16; i++)
        a[i] = i;
#pragma translate data copy(a[0:N + 16])
    plain(N, a, a + 16);
#pragma translate end data
    print("present", a, N + 16);
    unknown_origin(N, 0, out);
    print("unknown_origin", out, N);
    unknown_origin(N, 2, out);
    print("unknown_origin_in_place", out, N);
    return 0;
}
