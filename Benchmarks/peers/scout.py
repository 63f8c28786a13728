"""Scout as a peer: `scout serve` through a pipe (JSON Lines both ways, docs/protocol.md).

    with ScoutServe(binary, ["--exact-dog-locations", "--data", "data", "--load", ...]) as s:
        answers, seconds = s.stream(requests)        # all written at once
        answer, seconds = s.round_trip(request)      # one at a time

The pipes are scripts/scout_client.py's (the one client of `scout serve`); this adds the
peers' conventions: the worker runs in the repository, its stderr goes to
.build/peers/scout-serve-PID.log (removed after a clean exit), answers come back parsed.

The binary: `--scout PATH`, else $SCOUT_BIN, else the package's release build
(`swift build -c release --show-bin-path`), brought up to date with `swift build -c release
--product scout` before each run (a stale binary once measured older code).
"""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from common import OUT, ROOT, log
from scout_client import Serve, ServeError, encode


def find_binary(explicit: str | None, build: bool = True) -> Path:
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise SystemExit(f"peers: no scout binary at {path}")
        return path.resolve()
    if os.environ.get("SCOUT_BIN"):
        return find_binary(os.environ["SCOUT_BIN"], build=False)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    path = Path(bin_dir) / "scout"
    if not build:
        if not path.is_file():
            raise SystemExit(f"peers: no scout binary at {path}")
        return path
    # Always build (incremental: seconds when up to date), so that a run measures this
    # checkout and never a release binary left from older sources.
    log("building scout (swift build -c release --product scout)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "scout"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return path


def binary_version(binary: Path) -> str:
    """`version` of the ping op, plus the binary's modification time (it says which build)."""
    try:
        with Serve(binary, cwd=ROOT, stderr=subprocess.DEVNULL, label="peers") as s:
            version = s.wait_ready(timeout=60)["result"]["version"]
    except (ServeError, KeyError, ValueError):
        version = "?"
    built = time.strftime("%Y-%m-%d %H:%M", time.gmtime(binary.stat().st_mtime))
    where = binary.relative_to(ROOT) if binary.is_relative_to(ROOT) else binary
    return f"scout {version} ({where}, built {built} UTC)"


class ScoutServe:
    def __init__(self, binary: Path, args: list[str]):
        self.binary = binary
        self.args = args
        self.serve: Serve | None = None
        self.proc: subprocess.Popen | None = None
        self.stderr_path = OUT / f"scout-serve-{os.getpid()}.log"
        self.load_seconds = 0.0

    def __enter__(self) -> "ScoutServe":
        OUT.mkdir(parents=True, exist_ok=True)
        self.stderr_path.write_bytes(b"")
        self.serve = Serve(self.binary, self.args, cwd=ROOT, stderr=self.stderr_path, label="peers")
        self.proc = self.serve.proc
        self.serve.wait_ready()                                       # waits for the load
        self.load_seconds = self.serve.ready_seconds
        return self

    def __exit__(self, exc_type, *exc) -> None:
        code = None
        if self.serve is not None:
            code = self.serve.close(timeout=30)
            self.serve = self.proc = None
        if exc_type is None and code == 0:
            self.stderr_path.unlink(missing_ok=True)   # kept only when something went wrong

    def round_trip(self, request: dict) -> tuple[dict, float]:
        data = encode(request)
        start = time.perf_counter()
        self.serve.write(data)
        line = self.serve.read_line()
        took = time.perf_counter() - start
        return json.loads(line), took

    def stream(self, requests: list[dict]) -> tuple[list[dict], float]:
        """Writes every request at once (one write, from a thread so the pipe cannot fill
        up while nobody reads) and reads the answers; returns them and the seconds from the
        first write to the last answer line."""
        lines, seconds = self.serve.stream(requests)
        return [json.loads(line) for line in lines], seconds
