#!/usr/bin/env python3
"""Write Tests/Fixtures/timezone_points.csv: seeded random points and the IANA zone the
PyPI package timezonefinder gives each, the oracle for Tests/ScoutGeometryTests/TimeZoneMapTests.

Usage (from the repository root):

    python3 scripts/make_tz_fixture.py

Uses the same pinned packages as `scripts/build_data.py --time-zones` (installed into
.build-tzdata/python on first use), so the oracle reads the same polygons Scout's
data/timezones.bin was cut from. Deterministic: random.Random(SEED), 6-decimal coordinates;
the same package versions give a byte-identical file.

Rows (lat,lon,zone,kind):
  * 3,000 `land` points: uniform on the sphere, kept when timezonefinder names a land zone
    (anything but Etc/*);
  * 1,500 `border` points: a random vertex of a random land-zone polygon, moved up to
    0.02° (~2 km) in each direction, so that they fall on both sides of borders;
  * 500 `sea` points: uniform on the sphere, kept when the zone is an ocean zone (Etc/*).
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_data  # noqa: E402  (its pinned package set and installer)

SEED = 20261124
OUT = build_data.ROOT / "Tests" / "Fixtures" / "timezone_points.csv"


def uniform_point(rng: random.Random) -> tuple[float, float]:
    lat = math.degrees(math.asin(2 * rng.random() - 1))
    lon = 360 * rng.random() - 180
    return round(lat, 6), round(lon, 6)


def main() -> int:
    timezonefinder, _, _ = build_data.tz_import_packages()
    tf = timezonefinder.TimezoneFinder()
    rng = random.Random(SEED)
    rows: list[tuple[float, float, str, str]] = []

    land = 0
    while land < 3000:
        lat, lon = uniform_point(rng)
        zone = tf.timezone_at(lng=lon, lat=lat)
        if zone and not zone.startswith("Etc/"):
            rows.append((lat, lon, zone, "land"))
            land += 1

    names = sorted(n for n in tf.timezone_names if not n.startswith("Etc/"))
    polygons = {n: tf.get_geometry(tz_name=n, coords_as_pairs=False) for n in names}
    for _ in range(1500):
        name = names[rng.randrange(len(names))]
        polygon = polygons[name][rng.randrange(len(polygons[name]))]
        xs, ys = polygon[0]
        i = rng.randrange(len(xs))
        lat = round(min(max(ys[i] + rng.uniform(-0.02, 0.02), -90.0), 90.0), 6)
        lon = round(min(max(xs[i] + rng.uniform(-0.02, 0.02), -180.0), 180.0), 6)
        zone = tf.timezone_at(lng=lon, lat=lat)
        if zone:
            rows.append((lat, lon, zone, "border"))

    sea = 0
    while sea < 500:
        lat, lon = uniform_point(rng)
        zone = tf.timezone_at(lng=lon, lat=lat)
        if zone and zone.startswith("Etc/"):
            rows.append((lat, lon, zone, "sea"))
            sea += 1

    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("lat,lon,zone,kind\n")
        for lat, lon, zone, kind in rows:
            f.write(f"{lat:.6f},{lon:.6f},{zone},{kind}\n")
    print(f"{OUT.relative_to(build_data.ROOT)}: {len(rows)} points", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
