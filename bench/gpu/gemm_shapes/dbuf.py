"""Hand-written SGEMM kernels with double-buffered local tiles and register prefetch (lead,
session 10): is 0.85 of cuBLAS reachable from NVIDIA's OpenCL at all, and with which shape?
Full tiles only (n a multiple of 128).  Writes one .cl per variant and appends to all.txt
(name file kernel lx ly tm tn dtype) for shapes.c, in the current directory.

Each work group of 16x16 items computes a 128x128 tile of c; item (tx, ty) owns rows
4*ty + {0..3} and 64 + 4*ty + {0..3}, columns 4*tx + {0..3} and 64 + 4*tx + {0..3}.  Local
tiles are stored k-major (a transposed), so every read of a k step is four float4 loads.
`dbuf`: two local buffers, the next tile loaded into registers before the multiply-adds and
stored into the other buffer after them, one barrier per step; without it, the usual two
barriers per step.  `kt`: the k step."""


def _lines(name: str, kt: int, dbuf: bool, wide: int = 2) -> list[str]:
    """`wide`: runs of 4 columns per item (2: a 128-column tile; 4: 256 columns)."""
    cols = 64 * wide
    per_a = 128 * kt // 4 // 256          # float4 loads of a per item and step
    per_b = kt * cols // 4 // 256
    nbuf = 2 if dbuf else 1
    out = [f"__kernel void __attribute__((reqd_work_group_size(16, 16, 1))) {name}("
           "__global float const *restrict a, __global float const *restrict b, "
           "__global float *restrict c, int const n)", "{",
           f"  __local float as[{nbuf}][{kt} * 128] __attribute__((aligned(16)));",
           f"  __local float bs[{nbuf}][{kt} * {cols}] __attribute__((aligned(16)));",
           "  int const tx = get_local_id(0), ty = get_local_id(1);",
           "  int const tid = ty * 16 + tx;",
           "  __global float const *ap = a + (long)(128 * get_group_id(1)) * n;",
           f"  __global float const *bp = b + {cols} * get_group_id(0);",
           f"  float acc[8][{4 * wide}];",
           f"  for (int r = 0; r < 8; ++r) for (int q = 0; q < {4 * wide}; ++q) acc[r][q] = 0.0f;",
           f"  float4 ra[{per_a}], rb[{per_b}];"]

    def load(step: str) -> list[str]:
        res = []
        for o in range(per_a):
            res.append(f"    {{ int v = tid + {256 * o}; int row = v / {kt // 4}, kc = v % {kt // 4};"
                       f" ra[{o}] = vload4(0, ap + (long)row * n + {kt} * ({step}) + 4 * kc); }}")
        for o in range(per_b):
            res.append(f"    {{ int v = tid + {256 * o}; int kk = v / {cols // 4}, cc = v % {cols // 4};"
                       f" rb[{o}] = vload4(0, bp + (long)({kt} * ({step}) + kk) * n + 4 * cc); }}")
        return res

    def store(buf: str) -> list[str]:
        res = []
        for o in range(per_a):
            res.append(f"    {{ int v = tid + {256 * o}; int row = v / {kt // 4}, kc = v % {kt // 4};")
            for e, s in enumerate("xyzw"):
                res.append(f"      as[{buf}][(4 * kc + {e}) * 128 + row] = ra[{o}].{s};")
            res.append("    }")
        for o in range(per_b):
            res.append(f"    {{ int v = tid + {256 * o}; int kk = v / {cols // 4}, cc = v % {cols // 4};"
                       f" *(__local float4 *)&bs[{buf}][kk * {cols} + 4 * cc] = rb[{o}]; }}")
        return res

    compute = ["#pragma unroll",
               f"    for (int k = 0; k < {kt}; ++k) {{",
               "      float4 a0 = *(__local float4 *)&as[CUR][k * 128 + 4 * ty];",
               "      float4 a1 = *(__local float4 *)&as[CUR][k * 128 + 64 + 4 * ty];",
               *[f"      float4 b{h} = *(__local float4 *)&bs[CUR][k * {cols} + {64 * h} + 4 * tx];"
                 for h in range(wide)],
               "      float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};",
               "      float bv[%d] = {%s};" % (4 * wide, ", ".join(f"b{h}.{s}" for h in range(wide) for s in "xyzw")),
               f"      for (int r = 0; r < 8; ++r) for (int q = 0; q < {4 * wide}; ++q)",
               "        acc[r][q] = fma(av[r], bv[q], acc[r][q]);",
               "    }"]
    steps = f"n / {kt}"
    if dbuf:
        out += load("0") + store("0") + ["  barrier(CLK_LOCAL_MEM_FENCE);",
                                         f"  for (int t = 0; t < {steps}; ++t) {{",
                                         "    int const cur = t & 1;",
                                         f"    if (t + 1 < {steps}) {{"]
        out += load("t + 1") + ["    }"]
        out += [x.replace("CUR", "cur") for x in compute]
        out += [f"    if (t + 1 < {steps}) {{"] + store("1 - cur") + ["    }",
                                                                  "    barrier(CLK_LOCAL_MEM_FENCE);",
                                                                  "  }"]
    else:
        out += [f"  for (int t = 0; t < {steps}; ++t) {{"] + load("t") + store("0")
        out += ["    barrier(CLK_LOCAL_MEM_FENCE);"] + [x.replace("CUR", "0") for x in compute]
        out += ["    barrier(CLK_LOCAL_MEM_FENCE);", "  }"]
    out += [f"  __global float *cp = c + (long)(128 * get_group_id(1)) * n + {cols} * get_group_id(0);",
            "  for (int r = 0; r < 8; ++r) {",
            "    int const row = (r < 4 ? 4 * ty + r : 64 + 4 * ty + r - 4);"]
    out += [f"    vstore4((float4)(acc[r][{4 * h}], acc[r][{4 * h + 1}], acc[r][{4 * h + 2}], "
            f"acc[r][{4 * h + 3}]), 0, cp + (long)row * n + {64 * h} + 4 * tx);" for h in range(wide)]
    out += ["  }", "}"]
    return out


def main() -> None:
    with open("all.txt", "a") as manifest:
        for kt, dbuf, wide in ((8, False, 2), (8, True, 2), (16, False, 2), (16, True, 2),
                               (8, False, 4), (8, True, 4), (16, False, 4)):
            name = f"sg_k{kt}{'_db' if dbuf else ''}{'_w' if wide == 4 else ''}"
            with open(f"{name}.cl", "w") as f:
                f.write("\n".join(_lines(name, kt, dbuf, wide)) + "\n")
            manifest.write(f"{name} {name}.cl {name} 16 16 128 {64 * wide} float\n")


if __name__ == "__main__":
    main()
