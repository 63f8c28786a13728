#!/usr/bin/env python3
"""Cost of each result written by `scout serve`: 1,000,000 points (.bench-data/, made by
scripts/bench-data.sh), streams of box (0.16 x 0.10 degrees) and radius (4 km) searches
around the benchmark query centres, once with `limit` 1 and once with every match, with
`fields: false` and the default; ns per result = (time of the full stream - time of the
limit-1 stream) / (results of one - results of the other). Best of `--rounds` alternating
rounds in one worker; the load average is printed before and after (the machine is noisy).

Written by the Scout team for this project.

    bash scripts/bench-data.sh
    python3 scripts/bench_per_result.py --scout .build/release/scout [--requests 5000] [--rounds 3]
    # another set, e.g. 10M points (scripts/gen_points.py --n 10000000 --out DIR; scout
    # snapshot --load DIR/points.csv:p --out DIR/p.snap):
    python3 scripts/bench_per_result.py --snapshot DIR/p.snap --queries DIR/queries.csv
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from scout_client import Serve  # noqa: E402


def requests(centres, n, area, limit, fields):
    out = []
    for i in range(n):
        lat, lon = centres[i % len(centres)]
        if area == "box":
            r = {"id": i, "op": "search", "kind": "p", "limit": limit,
                 "bbox": [round(lon - 0.08, 5), round(lat - 0.05, 5), round(lon + 0.08, 5), round(lat + 0.05, 5)]}
        else:
            r = {"id": i, "op": "search", "kind": "p", "near": {"lat": lat, "lon": lon}, "radius_m": 4000, "limit": limit}
        if fields is not None:
            r["fields"] = fields
        out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scout", default=str(ROOT / ".build/release/scout"))
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--snapshot", help="a snapshot of kind p points to serve instead of .bench-data/points.csv")
    ap.add_argument("--queries", help="query centres (CSV lat,lon; default .bench-data/queries.csv)")
    args = ap.parse_args()
    data = ROOT / ".bench-data"
    if not args.snapshot and not (data / "points.csv").exists():
        raise SystemExit("bench_per_result: run bash scripts/bench-data.sh first (it writes .bench-data/)")
    queries = Path(args.queries) if args.queries else data / "queries.csv"
    centres = [tuple(map(float, l.split(","))) for l in queries.read_text().splitlines()[1:]]
    print(f"bench_per_result: load {os.getloadavg()[0]:.2f} at start")
    serve_args = ["--snapshot", args.snapshot] if args.snapshot else ["--load", f"{data / 'points.csv'}:p"]
    with Serve(args.scout, serve_args) as s:
        s.wait_ready()
        s.stream(requests(centres, args.requests, "box", 1, False))      # warm-up
        best = {}
        for _ in range(args.rounds):
            for area in ("box", "radius"):
                for label, limit, fields in (("limit 1", 1, False), ("fields: false", 10_000, False), ("default", 10_000, None)):
                    lines, seconds = s.stream(requests(centres, args.requests, area, limit, fields))
                    results = sum(line.count(b'"kind":"p"') for line in lines)
                    key = (area, label)
                    if key not in best or seconds < best[key][0]:
                        best[key] = (seconds, results)
    for area in ("box", "radius"):
        base_s, base_n = best[(area, "limit 1")]
        for label in ("fields: false", "default"):
            t, n = best[(area, label)]
            print(f"{area:6} {label:13}: {n / args.requests:6.1f} results a request, {t / args.requests * 1e6:7.1f} µs a request, "
                  f"{(t - base_s) / (n - base_n) * 1e9:5.0f} ns per result")
    print(f"bench_per_result: load {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
