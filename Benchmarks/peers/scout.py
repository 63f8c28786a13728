"""Scout as a peer: `scout serve` through a pipe (JSON Lines both ways, docs/protocol.md).

    with ScoutServe(binary, ["--exact-dog-locations", "--data", "data", "--load", ...]) as s:
        answers, seconds = s.stream(requests)        # all written at once
        answer, seconds = s.round_trip(request)      # one at a time

The binary: `--scout PATH`, else $SCOUT_BIN, else the package's release build
(`swift build -c release --show-bin-path`), brought up to date with `swift build -c release
--product scout` before each run (a stale binary once measured older code).
"""
from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

from common import OUT, ROOT, log


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
    r = subprocess.run([str(binary), "serve"], input='{"op":"ping"}\n', capture_output=True,
                       text=True, cwd=ROOT, timeout=60)
    try:
        version = json.loads(r.stdout.splitlines()[0])["result"]["version"]
    except (IndexError, KeyError, ValueError):
        version = "?"
    built = time.strftime("%Y-%m-%d %H:%M", time.gmtime(binary.stat().st_mtime))
    where = binary.relative_to(ROOT) if binary.is_relative_to(ROOT) else binary
    return f"scout {version} ({where}, built {built} UTC)"


class ScoutServe:
    def __init__(self, binary: Path, args: list[str]):
        self.binary = binary
        self.args = args
        self.proc: subprocess.Popen | None = None
        self.stderr_path = OUT / f"scout-serve-{os.getpid()}.log"
        self.load_seconds = 0.0

    def __enter__(self) -> "ScoutServe":
        OUT.mkdir(parents=True, exist_ok=True)
        self._stderr = open(self.stderr_path, "wb")
        start = time.monotonic()
        self.proc = subprocess.Popen([str(self.binary), "serve", *self.args], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr)
        answer, _ = self.round_trip({"id": "ready", "op": "ping"})   # waits for the load
        if not answer.get("ok"):
            raise SystemExit(f"peers: scout serve did not answer ping: {answer}")
        self.load_seconds = time.monotonic() - start
        return self

    def __exit__(self, exc_type, *exc) -> None:
        code = None
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()          # our own child, by its Popen handle
                self.proc.wait()
            code = self.proc.returncode
            self.proc = None
        self._stderr.close()
        if exc_type is None and code == 0:
            self.stderr_path.unlink(missing_ok=True)   # kept only when something went wrong

    def _read_line(self) -> bytes:
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"peers: scout serve ended early; see {self.stderr_path}")
        return line

    def round_trip(self, request: dict) -> tuple[dict, float]:
        data = (json.dumps(request, separators=(",", ":")) + "\n").encode()
        start = time.perf_counter()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        line = self._read_line()
        took = time.perf_counter() - start
        return json.loads(line), took

    def stream(self, requests: list[dict]) -> tuple[list[dict], float]:
        """Writes every request at once (one write, from a thread so the pipe cannot fill
        up while nobody reads) and reads the answers; returns them and the seconds from the
        first write to the last answer line."""
        blob = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in requests).encode()
        started = []

        def write():
            started.append(time.perf_counter())
            self.proc.stdin.write(blob)
            self.proc.stdin.flush()

        writer = threading.Thread(target=write)
        writer.start()
        lines = [self._read_line() for _ in requests]
        end = time.perf_counter()
        writer.join()
        return [json.loads(line) for line in lines], end - started[0]
