#!/usr/bin/env python3
"""The recommender's learning simulation: simulated dogs with hidden, context-dependent
tastes, driven from outside through `scout serve` (JSON Lines), as an app would.

Written by the Scout team for this project (no third-party code or data beyond data/).

The hidden world (our own model, written from general knowledge of dogs and kept apart from
Scout's features: other shapes, other magnitudes, per-dog quirks Scout has no feature for):

- each dog: a breed of data/breeds.csv (its energy 1-5), an age of 0.5-14 years, a personal
  taste per category (normal, sd 0.8) and per activity (sd 0.6), and one dog in eight loves
  the rain;
- log-odds of enjoying activity a at a moment = a base per category (physical 0.4, social 0.3,
  mental 0.2, training 0, rest -0.3, care -0.7) + the dog's tastes
  - 0.35 x |intensity - preferred intensity| (preferred: energy, -1.5 for seniors, -1 for
    puppies; a distance, not Scout's linear energy x intensity)
  - outdoors in rain: -1.1 (+0.6 for a rain lover); outdoors below 8 C: -0.09 per degree;
    above 22 C: -0.08 per degree x intensity / 3; outdoors in twilight or dark: -0.5
  - after 19:00 and intensity 4-5: -0.6; 6:00-9:59 and physical: +0.35
  - the same activity the day before: -0.9; its category the day before: -0.35
  - Saturday or Sunday and 45 minutes or more: +0.4
- the owner rates what the dog did: enjoyed with the hidden chance, else disliked; 15% of
  ratings come out "neutral" instead, and 30% are never given.

Each day every dog gets a new moment: a date (a year of seasons over the dogs), an hour of
07-21, Dublin's weather for the season (30% wet), one day in ten away from home. Arms:
`explore` (Scout, learning from its ratings, each rating naming its offer), `rules` (Scout in
best mode with the enjoyment weight 0: needs, fit, novelty and context only), `random`
(uniform among the activities Scout's hard rules allow), and the oracle (the best hidden
chance among them). Regret of a day = the oracle's chance - the chance of what was done.

    python3 scripts/recommender_sim.py --scout .build/debug/scout                # the full run
    python3 scripts/recommender_sim.py --scout … --dogs 40 --check               # the test's run
    python3 scripts/recommender_sim.py --scout … --refit                         # from a zero prior: fit, rerun
    python3 scripts/recommender_sim.py --scout … --evaluate                      # offline evaluation

Phases: `cold` = a new dog, days 1-50 (and 26-50); `history` = days 61-110 of the same dogs
(each brings 60 days of its own ratings); `pair` = "this or that": two offers a day, the owner
takes the better of the two 80% of the time, the other otherwise, and rates what was done (or
not, 30% of the time); the rating names the offer taken, whose id names the other offer, so it
also says which was taken over which (with --choices, an unrated pick is told as well).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scout_client import Serve  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BASE = {"physical": 0.4, "social": 0.3, "mental": 0.2, "training": 0.0, "rest": -0.3, "care": -0.7}
NEUTRAL, MISSING, OWNER_TAKES_BETTER = 0.15, 0.30, 0.8
TELL_CHOICES = False   # --choices: in "this or that", unrated picks are told too
HOME = {"lat": 53.3498, "lon": -6.2603}
AWAY = {"lat": 53.3498, "lon": -6.1800}


def load_world(data: Path):
    acts = [a for a in json.load(open(data / "activities.json"))["activities"] if "dog" in a["species"]]
    breeds = [r for r in csv.DictReader(open(data / "breeds.csv")) if r["breed"] != "Mixed"]
    return {a["id"]: a for a in acts}, breeds


class Dog:
    def __init__(self, rng: random.Random, breeds, acts, index: int):
        b = rng.choice(breeds)
        self.breed = b["breed"]
        self.energy = int(b["energy"])
        self.age = rng.uniform(0.5, 14)
        span = float(b["life_span_max"] or 12)
        self.senior = self.age >= 0.75 * span
        self.puppy = self.age < 1
        self.cat = {c: rng.gauss(0, 0.8) for c in BASE}
        self.act = {a: rng.gauss(0, 0.6) for a in acts}
        self.rain_lover = rng.random() < 0.125
        self.name = f"Dog{index}"
        self.start_day = rng.randrange(365)

    def birth_date(self, today: datetime) -> str:
        return (today - timedelta(days=int(self.age * 365.25))).date().isoformat()

    def chance(self, a, moment, yesterday) -> float:
        pref = self.energy - (1.5 if self.senior else 0) - (1 if self.puppy else 0)
        z = BASE[a["category"]] + self.cat[a["category"]] + self.act[a["id"]]
        z -= 0.35 * abs(a["intensity"] - pref)
        outdoors = a["setting"] == "outdoor" or (a["setting"] == "either" and moment["fine"])
        if outdoors:
            if moment["wet"]:
                z -= 1.1 - (0.6 if self.rain_lover else 0)
            t = moment["temp"]
            if t < 8:
                z -= 0.09 * (8 - t)
            if t > 22:
                z -= 0.08 * (t - 22) * a["intensity"] / 3
            if moment["daylight"] != "day":
                z -= 0.5
        if moment["hour"] >= 19 and a["intensity"] >= 4:
            z -= 0.6
        if 6 <= moment["hour"] < 10 and a["category"] == "physical":
            z += 0.35
        if a["id"] in yesterday["acts"]:
            z -= 0.9
        elif a["category"] in yesterday["cats"]:
            z -= 0.35
        if moment["weekday"] >= 6 and a["minutes"] >= 45:
            z += 0.4
        return 1 / (1 + math.exp(-z))


def moment_for(rng: random.Random, dog: Dog, day: int):
    date = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(days=(dog.start_day + day) % 365)
    season = math.cos(2 * math.pi * ((date.timetuple().tm_yday - 200) / 365))   # 1 in July, -1 in January
    temp = round(rng.gauss(10 + 6 * season, 4), 1)
    wet = rng.random() < 0.3
    hour = rng.randrange(7, 22)
    away = rng.random() < 0.1
    wind = round(rng.uniform(0, 35), 1)
    now = date.replace(hour=hour, minute=rng.choice([0, 15, 30, 45])) - timedelta(hours=1 if 90 <= date.timetuple().tm_yday < 300 else 0)
    weather = {"temperature_c": temp, "precipitation_mm_h": 1.5 if wet else 0, "condition": "rain" if wet else "partly_cloudy",
               "wind_kmh": wind}
    return {"now": now, "weather": weather, "temp": temp, "wet": wet, "away": away,
            "fine": (not wet) and 5 <= temp <= 25}


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Trajectory:
    """One arm's history for one dog: its log, its ratings and what it did yesterday."""

    def __init__(self):
        self.log, self.feedback, self.yesterday = [], [], {"acts": set(), "cats": set()}


def request(dog: Dog, m, traj: Trajectory, arm: str, count: int, seed: int, prior_ratings=True):
    r = {"op": "recommend_activities",
         "pet": {"name": dog.name, "species": "dog", "breed": dog.breed, "birth_date": dog.birth_date(m["now"])},
         "now": iso(m["now"]), "timezone": "Europe/Dublin", "location": AWAY if m["away"] else HOME, "home": HOME,
         "weather": m["weather"], "nearby": ["park", "dog_park", "trail", "city"], "count": count, "seed": seed,
         "log": [e for e in traj.log if e["start"] >= iso(m["now"] - timedelta(days=14))]}
    if arm == "explore":
        r["mode"] = "explore"
        if prior_ratings:
            r["feedback"] = traj.feedback[-200:]
    else:
        r["mode"] = "best"
        r["weights"] = {"enjoyment": 0}
    return r


def rate(rng: random.Random, p: float):
    if rng.random() < MISSING:
        return None
    verdict = "enjoyed" if rng.random() < p else "disliked"
    return "neutral" if rng.random() < NEUTRAL else verdict


def expected_rating(p: float) -> float:
    return (1 - NEUTRAL) * p + NEUTRAL * 0.5


def simulate(scout: str, data: Path, dogs: int, days: int, seed: int, count: int, prior: str | None = None,
             log_path: str | None = None, log_days: int | None = None, arms=("explore", "rules", "random")):
    """Runs every dog through `days` days; returns per arm and day the regret summed over dogs,
    and the decisions of the explore arm when `log_path` is given."""
    acts, breeds = load_world(data)
    world = random.Random(seed)
    pack = [Dog(world, breeds, acts, i) for i in range(dogs)]
    trajectories = {(d, a): Trajectory() for d in range(dogs) for a in arms}
    regret = {a: [0.0] * days for a in arms}
    gap = {a: [0.0] * days for a in arms}
    weekly = {a: [[set() for _ in range((days + 6) // 7)] for _ in range(dogs)] for a in arms}
    choice_rng = {(d, a): random.Random(seed * 1000 + d * 10 + i) for d in range(dogs) for i, a in enumerate(arms)}
    moment_rng = [random.Random(seed * 7919 + d) for d in range(dogs)]
    logged = []
    args = ["--data", str(data)] + (["--prior", prior] if prior else [])
    with Serve(scout, args) as s:
        s.wait_ready()
        for day in range(days):
            moments = [moment_for(moment_rng[d], pack[d], day) for d in range(dogs)]
            reqs, keys = [], []
            for d in range(dogs):
                for arm in arms:
                    reqs.append(request(pack[d], moments[d], trajectories[(d, arm)], "explore" if arm == "explore" else "rules",
                                        count, seed * 100_000 + d * 1000 + day))
                    keys.append((d, arm))
            answers, _ = s.stream(reqs)
            for (d, arm), req, line in zip(keys, reqs, answers):
                ans = json.loads(line)
                if not ans.get("ok"):
                    raise SystemExit(f"scout answered an error: {ans.get('error')} to {json.dumps(req)[:300]}")
                res = ans["result"]
                dog, m, traj, rng = pack[d], dict(moments[d]), trajectories[(d, arm)], choice_rng[(d, arm)]
                m["daylight"] = res["context"]["daylight"]
                local = datetime.fromisoformat(res["context"]["local_time"])
                m["hour"], m["weekday"] = local.hour, local.isoweekday()
                excluded = {x["activity"] for x in res["excluded"]}
                eligible = [a for a in acts if a not in excluded]
                if not eligible:
                    continue
                chance = {a: dog.chance(acts[a], m, traj.yesterday) for a in eligible}
                best = max(chance.values())
                if arm == "random":
                    offered = rng.sample(eligible, min(count, len(eligible)))
                    offers = [{"id": None, "activity": a} for a in offered]
                else:
                    offers = res["recommendations"] or (res["next_window"] or {}).get("recommendations", [])[:0]
                    if not offers:
                        continue
                if len(offers) == 1:
                    done = offers[0]
                else:
                    ranked = sorted(offers, key=lambda o: -chance[o["activity"]])
                    done = ranked[0] if rng.random() < OWNER_TAKES_BETTER else ranked[1]
                a = done["activity"]
                regret[arm][day] += best - chance[a]
                weekly[arm][d][day // 7].add(acts[a]["category"])
                if arm != "random":
                    gap[arm][day] += next(t["value"] for t in done["breakdown"] if t["term"] == "needs_gap")
                verdict = rate(rng, chance[a])
                traj.log.append({"type": a, "start": iso(m["now"]), "minutes": acts[a]["minutes"]})
                traj.yesterday = {"acts": {a}, "cats": {acts[a]["category"]}}
                if arm == "explore" and (verdict or (TELL_CHOICES and len(offers) > 1)):
                    # The rating names the offer taken; in "this or that" its id names the other
                    # offer, so the rating also says which was taken over which. With
                    # --choices an unrated pick is told too (the offer taken, no rating).
                    fb = {"recommendation": done["id"], "at": iso(m["now"] + timedelta(hours=2))}
                    if verdict:
                        fb["rating"] = verdict
                    traj.feedback.append(fb)
                if log_path and arm == "explore" and (log_days is None or day < log_days):
                    # The offers with their propensities, the set's (the pair's, for two), and
                    # the rating of the offer taken.
                    logged.append({"line": {"request": {k: v for k, v in req.items() if k != "op"},
                                            "offers": [{"id": o["id"], "propensity": o["propensity"]} for o in offers],
                                            "set_propensity": res["set_propensity"],
                                            "ratings": ([{"recommendation": done["id"], "rating": verdict}] if verdict else [])},
                                   "chance": chance, "dog": d, "day": day})
    if log_path:
        with open(log_path, "w") as f:
            for e in logged:
                f.write(json.dumps(e["line"]) + "\n")
    # Categories done per whole week, averaged over dogs and weeks: does learning keep the rotation?
    variety = {a: mean([len(w) for dog in weekly[a] for w in dog[:days // 7]]) for a in arms}
    return {a: [x / dogs for x in regret[a]] for a in arms}, variety, logged


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def summary(regret, lo, hi):
    return {a: mean(r[lo:hi]) for a, r in regret.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scout", required=True)
    ap.add_argument("--data", default=str(ROOT / "data"))
    ap.add_argument("--dogs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--days", type=int, default=110, help="days of the one-offer run (over 60: the with-history phase is days 61 on)")
    ap.add_argument("--prior", help="a prior file for scout serve --prior")
    ap.add_argument("--csv", help="write per-day mean regret per phase and arm here")
    ap.add_argument("--check", action="store_true", help="fail unless the issue's targets hold")
    ap.add_argument("--choices", action="store_true", help="in \"this or that\", tell Scout the offer taken on unrated days too")
    ap.add_argument("--refit", action="store_true", help="log 50 days of new dogs, fit a prior, compare regret on other dogs")
    ap.add_argument("--evaluate", action="store_true", help="log decisions, estimate two other policies offline, compare with the truth")
    ap.add_argument("--spark", action="store_true", help="with --refit: fit on Spark (scripts/spark_fit.py, local[2])")
    ap.add_argument("--fitted-output", help="with --refit: keep the fitted prior here")
    args = ap.parse_args(argv)
    data = Path(args.data)
    global TELL_CHOICES
    TELL_CHOICES = args.choices
    if args.refit:
        return refit(args, data)
    if args.evaluate:
        return evaluate(args, data)
    failures = []
    rows = []
    days = max(50, args.days)
    regret, variety, _ = simulate(args.scout, data, args.dogs, days, args.seed, 1, args.prior)
    cold, late = summary(regret, 0, 50), summary(regret, 25, 50)
    hist = summary(regret, 60, days) if days > 60 else None
    pair_regret, _, _ = simulate(args.scout, data, args.dogs, 50, args.seed + 1, 2, args.prior)
    pair = summary(pair_regret, 0, 50)
    print(f"recommender_sim: {args.dogs} dogs, seed {args.seed}, prior {args.prior or 'shipped'}")
    print(f"{'phase':<28} {'explore':>8} {'rules':>8} {'random':>8} {'/random':>8} {'/rules':>8}")
    for name, s in [("new dog, days 1-50", cold), ("new dog, days 26-50", late), (f"60 days of history, 61-{days}", hist),
                    ("this or that, days 1-50", pair)]:
        if s is None:
            continue
        print(f"{name:<28} {s['explore']:8.4f} {s['rules']:8.4f} {s['random']:8.4f} {s['explore'] / s['random']:8.3f} "
              f"{s['explore'] / s['rules']:8.3f}")
    print(f"categories done per week (of 6), days 1-{days // 7 * 7}: " + ", ".join(f"{a} {v:.2f}" for a, v in variety.items()))
    targets = [("new dog days 1-50 / random", cold["explore"] / cold["random"], 0.50),
               ("new dog days 1-50 / rules", cold["explore"] / cold["rules"], 0.65),
               ("new dog days 26-50 / random", late["explore"] / late["random"], 0.40),
               ("history / random", hist["explore"] / hist["random"] if hist else None, 0.40),
               ("this or that / random", pair["explore"] / pair["random"], 0.50)]
    # The targets, reported; --check fails on the looser guards beside them (the
    # test's 40 dogs are noisier than the full run's 200) and whenever explore does not beat
    # both baselines.
    guards = [0.55, 0.70, 0.50, 0.45, 0.60]
    for (name, value, bound), guard in zip(targets, guards):
        if value is None:
            continue
        print(f"target {name}: {value:.3f} (at most {bound}) {'ok' if value <= bound else 'MISSED'}")
        if value > guard:
            failures.append(f"{name} {value:.3f} above the guard {guard}")
    for name, s in [("new dog", cold), ("history", hist), ("this or that", pair)]:
        if s is not None and not s["explore"] < min(s["rules"], s["random"]):
            failures.append(f"{name}: explore does not beat rules only and random")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["phase", "day", "arm", "regret"])
            for arm, r in regret.items():
                for day, v in enumerate(r):
                    w.writerow(["single", day + 1, arm, f"{v:.5f}"])
            for arm, r in pair_regret.items():
                for day, v in enumerate(r):
                    w.writerow(["pair", day + 1, arm, f"{v:.5f}"])
    if args.check and failures:
        raise SystemExit("recommender_sim: missed " + ", ".join(failures))


def zero_prior(data: Path, path: str):
    """A prior that knows nothing: the shipped file's spreads, every coefficient 0."""
    prior = json.load(open(data / "enjoyment_prior.json"))
    prior["version"] = "2026-11-28.zero"
    prior["about"] = "Every coefficient 0: a deployment with no population knowledge yet (recommender_sim.py --refit)."
    prior["features"] = {k: 0.0 for k in prior["features"]}
    with open(path, "w") as f:
        json.dump(prior, f, indent=1)


def refit(args, data: Path):
    """A new deployment: a prior that knows nothing (every coefficient 0) serves one pack of
    dogs for 50 days; scout fit-prior (or scripts/spark_fit.py) fits the next prior from that
    log; a second pack (other seed) then runs under both, and the refitted one must do better.
    The shipped prior is run on the second pack too, for comparison."""
    with tempfile.TemporaryDirectory() as tmp:
        start = args.prior or os.path.join(tmp, "zero.json")
        if not args.prior:
            zero_prior(data, start)
        log = os.path.join(tmp, "decisions.jsonl")
        simulate(args.scout, data, args.dogs, 50, args.seed + 10, 1, start, log_path=log, arms=("explore",))
        fitted = os.path.join(tmp, "prior.json")
        common = ["--data", str(data), "--prior", start, "--log", log, "--output", fitted, "--version", "2026-11-28.sim"]
        if args.spark:
            cmd = [sys.executable, str(ROOT / "scripts/spark_fit.py"), "--scout", args.scout, "--master", "local[2]"] + common
        else:
            cmd = [args.scout, "fit-prior"] + common
        subprocess.run(cmd, check=True)
        if args.spark:
            local = os.path.join(tmp, "local.json")
            subprocess.run([args.scout, "fit-prior"] + common[:-4] + ["--output", local, "--version", "2026-11-28.sim"], check=True)
            same = open(local, "rb").read() == open(fitted, "rb").read()
            print(f"refit: the Spark fit {'equals' if same else 'DIFFERS FROM'} scout fit-prior's byte for byte")
            if not same:
                raise SystemExit("recommender_sim: spark_fit.py and scout fit-prior wrote different priors")
        if args.fitted_output:
            with open(fitted) as src, open(args.fitted_output, "w") as dst:
                dst.write(src.read())
        results = {}
        # The shipped prior beside them in the full run only (the test skips it for time).
        for name, prior in [("start", start), ("refitted", fitted)] + ([] if args.check else [("shipped", None)]):
            r, _, _ = simulate(args.scout, data, args.dogs, 50, args.seed + 20, 1, prior, arms=("explore", "random"))
            results[name] = summary(r, 0, 50)
        line = ", ".join(f"{n} prior {s['explore']:.4f} ({s['explore'] / s['random']:.3f} of random)" for n, s in results.items())
        print(f"refit ({args.dogs} dogs, days 1-50): {line}")
        if args.check and not results["refitted"]["explore"] < results["start"]["explore"]:
            raise SystemExit("recommender_sim: the refitted prior did not lower regret")


def true_value(offers, chance):
    """The expected rating of what the owner does of `offers` (activity ids): the one offer's,
    or of two, the better one's (by its hidden chance) OWNER_TAKES_BETTER of the time."""
    if len(offers) == 1:
        return expected_rating(chance[offers[0]])
    better, other = sorted(offers, key=lambda a: -chance[a])[:2]
    return OWNER_TAKES_BETTER * expected_rating(chance[better]) + (1 - OWNER_TAKES_BETTER) * expected_rating(chance[other])


def evaluate(args, data: Path):
    """Logs explore decisions for 20 days (one offer a day, then "this or that": two offers a
    day, the owner taking one), estimates deterministic candidates offline with scout
    evaluate, and compares SNIPS with their true value on the same requests."""
    for count, phase in [(1, "one offer"), (2, "this or that")]:
        evaluate_phase(args, data, count, phase)


def evaluate_phase(args, data: Path, count: int, phase: str):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "decisions.jsonl")
        _, _, logged = simulate(args.scout, data, args.dogs, 20, args.seed + 30 + 10 * (count - 1), count, args.prior,
                                log_path=log, arms=("explore",))
        rated = [e for e in logged if e["line"]["ratings"]]
        # Three deterministic candidates. One that mostly offers what explore offered rests on
        # many decisions; one that offers what explore almost never does (rules only; with
        # two offers, any other pair) rests on a few with huge weights, and its effective
        # sample size says the log cannot judge it: only estimates resting on an effective
        # sample of 100 decisions or more are checked.
        candidates = [("best", ["--mode", "best"], {"mode": "best"}),
                      ("best, novelty 0.3", ["--mode", "best", "--set", "novelty=0.3"], {"mode": "best", "weights": {"novelty": 0.3}}),
                      ("rules only", ["--mode", "best", "--set", "enjoyment=0"], {"mode": "best", "weights": {"enjoyment": 0}})]
        failures = []
        with Serve(args.scout, ["--data", str(data)] + (["--prior", args.prior] if args.prior else [])) as s:
            s.wait_ready()
            for name, flags, change in candidates:
                reqs = [dict(e["line"]["request"], op="recommend_activities", **change) for e in rated]
                answers, _ = s.stream(reqs)
                truth = mean([true_value([o["activity"] for o in json.loads(l)["result"]["recommendations"]], e["chance"])
                              for e, l in zip(rated, answers)])
                out = subprocess.run([args.scout, "evaluate", "--data", str(data), "--log", log] + flags
                                     + (["--prior", args.prior] if args.prior else []), check=True, capture_output=True, text=True)
                est = json.loads(out.stdout)
                error = abs(est["snips"]["value"] - truth) / truth
                print(f"evaluate {phase}, {name}: true {truth:.4f}, SNIPS {est['snips']['value']:.4f} [{est['snips']['low']:.4f}, {est['snips']['high']:.4f}] "
                      f"({100 * error:.1f}% off), IPS {est['ips']['value']:.4f}, DR {est['dr']['value']:.4f}, logged {est['logged']['value']:.4f}, "
                      f"ESS {est['effective_sample_size']:.0f} of {est['decisions']} decisions"
                      + ("" if est["effective_sample_size"] >= 100 else " (not checked: ESS below 100)"))
                if est["effective_sample_size"] >= 100 and error > 0.10:
                    failures.append(name)
        if args.check and failures:
            raise SystemExit(f"recommender_sim: {phase}: SNIPS more than 10% off for " + ", ".join(failures))


if __name__ == "__main__":
    main()
