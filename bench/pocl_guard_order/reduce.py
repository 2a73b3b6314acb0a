"""Delta-debug a kernel: drop statements (a guarded statement with its `if`, a braced guarded
block, or a lone statement; never the fill of a __local array, whose values would then be
undefined) while compare.py still says PoCL and Oclgrind differ.

Then conjuncts of guards are dropped one at a time (a guard that becomes too weak gives an
out-of-bounds access that Oclgrind reports: not interesting).

usage: reduce.py IN.cl OUT.cl [KERNEL]
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def groups(lines: list[str]) -> list[frozenset[int]]:
    found = []
    for k, line in enumerate(lines):
        s = line.strip()
        if k + 1 < len(lines) and re.match(r"\s*data_fetch(_\d+)?\[", lines[k + 1]):
            continue  # the fills of __local arrays stay: no read of undefined local memory
        if s.startswith("if (") and not s.endswith("{"):
            if k + 1 < len(lines) and lines[k + 1].strip() == "{":
                depth, end = 0, k + 1
                for end in range(k + 1, len(lines)):
                    depth += lines[end].count("{") - lines[end].count("}")
                    if depth == 0:
                        break
                found.append(frozenset(range(k, end + 1)))
            elif k + 1 < len(lines) and lines[k + 1].strip().endswith(";"):
                found.append(frozenset((k, k + 1)))
        elif (s.endswith(";") and not s.startswith(("barrier", "__local", "int const"))
              and not lines[k - 1].strip().startswith("if (")):
            found.append(frozenset((k,)))
    return found


def interesting(lines: list[str], drop: set[int], scratch: str, name: str) -> bool:
    with open(scratch, "w") as f:
        f.writelines(line for k, line in enumerate(lines) if k not in drop)
    proc = subprocess.run([sys.executable, os.path.join(HERE, "compare.py"), scratch, name],
                          capture_output=True, text=True, check=False)
    return proc.returncode == 1


def main() -> None:
    src, dst = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else "covariance_k2"
    lines = open(src).readlines()
    scratch = os.path.splitext(dst)[0] + ".try.cl"
    assert interesting(lines, set(), scratch, name), "the input is not interesting"
    drop: set[int] = set()
    units = groups(lines)
    chunk = max(1, len(units) // 2)
    while True:
        progress = False
        live = [u for u in units if not u <= drop]
        for start in range(0, len(live), chunk):
            trial = drop.union(*live[start:start + chunk])
            if trial != drop and interesting(lines, trial, scratch, name):
                drop = trial
                progress = True
                print(f"dropped {len(drop)} lines", flush=True)
        if not progress:
            if chunk == 1:
                break
            chunk = max(1, chunk // 2)
    lines = [line for k, line in enumerate(lines) if k not in drop]
    lines = drop_conjuncts(lines, scratch, name)
    with open(dst, "w") as f:
        f.writelines(lines)
    print(f"{dst}: {len(lines)} lines")


def drop_conjuncts(lines: list[str], scratch: str, name: str) -> list[str]:
    """Then drop conjuncts of guards and `#pragma unroll` lines, one at a time."""
    changed = True
    while changed:
        changed = False
        for k, line in enumerate(lines):
            m = re.match(r"(\s*if \()(.*)(\)\s*)$", line)
            trials = []
            if m and "&&" in m.group(2):
                parts = m.group(2).split(" && ")
                trials = [m.group(1) + " && ".join(parts[:c] + parts[c + 1:]) + m.group(3)
                          for c in range(len(parts))]
            elif line.strip() == "#pragma unroll":
                trials = [""]
            for trial in trials:
                candidate = lines[:k] + [trial] + lines[k + 1:]
                if interesting(candidate, set(), scratch, name):
                    lines = candidate
                    changed = True
                    print(f"line {k + 1}: {trial.strip() or 'dropped'}", flush=True)
                    break
    return lines


if __name__ == "__main__":
    main()
