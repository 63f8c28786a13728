#!/usr/bin/env python3
"""Issue 15's selectivity sweep as ratios: each filtered query against the unfiltered query
of the same run (p50, mean and p99), from the text package-benchmark prints.

    cd Benchmarks && SCOUT_DATA=$PWD/../data swift package --disable-sandbox benchmark \
        --no-progress --target CatalogBenchmarks --filter "sweep.*" > /tmp/sweep.txt
    python3 scripts/sweep_ratios.py /tmp/sweep.txt

`sweep <query> / <filter>` gives each query's wall clock (p50, p99 over all queries);
`sweep mean <query> / <filter>` the mean per query of each pass over the centres (the median
of its samples is taken). Targets: p50 and mean within 3x of the unfiltered query's, p99
within 10x.
"""
import re
import sys

SCALE = {"": 1, "(K)": 1e3, "(M)": 1e6, "(G)": 1e9}


def parse(text: str) -> dict:
    """{(kind, query, filter): {"p50": ns, "p99": ns} or {"mean": ns}}"""
    out: dict = {}
    name = None
    for line in text.splitlines():
        m = re.match(r"^sweep (mean )?(.+?) / (.+)$", line.strip())
        if m:
            name = ("mean" if m.group(1) else "each", m.group(2), m.group(3))
            continue
        if name is None or not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        label = cells[0]
        unit = re.search(r"\((K|M|G)\)", label)
        scale = SCALE[f"({unit.group(1)})"] if unit else 1
        values = cells[1:8]          # p0 p25 p50 p75 p90 p99 p100
        if name[0] == "each" and label.startswith("Time (wall clock)"):
            out[name] = {"p50": float(values[2]) * scale, "p99": float(values[5]) * scale}
        elif name[0] == "mean" and label.startswith("mean ns/query"):
            out[name] = {"mean": float(values[2]) * scale}
    return out


def main() -> None:
    data = parse(open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read())
    queries = sorted({q for (_, q, _) in data})
    worst = {"p50": (0, ""), "mean": (0, ""), "p99": (0, "")}
    print("| query | filter | p50 µs | mean µs | p99 µs | p50 ratio | mean ratio | p99 ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for q in queries:
        base_each, base_mean = data.get(("each", q, "100%")), data.get(("mean", q, "100%"))
        if not base_each or not base_mean:
            continue
        filters = sorted({f for (_, qq, f) in data if qq == q}, key=lambda f: (f != "100%", f))
        for f in filters:
            each, mean = data.get(("each", q, f)), data.get(("mean", q, f))
            if not each or not mean:
                continue
            r = {"p50": each["p50"] / base_each["p50"], "mean": mean["mean"] / base_mean["mean"],
                 "p99": each["p99"] / base_each["p99"]}
            if f != "100%":
                for k in r:
                    if r[k] > worst[k][0]:
                        worst[k] = (r[k], f"{q} / {f}")
            print(f"| {q} | {f} | {each['p50'] / 1e3:,.2f} | {mean['mean'] / 1e3:,.2f} | {each['p99'] / 1e3:,.2f} "
                  f"| {r['p50']:.2f}× | {r['mean']:.2f}× | {r['p99']:.2f}× |")
    print()
    for k, target in (("p50", 3), ("mean", 3), ("p99", 10)):
        print(f"worst {k}: {worst[k][0]:.2f}× ({worst[k][1]}); target ≤ {target}×")


if __name__ == "__main__":
    main()
