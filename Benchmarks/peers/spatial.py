#!/usr/bin/env python3
"""Spatial queries on the same seeded points in every peer, answers checked, one CSV.

    .build-notebooks/venv/bin/python Benchmarks/peers/spatial.py                 # 10k, 100k, 1M
    .build-notebooks/venv/bin/python Benchmarks/peers/spatial.py --quick         # 10k, 100 queries
    .build-notebooks/venv/bin/python Benchmarks/peers/spatial.py --sizes 10000,100000 --with-filtered

(`bash scripts/notebooks.sh` makes the virtual environment and runs this at full size.)

Peers, each loaded with the same points (`scripts/gen_points.py --n N --seed S`):
  scout    `scout serve --threads 1` through a pipe (JSON both ways); requests streamed
  scout_library  Scout as a library: Examples/ScoutService's scout-in-process (`import Scout`),
           the GEOS C program's query file answered by Engine.search and Engine.nearest, timed
           per query in the process (CSV system "scout", metric "in_process"); built in release
           here, or `--scout-library PATH`; left out of --quick runs unless a binary is given
  postgis  PostgreSQL 15 + PostGIS 3, private cluster (postgis.py); `geography` and `geometry`
           columns with GiST indexes; queries sent in psycopg's pipeline mode (streamed) and
           one at a time (round trip)
  redis    Redis GEO (redis_geo.py), GEOSEARCH sent through a redis-py pipeline (streamed)
  shapely  shapely 2 STRtree (GEOS inside), bulk (vectorised) queries of every centre at once,
           candidates tested with numpy in the same process
  geos_c   GEOS C API STRtree in a small C program (geos_baseline.c, compiled here against
           Debian's libgeos-dev), timed per query in the process

Queries: radius 4 km, nearest k = 10, box 0.16° x 0.10° around the centre, polygon (the
generator's 50 city polygons, cycled), and per peer the build time and bytes per point.
`--with-filtered` also runs filtered_nearest.py (Scout and PostGIS on the sample dogs) into the
same CSV. Every answer is compared with Scout's (WGS84 geodesics, exact): a differing id is
"explained" when the peer's documented semantics account for it (README.md, "Semantics"), and
counted in `differ` otherwise.

Each system's run is preceded by a wait (up to 30 s; `--quiet-wait`) for a quiet machine and followed by a
one-second check; `busy_cores` in the CSV is the larger of the two (cores the rest of the
machine kept busy; common.QUIET_CORES is the limit). `--require-quiet` refuses a busy run.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, QUIET_CORES, ROOT, QuietCheck, git_commit, log, machine, now_utc, summary_us, write_csv  # noqa: E402

WORKLOAD = "spatial"
RADIUS_M = 4000.0
K = 10
BOX_HALF = (0.05, 0.08)                  # degrees of latitude, longitude either side of the centre
SPHERE_SCOUT_GEOS = 6371008.8            # the haversine radius shapely/GEOS C use here (IUGG mean)
SPHERE_REDIS = 6372797.560856            # Redis GEO's own sphere
# Sphere vs WGS84 geodesic: the ratio spheroid/sphere lies within [0.99442, 1.00560] for the
# mean radius (the ellipsoid's meridian radius a(1-e²) and equatorial radius a over R), so a
# point whose geodesic distance is within 0.6% (+ quantisation) of the threshold may fall on
# either side. For Redis's sphere (R larger by 0.028%) the band is shifted; 0.6% covers both.
SPHERE_BAND = 0.006
REDIS_QUANT_M = 1.0                      # 52-bit geohash: ≤ ~0.6 m per coordinate
REDIS_QUANT_DEG = 1e-5                   # 26 bits a coordinate: 5.4e-6° lon, 2.7e-6° lat steps
REDIS_MAX_LAT = 85.05112878
PEERS = ["scout", "scout_library", "postgis", "redis", "shapely", "geos_c"]
QUERIES = ["radius", "nearest", "box", "polygon"]


# ---------------------------------------------------------------------------------------
# data

class Points:
    def __init__(self, n: int, seed: int, n_queries: int):
        import numpy as np
        self.n, self.seed = n, seed
        self.dir = OUT / "points" / f"n{n}-seed{seed}"
        if not (self.dir / "points.csv").is_file() or \
                sum(1 for _ in open(self.dir / "queries.csv")) - 1 < n_queries:
            log(f"generating {n:,} points (scripts/gen_points.py, seed {seed})")
            subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_points.py"), "--n", str(n),
                            "--queries", str(max(n_queries, 1000)), "--seed", str(seed),
                            "--out", str(self.dir)], check=True, stdout=subprocess.DEVNULL)
        self.csv = self.dir / "points.csv"
        ids, lats, lons = [], [], []
        with open(self.csv) as f:
            next(f)
            for line in f:
                i, a, b = line.rstrip("\n").split(",")
                ids.append(i)
                lats.append(float(a))
                lons.append(float(b))
        self.ids = ids
        self.lat = np.array(lats)
        self.lon = np.array(lons)
        self.index = {i: k for k, i in enumerate(ids)}
        with open(self.dir / "queries.csv") as f:
            next(f)
            self.centres = [tuple(map(float, line.split(","))) for line in f][:n_queries]
        self.polygons = [json.loads(line)["coordinates"][0] for line in open(self.dir / "polygons.jsonl")]


def make_queries(pts: Points, n_queries: int) -> dict[str, list]:
    boxes = []
    for lat, lon in pts.centres:
        boxes.append((max(-180.0, lon - BOX_HALF[1]), max(-90.0, lat - BOX_HALF[0]),
                      min(180.0, lon + BOX_HALF[1]), min(90.0, lat + BOX_HALF[0])))
    n_poly = max(len(pts.polygons), n_queries // 5)
    return {
        "radius": [(lat, lon, RADIUS_M) for lat, lon in pts.centres],
        "nearest": [(lat, lon, K) for lat, lon in pts.centres],
        "box": boxes,
        "polygon": [pts.polygons[i % len(pts.polygons)] for i in range(n_poly)],
    }


def wkt(ring) -> str:
    return "POLYGON((" + ",".join(f"{x!r} {y!r}" for x, y in ring) + "))"


# ---------------------------------------------------------------------------------------
# peers: each returns {"answers": {query: [ids...]}, "rows": [partial rows], "version": str}

def run_scout(pts: Points, queries: dict, binary: Path) -> dict:
    from scout import ScoutServe, binary_version
    res = {"answers": {}, "rows": [], "version": binary_version(binary)}
    args = ["--data", "data", "--data-root", str(pts.dir), "--threads", "1"]
    # The protocol's load op reads files up to 256 MiB (FileAccess); a bigger CSV (10M points)
    # is loaded with --load at start-up instead, timed as start-to-answer less an empty start.
    at_start = pts.csv.stat().st_size > 256 << 20
    detail = ""
    if at_start:
        with ScoutServe(binary, args) as empty:
            empty_seconds, rss0 = empty.load_seconds, rss_of(empty.proc.pid)
        args = args + ["--load", f"{pts.csv}:pt"]
        detail = "loaded with --load at start-up (the load op reads at most 256 MiB): start to first answer less an empty start"
    with ScoutServe(binary, args) as s:
        if at_start:
            took = s.load_seconds - empty_seconds
        else:
            rss0 = rss_of(s.proc.pid)
            a, took = s.round_trip({"id": "load", "op": "load", "path": str(pts.csv), "kind": "pt"})
            if not a.get("ok"):
                raise SystemExit(f"peers: scout could not load the points: {a}")
        rss1 = rss_of(s.proc.pid)
        stats, _ = s.round_trip({"op": "stats"})
        index_bytes = stats["result"]["index_bytes"]
        res["rows"] += [
            {"query": "build", "metric": "build", "plan": "load op: CSV read, ids, packed tree", "value": round(took, 4),
             "unit": "s", **({"plan_detail": detail} if detail else {})},
            {"query": "memory", "metric": "bytes_per_point", "plan": "index (stats.index_bytes)",
             "value": round(index_bytes / pts.n, 1), "unit": "B"},
            {"query": "memory", "metric": "bytes_per_point", "plan": "process RSS growth on load",
             "value": round((rss1 - rss0) / pts.n, 1), "unit": "B"},
        ]
        for q in QUERIES:
            reqs = [scout_request(q, p) for p in queries[q]]
            s.stream(reqs[: min(50, len(reqs))])                       # warm-up
            answers, seconds = s.stream(reqs)
            runs = [seconds]
            # At least three streams: one stream of a big size (about 2 s at 10M) has moved
            # by half between runs on this host, a median of three less.
            while (sum(runs) < 1.0 or len(runs) < 3) and len(runs) < 5:
                runs.append(s.stream(reqs)[1])
            ids = []
            for ans in answers:
                if not ans.get("ok"):
                    raise SystemExit(f"peers: scout failed a {q} query: {ans['error']}")
                got = [r["id"] for r in ans["result"]["results"]]
                if ans["result"]["total"] > len(got):
                    raise SystemExit(f"peers: a {q} query matched more than its limit")
                ids.append(got if q == "nearest" else sorted(got))
            res["answers"][q] = ids
            res[f"dist_{q}"] = [[r.get("distance_m") for r in ans["result"]["results"]] for ans in answers]
            mean = statistics.median(runs) / len(reqs) * 1e6
            res["rows"].append({"query": q, "metric": "streamed", "plan": "serve --threads 1",
                                "mean_us": round(mean, 2),
                                "plan_detail": "median of streams " + ", ".join(f"{x / len(reqs) * 1e6:.1f}" for x in runs)})
            log(f"scout   {q:>8}: {mean:,.1f} µs a query (streamed)")
    return res


def scout_request(q: str, p) -> dict:
    if q == "radius":
        return {"op": "search", "kind": "pt", "near": {"lat": p[0], "lon": p[1]}, "radius_m": p[2],
                "limit": 100000, "fields": False}
    if q == "nearest":
        return {"op": "nearest", "kind": "pt", "from": {"lat": p[0], "lon": p[1]}, "k": p[2], "fields": False}
    if q == "box":
        return {"op": "search", "kind": "pt", "bbox": list(p), "limit": 100000, "fields": False}
    return {"op": "search", "kind": "pt", "within": {"type": "Polygon", "coordinates": [p]},
            "limit": 100000, "fields": False}


def rss_of(pid: int | str = "self") -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def run_postgis(pts: Points, queries: dict, round_trips: bool) -> dict:
    from postgis import PostGIS
    res = {"answers": {}, "rows": []}
    with PostGIS() as pg:
        res["version"] = pg.versions()
        with pg.connect() as conn:
            conn.execute("CREATE TABLE pts (id text NOT NULL, geog geography(Point, 4326) NOT NULL, "
                         "geom geometry(Point, 4326) NOT NULL)")
            t0 = time.monotonic()
            with conn.cursor() as cur:
                with cur.copy("COPY pts (id, geog, geom) FROM STDIN") as copy:
                    for i, a, b in zip(pts.ids, pts.lat.tolist(), pts.lon.tolist()):
                        e = f"SRID=4326;POINT({b!r} {a!r})"
                        copy.write_row((i, e, e))
            t1 = time.monotonic()
            conn.execute("CREATE INDEX pts_geog ON pts USING gist (geog)")
            t2 = time.monotonic()
            conn.execute("CREATE INDEX pts_geom ON pts USING gist (geom)")
            t3 = time.monotonic()
            conn.execute("VACUUM ANALYZE pts")
            sizes = conn.execute("SELECT pg_relation_size('pts_geog'), pg_relation_size('pts_geom'), "
                                 "pg_table_size('pts')").fetchone()
        res["rows"] += [
            {"query": "build", "metric": "build", "plan": "COPY + GiST(geography) + GiST(geometry)",
             "value": round(t3 - t0, 4), "unit": "s",
             "plan_detail": f"COPY {t1 - t0:.2f} s, GiST geography {t2 - t1:.2f} s, GiST geometry {t3 - t2:.2f} s"},
            {"query": "build", "metric": "build", "plan": "GiST(geography) alone",
             "value": round(t2 - t1, 4), "unit": "s"},
            {"query": "memory", "metric": "bytes_per_point", "plan": "index (GiST on geography)",
             "value": round(sizes[0] / pts.n, 1), "unit": "B"},
            {"query": "memory", "metric": "bytes_per_point", "plan": "table + both GiST indexes",
             "value": round((sizes[0] + sizes[1] + sizes[2]) / pts.n, 1), "unit": "B",
             "plan_detail": f"table {sizes[2] / pts.n:.1f} B, GiST geometry {sizes[1] / pts.n:.1f} B a point"},
        ]
        log(f"postgis loaded {pts.n:,} points: COPY {t1 - t0:.1f} s, indexes {t3 - t1:.1f} s")
        with pg.connect() as conn:
            for q in QUERIES:
                sql, params = postgis_sql(q), [postgis_params(q, p) for p in queries[q]]
                for p in params[:20]:                                    # warm-up, and prepare
                    conn.execute(sql, p).fetchall()
                t = time.perf_counter()
                with conn.pipeline():
                    curs = []
                    for p in params:
                        c = conn.cursor()
                        c.execute(sql, p)
                        curs.append(c)
                rows = [c.fetchall() for c in curs]
                streamed = (time.perf_counter() - t) / len(params) * 1e6
                ids = [[r[0] for r in rs] for rs in rows]
                res["answers"][q] = [x if q == "nearest" else sorted(x) for x in ids]
                res["rows"].append({"query": q, "metric": "streamed", "plan": "psycopg pipeline mode",
                                    "mean_us": round(streamed, 2)})
                line = f"postgis {q:>8}: {streamed:,.1f} µs a query (pipeline)"
                if round_trips:
                    times = []
                    for p in params:
                        t = time.perf_counter()
                        conn.execute(sql, p).fetchall()
                        times.append(time.perf_counter() - t)
                    s = summary_us(times)
                    res["rows"].append({"query": q, "metric": "round_trip", "plan": "one query at a time", **s})
                    line += f", {s['mean_us']:,.1f} µs round trip"
                log(line)
    return res


def postgis_sql(q: str) -> str:
    c = "ST_SetSRID(ST_MakePoint(%(lon)s, %(lat)s), 4326)::geography"
    if q == "radius":
        return f"SELECT id FROM pts WHERE ST_DWithin(geog, {c}, %(r)s)"
    if q == "nearest":
        # `<->` on geography is a sphere distance: take k + 16 by it, re-rank on the spheroid.
        return (f"SELECT id FROM (SELECT id, geog FROM pts ORDER BY geog <-> {c} LIMIT %(k)s + 16) s "
                f"ORDER BY ST_Distance(geog, {c}, true), id LIMIT %(k)s")
    if q == "box":
        # `&&` alone compares the index's float4 boxes (rounded outwards): points up to ~1e-5°
        # outside the box pass it. ST_Intersects adds the exact test (boundary included).
        return "SELECT id FROM pts WHERE ST_Intersects(ST_MakeEnvelope(%(w)s, %(s)s, %(e)s, %(n)s, 4326), geom)"
    return "SELECT id FROM pts WHERE ST_Covers(ST_GeomFromText(%(wkt)s, 4326), geom)"


def postgis_params(q: str, p) -> dict:
    if q == "radius":
        return {"lat": p[0], "lon": p[1], "r": p[2]}
    if q == "nearest":
        return {"lat": p[0], "lon": p[1], "k": p[2]}
    if q == "box":
        return dict(zip("wsen", p))
    return {"wkt": wkt(p)}


def run_redis(pts: Points, queries: dict) -> dict:
    from redis_geo import RedisGeo
    res = {"answers": {}, "rows": []}
    with RedisGeo() as rg:
        r = rg.client
        res["version"] = f"Redis {rg.version()}"
        used0 = r.info("memory")["used_memory"]
        keep = [k for k in range(pts.n) if abs(pts.lat[k]) <= REDIS_MAX_LAT]
        t = time.monotonic()
        pipe = r.pipeline(transaction=False)
        for start in range(0, len(keep), 10000):
            values = []
            for k in keep[start:start + 10000]:
                values += [float(pts.lon[k]), float(pts.lat[k]), pts.ids[k]]
            pipe.geoadd("pts", values)
        pipe.execute()
        build = time.monotonic() - t
        usage = r.memory_usage("pts", samples=0)
        used1 = r.info("memory")["used_memory"]
        res["skipped"] = pts.n - len(keep)
        res["rows"] += [
            {"query": "build", "metric": "build", "plan": "GEOADD, 10,000 members a command, pipelined",
             "value": round(build, 4), "unit": "s",
             "plan_detail": f"{pts.n - len(keep)} points beyond ±85.0511° refused by GEOADD, left out"},
            {"query": "memory", "metric": "bytes_per_point", "plan": "index (MEMORY USAGE of the sorted set)",
             "value": round(usage / len(keep), 1), "unit": "B"},
            {"query": "memory", "metric": "bytes_per_point", "plan": "server used_memory growth",
             "value": round((used1 - used0) / len(keep), 1), "unit": "B"},
        ]
        log(f"redis   loaded {len(keep):,} points in {build:.1f} s ({pts.n - len(keep)} beyond ±85.05° left out)")
        for q in ("radius", "nearest", "box"):
            params = queries[q]
            for p in params[:20]:
                redis_batch(r, q, [p])
            t = time.perf_counter()
            ids = redis_batch(r, q, params)
            streamed = (time.perf_counter() - t) / len(params) * 1e6
            res["answers"][q] = [x if q == "nearest" else sorted(x) for x in ids]
            plan = {"radius": "GEOSEARCH BYRADIUS, pipelined",
                    "nearest": "GEOSEARCH BYRADIUS ASC COUNT k, radius ×4 until k found, pipelined rounds",
                    "box": "GEOSEARCH BYBOX (metres) superset, lat/lon test on the returned coordinates"}[q]
            res["rows"].append({"query": q, "metric": "streamed", "plan": plan, "mean_us": round(streamed, 2)})
            log(f"redis   {q:>8}: {streamed:,.1f} µs a query (pipeline)")
    return res


def redis_batch(r, q: str, params: list) -> list[list[str]]:
    if q == "radius":
        pipe = r.pipeline(transaction=False)
        for lat, lon, radius in params:
            pipe.geosearch("pts", longitude=lon, latitude=lat, radius=radius, unit="m")
        return [[m.decode() for m in ms] for ms in pipe.execute()]
    if q == "nearest":
        out: list = [None] * len(params)
        todo = list(range(len(params)))
        radius = 1000.0
        while todo:
            pipe = r.pipeline(transaction=False)
            for i in todo:
                lat, lon, k = params[i]
                pipe.geosearch("pts", longitude=lon, latitude=lat, radius=radius, unit="m", sort="ASC", count=k)
            again = []
            for i, ms in zip(todo, pipe.execute()):
                if len(ms) >= params[i][2] or radius > 2.1e7:
                    out[i] = [m.decode() for m in ms]
                else:
                    again.append(i)
            todo, radius = again, radius * 4
        return out
    # box: Redis's BYBOX is a width and height in metres about a centre (width measured along
    # a great circle at each point's latitude), not a lat/lon box: ask for a box that holds the
    # lat/lon box, then keep the members inside it by the coordinates Redis stores.
    pipe = r.pipeline(transaction=False)
    for w, s, e, n in params:
        clat, clon = (s + n) / 2, (w + e) / 2
        lat_eq = 0.0 if s <= 0 <= n else min(abs(s), abs(n))
        half_w = great_circle(lat_eq, clon, lat_eq, e, SPHERE_REDIS)
        half_h = max(great_circle(clat, clon, n, clon, SPHERE_REDIS), great_circle(clat, clon, s, clon, SPHERE_REDIS))
        pipe.geosearch("pts", longitude=clon, latitude=clat, width=2 * half_w * 1.01 + 2,
                       height=2 * half_h * 1.01 + 2, unit="m", withcoord=True)
    out = []
    for (w, s, e, n), ms in zip(params, pipe.execute()):
        out.append([m[0].decode() for m in ms if w <= m[1][0] <= e and s <= m[1][1] <= n])
    return out


def great_circle(lat1, lon1, lat2, lon2, radius) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * radius * math.asin(min(1.0, math.sqrt(a)))


def run_shapely(pts: Points, queries: dict) -> dict:
    import numpy as np
    import shapely
    res = {"answers": {}, "rows": [], "version": f"shapely {shapely.__version__} (GEOS {shapely.geos_version_string})"}
    rss0 = rss_of()
    t = time.perf_counter()
    geoms = shapely.points(pts.lon, pts.lat)
    tree = shapely.STRtree(geoms, node_capacity=10)
    tree.query(shapely.box(0, 0, 0, 0))
    build = time.perf_counter() - t
    rss1 = rss_of()
    res["rows"] += [
        {"query": "build", "metric": "build", "plan": "shapely.points + STRtree(node_capacity=10)",
         "value": round(build, 4), "unit": "s"},
        {"query": "memory", "metric": "bytes_per_point", "plan": "process RSS growth (points + tree)",
         "value": round((rss1 - rss0) / pts.n, 1), "unit": "B"},
    ]
    for q in QUERIES:
        params = queries[q]
        shapely_batch(np, shapely, tree, pts, q, params[:20])
        t = time.perf_counter()
        ids = shapely_batch(np, shapely, tree, pts, q, params)
        took = (time.perf_counter() - t) / len(params) * 1e6
        res["answers"][q] = ids
        plan = {"radius": "bulk STRtree.query of circle extents + numpy haversine (R = 6,371,008.8 m)",
                "nearest": "bulk STRtree.query of growing circle extents + numpy haversine",
                "box": "bulk STRtree.query of the boxes (envelope test: exact for points)",
                "polygon": "bulk STRtree.query(predicate='covers')"}[q]
        res["rows"].append({"query": q, "metric": "in_process", "plan": plan, "mean_us": round(took, 2),
                            "plan_detail": "all queries in one vectorised call; mean = total / queries"})
        log(f"shapely {q:>8}: {took:,.1f} µs a query (bulk)")
    return res


def circle_boxes(np, lat, lon, r, radius_sphere):
    """Lon/lat extents of spherical circles; a circle that reaches a pole or crosses the
    antimeridian gets the whole longitude range (a superset)."""
    dlat = np.degrees(r / radius_sphere) * 1.0000001 + 1e-9
    s, n = lat - dlat, lat + dlat
    ratio = np.sin(r / radius_sphere) / np.cos(np.radians(lat))
    dlon = np.degrees(np.arcsin(np.clip(ratio, -1, 1))) * 1.0000001 + 1e-9
    w, e = lon - dlon, lon + dlon
    full = (s <= -90) | (n >= 90) | (ratio >= 1) | (w < -180) | (e > 180)
    w = np.where(full, -180.0, w)
    e = np.where(full, 180.0, e)
    return w, np.maximum(s, -90.0), e, np.minimum(n, 90.0)


def haversine_np(np, lat1, lon1, lat2, lon2, radius):
    p1, p2 = np.radians(lat1), np.radians(lat2)
    a = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lon2 - lon1) / 2) ** 2
    return 2 * radius * np.arcsin(np.sqrt(np.minimum(a, 1.0)))


def shapely_batch(np, shapely, tree, pts: Points, q: str, params: list) -> list:
    n_q = len(params)
    if q in ("box", "polygon"):
        if q == "box":
            geoms = shapely.box(*np.array(params).T)
            pairs = tree.query(geoms)
        else:
            geoms = np.array([shapely.Polygon(ring) for ring in params], dtype=object)
            pairs = tree.query(geoms, predicate="covers")
        return group(np, pairs, n_q, pts.ids)
    lat = np.array([p[0] for p in params])
    lon = np.array([p[1] for p in params])
    if q == "radius":
        w, s, e, n = circle_boxes(np, lat, lon, RADIUS_M, SPHERE_SCOUT_GEOS)
        pairs = tree.query(shapely.box(w, s, e, n))
        d = haversine_np(np, lat[pairs[0]], lon[pairs[0]], pts.lat[pairs[1]], pts.lon[pairs[1]], SPHERE_SCOUT_GEOS)
        return group(np, pairs[:, d <= RADIUS_M], n_q, pts.ids)
    out: list = [None] * n_q
    todo = np.arange(n_q)
    radius = 1000.0
    while len(todo):
        w, s, e, n = circle_boxes(np, lat[todo], lon[todo], radius, SPHERE_SCOUT_GEOS)
        pairs = tree.query(shapely.box(w, s, e, n))
        qi = todo[pairs[0]]
        d = haversine_np(np, lat[qi], lon[qi], pts.lat[pairs[1]], pts.lon[pairs[1]], SPHERE_SCOUT_GEOS)
        inside = d <= radius
        qi, pi, d = qi[inside], pairs[1][inside], d[inside]
        order = np.lexsort((pi, d, qi))
        qi, pi = qi[order], pi[order]
        starts = np.searchsorted(qi, todo)
        ends = np.searchsorted(qi, todo, side="right")
        again = []
        for j, a, b in zip(todo.tolist(), starts.tolist(), ends.tolist()):
            if b - a >= K or radius > 2.1e7:
                out[j] = [pts.ids[x] for x in pi[a:min(b, a + K)].tolist()]
            else:
                again.append(j)
        todo, radius = np.array(again, dtype=np.int64), radius * 4
    return out


def group(np, pairs, n_q: int, ids: list[str]) -> list[list[str]]:
    order = np.lexsort((pairs[1], pairs[0]))
    q, p = pairs[0][order], pairs[1][order]
    bounds = np.searchsorted(q, np.arange(n_q + 1))
    return [sorted(ids[x] for x in p[bounds[i]:bounds[i + 1]].tolist()) for i in range(n_q)]


def write_query_file(queries: dict, path: Path) -> list[str]:
    """The queries one a line, as geos_baseline.c and scout-in-process read them (R lat lon m,
    N lat lon k, B west south east north, P WKT); returns each line's query type."""
    kinds = []
    with open(path, "w") as f:
        for q in QUERIES:
            for p in queries[q]:
                if q == "radius":
                    f.write(f"R {p[0]!r} {p[1]!r} {p[2]!r}\n")
                elif q == "nearest":
                    f.write(f"N {p[0]!r} {p[1]!r} {p[2]}\n")
                elif q == "box":
                    f.write("B " + " ".join(repr(x) for x in p) + "\n")
                else:
                    f.write("P " + wkt(p) + "\n")
                kinds.append(q)
    return kinds


def find_library_binary(explicit: str | None) -> Path:
    """scout-in-process: `--scout-library`, else $SCOUT_LIBRARY_BIN, else the release build of
    Examples/ScoutService (built here, incrementally, so that a run measures this checkout)."""
    chosen = explicit or os.environ.get("SCOUT_LIBRARY_BIN")
    if chosen:
        if not Path(chosen).is_file():
            raise SystemExit(f"peers: no scout-in-process binary at {chosen}")
        return Path(chosen).resolve()
    package = ["--package-path", str(ROOT / "Examples" / "ScoutService")]
    log("building scout-in-process (swift build -c release --package-path Examples/ScoutService)")
    subprocess.run(["swift", "build", "-c", "release", *package, "--product", "scout-in-process"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", *package, "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    return Path(bin_dir) / "scout-in-process"


def run_query_program(pts: Points, queries: dict, command: list[str], name: str, version: str, build_plan: str,
                      memory_plan: str, plans: dict, id_of, detail: str = "") -> dict:
    """Runs an in-process peer program on the points and the query file (write_query_file)
    and reads its output: `build <µs> <RSS bytes gained>`, then per query `<µs> <count> <answer>...`
    (each answer turned into an id by `id_of`); one row per query type, each query timed."""
    qfile = OUT / f"{name}-queries-{os.getpid()}.txt"
    kinds = write_query_file(queries, qfile)
    r = subprocess.run([*command, str(pts.csv), str(qfile)], capture_output=True, text=True)
    qfile.unlink()
    if r.returncode != 0:
        raise SystemExit(f"peers: {name} failed: {r.stderr}")
    lines = r.stdout.splitlines()
    _, build_us, rss = lines[0].split()
    res = {"answers": {q: [] for q in QUERIES}, "version": version,
           "rows": [
               {"query": "build", "metric": "build", "plan": build_plan,
                "value": round(float(build_us) / 1e6, 4), "unit": "s"},
               {"query": "memory", "metric": "bytes_per_point", "plan": memory_plan,
                "value": round(int(rss) / pts.n, 1), "unit": "B"}]}
    times: dict[str, list[float]] = {q: [] for q in QUERIES}
    for q, line in zip(kinds, lines[1:]):
        parts = line.split()
        times[q].append(float(parts[0]) / 1e6)
        ids = [id_of(x) for x in parts[2:]]
        res["answers"][q].append(ids if q == "nearest" else sorted(ids))
    for q in QUERIES:
        row = {"query": q, "metric": "in_process", "plan": plans[q], **summary_us(times[q])}
        res["rows"].append({**row, "plan_detail": detail} if detail else row)
        log(f"{name:<7} {q:>8}: {statistics.fmean(times[q]) * 1e6:,.1f} µs a query")
    return res


def run_scout_library(pts: Points, queries: dict, binary: Path) -> dict:
    """Scout as a library: Examples/ScoutService's scout-in-process loads the same CSV with
    `Engine.load` and answers the same query file as the GEOS C program through
    `Engine.search` and `Engine.nearest`, each query timed in the process (hits built)."""
    where = binary.relative_to(ROOT) if binary.is_relative_to(ROOT) else binary
    built = time.strftime("%Y-%m-%d %H:%M", time.gmtime(binary.stat().st_mtime))
    plans = {"radius": "library: Engine.search, radius (WGS84 geodesic)", "nearest": "library: Engine.nearest",
             "box": "library: Engine.search, box", "polygon": "library: Engine.search, polygon (WKT)"}
    return run_query_program(pts, queries, [str(binary)], "library", f"Scout library ({where}, built {built} UTC)",
                             "Engine.load: CSV read, ids, packed tree", "library: process RSS growth on load", plans,
                             lambda x: x, "each query timed in the process after an untimed pass; hits built, no JSON")


def run_geos_c(pts: Points, queries: dict) -> dict:
    binary = OUT / "bin" / "geos_baseline"
    source = Path(__file__).resolve().parent / "geos_baseline.c"
    if not binary.is_file() or binary.stat().st_mtime < source.stat().st_mtime:
        binary.parent.mkdir(parents=True, exist_ok=True)
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "geos"], capture_output=True,
                               text=True, check=True).stdout.split()
        subprocess.run(["cc", "-O2", "-o", str(binary), str(source), *flags, "-lm"], check=True)
    version = subprocess.run(["pkg-config", "--modversion", "geos"], capture_output=True, text=True).stdout.strip()
    plans = {"radius": "STRtree query of the circle's extent + haversine (R = 6,371,008.8 m)",
             "nearest": "circle grown ×4 until k inside, haversine", "box": "STRtree query + inclusive test",
             "polygon": "STRtree query + prepared covers (polygon prepared per query)"}
    return run_query_program(pts, queries, [str(binary)], "geos_c", f"GEOS C API {version} (geos_baseline.c, cc -O2)",
                             "create points + STRtree insert + first query", "process RSS growth (points + tree)", plans,
                             lambda x: pts.ids[int(x)])


# ---------------------------------------------------------------------------------------
# checking answers against Scout's

def geodesic_m(lat1, lon1, lat2, lon2) -> float:
    from geographiclib.geodesic import Geodesic
    return Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]


def check(peer: str, q: str, pts: Points, params: list, mine: list, scout: list, scout_dist: list) -> dict:
    """Per query: 'agree' (the same ids; nearest: in the same order), 'explained' (every
    differing id is accounted for by the peer's semantics), 'differ' (anything else)."""
    counts = {"agree": 0, "explained": 0, "differ": 0}
    examples = []
    sphere = peer in ("redis", "shapely", "geos_c")
    for i, (a, b) in enumerate(zip(mine, scout)):
        if a == b:
            counts["agree"] += 1
            continue
        diff = set(a) ^ set(b)
        ok = True
        for pid in diff:
            k = pts.index[pid]
            plat, plon = float(pts.lat[k]), float(pts.lon[k])
            if peer == "redis" and abs(plat) > REDIS_MAX_LAT:
                continue                                  # not in Redis at all
            if q in ("radius", "nearest"):
                lat, lon = params[i][0], params[i][1]
                limit = RADIUS_M if q == "radius" else (scout_dist[i][-1] if scout_dist[i] else 0)
                d = geodesic_m(lat, lon, plat, plon)
                band = (SPHERE_BAND * limit + (REDIS_QUANT_M if peer == "redis" else 0)) if sphere else 0.002
                if abs(d - limit) > band:
                    ok = False
            elif q == "box" and peer == "redis":
                w, s, e, n = params[i]
                if min(abs(plon - w), abs(plon - e), abs(plat - s), abs(plat - n)) > REDIS_QUANT_DEG:
                    ok = False
            else:
                ok = False
        if not diff and q == "nearest":
            # same ids, another order: explained only between sphere-equivalent distances
            ok = sphere
        if ok:
            counts["explained"] += 1
        else:
            counts["differ"] += 1
            if len(examples) < 3:
                examples.append((i, sorted(set(a) - set(b))[:5], sorted(set(b) - set(a))[:5]))
    if examples:
        log(f"{peer} {q}: answers differ from Scout's, e.g. (query, only {peer}, only scout): {examples}")
    return counts


# ---------------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated point counts")
    ap.add_argument("--queries", type=int, help="query centres per size (default 1000; 100 with --quick)")
    ap.add_argument("--quick", action="store_true", help="10,000 points and 100 queries (for tests)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated subset of " + ",".join(PEERS))
    ap.add_argument("--scout", help="scout binary (default: $SCOUT_BIN, else the release build)")
    ap.add_argument("--scout-library", help="scout-in-process binary (default: $SCOUT_LIBRARY_BIN, else the release "
                    "build of Examples/ScoutService)")
    ap.add_argument("--quiet-wait", type=float, help="seconds to wait for a quiet machine before each system "
                    "(default 30; 0 with --quick)")
    ap.add_argument("--require-quiet", action="store_true",
                    help=f"stop with an error when more than {QUIET_CORES} cores are busy around a system's run")
    ap.add_argument("--csv", default=str(OUT / "peers.csv"))
    ap.add_argument("--no-round-trips", action="store_true", help="PostGIS: streamed only")
    ap.add_argument("--with-filtered", action="store_true",
                    help="also run filtered_nearest.py (sample dogs; Scout and PostGIS) into the same CSV")
    args = ap.parse_args()
    sizes = [10000] if args.quick else [int(x) for x in args.sizes.split(",")]
    n_queries = args.queries or (100 if args.quick else 1000)
    peers = args.peers.split(",")
    if "scout" not in peers:
        ap.error("scout is the reference every answer is compared with: keep it in --peers")
    wait = args.quiet_wait if args.quiet_wait is not None else (0 if args.quick else 30)
    unknown = [p for p in peers if p not in PEERS]
    if unknown:
        ap.error(f"unknown peer {', '.join(unknown)}: the peers are {', '.join(PEERS)}")
    from scout import find_binary
    binary = find_binary(args.scout)
    library = None
    if "scout_library" in peers:
        if args.quick and not (args.scout_library or os.environ.get("SCOUT_LIBRARY_BIN")):
            log("scout_library left out of the quick run (its release build takes minutes): pass --scout-library")
        else:
            library = find_library_binary(args.scout_library)
    run_at, host, commit = now_utc(), machine(), git_commit()
    started = time.monotonic()
    rows, problems, versions = [], 0, {}
    for n in sizes:
        pts = Points(n, args.seed, n_queries)
        queries = make_queries(pts, n_queries)
        log(f"{n:,} points, {len(pts.centres)} centres, {len(queries['polygon'])} polygon queries")
        runs = {"scout": lambda: run_scout(pts, queries, binary),
                "scout_library": lambda: run_scout_library(pts, queries, library),
                "postgis": lambda: run_postgis(pts, queries, not args.no_round_trips),
                "redis": lambda: run_redis(pts, queries),
                "shapely": lambda: run_shapely(pts, queries),
                "geos_c": lambda: run_geos_c(pts, queries)}
        results, busy = {}, {}
        for peer in PEERS:
            if peer in peers and (peer != "scout_library" or library is not None):
                with QuietCheck(f"{peer} at {n:,} points", wait=wait, require=args.require_quiet) as quiet:
                    results[peer] = runs[peer]()
                busy[peer] = quiet.busy
        scout = results["scout"]
        for peer, res in results.items():
            versions[peer] = res["version"]
            checks = {}
            if peer != "scout":
                for q, answers in res["answers"].items():
                    checks[q] = check(peer, q, pts, queries[q], answers, scout["answers"][q],
                                      scout.get(f"dist_{q}", []))
                    problems += checks[q]["differ"]
            for row in res["rows"]:
                q = row["query"]
                # Scout's library and worker are one system: the metric tells them apart.
                full = {"run_at": run_at, "workload": WORKLOAD, "system": "scout" if peer == "scout_library" else peer,
                        "points": n, "k": K if q == "nearest" else "", "queries": len(queries.get(q, [])) or "",
                        "machine": host, "busy_cores": busy[peer], "seed": args.seed, "commit": commit, **row}
                if q in QUERIES:
                    if peer == "scout":
                        full.update(agree=len(queries[q]), differ=0)
                    elif q in checks:
                        c = checks[q]
                        full.update(agree=c["agree"] + c["explained"], differ=c["differ"])
                        note = f"{c['agree']} identical, {c['explained']} differing only as the peer's semantics allow"
                        full["plan_detail"] = "; ".join(x for x in (row.get("plan_detail"), note) if x)
                rows.append(full)
        # Written after every size, so that a failure at a bigger one keeps the smaller ones.
        write_rows(rows, versions, args.csv)
    log(f"wrote {len(rows)} rows to {args.csv} in {time.monotonic() - started:.0f} s")
    print_table(rows)
    if args.with_filtered:
        cmd = [sys.executable, str(Path(__file__).resolve().parent / "filtered_nearest.py"), "--csv", args.csv,
               "--scout", str(binary), "--seed", str(args.seed)] + (["--quick"] if args.quick else [])
        if subprocess.run(cmd).returncode != 0:
            problems += 1
    if problems:
        log(f"{problems} answers differ from Scout's beyond the peers' semantics")
        return 1
    return 0


def write_rows(rows: list[dict], versions: dict, path: str) -> None:
    """Writes the rows so far to the CSV at `path`, each with every system's version."""
    text = "; ".join(f"{p}: {v}" for p, v in versions.items()) + f"; Python {sys.version.split()[0]}"
    write_csv(Path(path), [dict(r, versions=text) for r in rows], WORKLOAD)


def print_table(rows: list[dict]) -> None:
    """Markdown: mean µs a query per peer and query type at each size, its ratio to Scout's
    worker (streamed), and the busy cores around the run."""
    sizes = sorted({r["points"] for r in rows})
    for n in sizes:
        print(f"\n#### {n:,} points: mean µs a query (build: s; memory: bytes a point)\n")
        print("| query | system | metric | plan | value | peer ÷ Scout | agree / queries | busy cores |")
        print("| --- | --- | --- | --- | ---: | ---: | --- | ---: |")
        # The base of every ratio: Scout's worker (streamed; the load op; its index bytes).
        scout = {r["query"]: r for r in rows if r["points"] == n and r["system"] == "scout"
                 and (r["metric"] == "streamed" or r["plan"].startswith(("load op", "index")))}
        for r in rows:
            if r["points"] != n:
                continue
            v = r.get("mean_us") if r.get("mean_us", "") != "" else r.get("value")
            base = scout.get(r["query"])
            bv = None if base is None else (base.get("mean_us") if base.get("mean_us", "") != "" else base.get("value"))
            ratio = f"{v / bv:.2f}×" if bv else ""
            agree = f"{r.get('agree', '')} / {r.get('queries', '')}" if r["query"] in QUERIES else ""
            busy = f"{r['busy_cores']:.2f}" + (" (busy)" if r["busy_cores"] > QUIET_CORES else "")
            print(f"| {r['query']} | {r['system']} | {r['metric']} | {r['plan']} | {v:,} | {ratio} | {agree} | {busy} |")


if __name__ == "__main__":
    sys.exit(main())
