"""Generates sepN.c: regions of 9 statements on bands ``y[c*n + i + d]`` of one array (the
statement-cluster proofs' path), a few crossing into other bands.  python3 gen_sep.py SEED
CROSS_WEIGHT OUT.c"""
import random
import sys

seed, weight, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
random.seed(seed)
fns, calls = [], []
for r in range(12):
    cs = random.sample(range(12), 9)
    body = []
    for c in cs:
        d = random.choice([0] * weight + [1, -1, 2]) if c > 0 else random.choice([0] * weight + [1])
        rd = random.choice([0] * weight + [1, -1]) if c > 0 else random.choice([0] * weight + [1])
        op = random.choice(["+ 1.0", "* 0.5", "- 2.0"])
        src_c = random.choice([c] * weight + [random.randrange(12)])
        body.append(f"        y[{c} * n + i + {d}] = y[{src_c} * n + i + {rd}] {op};")
    name = f"r{r}"
    fns.append(f"static void {name}(int n, double *restrict y)\n{{\n#pragma translate kernel {name}\n"
               f"    for (int i = 0; i < n; i++) {{\n" + "\n".join(body) +
               "\n    }\n#pragma translate end kernel\n}")
    calls.append(f"        reset(); {name}(n, y); dump(\"{name}\", n);")
src = ('#include <stdio.h>\n#define NN 300\nstatic double y[13 * NN + 8];\n'
       'static void reset(void) { for (int i = 0; i < 13 * NN + 8; i++) y[i] = (i % 37) * 0.25 - 3.0; }\n'
       'static void dump(const char *w, int n) { double s = 0; for (int i = 0; i < 13 * NN + 8; i++) '
       's += y[i] * ((i % 11) + 1); printf("%s %d %.17g\\n", w, n, s); }\n'
       + "\n".join(fns) + '\nint main(void)\n{\n    static const int sizes[] = {NN, 7, 1};\n'
       '    for (int k = 0; k < 3; k++) {\n        int n = sizes[k];\n' + "\n".join(calls)
       + '\n    }\n    return 0;\n}\n')
with open(out, "w") as f:
    f.write(src)
