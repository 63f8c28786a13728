#!/usr/bin/env python3
"""Runs each hostile request of issue 11 through a release `scout serve` and reports, per
case, the answer's code, the wall time and the peak RSS above a worker that only loaded
the same data. Usage (from the repository root, after `swift build -c release`):

    python3 scripts/trust_cases.py [--binary .build/release/scout] [--quick]

Every case must answer within about a second and 256 MiB above the loaded data; the script
exits non-zero when one does not. Inputs are generated here, seeded, nothing downloaded.
"""
import argparse, json, math, os, random, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=".build/release/scout")
ap.add_argument("--quick", action="store_true", help="smaller repeated cases (for a test run)")
args = ap.parse_args()
rng = random.Random(20261124)
tmp = tempfile.mkdtemp(prefix="scout-trust-")

def zigzag_star(n, cx=0, cy=0, rx=170, ry=80):
    ring = [[cx + rx * math.cos(2 * math.pi * i / n) * (0.6 if i % 2 == 0 else 1.0),
             cy + ry * math.sin(2 * math.pi * i / n) * (0.6 if i % 2 == 0 else 1.0)] for i in range(n)]
    return ring + [ring[0]]

def tangled_route(n, step_deg):
    p = [10.0, 50.0]; out = [list(p)]
    for _ in range(n - 1):
        a = rng.uniform(0, 2 * math.pi)
        q = [p[0] + step_deg * math.cos(a), p[1] + step_deg * math.sin(a)]
        if abs(q[0] - 10) > 0.4 or abs(q[1] - 50) > 0.4: q = [10 + rng.uniform(-0.2, 0.2), 50 + rng.uniform(-0.2, 0.2)]
        out.append(q); p = q
    return out

def req(**k):
    return json.dumps(k, separators=(",", ":"))

# A 2 GiB sparse file inside the data root, and the data root itself.
root = os.path.join(tmp, "root"); os.makedirs(root)
big = os.path.join(root, "big.jsonl")
with open(big, "wb") as f: f.truncate(2 << 30)

repeat = 64 if args.quick else 256
cases = [
    ("WKT GEOMETRYCOLLECTION nested 40,000 deep", [req(op="search", kind="gym", within="GEOMETRYCOLLECTION(" * 40000 + "POINT(0 0)" + ")" * 40000)]),
    ("corridor: 3,000-vertex self-crossing route, 10 km", [req(op="search", kind="gym", along={"type": "LineString", "coordinates": tangled_route(3000, 0.05)}, distance_m=10000)]),
    ("corridor: 1,000-vertex self-crossing route, 100 km", [req(op="search", kind="gym", along={"type": "LineString", "coordinates": tangled_route(1000, 0.05)}, distance_m=100000)]),
    ("valid 100,000-vertex polygon (Dublin flower)", [req(op="search", kind="gym", limit=5, within={"type": "Polygon", "coordinates": [[[-6.26 + 0.05 * math.cos(2 * math.pi * i / 100000) * (1 + 0.3 * math.sin(40 * math.pi * i / 100000)), 53.35 + 0.03 * math.sin(2 * math.pi * i / 100000) * (1 + 0.3 * math.sin(40 * math.pi * i / 100000))] for i in list(range(100000)) + [0]]]})]),
    ("100,000-vertex zigzag star around the globe (proved star-shaped)", [req(op="search", kind="gym", limit=5, within={"type": "Polygon", "coordinates": [zigzag_star(100000)]})]),
    ("the same with a hole (GEOS's full validity test)", [req(op="search", kind="gym", limit=5, within={"type": "Polygon", "coordinates": [zigzag_star(100000), [[-1, -1], [1, -1], [0, 1], [-1, -1]]]})]),
    (f"{1200 if not args.quick else 300} distinct crs strings", [req(op="search", kind="gym", limit=1, crs=f"+proj=tmerc +lat_0=0 +lon_0={i * 0.01:.2f} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m", within="POLYGON((0 0,1000 0,1000 1000,0 0))") for i in range(1200 if not args.quick else 300)]),
    (f"{repeat // 8} invalid 9 MB polygons", ["{\"op\":\"search\",\"kind\":\"gym\",\"within\":\"POLYGON((" + ",".join(f"{(i * 7919) % 1000003 / 1e4:.6f} {(i * 104729) % 999983 / 2e4:.6f}" for i in range(k, k + 380000)) + f",{(k * 7919) % 1000003 / 1e4:.6f} {(k * 104729) % 999983 / 2e4:.6f}))\"}}" for k in range(repeat // 8)]),
    ("load of a 2 GiB file inside the data root", [req(op="load", path=big)]),
    ("load of /etc/shadow", [req(op="load", path="/etc/shadow")]),
    ("invalid UTF-8 line", [b'{"op":"place","name":"\xff\xfe"}']),
]

def run(lines):
    inp = os.path.join(tmp, "in.jsonl")
    with open(inp, "wb") as f:
        for l in lines:
            f.write(l if isinstance(l, bytes) else l.encode()); f.write(b"\n")
    cmd = ["/usr/bin/time", "-f", "%M", args.binary, "serve", "--data", "data", "--load", "data/sample/gyms.jsonl", "--data-root", root]
    t = time.time()
    with open(inp, "rb") as f:
        p = subprocess.run(cmd, stdin=f, capture_output=True)
    wall = time.time() - t
    rss_kb = int(p.stderr.decode().strip().splitlines()[-1])
    out = [json.loads(l) for l in p.stdout.decode().splitlines()]
    return out, wall, rss_kb

base, base_wall, base_rss = run([req(op="ping")])
print(f"baseline: ping after loading the sample gyms: {base_wall:.2f} s, {base_rss / 1024:.0f} MiB")
print("| case | answers | slowest answer (s, wall minus baseline, per request) | peak RSS above baseline (MiB) |")
print("| --- | --- | ---: | ---: |")
failed = False
for name, lines in cases:
    out, wall, rss = run(lines)
    codes = sorted({(o.get("error") or {}).get("code", "ok") for o in out})
    per = (wall - base_wall) / max(1, len(lines)) if len(lines) > 1 else wall - base_wall
    above = (rss - base_rss) / 1024
    print(f"| {name} | {len(out)} × {', '.join(codes)} | {per:.3f} | {above:.0f} |")
    if len(out) != len(lines) or per > 1.5 or above > 256: failed = True
sys.exit(1 if failed else 0)
