#!/usr/bin/env python3
"""Durability benchmarks: Scout's journal against Redis's AOF, in one run on one machine.

    python3 Benchmarks/peers/durability.py --scout .build/release/scout            # full
    python3 Benchmarks/peers/durability.py --scout .build/release/scout --quick    # a minute

1. Write throughput: the same single-record writes (a point with two fields) streamed at full
   speed from one client, and sent one at a time (send, wait for the answer), to
   `scout serve --state DIR --fsync always|everysec|no` and to redis-server with
   `appendonly yes` and `appendfsync always|everysec|no` (each write MULTI / GEOADD / HSET /
   EXEC, so the point and its fields change together, as one Scout record does). Also Scout
   without --state and Redis without AOF, for what durability costs each.
   Batches: the same kind of records, BATCH (10,000) to a request, streamed: `upsert` of BATCH
   records to Scout (without --state and at each fsync policy), and to Redis one MULTI holding
   a GEOADD of BATCH members and an HSET a record (without AOF and at each appendfsync), in
   points a second.
2. Recovery: a state of N points (1M in full) as its snapshot plus a journal of further
   single-record writes; time from start to the first answer, against loading the same
   records from JSON Lines.
3. Compaction and reads: one client alternating a write and a nearest query on the N-point
   state; read latency with compaction never running against compaction running over and
   over (a tiny --compact-at).

Writes rows of common.COLUMNS (workload "durability") to .build/peers/durability.csv and
prints a table. Redis is Debian's redis-server, private directory and port, stopped by PID.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, git_commit, log, machine, now_utc, summary_us, write_csv  # noqa: E402
from postgis import free_port  # noqa: E402
from redis_geo import SERVER as REDIS_SERVER, ensure_installed  # noqa: E402
from scout_client import Serve  # noqa: E402  (scripts/, on sys.path through common)


def writes(n, seed=1):
    rng = random.Random(seed)
    for i in range(n):
        yield {"id": f"w{i % 50000}", "lat": round(rng.uniform(-85, 85), 6), "lon": round(rng.uniform(-180, 180), 6),
               "v": i, "tag": rng.choice(["a", "b", "c"])}


# ---------------------------------------------------------------------------------------------
# Scout

def start_scout(binary, args):
    """`scout serve ARGS`, answering (the time to the first answer is part of what is measured)."""
    s = Serve(binary, args, label="durability")
    s.wait_ready()
    return s


def stream_writes(s, requests):
    """Streams the writes (scout_client.Serve.stream); returns seconds until the last answer."""
    answers, seconds = s.stream(requests)
    failed = next((a for a in answers if b'"ok":false' in a), None)
    if failed is not None:
        raise SystemExit(f"durability: a write failed: {failed[-300:]!r}")
    return seconds


def scout_upsert(w):
    return {"op": "upsert", "records": [dict(w, kind="spot")]}


# ---------------------------------------------------------------------------------------------
# Redis (RESP over a socket, no client library)

def resp(*args):
    out = [f"*{len(args)}\r\n".encode()]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


BATCH = 10_000


def batches(n, seed):
    """`n` fresh records (ids no other write uses) in lists of BATCH."""
    out = []
    for i, w in enumerate(writes(n, seed)):
        if i % BATCH == 0:
            out.append([])
        out[-1].append(dict(w, id=f"b{i}"))
    return out


def scout_batch(ws):
    return {"op": "upsert", "records": [dict(w, kind="spot") for w in ws]}


def redis_batch(ws):
    geo = ["GEOADD", "spots"]
    for w in ws:
        geo += [w["lon"], w["lat"], w["id"]]
    return (resp("MULTI") + resp(*geo) + b"".join(resp("HSET", "spot:" + w["id"], "v", w["v"], "tag", w["tag"]) for w in ws)
            + resp("EXEC"))


def redis_write(w):
    return (resp("MULTI") + resp("GEOADD", "spots", w["lon"], w["lat"], w["id"])
            + resp("HSET", "spot:" + w["id"], "v", w["v"], "tag", w["tag"]) + resp("EXEC"))


class Redis:
    REPLIES_PER_WRITE = 4     # +OK, +QUEUED, +QUEUED, *2 (the EXEC array, with its two integers)

    def __init__(self, directory, appendfsync):
        ensure_installed()
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.port = free_port()
        aof = "appendonly no" if appendfsync is None else f"appendonly yes\nappendfsync {appendfsync}"
        (self.dir / "redis.conf").write_text(
            f"bind 127.0.0.1\nport {self.port}\nprotected-mode yes\ndir {self.dir}\nlogfile {self.dir}/redis.log\n"
            f"save \"\"\n{aof}\ndaemonize no\ndatabases 1\nauto-aof-rewrite-percentage 0\n")
        self.proc = subprocess.Popen([str(REDIS_SERVER), str(self.dir / "redis.conf")], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for _ in range(400):
            try:
                self.sock = socket.create_connection(("127.0.0.1", self.port))
                break
            except OSError:
                time.sleep(0.025)
        else:
            raise SystemExit(f"durability: redis-server did not start ({self.dir}/redis.log)")
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rfile = self.sock.makefile("rb")
        while True:   # loading an AOF answers -LOADING until done
            self.sock.sendall(resp("PING"))
            if self.rfile.readline().startswith(b"+PONG"):
                break
            time.sleep(0.01)

    def version(self):
        self.sock.sendall(resp("INFO", "server"))
        n = int(self.rfile.readline()[1:])
        text = self.rfile.read(n + 2).decode()
        return next(l.split(":")[1].strip() for l in text.splitlines() if l.startswith("redis_version"))

    def _read_reply(self):
        line = self.rfile.readline()
        if line[:1] == b"*":
            for _ in range(int(line[1:])):
                self._read_reply()
        elif line[:1] == b"$":
            n = int(line[1:])
            if n >= 0:
                self.rfile.read(n + 2)
        elif line[:1] == b"-":
            raise SystemExit(f"durability: redis error {line!r}")

    def one(self, w):
        self.sock.sendall(redis_write(w))
        for _ in range(self.REPLIES_PER_WRITE):
            self._read_reply()

    def stream(self, ws):
        data = [redis_write(w) for w in ws]
        start = time.perf_counter()

        def writer():
            for i in range(0, len(data), 256):
                self.sock.sendall(b"".join(data[i:i + 256]))
        t = threading.Thread(target=writer, daemon=True)
        t.start()
        for _ in range(len(data) * self.REPLIES_PER_WRITE):
            self._read_reply()
        elapsed = time.perf_counter() - start
        t.join()
        return elapsed

    def stream_batches(self, bs):
        """Streams MULTI / GEOADD of a batch / an HSET a record / EXEC; seconds to the last reply."""
        data = [redis_batch(b) for b in bs]
        # Every reply here is one line (+OK, +QUEUED, :n), but EXEC's: a *n line and n lines. So a
        # batch answers 2 x records + 4 lines, counted in bulk (parsing 20,000 replies a batch in
        # Python would time this client, not Redis).
        lines = sum(2 * len(b) + 4 for b in bs)
        start = time.perf_counter()

        def writer():
            for d in data:
                self.sock.sendall(d)
        t = threading.Thread(target=writer, daemon=True)
        t.start()
        seen, tail = 0, b"\n"
        while seen < lines:
            chunk = self.rfile.read1(1 << 20)
            if not chunk:
                raise SystemExit("durability: redis closed the connection")
            if b"\n-" in tail[-1:] + chunk:                  # an error reply starts a line with -
                raise SystemExit(f"durability: redis error in {chunk[:200]!r}")
            seen += chunk.count(b"\n")
            tail = chunk
        elapsed = time.perf_counter() - start
        t.join()
        return elapsed

    def stop(self):
        try:
            self.sock.sendall(resp("SHUTDOWN", "NOSAVE"))
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            if b"redis-server" in Path(f"/proc/{self.proc.pid}/cmdline").read_bytes():
                os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scout", default=str(ROOT / ".build/release/scout"))
    ap.add_argument("--quick", action="store_true", help="small sizes (about a minute)")
    ap.add_argument("--csv", default=str(OUT / "durability.csv"))
    args = ap.parse_args()
    streamed = 5000 if args.quick else 50000
    single = 300 if args.quick else 3000
    points = 100_000 if args.quick else 1_000_000
    batch_points = 100_000 if args.quick else 1_000_000
    journal_writes = 10_000 if args.quick else 100_000
    work = Path(tempfile.mkdtemp(prefix="scout-durability-", dir=OUT if OUT.exists() else None))
    rows, table = [], []
    base = {"run_at": now_utc(), "workload": "durability", "machine": machine(), "commit": git_commit(), "seed": 1}
    redis_version = None

    def row(query, system, plan, metric, **kw):
        rows.append(dict(base, query=query, system=system, plan=plan, metric=metric, **kw))

    # 1. Write throughput and latency: the same writes, streamed and then one at a time.
    def measure(system, name, stream, one, stop, stream_batches):
        secs = stream(list(writes(streamed, seed=2)))
        bs = batches(batch_points, seed=7)
        batch_secs = stream_batches(bs)
        lat = []
        for w in writes(single, seed=3):
            t = time.perf_counter()
            one(w)
            lat.append(time.perf_counter() - t)
        stop()
        row("write", system, name, "streamed", value=round(streamed / secs), unit="writes/s", queries=streamed)
        row("write", system, name, "round_trip", queries=single, **summary_us(lat))
        row("batch_write", system, name, "streamed", value=round(batch_points / batch_secs), unit="points/s",
            queries=len(bs), plan_detail=f"{len(bs)} batches of {BATCH:,} records")
        table.append(("write", system, name, f"{streamed / secs:,.0f}/s", f"{summary_us(lat)['p50_us']} µs"))
        log(table[-1])
        table.append(("batch write", system, name, f"{batch_points / batch_secs:,.0f} points/s", f"batches of {BATCH:,}"))
        log(table[-1])

    for policy in [None, "always", "everysec", "no"]:
        s = start_scout(args.scout, ["--state", str(work / f"scout-{policy}"), "--fsync", policy] if policy else [])
        measure("scout", f"fsync {policy}" if policy else "no state",
                lambda ws: stream_writes(s, (scout_upsert(w) for w in ws)), lambda w: s.ask(scout_upsert(w)),
                lambda: s.close(600), lambda bs: stream_writes(s, (scout_batch(b) for b in bs)))
        r = Redis(work / f"redis-{policy}", policy)
        redis_version = redis_version or r.version()
        measure("redis", f"appendfsync {policy}" if policy else "no AOF", r.stream, r.one, r.stop, r.stream_batches)

    # 2. Recovery of `points` records plus a journal of `journal_writes`.
    records = work / "points.jsonl"
    rng = random.Random(4)
    with open(records, "w") as f:
        for i in range(points):
            f.write(json.dumps({"id": f"p{i}", "kind": "spot", "lat": round(rng.uniform(-85, 85), 6),
                                "lon": round(rng.uniform(-180, 180), 6), "v": i}) + "\n")
    state = work / "state-big"
    t = time.perf_counter()
    s = start_scout(args.scout, ["--load", str(records), "--state", str(state), "--compact-at", "4G"])
    created = time.perf_counter() - t
    stream_writes(s, (scout_upsert(w) for w in writes(journal_writes, seed=5)))
    s.close(600)
    t = time.perf_counter()
    s = start_scout(args.scout, ["--state", str(state), "--compact-at", "4G"])
    recovered = time.perf_counter() - t
    s.close(600)
    t = time.perf_counter()
    s = start_scout(args.scout, ["--load", str(records)])
    from_jsonl = time.perf_counter() - t
    s.close(600)
    row("recovery", "scout", f"snapshot {points} + journal {journal_writes}", "start_to_answer", value=round(recovered, 3), unit="s", points=points)
    row("recovery", "scout", f"JSON Lines {points}", "start_to_answer", value=round(from_jsonl, 3), unit="s", points=points)
    row("recovery", "scout", f"first start: JSON Lines {points} + snapshot-0", "start_to_answer", value=round(created, 3), unit="s", points=points)
    table.append(("recovery", "scout", f"{points:,} snapshot + {journal_writes:,} journal", f"{recovered:.2f} s",
                  f"JSON Lines alone {from_jsonl:.2f} s"))
    log(table[-1])

    # 3. Read latency while compaction runs.
    for label, compact in (("never compacting", "4G"), ("compacting", "64K")):
        s = start_scout(args.scout, ["--state", str(state), "--compact-at", compact, "--fsync", "everysec"])
        lat = []
        rng = random.Random(6)
        t_end = time.perf_counter() + (10 if args.quick else 30)
        i = 0
        while time.perf_counter() < t_end:
            i += 1
            s.ask(scout_upsert({"id": f"c{i % 1000}", "lat": 10.0, "lon": 20.0, "v": i, "tag": "x"}))
            q = {"op": "nearest", "kind": "spot", "from": {"lat": round(rng.uniform(-80, 80), 4), "lon": round(rng.uniform(-179, 179), 4)}, "k": 5}
            t = time.perf_counter()
            s.ask(q)
            lat.append(time.perf_counter() - t)
        s.close(600)
        compactions = sum("compacted" in l for l in s.stderr_lines)
        row("read_during_compaction", "scout", label, "round_trip", queries=len(lat), plan_detail=f"{compactions} compactions",
            points=points, **summary_us(lat))
        sm = summary_us(lat)
        table.append(("nearest k=5", "scout", f"{label} ({compactions} compactions)", f"p50 {sm['p50_us']} µs", f"p99 {sm['p99_us']} µs"))
        log(table[-1])

    versions = f"redis {redis_version}; scout {subprocess.run([args.scout, 'version'], capture_output=True, text=True).stdout.strip()}"
    for r in rows:
        r["versions"] = versions
    write_csv(Path(args.csv), rows, "durability")
    print(f"durability: {machine()}; {versions}")
    for t in table:
        print(" | ".join(str(x) for x in t))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
