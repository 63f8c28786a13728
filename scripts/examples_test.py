#!/usr/bin/env python3
"""Runs the programs of Examples/ScoutService as a new user would (scripts/examples_test.sh
builds them): the library tour, whose output must show each step of the README's library
section, and the Hummingbird service, driven over HTTP on 127.0.0.1 (a free port), stopped
with SIGTERM (a graceful shutdown closes Scout's journal) and started again on the same
state directory, where the vote it took before must still be there. Prints one summary line,
`examples: passed ...`, or fails with what was wrong."""
import argparse, json, os, re, shutil, signal, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message, stderr=""):
    print(f"examples: FAILED: {message}", file=sys.stderr)
    if stderr:
        print("last lines of the program's stderr:\n" + "\n".join(stderr.splitlines()[-20:]), file=sys.stderr)
    sys.exit(1)


def library_tour(bin_dir):
    run = subprocess.run([os.path.join(bin_dir, "library-tour")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        fail(f"library-tour exited {run.returncode}", run.stderr + run.stdout)
    lines = run.stdout.splitlines()
    def having(prefix):
        return [l for l in lines if l.startswith(prefix + " ")]
    dogs, activities, gyms = having("dog"), having("activity"), having("gym")
    if len(dogs) != 5:
        fail(f"library-tour found {len(dogs)} dogs near Galway, not 5:\n{run.stdout}")
    distances = [float(l.split()[2]) for l in dogs]
    if distances != sorted(distances):
        fail(f"library-tour's dogs are not nearest first: {distances}")
    if not having("reviewed") or not having("lovers") or int(having("lovers")[0].split()[1]) < 1:
        fail(f"library-tour did not review a dog or list the lovers:\n{run.stdout}")
    if len(activities) != 2:
        fail(f"library-tour was offered {len(activities)} activities, not 2 (this or that):\n{run.stdout}")
    if not 1 <= len(gyms) <= 3:
        fail(f"library-tour ranked {len(gyms)} gyms near Dublin:\n{run.stdout}")
    if having("recovered") != ["recovered gym-new"]:
        fail(f"library-tour's durable engine did not recover its write:\n{run.stdout}")
    return len(lines)


class Service:
    """dog-park-service on a free loopback port, over a state directory."""

    def __init__(self, bin_dir, state):
        self.proc = subprocess.Popen([os.path.join(bin_dir, "dog-park-service"), "--port", "0", "--state", state],
                                     cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines = []
        threading.Thread(target=lambda: self.lines.extend(iter(self.proc.stderr.readline, "")), daemon=True).start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for line in list(self.lines):
                m = re.search(r"listening on port (\d+)", line)
                if m:
                    self.port = int(m.group(1))
                    return
            if self.proc.poll() is not None:
                fail(f"dog-park-service exited {self.proc.returncode} before listening", self.log)
            time.sleep(0.05)
        self.proc.kill()
        fail("dog-park-service did not listen within 120 s", self.log)

    @property
    def log(self):
        return "".join(self.lines)

    def call(self, path, method="GET", expect=200):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, body = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, body = e.code, e.read().decode()
        if status != expect:
            fail(f"{method} {path} answered {status}, expected {expect}: {body[:300]}", self.log)
        return body

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("dog-park-service did not stop within 30 s of SIGTERM", self.log)
        if self.proc.returncode != 0:
            fail(f"dog-park-service exited {self.proc.returncode} after SIGTERM", self.log)


def service(bin_dir):
    state = tempfile.mkdtemp(prefix="scout-dog-park-")
    try:
        s = Service(bin_dir, state)
        dogs = json.loads(s.call("/dogs/near?place=Galway&km=20&good_with_dogs=4&limit=5"))["dogs"]
        if not dogs or [d["metres"] for d in dogs] != sorted(d["metres"] for d in dogs) or any(d["metres"] > 20_000 for d in dogs):
            fail(f"/dogs/near answered {dogs}")
        offers = json.loads(s.call("/this-or-that?breed=Beagle&born=2021-04-02&kg=11&place=Galway&celsius=9&now=2026-11-28T10:30:00Z&seed=7"))
        if len(offers["offers"]) != 2 or not all(o["reasons"] for o in offers["offers"]) or not offers["weights"]:
            fail(f"/this-or-that answered {offers}")
        gyms = json.loads(s.call("/gyms?place=Dublin&limit=3"))
        if not gyms["gyms"] or len(gyms["gyms"]) > 3:
            fail(f"/gyms answered {gyms}")
        scores = [g["score"] for g in gyms["gyms"]]
        if scores != sorted(scores, reverse=True):
            fail(f"/gyms is not best first: {scores}")
        gym = gyms["gyms"][0]["id"]
        first = json.loads(s.call(f"/gyms/{gym}/votes?voter=examples-test&up=true", method="POST"))
        if first != {"id": gym, "replaced": False}:
            fail(f"the first vote answered {first}")
        s.call("/dogs/near?place=Nowhere-Such-Town", expect=404)
        s.call("/this-or-that?breed=Beagle&born=yesterday&place=Galway", expect=400)
        metrics = s.call("/metrics")
        for name in ["scout_journal_flushes_total", "scout_journal_flush_duration_seconds", "hb_requests"]:
            if name not in metrics:
                fail(f"/metrics has no {name}:\n{metrics[:2000]}")
        s.stop()
        # Started again on the same state: the vote was journalled, so the same voter's vote is a retry.
        again = Service(bin_dir, state)
        second = json.loads(again.call(f"/gyms/{gym}/votes?voter=examples-test&up=true", method="POST"))
        if second != {"id": gym, "replaced": True}:
            fail(f"after a restart the same vote answered {second}: the first one was lost", again.log)
        again.stop()
        return len(dogs), len(gyms["gyms"])
    finally:
        shutil.rmtree(state, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--bin", required=True, help="the bin folder of Examples/ScoutService's build")
    a = p.parse_args()
    started = time.monotonic()
    tour_lines = library_tour(a.bin)
    dogs, gyms = service(a.bin)
    print(f"examples: passed: library-tour ({tour_lines} lines), dog-park-service over HTTP ({dogs} dogs, {gyms} gyms, "
          f"a vote kept across a SIGTERM and restart) in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
