"""PostgreSQL 15 + PostGIS 3 as a peer: a private, throw-away cluster on loopback.

    with PostGIS() as pg:                  # installs the Debian packages if missing
        with pg.connect() as conn: ...     # psycopg 3 connection to the benchmark database

What it does, and never does:
- installs `postgresql-15 postgresql-15-postgis-3` with apt-get (non-interactive, no
  recommends) when PostGIS's control file is missing; `apt-get update` first only if the
  install fails. On a fresh Debian, installing postgresql-15 also makes Debian's own `main`
  cluster (port 5432): this module never starts, stops, reads or writes it;
- `initdb`s a new cluster in `.build/peers/pg-<pid>/data` (C locale, UTF-8, trust
  authentication: only loopback and a socket in a 0700 directory can reach it); when the
  cluster's OS user cannot reach the work tree (a parent directory not searchable by
  others), in a private `mkdtemp` directory instead;
- starts it with `pg_ctl` listening on 127.0.0.1 only, on a free port picked here, with its
  unix socket in `.build/peers/pg-<pid>/`; creates the database `peers` and
  `CREATE EXTENSION postgis` in it;
- on exit (also on an exception or Ctrl-C) stops the postmaster by the PID in its
  `postmaster.pid` (SIGINT: fast shutdown, then SIGQUIT, then SIGKILL), after checking that
  this PID is a postgres process whose command line names this cluster's directory, and
  removes the directory.

Root: PostgreSQL refuses to run as root, so the cluster runs as the `postgres` OS user
(which the Debian package creates) through `runuser -u postgres --`; when there is no such
user, a system user `scout-peers` is created for it. As any other user it runs as that user.

Settings (appended to postgresql.conf; see README.md for why): one core per query
(`max_parallel_workers_per_gather = 0`, as Scout runs with `--threads 1`), `jit = off`
(LLVM compilation only adds time to queries of these sizes), durability off (fsync,
synchronous_commit, full_page_writes: a throw-away cluster; this speeds up the load only).
"""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from common import OUT, apt_install, import_psycopg, log

PG_MAJOR = "15"
PACKAGES = [f"postgresql-{PG_MAJOR}", f"postgresql-{PG_MAJOR}-postgis-3"]
BINDIR = Path(f"/usr/lib/postgresql/{PG_MAJOR}/bin")
SHAREDIR = Path(f"/usr/share/postgresql/{PG_MAJOR}")
DATABASE = "peers"
SUPERUSER = "postgres"            # the database role, whatever the OS user is
FALLBACK_OS_USER = "scout-peers"

SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "max_parallel_workers_per_gather": "0",
    "jit": "off",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "'128MB'",
    "log_min_messages": "warning",
    "logging_collector": "off",
}


def installed() -> bool:
    return (BINDIR / "pg_ctl").is_file() and (SHAREDIR / "extension" / "postgis.control").is_file()


def ensure_installed() -> float:
    """Installs the Debian packages when missing; returns the seconds it took (0 if nothing)."""
    return apt_install(PACKAGES, f"PostgreSQL 15 + PostGIS 3 ({BINDIR}/pg_ctl, postgis.control)", installed)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _os_user() -> str | None:
    """The OS user the cluster runs as when we are root (None: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", FALLBACK_OS_USER):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            pass
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    FALLBACK_OS_USER], check=True)
    return FALLBACK_OS_USER


class PostGIS:
    """A private PostgreSQL + PostGIS cluster for the life of a `with` block."""

    def __init__(self, base: Path | None = None, keep: bool = False):
        self.base = base or OUT
        self.keep = keep               # keep the directory (for debugging); the server still stops
        self.dir: Path | None = None
        self.port: int | None = None
        self.user: str | None = None
        self.pid: int | None = None
        self.install_seconds = 0.0
        self.start_seconds = 0.0

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> "PostGIS":
        self.install_seconds = ensure_installed()
        start = time.monotonic()
        self.user = _os_user()
        self.dir = self.base / f"pg-{os.getpid()}"
        if self.dir.exists():
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True, mode=0o700)
        try:
            if self.user and not self._reachable():
                # A parent of the work tree is not searchable by that user: use a private
                # directory in the temporary directory instead.
                shutil.rmtree(self.dir)
                self.dir = Path(tempfile.mkdtemp(prefix=f"scout-peers-pg-{os.getpid()}-"))
                log(f"{self.base} is not reachable by the OS user {self.user}; cluster in {self.dir}")
                if not self._reachable():
                    raise SystemExit(f"peers: {self.dir} is not writable by the OS user {self.user}")
            self._init_and_start()
        except BaseException:
            self._stop_and_remove()
            raise
        self.start_seconds = time.monotonic() - start
        log(f"PostgreSQL {self.server_version()} + PostGIS {self.postgis_version()} on "
            f"127.0.0.1:{self.port}, pid {self.pid}, {self.dir} (ready in {self.start_seconds:.1f} s)")
        return self

    def __exit__(self, *exc) -> None:
        self._stop_and_remove()

    def _run(self, argv: list[str], **kw) -> subprocess.CompletedProcess:
        if self.user:
            argv = ["runuser", "-u", self.user, "--", *argv]
        return subprocess.run(argv, cwd=self.dir, **kw)

    def _reachable(self) -> bool:
        """Gives the directory to the cluster's OS user; True when that user can write it."""
        entry = pwd.getpwnam(self.user)
        os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        return subprocess.run(["runuser", "-u", self.user, "--", "test", "-w", str(self.dir)],
                              cwd="/").returncode == 0

    def _init_and_start(self) -> None:
        assert self.dir is not None
        data = self.dir / "data"
        r = self._run([str(BINDIR / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
                       "-E", "UTF8", "--locale=C", "--no-sync"],
                      capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"peers: initdb failed:\n{r.stdout}{r.stderr}")
        socket_dir = self.dir if len(str(self.dir)) < 90 else None   # sun_path is 107 bytes
        last_error = ""
        for _ in range(5):                       # a port picked free may be taken meanwhile
            self.port = free_port()
            settings = dict(SETTINGS, port=str(self.port),
                            unix_socket_directories=f"'{socket_dir}'" if socket_dir else "''")
            conf = "".join(f"{k} = {v}\n" for k, v in settings.items())
            self._run(["sh", "-c", f"cat >> {data}/postgresql.auto.conf"], input=conf, text=True,
                      check=True)
            r = self._run([str(BINDIR / "pg_ctl"), "-D", str(data), "-l", str(self.dir / "server.log"),
                           "-w", "-t", "60", "start"], capture_output=True, text=True)
            pid_file = data / "postmaster.pid"
            if r.returncode == 0 and pid_file.is_file():
                self.pid = int(pid_file.read_text().split("\n", 1)[0])
                break
            last_error = r.stdout + r.stderr + self._tail_log()
        else:
            raise SystemExit(f"peers: PostgreSQL did not start:\n{last_error}")
        with self.connect(dbname="postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        with self.connect(autocommit=True) as conn:
            conn.execute("CREATE EXTENSION postgis")

    def _tail_log(self) -> str:
        try:
            return (self.dir / "server.log").read_text()[-2000:]
        except OSError:
            return ""

    def _is_our_postmaster(self, pid: int) -> bool:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        return bool(cmdline) and cmdline[0].endswith(b"postgres") and \
            str(self.dir / "data").encode() in cmdline

    def _stop_and_remove(self) -> None:
        if self.dir is None:
            return
        pid_file = self.dir / "data" / "postmaster.pid"
        pid = self.pid
        if pid is None and pid_file.is_file():
            try:
                pid = int(pid_file.read_text().split("\n", 1)[0])
            except ValueError:
                pid = None
        if pid is not None and self._is_our_postmaster(pid):
            for sig, wait in ((signal.SIGINT, 30.0), (signal.SIGQUIT, 10.0), (signal.SIGKILL, 10.0)):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    break
                deadline = time.monotonic() + wait
                while time.monotonic() < deadline and self._is_our_postmaster(pid):
                    time.sleep(0.05)
                if not self._is_our_postmaster(pid):
                    break
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    # -- use -------------------------------------------------------------------------------

    def connect(self, dbname: str = DATABASE, autocommit: bool = True):
        psycopg = import_psycopg()
        return psycopg.connect(host="127.0.0.1", port=self.port, user=SUPERUSER, dbname=dbname,
                               autocommit=autocommit)

    def server_version(self) -> str:
        with self.connect(dbname="postgres") as conn:
            return conn.execute("SHOW server_version").fetchone()[0].split()[0]

    def postgis_version(self) -> str:
        with self.connect() as conn:
            return conn.execute("SELECT postgis_lib_version()").fetchone()[0]

    def versions(self) -> str:
        with self.connect() as conn:
            full = conn.execute("SELECT postgis_full_version()").fetchone()[0]
        # e.g. POSTGIS="3.3.2 4975da8" ... GEOS="3.11.1-CAPI-1.17.1" PROJ="9.1.1 ..."
        parts = {}
        for token in full.replace('" ', '"\n').split("\n"):
            if "=" in token:
                key, _, value = token.partition("=")
                parts[key.strip()] = value.strip('" ').split(" ")[0]
        return (f"PostgreSQL {self.server_version()}, PostGIS {parts.get('POSTGIS', '?')} "
                f"(GEOS {parts.get('GEOS', '?')}, PROJ {parts.get('PROJ', '?')})")


if __name__ == "__main__":
    # Smoke test: start, show versions, stop.
    with PostGIS() as pg:
        print(pg.versions())
        print("data directory:", pg.dir)
