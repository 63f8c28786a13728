#!/usr/bin/env python3
"""Crash test for `scout serve --state` (docs/operations.md#crash-test).

Over and over: start the worker on a state directory, stream writes at full speed from one
thread (single and batch upserts, removes, reviews, votes, and the care log of two pets that
two owners share) while another reads the answers,
kill the worker with SIGKILL at a random moment (often in the middle of a compaction, since
--compact-at is small), restart it, and check that

  * every write whose answer was read is there (the recovered state is the state after a
    prefix of the writes sent that includes every answered one),
  * no batch is half there (a batch is one write, so the prefix holds it whole or not at all),
  * queries answer byte for byte as a worker that never crashed and applied the same
    writes (a second `scout serve` without state, fed the surviving writes).

The fsync policy cycles through always, everysec and no: a SIGKILL kills the process, not
the kernel, so under every policy an answered write must survive.

    python3 scripts/crash_test.py --scout .build/debug/scout --kills 10      # in scripts/test.sh
    python3 scripts/crash_test.py --scout .build/release/scout --kills 100   # the full run
"""
import argparse
import itertools
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time

from scout_client import Serve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data")
SPOTS = 400          # ids spot-0 … spot-399 of an untyped kind, upserted and removed
DOGS = 30            # the first dogs of the sample, reviewed
GYMS = 30            # the first gyms of the sample, voted on
POLICIES = ["always", "everysec", "no"]
# Pets loaded at every start (a pet tracker's), whose care entries care-0 … care-199 the
# stream logs, edits and removes; both owners log, and the entries are read back by owner.
PETS = [{"id": "pet-rex", "kind": "pet", "name": "Rex", "species": "dog", "breed": "Beagle", "birth_date": "2021-04-02",
         "owners": ["u-anna", "u-tom"]},
        {"id": "pet-mia", "kind": "pet", "name": "Mia", "species": "kot", "birth_date": "2019-08-30", "owners": ["u-anna"],
         "visibility": "shared", "shared_with": ["u-sitter"]}]
CARE = 200


def sample_ids(name, n):
    ids = []
    with open(os.path.join(DATA, "sample", name)) as f:
        for line in f:
            ids.append(json.loads(line)["id"])
            if len(ids) == n:
                break
    return ids


class Writes:
    """A seeded stream of write requests, and the effect of each on a small model."""

    def __init__(self, seed, dogs, gyms):
        self.rng = random.Random(seed)
        self.dogs, self.gyms = dogs, gyms
        self.counter = 0

    def spot(self):
        r = self.rng
        lat = r.choice([90.0, -90.0, 0.0, round(r.uniform(-89.9, 89.9), 6)])
        lon = r.choice([180.0, -180.0, 179.999999, round(r.uniform(-180, 180), 6)])
        self.counter += 1
        rec = {"id": f"spot-{r.randrange(SPOTS)}", "kind": "spot", "v": self.counter, "tag": r.choice(["a", "ż", "\"q\"", "x y"])}
        if r.random() < 0.8:
            rec["lat"], rec["lon"] = lat, lon
        return rec

    def care(self):
        r = self.rng
        self.counter += 1
        pet = r.choice(PETS)
        day, hour = r.randrange(1, 28), r.randrange(0, 24)
        rec = {"id": f"care-{r.randrange(CARE)}", "kind": "care", "pet_id": pet["id"],
               "type": r.choice(["feeding", "walk", "vet_visit", "medication", "fetch"]),
               "start": f"2026-10-{day:02d}T{hour:02d}:{r.randrange(60):02d}:00Z", "minutes": r.randrange(0, 90),
               "comment": r.choice(["ate half", "muddy walk", "jab done", "zjadł wszystko", "\"good\" dog", ""]) + f" #{self.counter}",
               "logged_by": r.choice(pet["owners"] + pet.get("shared_with", []))}
        if rec["type"] == "fetch" and r.random() < 0.7:
            rec["verdict"] = r.choice(["enjoyed", "neutral", "disliked"])
        return rec

    def next(self):
        r = self.rng
        k = r.random()
        if k < 0.12:
            return {"op": "upsert", "records": [self.care() for _ in range(r.choice([1, 1, 1, 5]))]}
        if k < 0.15:
            return {"op": "remove", "kind": "care", "ids": [f"care-{r.randrange(CARE)}" for _ in range(r.randrange(1, 4))]}
        if k < 0.35:
            return {"op": "upsert", "records": [self.spot()]}
        if k < 0.55:
            return {"op": "upsert", "records": [self.spot() for _ in range(r.randrange(2, 40))]}
        if k < 0.7:
            return {"op": "remove", "kind": "spot", "ids": [f"spot-{r.randrange(SPOTS)}" for _ in range(r.randrange(1, 6))]}
        if k < 0.85:
            return {"op": "review", "kind": "dog", "record": r.choice(self.dogs), "reviewer": f"lover-{r.randrange(6)}",
                    "ratings": {"temperament": r.randrange(1, 6), "excitability": r.randrange(1, 6),
                                                                               "experience_needed": r.randrange(1, 6)}}
        return {"op": "vote", "kind": "gym", "record": r.choice(self.gyms), "voter": f"v{r.randrange(6)}", "value": r.choice([-1, 0, 1])}


def apply(model, w):
    """The effect of one write on the model: spots by id, reviews and votes by record."""
    op = w["op"]
    if op == "upsert":
        for rec in w["records"]:
            model[rec["kind"]][rec["id"]] = {k: float(v) if k in ("lat", "lon") else v for k, v in rec.items() if k not in ("id", "kind")}
    elif op == "remove":
        for i in w["ids"]:
            model[w["kind"]].pop(i, None)
    elif op == "review":
        model["reviews"].setdefault(w["record"], {})[w["reviewer"]] = {"ratings": w["ratings"]}
    elif op == "vote":
        votes = model["votes"].setdefault(w["record"], {})
        if w["value"] == 0:
            votes.pop(w["voter"], None)
        else:
            votes[w["voter"]] = w["value"]


def empty_model():
    return {"spot": {}, "care": {}, "reviews": {}, "votes": {}}


def canonical(model):
    return json.dumps({"spot": model["spot"], "care": model["care"], "reviews": {k: v for k, v in model["reviews"].items() if v},
                       "votes": {k: v for k, v in model["votes"].items() if v}}, sort_keys=True)


_ids = itertools.count(1)


def ask(worker, req):
    """One request with a fresh id (answers are compared after their id); the answer line."""
    return worker.ask(dict(req, id=f"c{next(_ids)}"))


def observed(worker, dogs, gyms):
    """The recovered state, read back through the protocol, in the model's shape."""
    model = empty_model()
    got = json.loads(ask(worker, {"op": "get", "kind": "spot", "ids": [f"spot-{i}" for i in range(SPOTS)]}))
    if not got["ok"] and got["error"]["code"] == "not_found":
        got = {"ok": True, "result": {"results": []}}   # no spot was ever written
    for r in got["result"]["results"]:
        rec = dict(r.get("fields", {}))
        if "lat" in r:
            rec["lat"], rec["lon"] = float(r["lat"]), float(r["lon"])
        model["spot"][r["id"]] = rec
    # The care log as its owners read it: each pet's entries, newest first, by one of its readers.
    for pet in PETS:
        got = json.loads(ask(worker, {"op": "search", "kind": "care", "filter": {"pet_id": pet["id"]}, "sort": "newest",
                                      "limit": CARE, "user": pet["owners"][-1]}))
        if not got["ok"] and got["error"]["code"] == "not_found":
            continue   # no care entry was ever written
        for r in got["result"]["results"]:
            model["care"][r["id"]] = r["fields"]
    for kind, ids, field, key in (("dog", dogs, "reviews_by", "reviews"), ("gym", gyms, "votes_by", "votes")):
        got = json.loads(ask(worker, {"op": "get", "kind": kind, "ids": ids}))
        for r in got["result"]["results"]:
            entries = r.get("fields", {}).get(field)
            if entries:
                model[key][r["id"]] = entries
    return model


def queries(dogs, gyms):
    """Read requests whose answers must match a worker that never crashed, byte for byte."""
    out = [{"op": "stats"},
           {"op": "search", "kind": "spot", "sort": "id", "limit": 1000},
           {"op": "search", "kind": "care", "filter": {"pet_id": "pet-rex"}, "sort": "newest", "limit": 50, "user": "u-tom"},
           {"op": "search", "kind": "care", "text": "walk", "limit": 20, "user": "u-sitter"},
           {"op": "search", "kind": "care", "limit": 20, "user": "u-stranger"},
           {"op": "get", "kind": "dog", "ids": dogs}, {"op": "get", "kind": "gym", "ids": gyms}]
    for lat, lon in ((0, 179.9), (89.9, 0), (-89.9, 10), (51.1, 17.0), (0, -180)):
        out.append({"op": "nearest", "kind": "spot", "from": {"lat": lat, "lon": lon}, "k": 10})
        out.append({"op": "search", "kind": "spot", "near": {"lat": lat, "lon": lon}, "radius_m": 2_000_000, "limit": 50})
    out.append({"op": "rank_gyms", "from": {"lat": 53.35, "lon": -6.26}, "radius_m": 20000, "limit": 10, "now": "2026-11-24T08:00:00Z"})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scout", default=os.path.join(ROOT, ".build/debug/scout"))
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compact-at", default="256K")
    ap.add_argument("--keep", action="store_true", help="keep the state directory")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    dogs, gyms = sample_ids("dogs.jsonl", DOGS), sample_ids("gyms.jsonl", GYMS)
    work = tempfile.mkdtemp(prefix="scout-crash-")
    state = os.path.join(work, "state")
    seed_dogs = os.path.join(work, "dogs.jsonl")
    with open(os.path.join(DATA, "sample", "dogs.jsonl")) as src, open(seed_dogs, "w") as dst:
        for i, line in enumerate(src):
            if i == 1000:
                break
            dst.write(line)
    pets = os.path.join(work, "pets.jsonl")
    with open(pets, "w") as f:
        f.writelines(json.dumps(p) + "\n" for p in PETS)
    catalogue = ["--data", DATA, "--load", seed_dogs, "--load", os.path.join(DATA, "sample", "gyms.jsonl"), "--load", pets]
    # The worker that never crashes: same catalogue, no state, fed the writes that survived.
    reference = Serve(args.scout, catalogue, label="crash_test")
    stream = Writes(args.seed, dogs, gyms)
    history = []          # the writes the state holds, in order
    model = empty_model()
    totals = {"kills": 0, "answered": 0, "sent": 0, "in_flight": 0, "lost_unanswered": 0, "batches_in_flight": 0,
              "compactions": 0, "cut_bytes": 0, "recovery_s": []}
    started = time.time()
    for kill in range(args.kills):
        policy = POLICIES[kill % len(POLICIES)]
        argv = catalogue + ["--state", state, "--fsync", policy, "--compact-at", args.compact_at]
        t0 = time.time()
        p = Serve(args.scout, argv, label="crash_test")
        # Wait until it answers, so the kill lands while writes stream, not during start-up.
        p.wait_ready()
        totals["recovery_s"].append(time.time() - t0)
        sent = []                     # writes handed to the pipe, in order
        answers = []                  # answer lines read, in order
        stop = threading.Event()

        def writes():
            while not stop.is_set():
                w = stream.next()
                sent.append(w)
                yield dict(w, id=len(sent))

        tw, tr = p.feed(writes()), p.collect(answers)
        time.sleep(rng.uniform(0.05, 1.2))
        p.kill()
        stop.set()
        tw.join(5); tr.join(5)
        totals["kills"] += 1
        totals["compactions"] += sum("compacted" in l for l in p.stderr_lines)
        for line in answers:
            a = json.loads(line)
            if not a.get("ok"):
                sys.exit(f"crash_test: kill {kill}: a write was refused: {line.decode()}")
        answered = len(answers)
        # The writer may have been inside write() for one more line when the worker died.
        candidates = len(sent)
        totals["answered"] += answered
        totals["sent"] += candidates
        totals["in_flight"] += candidates - answered

        # Restart without streaming and read the recovered state back.
        t0 = time.time()
        w = Serve(args.scout, argv, label="crash_test")
        ask(w, {"op": "ping"})
        totals["recovery_s"].append(time.time() - t0)
        totals["cut_bytes"] += sum(int(l.split("cut off ")[1].split(" ")[0]) for l in w.stderr_lines if "cut off" in l)
        got = canonical(observed(w, dogs, gyms))
        # The recovered state must be the model after `answered` writes or some more of those sent.
        m = json.loads(json.dumps(model))
        for x in sent[:answered]:
            apply(m, x)
        j = answered
        while canonical(m) != got and j < candidates:
            apply(m, sent[j])
            j += 1
        if canonical(m) != got:
            with open(state + f"-failed-{kill}.model.json", "w") as f:
                f.write(canonical(m))
            with open(state + f"-failed-{kill}.observed.json", "w") as f:
                f.write(got)
            with open(state + f"-failed-{kill}.sent.json", "w") as f:
                json.dump({"answered": answered, "sent": sent, "model_before": model}, f)
            shutil.copytree(state, state + f"-failed-{kill}", dirs_exist_ok=True)
            sys.exit(f"crash_test: kill {kill} ({policy}): the recovered state is no prefix of the writes sent that holds "
                     f"all {answered} answered ones (sent {candidates}); state kept in {state}-failed-{kill}\n"
                     + "\n".join(w.stderr_tail(10)))
        totals["lost_unanswered"] += candidates - j
        totals["batches_in_flight"] += sum(1 for x in sent[answered:candidates] if x["op"] == "upsert" and len(x["records"]) > 1)
        model = m
        survivors = sent[:j]
        history.extend(survivors)
        # The worker that never crashed takes the same writes; then every query answers the same.
        for x in survivors:
            a = json.loads(ask(reference, x))
            if not a["ok"]:
                sys.exit(f"crash_test: the reference worker refused {x}: {a}")
        for q in queries(dogs, gyms):
            mine, theirs = ask(w, q), ask(reference, q)
            if q["op"] == "stats":
                # index_bytes depends on how the index's levels were built (replayed in batches or
                # written one by one), not on what it holds.
                mine, theirs = (json.dumps({k: v for k, v in json.loads(x)["result"].items() if k != "index_bytes"}).encode()
                                for x in (mine, theirs))
                mine, theirs = b',"ok"' + mine, b',"ok"' + theirs
            if mine.split(b',"ok"', 1)[1] != theirs.split(b',"ok"', 1)[1]:
                sys.exit(f"crash_test: kill {kill}: {json.dumps(q)} answers differently after recovery:\n  recovered: {mine[:400]}\n"
                         f"  never crashed: {theirs[:400]}")
        w.close()
        status = f"kill {kill + 1}/{args.kills} ({policy}): {answered} answered, {candidates - answered} in flight, " \
                 f"{j - answered} of those recovered; {len(history)} writes kept"
        print(status, flush=True)
    reference.close()
    rec = totals["recovery_s"]
    print(f"crash_test: {totals['kills']} kills, {totals['answered']} answered writes, 0 lost; "
          f"{totals['in_flight']} in flight at the kills ({totals['batches_in_flight']} batches, none half there), "
          f"{totals['lost_unanswered']} of them not recovered; {totals['compactions']} compactions finished; "
          f"{totals['cut_bytes']} torn bytes cut; start to first answer median {sorted(rec)[len(rec) // 2]:.2f} s; "
          f"{time.time() - started:.0f} s in all")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
