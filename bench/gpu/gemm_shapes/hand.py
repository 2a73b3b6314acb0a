"""Hand-written GEMM kernels (full tiles only: n a multiple of 128) used to find the fastest
shape before teaching the translator to generate it.  Writes one .cl per variant and
all.txt (name file kernel lx ly tm tn dtype) for shapes.c into the current directory.
Not the translator's output: only bench/RESULTS.md's exploration table comes from these."""
import sys

def kernel(name, T, *, kt=16, vec=True, aligned=True, gvec=False, at=False, dbuf=False):
    W = 4 if T == "float" else 2          # elements per 16-byte vector
    V = f"{T}{W}"
    lines = [f"__kernel void __attribute__((reqd_work_group_size(16, 16, 1))) {name}("
             f"__global {T} const *restrict a, __global {T} const *restrict b, "
             f"__global {T} *restrict c, int const n)", "{"]
    al = " __attribute__((aligned(16)))" if aligned else ""
    pad = 4 if at else 0
    if at:
        lines.append(f"  __local {T} as[{kt}*{128+pad}]{al};")
    else:
        lines.append(f"  __local {T} as[128*{kt}]{al};")
    lines.append(f"  __local {T} bs[{kt}*128]{al};")
    lines.append(f"  {T} acc[8][8];")
    lines.append("  int const lx = get_local_id(0), ly = get_local_id(1), gx = get_group_id(0), gy = get_group_id(1);")
    lines.append("  int const tid = ly * 16 + lx;")
    lines.append("  for (int r = 0; r < 8; ++r) for (int q = 0; q < 8; ++q) acc[r][q] = 0;")
    lines.append(f"  for (int ko = 0; ko < n / {kt}; ++ko) {{")
    # fetch A tile: rows 128, cols kt
    if gvec:
        # A: 128*kt/W vectors over 256 threads
        na = 128 * kt // W // 256
        per_row = kt // W
        for o in range(na):
            lines.append(f"    {{ int v = tid + {256*o}; int row = v / {per_row}, cv = v % {per_row};")
            lines.append(f"      {V} t = vload{W}(0, a + (long)(row + 128 * gy) * n + {kt} * ko + {W} * cv);")
            if at:
                for e in range(W):
                    lines.append(f"      as[({W} * cv + {e}) * {128+pad} + row] = t.s{e};")
            else:
                lines.append(f"      *(__local {V} *)&as[row * {kt} + {W} * cv] = t; }}")
            if at:
                lines.append("    }")
        nb = kt * 128 // W // 256
        for o in range(nb):
            lines.append(f"    {{ int v = tid + {256*o}; int row = v / {128//W}, cv = v % {128//W};")
            lines.append(f"      *(__local {V} *)&bs[row * 128 + {W} * cv] = vload{W}(0, b + (long)(row + {kt} * ko) * n + 128 * gx + {W} * cv); }}")
    else:
        # like the translator: l.0 along the contiguous index
        if kt == 16:
            for o in range(8):
                if at:
                    lines.append(f"    as[lx * {128+pad} + ly + {16*o}] = a[(long)(ly + {16*o} + 128 * gy) * n + lx + {kt} * ko];")
                else:
                    lines.append(f"    as[(ly + {16*o}) * {kt} + lx] = a[(long)(ly + {16*o} + 128 * gy) * n + lx + {kt} * ko];")
        else:   # kt = 8 or 32: tid-based
            per = 128 * kt // 256
            for o in range(per):
                lines.append(f"    {{ int e = tid + {256*o}; int row = e / {kt}, col = e % {kt};")
                lines.append(f"      as[row * {kt} + col] = a[(long)(row + 128 * gy) * n + col + {kt} * ko]; }}")
        per = 128 * kt // 256
        for o in range(per):
            lines.append(f"    {{ int e = tid + {256*o}; int row = e / 128, col = e % 128;")
            lines.append(f"      bs[row * 128 + col] = b[(long)(row + {kt} * ko) * n + col + 128 * gx]; }}")
    lines.append("    barrier(CLK_LOCAL_MEM_FENCE);")
    if True:
        lines.append("#pragma unroll")
        lines.append(f"    for (int kq = 0; kq < {kt // W}; ++kq) {{")
        for r in range(8):
            if vec:
                lines.append(f"      {V} a{r} = *(__local {V} *)&as[(ly + {16*r}) * {kt} + {W} * kq];")
            else:
                lines.append(f"      {V} a{r} = ({V})(" + ", ".join(
                    f"as[(ly + {16*r}) * {kt} + {W} * kq + {e}]" for e in range(W)) + ");")
        for kk in range(W):
            nbv = 4 // W   # vectors per 4-column run
            for h in range(2):
                for v in range(nbv):
                    off = f"{64*h} + 4 * lx + {W*v}"
                    idx = f"({W} * kq + {kk}) * 128 + {off}"
                    if vec:
                        lines.append(f"      {V} b{kk}{h}{v} = *(__local {V} *)&bs[{idx}];")
                    else:
                        lines.append(f"      {V} b{kk}{h}{v} = ({V})(" + ", ".join(
                            f"bs[{idx} + {e}]" for e in range(W)) + ");")
            for r in range(8):
                for h in range(2):
                    for cc in range(4):
                        v, e = divmod(cc, W)
                        lines.append(f"      acc[{r}][{4*h+cc}] = fma(a{r}.s{kk}, b{kk}{h}{v}.s{e}, acc[{r}][{4*h+cc}]);")
        lines.append("    }")
    lines.append("    barrier(CLK_LOCAL_MEM_FENCE);")
    lines.append("  }")
    for r in range(8):
        for h in range(2):
            for cc in range(4):
                lines.append(f"  c[(long)(128 * gy + ly + {16*r}) * n + 128 * gx + {64*h} + 4 * lx + {cc}] = acc[{r}][{4*h+cc}];")
    lines.append("}")
    pre = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" if T == "double" else ""
    return pre + "\n".join(lines) + "\n"

VARIANTS = [
    # name, T, kwargs
    ("s_v4", "float", dict()),
    ("s_v4_noal", "float", dict(aligned=False)),
    ("s_scal_al", "float", dict(vec=False)),
    ("s_v4_g4", "float", dict(gvec=True)),
    ("s_v4_k8", "float", dict(kt=8)),
    ("s_v4_k32", "float", dict(kt=32)),
    ("s_v4_k8_g4", "float", dict(kt=8, gvec=True)),
    ("d_v2", "double", dict()),
    ("d_v2_g2", "double", dict(gvec=True)),
    ("d_scal_al", "double", dict(vec=False)),
]

if __name__ == "__main__":
    with open("all.txt", "w") as m:
        for name, T, kw in VARIANTS:
            with open(f"{name}.cl", "w") as f:
                f.write(kernel(name, T, **kw))
            m.write(f"{name} {name}.cl {name} 16 16 128 128 {T}\n")
