"""Shared pieces of the peer comparisons: paths, pinned Python packages, the CSV schema,
statistics, and the machine/version description every CSV row carries.

Every workload (filtered_nearest.py, and the ones issue 16 adds) writes rows of the same
columns (COLUMNS), one row per (system, plan, metric, selectivity), so one notebook can
read all of them. Peers live in their own modules (postgis.py, scout.py, ...): each starts
its system, loads points and answers queries; a workload module runs the same queries on
every peer, checks the answers agree and times them.
"""
from __future__ import annotations

import csv
import datetime as _dt
import importlib
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]          # the repository
OUT = ROOT / ".build" / "peers"                     # git-ignored: clusters, CSVs, requests
PYTHON_DIR = OUT / "python"                         # pinned PyPI packages (pip --target)
SCRIPTS = ROOT / "scripts"                          # scout_client.py: the one client of `scout serve`
if str(SCRIPTS) not in sys.path:
    sys.path.append(str(SCRIPTS))

# Pinned: psycopg 3 with its binary wheel (libpq inside, no compiler needed). Installed into
# .build/peers/python the first time; nothing goes into the system's Python.
PY_PACKAGES = ["psycopg==3.3.9", "psycopg-binary==3.3.9", "typing-extensions==4.16.0"]

COLUMNS = [
    "run_at", "workload", "query", "system", "plan", "metric", "selectivity", "filter", "matching",
    "points", "k", "queries", "p50_us", "mean_us", "p99_us", "value", "unit", "agree", "differ",
    "plan_detail", "machine", "busy_cores", "versions", "seed", "commit",
]
# query: the query type of workload "spatial" (radius, nearest, box, polygon, build, memory);
#   empty for filtered_nearest (its query is always nearest k = 5)
# value, unit: a figure that is not a per-query time (build seconds, bytes per point)
# metric: what was timed
#   execution   the server's own time for the query (PostgreSQL: EXPLAIN ANALYZE "Execution Time")
#   planning    PostgreSQL's "Planning Time" of the same statements
#   round_trip  one query at a time from this Python client: send, wait for the answer
#   streamed    all queries written at once; (last answer - first write) / queries; no p50/p99
#   in_process  the library called in the same process (Swift package-benchmark; for the
#               spatial workload: shapely's bulk calls and the GEOS C program)
#   build       seconds to load and index the points (value, unit "s")
# busy_cores: cores the rest of the machine kept busy in the quiet windows just before and
#   after this system's run (the larger; busy_cores_between below); above QUIET_CORES the
#   row's figures are from a busy machine and the notebooks mark them
#   bytes_per_point  memory of the index or process per point (value, unit "B")


def log(*parts) -> None:
    print("peers:", *parts, file=sys.stderr, flush=True)


def import_psycopg():
    """psycopg 3 from the private, pinned package directory; pip installs it there first
    when it is missing or the pins changed. Under the notebooks' virtual environment
    (notebooks/requirements.txt pins the same version) that one is used as it is."""
    try:
        import importlib.metadata as md
        if md.version("psycopg") == PY_PACKAGES[0].split("==")[1]:
            import psycopg
            return psycopg
    except Exception:
        pass
    stamp = PYTHON_DIR / "PINNED.txt"
    wanted = "\n".join(PY_PACKAGES) + "\n"
    if not stamp.is_file() or stamp.read_text() != wanted:
        log(f"installing {' '.join(PY_PACKAGES)} into {PYTHON_DIR.relative_to(ROOT)} (needs PyPI)")
        PYTHON_DIR.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--no-warn-script-location", "--root-user-action=ignore", "--upgrade",
               "--target", str(PYTHON_DIR), *PY_PACKAGES]
        if subprocess.run(cmd).returncode != 0:
            sys.exit("peers: pip could not install psycopg; run by hand:\n  " + " ".join(cmd))
        stamp.write_text(wanted)
    if str(PYTHON_DIR) not in sys.path:
        sys.path.insert(0, str(PYTHON_DIR))
    importlib.invalidate_caches()
    import psycopg
    return psycopg


# ---------------------------------------------------------------------------------------
# statistics

def apt_install(packages: list[str], what: str, present) -> float:
    """Installs Debian packages with apt-get when `present()` says they are missing (root
    only; otherwise exits with the command to run); returns the seconds it took (0 if
    nothing was missing)."""
    if present():
        return 0.0
    if os.geteuid() != 0:
        raise SystemExit(f"peers: {what} is not installed; as root run:\n"
                         f"  apt-get install -y --no-install-recommends {' '.join(packages)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    start = time.monotonic()
    log("installing", " ".join(packages), "with apt-get")
    if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        log("apt-get install failed; running apt-get update and trying again")
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL, check=True)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
    if not present():
        raise SystemExit(f"peers: apt-get ran but {what} is still missing")
    took = time.monotonic() - start
    log(f"installed in {took:.1f} s")
    return took


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * q // 100))   # ceil(n*q/100), at least 1
    return sorted_values[int(rank) - 1]


def summary_us(seconds: list[float]) -> dict:
    """p50, mean and p99 in microseconds of a list of durations in seconds."""
    values = sorted(s * 1e6 for s in seconds)
    if not values:
        return {"p50_us": "", "mean_us": "", "p99_us": ""}
    return {"p50_us": round(percentile(values, 50), 1),
            "mean_us": round(sum(values) / len(values), 1),
            "p99_us": round(percentile(values, 99), 1)}


# ---------------------------------------------------------------------------------------
# machine and versions

def machine() -> str:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1048576:.1f} GiB"
                break
    except OSError:
        pass
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores {model}; {mem}; Linux {platform.release()}; load {load} at start"


# A machine counts as quiet when, with the runner waiting, the rest of it keeps less than a
# quarter of a core busy.
QUIET_CORES = 0.25


def busy_cores(seconds: float = 1.0) -> float:
    """Cores busy over the next `seconds` (from /proc/stat), measured while this process
    sleeps: what the rest of the machine uses."""
    def sample():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)     # idle + iowait
        return sum(fields[:8]), idle
    total0, idle0 = sample()
    time.sleep(seconds)
    total1, idle1 = sample()
    elapsed = max(total1 - total0, 1)
    return round((os.cpu_count() or 1) * (1 - (idle1 - idle0) / elapsed), 2)


def wait_quiet(timeout: float, what: str) -> float:
    """Measures one-second windows until one is quiet (at most QUIET_CORES busy) or `timeout`
    seconds have passed; returns the last window's busy cores (logged when busy)."""
    deadline = time.monotonic() + timeout
    busy = busy_cores()
    while busy > QUIET_CORES and time.monotonic() < deadline:
        busy = busy_cores()
    if busy > QUIET_CORES:
        log(f"the machine is busy before {what}: {busy:.2f} cores in use by other processes")
    return busy


class QuietCheck:
    """The busy cores around one timed run: a quiet window (waited for, up to `wait`
    seconds) before it and one after it. `busy` is the larger; `quiet` says whether both
    were quiet. With `require`, a busy window stops the run with an error naming it."""

    def __init__(self, what: str, wait: float = 30.0, require: bool = False):
        self.what, self.wait, self.require = what, wait, require
        self.busy = 0.0

    def __enter__(self):
        self.busy = wait_quiet(self.wait, self.what)
        self._enforce("before")
        return self

    def __exit__(self, kind, value, traceback):
        if kind is None:
            after = busy_cores()
            if after > QUIET_CORES:
                log(f"the machine was busy after {self.what}: {after:.2f} cores in use by other processes")
            self.busy = max(self.busy, after)
            self._enforce("after")
        return False

    @property
    def quiet(self) -> bool:
        return self.busy <= QUIET_CORES

    def _enforce(self, when: str) -> None:
        if self.require and not self.quiet:
            raise SystemExit(f"peers: refusing a busy run: {self.busy:.2f} cores were in use by other processes {when} "
                             f"{self.what} (quiet is at most {QUIET_CORES}); stop them, or run without --require-quiet "
                             "to keep the figures marked busy")


def git_commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


# ---------------------------------------------------------------------------------------
# CSV

def write_csv(path: Path, rows: list[dict], workload: str) -> None:
    """Writes rows of COLUMNS to path, keeping rows of other workloads already in it, so
    several workloads can share one results file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = []
    if path.is_file():
        with open(path, newline="") as f:
            kept = [r for r in csv.DictReader(f) if r.get("workload") != workload]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="raise")
        w.writeheader()
        for r in kept + rows:
            w.writerow({c: r.get(c, "") for c in COLUMNS})
