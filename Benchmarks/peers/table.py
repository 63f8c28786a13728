#!/usr/bin/env python3
"""The peers run's tables for docs/benchmarks.md, from the CSV that spatial.py writes.

Written by the Scout team for this project.

    python3 Benchmarks/peers/table.py .build/peers/peers.csv [--sizes 1000000,10000000]

Prints, as Markdown:
- the run: when, which commit, the machine and the most cores anything else kept busy
  around a system's run (`busy_cores`);
- mean time a query of Scout's worker (`scout serve`, streamed) and library (in process),
  each peer's over the worker's (above 1: the worker is faster), and GEOS C's over the
  library's;
- build time and bytes a point (the index alone, and the process's or server's growth).
"""
from __future__ import annotations

import argparse
import csv
import sys

QUERIES = [("radius", "radius 4 km (all matches)"), ("nearest", "nearest k = 10"),
           ("box", "box 0.16° × 0.10° (all matches)"), ("polygon", "polygon (city polygons, 3–40 KB of text each)")]
PEERS = [("postgis", "streamed", "PostGIS"), ("redis", "streamed", "Redis GEO"), ("shapely", "in_process", "shapely"),
         ("geos_c", "in_process", "GEOS C")]


def number(x: float, decimals: int | None = None) -> str:
    """Thousands separated; three significant figures below 1,000 unless `decimals` is given."""
    if decimals is not None:
        return f"{x:,.{decimals}f}"
    if x >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


def ratio(x: float) -> str:
    """A peer over Scout: bold when Scout is faster."""
    text = f"{x:.3g}×" if x < 100 else f"{x:,.0f}×"
    return f"**{text}**" if x > 1 else text


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--sizes", default="1000000,10000000", help="point counts, comma-separated")
    args = ap.parse_args(argv)
    rows = [r for r in csv.DictReader(open(args.csv)) if r["workload"] == "spatial"]
    if not rows:
        sys.exit(f"table.py: {args.csv} has no spatial rows")
    sizes = [s for s in args.sizes.split(",") if any(r["points"] == s for r in rows)]

    def find(query, system, metric, size, plan_prefix=""):
        for r in rows:
            if (r["query"] == query and r["system"] == system and r["metric"] == metric and r["points"] == size
                    and r["plan"].startswith(plan_prefix)):
                return r
        return None

    def mean(query, system, metric, size):
        r = find(query, system, metric, size)
        return float(r["mean_us"]) if r and r["mean_us"] else None

    def value(query, system, metric, size, plan_prefix=""):
        r = find(query, system, metric, size, plan_prefix)
        return float(r["value"]) if r and r["value"] else None

    busy = max(float(r["busy_cores"]) for r in rows if r["busy_cores"])
    commits = sorted({r["commit"] for r in rows})
    print(f"Run of {min(r['run_at'] for r in rows)}, commit {', '.join(commits)}; {rows[0]['machine']}; "
          f"at most {busy:.2f} cores busy around any system's run.\n")
    print("| query | points | worker µs | library µs | " + " | ".join(p[2] for p in PEERS) + " | GEOS C ÷ library |")
    print("| --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in PEERS) + " | ---: |")
    for query, label in QUERIES:
        for n, size in enumerate(sizes):
            worker, library = mean(query, "scout", "streamed", size), mean(query, "scout", "in_process", size)
            if worker is None:
                continue
            cells = [label if n == 0 else "", f"{int(size) // 1_000_000}M" if int(size) >= 1_000_000 else f"{int(size) // 1000}k",
                     number(worker), number(library) if library else "–"]
            for system, metric, _ in PEERS:
                peer = mean(query, system, metric, size)
                cells.append(ratio(peer / worker) if peer else ("no polygon query" if system == "redis" and query == "polygon" else "–"))
            geos = mean(query, "geos_c", "in_process", size)
            cells.append(ratio(geos / library) if geos and library else "–")
            print("| " + " | ".join(cells) + " |")
    print()
    print("| build and memory | points | Scout worker | Scout library | PostGIS | Redis GEO | shapely | GEOS C |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    lines = [
        ("build (load and index), s", "build", "build",
         [("scout", "load op"), ("scout", "Engine.load"), ("postgis", "COPY"), ("redis", ""), ("shapely", ""), ("geos_c", "")], 2),
        ("bytes a point, the index", "memory", "bytes_per_point",
         [("scout", "index"), None, ("postgis", "index"), ("redis", "index"), None, None], 1),
        ("bytes a point, process growth", "memory", "bytes_per_point",
         [("scout", "process"), ("scout", "library"), ("postgis", "table"), ("redis", "server"), ("shapely", ""), ("geos_c", "")], 1),
    ]
    for label, query, metric, cells_of, decimals in lines:
        for n, size in enumerate(sizes):
            cells = [label if n == 0 else "", f"{int(size) // 1_000_000}M" if int(size) >= 1_000_000 else f"{int(size) // 1000}k"]
            for spec in cells_of:
                v = value(query, spec[0], metric, size, spec[1]) if spec else None
                text = number(v, decimals) if v is not None else ""
                if spec and spec[0] == "postgis" and query == "build" and v is not None:
                    alone = value(query, "postgis", metric, size, "GiST(geography) alone")
                    text += f" (GiST on geography alone {number(alone, decimals)})" if alone is not None else ""
                cells.append(text)
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
