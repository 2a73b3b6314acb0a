#include <stdio.h>
void report(double v) { printf("checksum %.6f\n", v); }
// c
// c
