/* Chained assignments, as filter and solver code writes them: `a = b = c;` is two
 * statements, the rightmost first, and the outer one gets the inner one's value converted to
 * the inner target's type (an int in the middle of a double chain truncates).
 *
 * Row i of a first-order recursive filter runs in one work item: its state is reset with a
 * chain, each output is stored twice through a chain, and the row's results go through a
 * three-way chain of mixed types and a compound assignment whose value is a chain.
 */
#include <stdio.h>

#define ROWS 48
#define COLS 37

static void filter_rows(int rows, int cols, const double x[rows][cols],
                        double y[rows][cols], double z[rows][cols], int n_out[rows],
                        float w[rows], double gain)
{
    #pragma translate kernel filter
    #pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < rows; i++) {
        double y1, acc;
        int k;
        y1 = acc = 0.0;
        for (int j = 0; j < cols; j++) {
            y1 = 0.75 * y1 + gain * x[i][j];
            y[i][j] = z[i][j] = y1;
            acc += y1;
        }
        w[i] = n_out[i] = k = acc * 10.0;     /* k truncates; w gets the int value */
        z[i][0] += y[i][1] = w[i] + k;
    }
    #pragma translate end kernel
}

int main(void)
{
    static double x[ROWS][COLS], y[ROWS][COLS], z[ROWS][COLS];
    static int n_out[ROWS];
    static float w[ROWS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            x[i][j] = (double)(((i * COLS + j) * 37) % 101) / 101.0 - 0.3;
    filter_rows(ROWS, COLS, x, y, z, n_out, w, 0.5);
    double sy = 0.0, sz = 0.0, sw = 0.0;
    long sn = 0;
    for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
            sy += y[i][j] * (j % 7);
            sz += z[i][j] * (i % 5);
        }
        sn += n_out[i];
        sw += w[i];
    }
    printf("sum y = %.15e\nsum z = %.15e\nsum n = %ld\nsum w = %.9e\n", sy, sz, sn, sw);
    printf("y[0][1] = %.15e z[1][0] = %.15e n[ROWS-1] = %d\n", y[0][1], z[1][0],
           n_out[ROWS - 1]);
    return 0;
}
