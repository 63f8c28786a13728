"""Redis as a peer: a private, throw-away `redis-server` on loopback, for its GEO commands.

    with RedisGeo() as r:                 # installs Debian's redis-server if missing
        r.client.geoadd(...)              # redis-py client (pinned in notebooks/requirements.txt)

What it does, and never does:
- installs `redis-server` with apt-get (non-interactive, no recommends) when
  /usr/bin/redis-server is missing. The Debian package may also set up its own service; this
  module never starts, stops or talks to it;
- starts `redis-server` from a config file in `.build/peers/redis-<pid>/` (0700): bound to
  127.0.0.1 only, a port picked free, a unix socket in that directory, no persistence (no RDB
  snapshots, no AOF), protected mode on, its working directory and log in that directory;
- on exit (also on an exception or Ctrl-C) sends SHUTDOWN NOSAVE, then stops the server by
  its own PID (from the Popen handle, after checking /proc names redis-server) if it lingers,
  and removes the directory.

Semantics (from Redis's documentation of GEOADD/GEOSEARCH): positions are stored as 52-bit
geohashes (26 bits of longitude and of latitude: ~0.6 m steps at the equator), distances are
haversine on a sphere of radius 6,372,797.560856 m, latitudes are limited to ±85.05112878°
(GEOADD refuses points nearer the poles).
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from common import OUT, apt_install, log

SERVER = Path("/usr/bin/redis-server")
PACKAGES = ["redis-server"]
REDIS_RADIUS_M = 6372797.560856
MAX_LAT = 85.05112878


def ensure_installed() -> float:
    """Installs Debian's redis-server when missing; returns the seconds it took (0 if nothing)."""
    return apt_install(PACKAGES, f"redis-server ({SERVER})", SERVER.is_file)

class RedisGeo:
    def __init__(self, base: Path | None = None):
        self.base = base or OUT
        self.dir: Path | None = None
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.client = None

    def __enter__(self) -> "RedisGeo":
        import redis                     # redis-py, from the notebooks' virtual environment
        from postgis import free_port
        ensure_installed()
        self.dir = self.base / f"redis-{os.getpid()}"
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True, mode=0o700)
        try:
            for _ in range(5):
                self.port = free_port()
                conf = self.dir / "redis.conf"
                conf.write_text("\n".join([
                    "bind 127.0.0.1", f"port {self.port}", f"unixsocket {self.dir}/redis.sock",
                    "unixsocketperm 700", "protected-mode yes", f"dir {self.dir}",
                    f"logfile {self.dir}/redis.log", 'save ""', "appendonly no",
                    "daemonize no", "databases 1", ""]))
                self.proc = subprocess.Popen([str(SERVER), str(conf)], stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)
                self.client = redis.Redis(host="127.0.0.1", port=self.port)
                for _ in range(200):
                    try:
                        if self.client.ping():
                            break
                    except redis.ConnectionError:
                        if self.proc.poll() is not None:
                            break
                        time.sleep(0.025)
                if self.proc.poll() is None:
                    break
            else:
                raise SystemExit(f"peers: redis-server did not start; see {self.dir}/redis.log")
        except BaseException:
            self._stop()
            raise
        log(f"Redis {self.version()} on 127.0.0.1:{self.port}, pid {self.proc.pid}, {self.dir}")
        return self

    def __exit__(self, *exc) -> None:
        self._stop()

    def version(self) -> str:
        return self.client.info("server")["redis_version"]

    def _stop(self) -> None:
        if self.proc is not None:
            try:
                self.client.shutdown(nosave=True)
            except Exception:
                pass                       # the connection closes as the server exits
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                cmdline = Path(f"/proc/{self.proc.pid}/cmdline").read_bytes()
                if b"redis-server" in cmdline:
                    os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            self.proc = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
