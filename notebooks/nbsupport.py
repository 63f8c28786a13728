"""Helpers the notebooks share: where things are, a `scout serve` pipe, and offline maps.

Maps never download anything. Their background comes from Debian's `python-cartopy-data`
(installed by scripts/notebooks.sh): Natural Earth's "Natural Earth I" shaded relief
(50 m raster, downsampled to 720 x 360 by cartopy; public domain, naturalearthdata.com)
and the GSHHG crude-resolution shorelines (Wessel and Smith, LGPL), plus the towns of
Scout's own gazetteer (data/places.tsv, from GeoNames, CC BY 4.0) as labelled dots. At city
scale the raster and shorelines are too coarse to show streets: there the towns, a
graticule and a scale bar are the background.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".build-notebooks" / "out"            # CSVs and PNGs the notebooks make (not committed)
sys.path.insert(0, str(ROOT / "Benchmarks" / "peers"))

CARTOPY_DATA = Path("/usr/share/cartopy/data")
RELIEF = CARTOPY_DATA / "raster" / "natural_earth" / "50-natural-earth-1-downsampled.png"
SHORELINES = CARTOPY_DATA / "shapefiles" / "gshhs" / "c" / "GSHHS_c_L1.shp"


def parameter(name: str, default: str) -> str:
    """A notebook parameter: the environment variable SCOUT_NB_<NAME>, else the default."""
    return os.environ.get(f"SCOUT_NB_{name.upper()}", default)


def scout_binary(explicit: str = "") -> Path:
    """The scout binary: the notebook's parameter, $SCOUT_BIN, the release build, the debug build."""
    for candidate in (explicit, os.environ.get("SCOUT_BIN", ""),
                      str(ROOT / ".build" / "release" / "scout"), str(ROOT / ".build" / "debug" / "scout")):
        if candidate and Path(candidate).is_file():
            return Path(candidate).resolve()
    raise SystemExit("no scout binary: run `swift build -c release --product scout` or pass SCOUT_NB_SCOUT")


def serve(binary: Path, *args: str):
    """`scout serve` with the sample catalogue's reference data, as a context manager
    (Benchmarks/peers/scout.py): `.round_trip(request)` and `.stream(requests)`."""
    from scout import ScoutServe
    return ScoutServe(binary, ["--data", "data", *args])


def ask(server, request: dict) -> dict:
    """One request; the result, or an exception naming the error."""
    answer, _ = server.round_trip(request)
    if not answer.get("ok"):
        raise RuntimeError(f"{request.get('op')}: {answer['error']}")
    return answer["result"]


# ---------------------------------------------------------------------------------------
# maps

def places(min_population: int = 0):
    """(name, country, lat, lon, population) of the gazetteer's towns."""
    rows = []
    with open(ROOT / "data" / "places.tsv", encoding="utf-8") as f:
        next(f)
        for line in f:
            p = line.rstrip("\n").split("\t")
            if int(p[8] or 0) >= min_population:
                rows.append((p[1], p[4], float(p[6]), float(p[7]), int(p[8] or 0)))
    return rows


_shore_cache: list = []


def shorelines():
    """GSHHG crude shorelines as a list of (lons, lats) rings."""
    if not _shore_cache:
        import shapefile                      # pyshp
        with shapefile.Reader(str(SHORELINES)) as r:
            for shape in r.shapes():
                parts = list(shape.parts) + [len(shape.points)]
                for a, b in zip(parts[:-1], parts[1:]):
                    xs, ys = zip(*shape.points[a:b])
                    _shore_cache.append((xs, ys))
    return _shore_cache


def base_map(ax, west: float, south: float, east: float, north: float, towns: int = 0,
             label_towns: int = 12, relief: bool = True):
    """Draws the offline background in lon/lat, with the aspect of the map's middle latitude.
    towns: draw gazetteer towns of at least this population (0: none); the label_towns most
    populous get their names."""
    import matplotlib.image as mpimg
    if relief and RELIEF.is_file():
        ax.imshow(mpimg.imread(str(RELIEF)), extent=(-180, 180, -90, 90), origin="upper",
                  interpolation="bilinear", alpha=0.55, zorder=0)
    if SHORELINES.is_file():
        for xs, ys in shorelines():
            ax.plot(xs, ys, color="#4d6a80", lw=0.6, zorder=1)
    if towns:
        inside = [p for p in places(towns) if west <= p[3] <= east and south <= p[2] <= north]
        inside.sort(key=lambda p: -p[4])
        ax.scatter([p[3] for p in inside], [p[2] for p in inside], s=6, c="#555555", marker="s", zorder=2,
                   label="towns (GeoNames)")
        for p in inside[:label_towns]:
            ax.annotate(p[0], (p[3], p[2]), fontsize=7, color="#333333", xytext=(3, 3),
                        textcoords="offset points", zorder=5)
    ax.set_xlim(west, east)
    ax.set_ylim(south, north)
    ax.set_aspect(1 / math.cos(math.radians((south + north) / 2)))
    ax.set_xlabel("longitude (°)")
    ax.set_ylabel("latitude (°)")
    ax.grid(True, lw=0.3, alpha=0.5)


def scale_bar(ax, km: float, lon: float, lat: float):
    """A bar of `km` kilometres starting at (lon, lat)."""
    dlon = km / (111.32 * math.cos(math.radians(lat)))
    ax.plot([lon, lon + dlon], [lat, lat], color="black", lw=2, zorder=6)
    ax.annotate(f"{km:g} km", (lon + dlon / 2, lat), ha="center", xytext=(0, 4), textcoords="offset points",
                fontsize=8, zorder=6)


def circle(lat: float, lon: float, metres: float, n: int = 181):
    """Lon/lat outline of a geodesic circle (geographiclib, WGS84)."""
    from geographiclib.geodesic import Geodesic
    pts = [Geodesic.WGS84.Direct(lat, lon, 360 * i / (n - 1), metres) for i in range(n)]
    return [p["lon2"] for p in pts], [p["lat2"] for p in pts]


def save(fig, name: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    fig.savefig(path, dpi=110, bbox_inches="tight")
    return path


def git_describe() -> str:
    r = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"
