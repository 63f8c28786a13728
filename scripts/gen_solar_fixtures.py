#!/usr/bin/env python3
"""Write the solar reference fixtures in Tests/Fixtures from astral 3.x.

  pip install 'astral>=3,<4'
  python3 scripts/gen_solar_fixtures.py [--out Tests/Fixtures]

Writes:
  solar_elevation.csv  lat,lon,utc,elevation_deg,elevation_norefr_deg   (400 rows)
  sun_times.csv        lat,lon,date,dawn_utc,sunrise_utc,sunset_utc,dusk_utc   (60 rows)

Deterministic: the random parts use random.Random(7), so the same astral version gives
byte-identical files. Tests/Fixtures/README.md says what the columns mean and which astral
version produced the committed files.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import math
import random
import sys
from pathlib import Path

try:
    import astral
    import astral.sun
except ImportError:  # pragma: no cover
    sys.exit("astral is not installed: pip install 'astral>=3,<4'")

SEED = 7
UTC = dt.timezone.utc
START = dt.datetime(2024, 1, 1, tzinfo=UTC)
END = dt.datetime(2028, 1, 1, tzinfo=UTC)  # exclusive: instants fall in 2024-2027
ELEVATION_ROWS = 400
SUN_TIME_ROWS = 60
CIVIL_DEPRESSION = 6.0

# (name, lat, lon). Names are only for this script; the CSVs hold coordinates.
PLACES = [
    ("Dublin", 53.3498, -6.2603),
    ("Galway", 53.2707, -9.0568),
    ("Wroclaw", 51.1079, 17.0385),
    ("Tromso", 69.6492, 18.9553),          # polar day and polar night
    ("Quito", -0.1807, -78.4678),          # near the equator
    ("Sydney", -33.8688, 151.2093),
    ("Anchorage", 61.2181, -149.9003),
    ("Reykjavik", 64.1466, -21.9426),
    ("Longyearbyen", 78.2232, 15.6267),    # long polar day and night
    ("McMurdo", -77.8419, 166.6863),       # southern polar day and night
    ("Ushuaia", -54.8019, -68.3030),
    ("Singapore", 1.3521, 103.8198),
    ("Cape Town", -33.9249, 18.4241),
    ("Honolulu", 21.3069, -157.8583),
    ("near north pole", 89.0, 0.0),
    ("near south pole", -89.0, 45.0),
    ("north pole 89.5", 89.5, -120.0),
    ("antimeridian east", -16.5, 179.9),   # Fiji side
    ("antimeridian west", 51.9, -179.9),   # Aleutians side
    ("antimeridian equator", 0.0, 179.9),
    ("antimeridian south", -45.0, -179.9),
]
PLACE = {name: (lat, lon) for name, lat, lon in PLACES}
ROWS_PER_NAMED_PLACE = 12

# Hand-picked instants worth pinning down (place, UTC instant).
SPECIAL_INSTANTS = [
    ("Dublin", "2026-06-21T12:25:00Z"),       # near solar noon, summer solstice
    ("Dublin", "2026-12-21T12:25:00Z"),       # near solar noon, winter solstice
    ("Dublin", "2026-03-20T06:20:00Z"),       # near sunrise, equinox (refraction matters)
    ("Galway", "2026-09-23T19:20:00Z"),       # near sunset, equinox
    ("Tromso", "2026-06-21T22:45:00Z"),       # midnight sun: still above the horizon
    ("Tromso", "2026-12-21T10:45:00Z"),       # polar night: below the horizon at noon
    ("Wroclaw", "2025-10-26T01:00:00Z"),      # DST change night in Europe
    ("Quito", "2026-03-20T17:14:00Z"),        # equinox noon on the equator: near zenith
    ("Sydney", "2026-12-21T02:00:00Z"),       # southern summer noon
    ("Anchorage", "2024-02-29T21:00:00Z"),    # leap day
    ("McMurdo", "2026-12-21T00:00:00Z"),      # southern polar day
    ("near north pole", "2026-06-21T00:00:00Z"),
    ("near south pole", "2026-06-21T12:00:00Z"),
    ("antimeridian east", "2027-12-31T23:59:00Z"),  # last minute of the range
    ("antimeridian west", "2024-01-01T00:00:00Z"),  # first minute of the range
]

# Hand-picked (place, local date) pairs for sun_times.csv. Each must be well conditioned
# (see well_conditioned); the script stops if one is not.
SPECIAL_DATES = [
    ("Dublin", "2026-03-20"), ("Dublin", "2026-06-21"), ("Dublin", "2026-09-23"),
    ("Dublin", "2026-12-21"), ("Dublin", "2026-03-29"), ("Dublin", "2026-10-25"),
    ("Galway", "2026-06-21"), ("Galway", "2024-02-29"),
    ("Wroclaw", "2026-06-21"), ("Wroclaw", "2026-12-21"),
    ("Tromso", "2026-06-21"), ("Tromso", "2026-12-21"), ("Tromso", "2026-05-25"),
    ("Tromso", "2026-07-15"), ("Tromso", "2026-12-05"), ("Tromso", "2026-01-05"),
    ("Reykjavik", "2026-06-21"), ("Reykjavik", "2026-12-21"),
    ("Longyearbyen", "2026-04-25"), ("Longyearbyen", "2026-10-20"),
    ("McMurdo", "2026-12-21"), ("McMurdo", "2026-06-21"),
    ("Quito", "2026-03-20"), ("Quito", "2026-06-21"),
    ("Sydney", "2026-06-21"), ("Sydney", "2026-12-21"),
    ("Anchorage", "2026-06-21"), ("Anchorage", "2026-12-21"),
    ("Honolulu", "2026-06-21"), ("Singapore", "2026-09-23"),
    ("antimeridian east", "2026-06-21"), ("antimeridian west", "2026-06-21"),
    ("antimeridian equator", "2026-12-31"), ("antimeridian south", "2027-01-01"),
    ("near north pole", "2026-06-21"), ("near south pole", "2026-06-21"),
]


def fmt_utc(t: dt.datetime) -> str:
    """UTC instant as 2026-06-21T04:13:00Z, rounded to the nearest second."""
    t = t.astimezone(UTC)
    t = (t + dt.timedelta(microseconds=500_000)).replace(microsecond=0)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(s: str) -> dt.datetime:
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def fmt_coord(x: float) -> str:
    return f"{x:.4f}"


def zone_for(lon: float) -> dt.timezone:
    """The nautical time zone of a longitude: UTC offset round(lon / 15) hours, within -12..12."""
    return dt.timezone(dt.timedelta(hours=max(-12, min(12, round(lon / 15)))))


def random_instant(rng: random.Random, hour: int) -> dt.datetime:
    days = (END - START).days
    day = START + dt.timedelta(days=rng.randrange(days))
    return day.replace(hour=hour, minute=rng.randrange(60))


def random_place(rng: random.Random) -> tuple[float, float]:
    """A point uniform on the sphere, rounded to 4 decimals, lon in [-180, 180)."""
    lat = math.degrees(math.asin(2 * rng.random() - 1))
    lon = rng.uniform(-180.0, 180.0)
    lat, lon = round(lat, 4), round(lon, 4)
    if lon >= 180.0:
        lon -= 360.0
    return lat, lon


def elevation_rows() -> list[tuple[float, float, dt.datetime]]:
    rng = random.Random(SEED)
    rows: list[tuple[float, float, dt.datetime]] = []
    for name, t in SPECIAL_INSTANTS:
        lat, lon = PLACE[name]
        rows.append((lat, lon, parse_utc(t)))
    n_random = ELEVATION_ROWS - len(rows) - ROWS_PER_NAMED_PLACE * len(PLACES)
    assert n_random > 0
    # Cycle through the 24 hours in a shuffled order so every hour appears many times.
    hours: list[int] = []
    while len(hours) < ELEVATION_ROWS:
        block = list(range(24))
        rng.shuffle(block)
        hours += block
    k = 0
    for _name, lat, lon in PLACES:
        for _ in range(ROWS_PER_NAMED_PLACE):
            rows.append((lat, lon, random_instant(rng, hours[k])))
            k += 1
    for _ in range(n_random):
        lat, lon = random_place(rng)
        rows.append((lat, lon, random_instant(rng, hours[k])))
        k += 1
    assert len(rows) == ELEVATION_ROWS
    return rows


# astral's thresholds, as geometric (refraction-free) elevations of the sun's centre:
# sunrise/sunset at zenith 90 deg + apparent radius + refraction there (about -0.789 deg),
# civil dawn/dusk at zenith 96 deg + refraction there (about -6.055 deg).
_RISE_ZENITH = 90.0 + astral.sun.SUN_APPARENT_RADIUS
RISE_ELEVATION = 90.0 - (_RISE_ZENITH + astral.sun.refraction_at_zenith(_RISE_ZENITH))
_CIVIL_ZENITH = 90.0 + CIVIL_DEPRESSION
CIVIL_ELEVATION = 90.0 - (_CIVIL_ZENITH + astral.sun.refraction_at_zenith(_CIVIL_ZENITH))
EXTREME_MARGIN_DEG = 0.5     # the day's highest and lowest sun stay this far from a threshold
MIDNIGHT_MARGIN_MIN = 30     # no event within this many minutes of local midnight
SAMPLE_STEP_MIN = 5


def well_conditioned(lat: float, lon: float, d: dt.date) -> bool:
    """True when every event on this local date is clearly there or clearly absent.

    Rejects days whose highest or lowest sun grazes a threshold (near-pole equinoxes, the
    first and last days of polar day or night), where the event time is ill-conditioned and
    a correct implementation may legitimately disagree with astral by many minutes or about
    whether the event happens at all; and days with an event near local midnight, where
    "which date does this event belong to" is fragile.
    """
    obs = astral.Observer(latitude=lat, longitude=lon)
    start = dt.datetime.combine(d, dt.time(), tzinfo=zone_for(lon))
    minutes = range(0, 24 * 60 + 1, SAMPLE_STEP_MIN)
    elev = [astral.sun.elevation(obs, start + dt.timedelta(minutes=m), with_refraction=False)
            for m in minutes]
    for threshold in (RISE_ELEVATION, CIVIL_ELEVATION):
        if min(abs(min(elev) - threshold), abs(max(elev) - threshold)) < EXTREME_MARGIN_DEG:
            return False
        for m, a, b in zip(minutes, elev, elev[1:]):
            crosses = (a - threshold) * (b - threshold) <= 0
            if crosses and not MIDNIGHT_MARGIN_MIN <= m <= 24 * 60 - MIDNIGHT_MARGIN_MIN - SAMPLE_STEP_MIN:
                return False
    return True


def sun_time_rows() -> list[tuple[float, float, dt.date]]:
    rng = random.Random(SEED)
    rows = [(PLACE[name][0], PLACE[name][1], dt.date.fromisoformat(d)) for name, d in SPECIAL_DATES]
    bad = [(name, d) for (name, d), row in zip(SPECIAL_DATES, rows) if not well_conditioned(*row)]
    if bad:
        raise SystemExit(f"hand-picked sun-time dates are ill-conditioned, pick others: {bad}")
    seen = set(rows)
    days = (END - START).days
    while len(rows) < SUN_TIME_ROWS:
        if rng.random() < 0.5:
            lat, lon = PLACE[PLACES[rng.randrange(len(PLACES))][0]]
        else:
            lat, lon = random_place(rng)
        row = (lat, lon, (START + dt.timedelta(days=rng.randrange(days))).date())
        if row not in seen and well_conditioned(*row):
            seen.add(row)
            rows.append(row)
    return rows


def event(fn, observer, date: dt.date, tz: dt.tzinfo, **kw) -> str:
    try:
        return fmt_utc(fn(observer, date, tzinfo=tz, **kw))
    except ValueError:
        return ""  # the event does not happen on that date (polar day or night)


def write_elevations(path: Path) -> int:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["lat", "lon", "utc", "elevation_deg", "elevation_norefr_deg"])
        rows = elevation_rows()
        for lat, lon, t in rows:
            obs = astral.Observer(latitude=lat, longitude=lon)
            e = astral.sun.elevation(obs, t)  # refraction on: astral's default
            e0 = astral.sun.elevation(obs, t, with_refraction=False)
            w.writerow([fmt_coord(lat), fmt_coord(lon), fmt_utc(t), f"{e:.6f}", f"{e0:.6f}"])
    return len(rows)


def write_sun_times(path: Path) -> int:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["lat", "lon", "date", "dawn_utc", "sunrise_utc", "sunset_utc", "dusk_utc"])
        rows = sun_time_rows()
        for lat, lon, d in rows:
            obs = astral.Observer(latitude=lat, longitude=lon)
            tz = zone_for(lon)
            w.writerow([
                fmt_coord(lat), fmt_coord(lon), d.isoformat(),
                event(astral.sun.dawn, obs, d, tz, depression=CIVIL_DEPRESSION),
                event(astral.sun.sunrise, obs, d, tz),
                event(astral.sun.sunset, obs, d, tz),
                event(astral.sun.dusk, obs, d, tz, depression=CIVIL_DEPRESSION),
            ])
    return len(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Write solar reference fixtures from astral 3.x.")
    p.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "Tests" / "Fixtures"))
    args = p.parse_args(argv)
    if not astral.__version__.startswith("3."):
        print(f"error: need astral 3.x, found {astral.__version__}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    n1 = write_elevations(out / "solar_elevation.csv")
    n2 = write_sun_times(out / "sun_times.csv")
    print(f"astral {astral.__version__}: wrote {n1} rows to {out / 'solar_elevation.csv'}, "
          f"{n2} rows to {out / 'sun_times.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
