#!/usr/bin/env python3
"""How much per-leaf summaries would prune for the sample dogs' filters (issue 15).

A node summary (each leaf's minimum and maximum of a numeric field, or the set of its
breeds) lets a walk skip a leaf none of whose dogs can match. This counts, for the
filters the benchmarks use, the share of leaves such a summary would skip, with leaves
made the way `PackedTree` makes them (split at the middle point, alternately by longitude
and latitude, down to at most `--leaf` points). Python only: no Scout build needed.

    python3 scripts/node_summary_pruning.py [--data data/sample/dogs.jsonl] [--leaf 32]
"""
import argparse
import json
import sys


def leaves(dogs, size):
    """Lists of dogs, one per leaf, as a KDBush-style tree splits them."""
    out, stack = [], [(dogs, 0)]
    while stack:
        part, axis = stack.pop()
        if len(part) <= size:
            out.append(part)
            continue
        part = sorted(part, key=lambda d: d["lon"] if axis == 0 else d["lat"])
        middle = len(part) // 2
        stack += [(part[:middle], 1 - axis), (part[middle:], 1 - axis)]
    return out


def value(dog, field):
    v = dog[field]
    return (1.0 if v else 0.0) if isinstance(v, bool) else float(v)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default="data/sample/dogs.jsonl")
    p.add_argument("--leaf", type=int, default=32, help="points per leaf (PackedTree.nodeSize)")
    a = p.parse_args()
    dogs = [json.loads(line) for line in open(a.data)]
    counts = {}
    for d in dogs:
        counts[d["breed"]] = counts.get(d["breed"], 0) + 1
    rare = [b for b, c in sorted(counts.items(), key=lambda x: (x[1], x[0])) if c >= 60][:2]
    common = max(counts, key=lambda b: (counts[b], b))
    # (name, test, ranges for a min/max summary or None for a breed set)
    filters = [
        ("available, 5-25 kg", lambda d: d["available"] and 5 <= d["weight_kg"] <= 25,
         [("available", 1, 1), ("weight_kg", 5, 25)]),
        ("weight >= 40 kg", lambda d: d["weight_kg"] >= 40, [("weight_kg", 40, float("inf"))]),
        ("owner_experience >= 5", lambda d: d["owner_experience"] >= 5, [("owner_experience", 5, float("inf"))]),
        ("weight >= 91.9 kg", lambda d: d["weight_kg"] >= 91.9, [("weight_kg", 91.9, float("inf"))]),
        (f"breed {common}", lambda d: d["breed"] == common, None),
        (f"breeds {' or '.join(rare)}", lambda d: d["breed"] in rare, None),
    ]
    parts = leaves(dogs, a.leaf)
    print(f"{len(dogs)} dogs, {len(parts)} leaves of at most {a.leaf}")
    print("| filter | dogs matching | leaves without a match | leaves a summary skips |")
    print("| --- | ---: | ---: | ---: |")
    for name, test, ranges in filters:
        matching = sum(1 for d in dogs if test(d))
        empty = sum(1 for leaf in parts if not any(test(d) for d in leaf))
        if ranges is None:
            skipped = empty   # a leaf's set of breeds skips exactly the leaves without one
        else:
            skipped = sum(1 for leaf in parts
                          if any(max(value(d, f) for d in leaf) < lo or min(value(d, f) for d in leaf) > hi
                                 for f, lo, hi in ranges))
        print(f"| {name} | {matching} ({100 * matching / len(dogs):.2f}%) | {100 * empty / len(parts):.1f}% "
              f"| {100 * skipped / len(parts):.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
