#!/usr/bin/env python3
"""Filtered nearest queries streamed through `scout serve`: each filter asked the same way
1,000 times (`repeated`), or with bounds moved by 1e-8 at each query so that no two
queries share a filter (`oneoff`: what a service sees when bounds come from each user's
input; the answers are the same). Mean µs per query of the second of two rounds, and the
plan `explain` reports for the last query.

Run from the repository root (the worker reads the breed table from `data/`):

    python3 scripts/bench_filters_streamed.py --scout .build/release/scout [--mode oneoff]
"""
import argparse
import json
import random
import subprocess
import sys
import time

from scout_client import Serve

FILTERS = {
    "none": None,
    "weight >= 91.9 kg (126)": {"weight_kg": {"min": 91.9}},
    "trainability <= 1 (128)": {"trainability": {"max": 1}},
    "good_with_dogs <= 1 (550)": {"good_with_dogs": {"max": 1}},
    "energy <= 1 (0)": {"energy": {"max": 1}},
    "experience_needed <= 1, 2+ ratings (302)": {"experience_needed": {"max": 1.0, "min_count": 2}},
    "temperament >= 4.9, 5+ ratings (3,089)": {"temperament": {"min": 4.9, "min_count": 5}},
    "handler_experience 1.5 (2,008)": {"handler_experience": 1.5},
}


def moved(f, i):
    """`f` with its bounds widened by i·1e-8 (no sample value lies that close to a bound)."""
    g = json.loads(json.dumps(f))
    for k, v in g.items():
        if isinstance(v, dict):
            for side in ("min", "max"):
                if side in v:
                    v[side] += -1e-8 * i if side == "min" else 1e-8 * i
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            g[k] = v + 1e-8 * i
    return g


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scout", required=True)
    p.add_argument("--data", default="data/sample/dogs.jsonl")
    p.add_argument("--mode", choices=["repeated", "oneoff"], default="repeated")
    p.add_argument("--queries", type=int, default=1000)
    a = p.parse_args()
    rng = random.Random(7)
    centres = [(rng.uniform(50, 56), rng.uniform(-6, 2)) for _ in range(a.queries)]
    worker = Serve(a.scout, ["--load", a.data], stderr=subprocess.DEVNULL, label="bench_filters_streamed")

    def run(f):
        requests = []
        for i, (lat, lon) in enumerate(centres):
            q = {"id": i, "op": "nearest", "kind": "dog", "from": {"lat": lat, "lon": lon}, "k": 5,
                 "fields": False, "explain": i == len(centres) - 1}
            if f:
                q["filter"] = moved(f, i) if a.mode == "oneoff" else f
            requests.append(q)
        # Written from another thread: the answers fill the pipe while the requests go in.
        answers, elapsed = worker.stream(requests)
        return elapsed / len(centres) * 1e6, json.loads(answers[-1])["result"].get("explain")

    worker.ask(b'{"id":0,"op":"nearest","kind":"dog","from":{"lat":52,"lon":0},"k":1}')
    time.sleep(1)
    for round_ in range(2):
        for name, f in FILTERS.items():
            us, plan = run(f)
            if round_ == 1:
                print(f"{a.mode}\t{name}\t{us:.1f} µs\t{plan}")
    worker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
