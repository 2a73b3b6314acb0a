"""Reads bench/gpu/run.sh's raw lines and prints kernel time per call of each translated region
next to its reference, with the ratio reference/translated (1.00 = as fast as the reference)."""

from __future__ import annotations

import sys

#: translated region -> reference kernel it is measured against
PAIRS = {"copy": "copy", "mul": "mul", "add": "add", "triad": "triad", "dot_k": "dot",
         "s2d": "s2d", "slin": "slin", "s3d": "s3d", "sgemm": "sgemm", "dgemm": "dgemm"}


def parse(path: str) -> tuple[dict[str, float], dict[str, float]]:
    ours, refs = {}, {}
    header = None
    for line in open(path):
        words = line.split()
        if words[:1] == ["ref"]:
            refs[words[1]] = float(words[2])
        elif words[:1] == ["profile"] and len(words) > 2:
            row = words[2:]
            if row[0] == "region":
                header = row
            elif header and len(row) >= 4 and row[header.index("calls")].isdigit():
                calls, ms = int(row[header.index("calls")]), float(row[header.index("kernel")])
                if calls:
                    ours[row[0]] = ms / calls
    return ours, refs


def main(path: str) -> None:
    ours, refs = parse(path)
    print(f"{'kernel':<10} {'translated ms':>14} {'reference ms':>14} {'ratio':>7}")
    for name, ref in PAIRS.items():
        if name in ours and ref in refs:
            print(f"{name:<10} {ours[name]:14.4f} {refs[ref]:14.4f} {refs[ref] / ours[name]:7.2f}")
    for name in sorted(set(ours) - set(PAIRS)):
        print(f"{name:<10} {ours[name]:14.4f} {'':>14} {'':>7}")


if __name__ == "__main__":
    main(sys.argv[1])
