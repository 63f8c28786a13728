#!/usr/bin/env python3
"""Relevance of Scout's text search on the sample catalogue: top-1, top-3 and MRR@10.

Runs one `scout rank` process over every labelled query of queries.jsonl (articles,
shelter animals, shelters, workout programs), then judges each answer with the query's
label: a list of article ids, or a rule evaluated here over the sample records (see
README.md, "Labels"). Python 3 standard library only.

    python3 Benchmarks/search-quality/evaluate.py                  # table
    python3 Benchmarks/search-quality/evaluate.py --show-misses    # and the misses
    python3 Benchmarks/search-quality/evaluate.py --check-labels   # labels only, no scout
    python3 Benchmarks/search-quality/evaluate.py --min-top3 0.6 --min-mrr 0.5   # a gate

Exit status: 0; 1 when a --min-* gate fails; 2 on a usage, label or scout error.
"""

import argparse
import functools
import json
import math
import os
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KINDS = ("article", "shelter", "animal", "program")  # loaded in this order: an animal names a stored shelter
RECORD_FILES = {kind: f"{kind}s.jsonl" for kind in KINDS}
TOP = 10  # results asked for, and the depth of MRR

# ---------------------------------------------------------------------------------------
# Text folding and places


_EXTRA_FOLDS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "æ": "ae", "œ": "oe", "ı": "i"})


@functools.lru_cache(maxsize=65536)
def _fold(text):
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.translate(_EXTRA_FOLDS)


def fold(text):
    """Lower case without accents ("Wrocław" → "wroclaw"), as the rules compare strings."""
    return _fold(str(text))


class Gazetteer:
    """`data/places.tsv`: a name (or alternate name) and an optional country → the most
    populous such place. Only for labels (`near_km`) and the sanity check of an area."""

    def __init__(self, path):
        self.path = path
        self.by_name = None
        self.resolved = {}

    def _load(self):
        self.by_name = {}
        with open(self.path, encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            col = {name: i for i, name in enumerate(header)}
            for line in f:
                cells = line.rstrip("\n").split("\t")
                place = (cells[col["country"]], float(cells[col["lat"]]), float(cells[col["lon"]]),
                         int(cells[col["population"]] or 0), cells[col["name"]])
                names = {cells[col["name"]], cells[col["asciiname"]]}
                names.update(n for n in cells[col["alternatenames"]].split("|") if n)
                for name in names:
                    self.by_name.setdefault(fold(name), []).append(place)

    def resolve(self, name, country=None):
        """(lat, lon, name) of the most populous place of that name, or None."""
        key = (fold(name), country)
        if key not in self.resolved:
            self.resolved[key] = self._resolve(name, country)
        return self.resolved[key]

    def _resolve(self, name, country):
        if self.by_name is None:
            self._load()
        places = [p for p in self.by_name.get(fold(name), []) if country is None or p[0] == country]
        if not places:
            return None
        best = max(places, key=lambda p: p[3])
        return best[1], best[2], best[4]


def distance_km(lat1, lon1, lat2, lon2):
    """Great-circle distance on a sphere of radius 6371.0088 km (within 0.5% of WGS84)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


# ---------------------------------------------------------------------------------------
# Labels: rules over records


def fail(message):
    """Usage, label and scout errors: one line on stderr, exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


class LabelError(Exception):
    pass


def field_value(record, field):
    """A record's field; a shelter's `town` and `country` are in its `address`."""
    if field in record:
        return record[field]
    address = record.get("address")
    if isinstance(address, dict) and field in address:
        return address[field]
    return None


def _texts(value):
    """The strings of a field: a string, a list of strings, or a list of objects' names."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        out = []
        for item in value:
            out.extend(_texts(item.get("name") if isinstance(item, dict) else item))
        return out
    return [str(value)]


def _equal(expected, actual):
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, (int, float)):
        return isinstance(actual, (int, float)) and actual == expected
    return actual is not None and fold(expected) == fold(actual)


class Rules:
    """Evaluates a rule object (README.md, "Labels") on one record of a kind."""

    def __init__(self, records, gazetteer):
        self.records = records  # kind → {id: record}
        self.gazetteer = gazetteer
        self.fields = {kind: set().union(*(r.keys() for r in recs.values())) | {"town", "country"}
                       if recs else set() for kind, recs in records.items()}

    def check(self, rule, kind, where):
        """Raises LabelError when a rule uses an unknown key or field or a malformed value."""
        if not isinstance(rule, dict) or not rule:
            raise LabelError(f"{where}: a rule is a non-empty object")
        for key, value in rule.items():
            if key == "ids":
                if not isinstance(value, list) or not value:
                    raise LabelError(f"{where}.ids: a non-empty list of ids")
                missing = [i for i in value if i not in self.records[kind]]
                if missing:
                    raise LabelError(f"{where}.ids: no {kind} record {missing}")
            elif key == "near_km":
                if not isinstance(value, dict) or set(value) - {"place", "country", "km"} \
                        or "place" not in value or not isinstance(value.get("km"), (int, float)):
                    raise LabelError(f"{where}.near_km: {{\"place\", \"country\"?, \"km\"}}")
                if self.gazetteer.resolve(value["place"], value.get("country")) is None:
                    raise LabelError(f"{where}.near_km: no place {value['place']!r} in places.tsv")
            elif key == "animal":
                if kind != "shelter":
                    raise LabelError(f"{where}.animal: only shelters have animals")
                self.check(value, "animal", f"{where}.animal")
            else:
                field = self._field_of(key)
                if field == "exercise" and kind == "program":
                    field = "exercises"
                if field not in self.fields[kind]:
                    raise LabelError(f"{where}.{key}: {kind} records have no field {field!r}")
                if key.endswith("_any"):
                    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                        raise LabelError(f"{where}.{key}: a non-empty list of strings")
                elif key.startswith(("min_", "max_", "under_")):
                    if isinstance(value, bool) or not isinstance(value, (int, float)):
                        raise LabelError(f"{where}.{key}: a number")
                elif isinstance(value, (dict,)) or (isinstance(value, list) and not value):
                    raise LabelError(f"{where}.{key}: a value or a non-empty list of values")

    @staticmethod
    def _field_of(key):
        for prefix in ("min_", "max_", "under_"):
            if key.startswith(prefix):
                return key[len(prefix):]
        if key.endswith("_any"):
            return key[:-4]
        return key

    def matches(self, rule, record):
        for key, value in rule.items():
            if key == "ids":
                ok = record.get("id") in value
            elif key == "near_km":
                lat, lon, _ = self.gazetteer.resolve(value["place"], value.get("country"))
                ok = "lat" in record and distance_km(lat, lon, record["lat"], record["lon"]) <= value["km"]
            elif key == "animal":
                ok = any(self.matches(value, a) for a in record.get("animals") or [])
            elif key.endswith("_any"):
                field = key[:-4]
                texts = [fold(t) for t in _texts(field_value(record, "exercises" if field == "exercise" else field))]
                ok = any(fold(v) in t for v in value for t in texts)
            elif key.startswith(("min_", "max_", "under_")):
                field = self._field_of(key)
                x = field_value(record, field)
                if not isinstance(x, (int, float)) or isinstance(x, bool):
                    ok = False
                elif key.startswith("min_"):
                    ok = x >= value
                elif key.startswith("max_"):
                    ok = x <= value
                else:
                    ok = x < value
            else:
                actual = field_value(record, key)
                options = value if isinstance(value, list) else [value]
                ok = any(_equal(v, actual) for v in options)
            if not ok:
                return False
        return True


# ---------------------------------------------------------------------------------------
# Queries


def read_queries(path):
    queries = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                q = json.loads(line)
            except json.JSONDecodeError as e:
                raise LabelError(f"{path} line {n}: not JSON ({e})")
            q["_line"] = n
            queries.append(q)
    return queries


def validate(queries, rules, gazetteer):
    """Every problem with the query set, as a list of messages (empty when it is sound)."""
    problems, seen = [], set()
    known = {"id", "lang", "kind", "text", "relevant", "near", "radius_m", "_line"}
    for q in queries:
        where = f"line {q['_line']} ({q.get('id', '?')})"
        try:
            unknown = set(q) - known
            if unknown:
                raise LabelError(f"{where}: unknown fields {sorted(unknown)}")
            if not isinstance(q.get("id"), str) or q["id"] in seen:
                raise LabelError(f"{where}: id missing or repeated")
            seen.add(q["id"])
            if q.get("lang") not in ("en", "pl"):
                raise LabelError(f"{where}: lang must be \"en\" or \"pl\"")
            if q.get("kind") not in KINDS:
                raise LabelError(f"{where}: kind must be one of {', '.join(KINDS)}")
            if not isinstance(q.get("text"), str) or not q["text"].strip():
                raise LabelError(f"{where}: text missing")
            if ("near" in q) != ("radius_m" in q):
                raise LabelError(f"{where}: near and radius_m come together")
            kind, label = q["kind"], q.get("relevant")
            if kind == "article":
                if not isinstance(label, list) or not label:
                    raise LabelError(f"{where}: an article label is a non-empty list of ids")
                missing = [i for i in label if i not in rules.records["article"]]
                if missing:
                    raise LabelError(f"{where}: no article {missing}")
                continue
            rules.check(label, kind, f"{where}: relevant")
            matching = [r for r in rules.records[kind].values() if rules.matches(label, r)]
            if not matching:
                raise LabelError(f"{where}: the rule matches no {kind} record")
            if "near" in q:
                near = q["near"]
                if set(near) - {"place", "country"} or "place" not in near:
                    raise LabelError(f"{where}: near is {{\"place\", \"country\"?}}")
                centre = gazetteer.resolve(near["place"], near.get("country"))
                if centre is None:
                    raise LabelError(f"{where}: no place {near['place']!r} in places.tsv")
                km = q["radius_m"] / 1000
                if not any("lat" in r and distance_km(centre[0], centre[1], r["lat"], r["lon"]) <= km
                           for r in matching):
                    raise LabelError(f"{where}: no {kind} record inside the query's area matches the rule")
        except LabelError as e:
            problems.append(str(e))
    return problems


def sample(queries, n):
    """`n` queries, every k-th of the file (deterministic, spread over all kinds)."""
    if n is None or n >= len(queries):
        return queries
    step = len(queries) / n
    return [queries[int(i * step)] for i in range(n)]


# ---------------------------------------------------------------------------------------
# Running scout


def find_scout(given):
    if given:
        path = Path(given)
        if not (path.is_file() and os.access(path, os.X_OK)):
            fail(f"no executable scout at {given}")
        return path
    for candidate in (REPO / ".build/debug/scout", REPO / ".build/release/scout"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    fail("no scout binary at .build/debug/scout or .build/release/scout; "
                     "build it (swift build) or pass --scout PATH")


def run_rank(scout, data, record_files, queries, words=None):
    """Answers of one `scout rank` run, by query id: the result object or the error object."""
    with tempfile.TemporaryDirectory(prefix="scout-search-quality-") as tmp:
        requests, answers = Path(tmp) / "requests.jsonl", Path(tmp) / "answers.jsonl"
        with open(requests, "w", encoding="utf-8") as f:
            for q in queries:
                request = {"id": q["id"], "op": "search", "kind": q["kind"], "text": q["text"],
                           "limit": TOP, "fields": False}
                if words:
                    request["words"] = words
                if "near" in q:
                    request["near"] = q["near"]
                    request["radius_m"] = q["radius_m"]
                f.write(json.dumps(request, ensure_ascii=False) + "\n")
        command = [str(scout), "rank", "--data", str(data)]
        for path in record_files:
            command += ["--load", str(path)]
        command += ["--input", str(requests), "--output", str(answers), "--quiet"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            fail(f"scout rank exited with status {done.returncode}: {' '.join(command)}")
        out = {}
        with open(answers, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    answer = json.loads(line)
                    out[answer.get("id")] = answer
    return out


# ---------------------------------------------------------------------------------------
# Judging and reporting


def judge(q, answer, rules):
    """(ids returned, rank of the first relevant one or None, error or None)."""
    if answer is None:
        return [], None, {"code": "missing", "message": "no answer line for this request"}
    if not answer.get("ok"):
        return [], None, answer.get("error") or {"code": "?", "message": "error without details"}
    ids = [r["id"] for r in answer["result"].get("results", [])][:TOP]
    kind, label = q["kind"], q["relevant"]
    for rank, rid in enumerate(ids, 1):
        if kind == "article":
            relevant = rid in label
        else:
            record = rules.records[kind].get(rid)
            relevant = record is not None and rules.matches(label, record)
        if relevant:
            return ids, rank, None
    return ids, None, None


def summarise(rows):
    n = len(rows)
    if n == 0:
        return {"n": 0, "top1": 0.0, "top3": 0.0, "mrr": 0.0, "empty": 0, "errors": 0}
    return {
        "n": n,
        "top1": round(sum(1 for r in rows if r["rank"] == 1) / n, 3),
        "top3": round(sum(1 for r in rows if r["rank"] is not None and r["rank"] <= 3) / n, 3),
        "mrr": round(sum(1 / r["rank"] for r in rows if r["rank"] is not None) / n, 3),
        "empty": sum(1 for r in rows if not r["ids"] and r["error"] is None),
        "errors": sum(1 for r in rows if r["error"] is not None),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scout", help="the scout binary (default: .build/debug/scout, then .build/release/scout)")
    parser.add_argument("--data", default=str(REPO / "data"),
                        help="reference data directory; records are read from DATA/sample (default: data)")
    parser.add_argument("--queries", default=str(REPO / "Benchmarks/search-quality/queries.jsonl"))
    parser.add_argument("--sample", type=int, metavar="N", help="use N queries, every k-th of the file")
    parser.add_argument("--min-top3", type=float, metavar="X", help="exit 1 when overall top-3 is below X")
    parser.add_argument("--min-mrr", type=float, metavar="Y", help="exit 1 when overall MRR is below Y")
    parser.add_argument("--words", choices=["most", "all"],
                        help="send this \"words\" rule with every query (default: none, the engine's default)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary instead of the table")
    parser.add_argument("--show-misses", action="store_true",
                        help="print each query whose first relevant hit is not in the top 3, with its top 3 ids")
    parser.add_argument("--check-labels", action="store_true",
                        help="only check the query set against the records (no scout run)")
    args = parser.parse_args(argv)
    if args.sample is not None and args.sample < 1:
        parser.error("--sample must be at least 1")

    data = Path(args.data)
    record_files = [data / "sample" / RECORD_FILES[kind] for kind in KINDS]
    records = {}
    for kind, path in zip(KINDS, record_files):
        if not path.is_file():
            fail(f"no record file {path}")
        with open(path, encoding="utf-8") as f:
            records[kind] = {r["id"]: r for r in (json.loads(line) for line in f if line.strip())}
    # A shelter's animals are the animal records that name it (as Scout derives them).
    for a in records["animal"].values():
        shelter = records["shelter"].get(a.get("shelter_id"))
        if shelter is not None:
            shelter.setdefault("animals", []).append(a)
    gazetteer = Gazetteer(data / "places.tsv")
    rules = Rules(records, gazetteer)

    try:
        queries = read_queries(args.queries)
    except (OSError, LabelError) as e:
        fail(f"{e}")
    problems = validate(queries, rules, gazetteer)
    if problems:
        for p in problems:
            print(f"label error: {p}", file=sys.stderr)
        fail(f"{len(problems)} label error(s) in {args.queries}")
    if args.check_labels:
        by = {}
        for q in queries:
            by[(q["kind"], q["lang"])] = by.get((q["kind"], q["lang"]), 0) + 1
        counts = ", ".join(f"{k} {l}: {n}" for (k, l), n in sorted(by.items()))
        print(f"{len(queries)} queries, labels sound ({counts})")
        return 0

    queries = sample(queries, args.sample)
    scout = find_scout(args.scout)
    answers = run_rank(scout, data, record_files, queries, args.words)

    rows = []
    for q in queries:
        answer = answers.get(q["id"])
        ids, rank, error = judge(q, answer, rules)
        rows.append({"id": q["id"], "kind": q["kind"], "lang": q["lang"], "text": q["text"],
                     "ids": ids, "rank": rank, "error": error})
        if error is not None:
            print(f"error answer for {q['id']} ({q['text']!r}): {error.get('code')}: "
                  f"{error.get('message')} (path {error.get('path', '-')})", file=sys.stderr)
        if answer is not None and answer.get("ok") and "near" in q:
            mine = gazetteer.resolve(q["near"]["place"], q["near"].get("country"))
            theirs = (answer["result"].get("resolved") or {}).get("near")
            if theirs and distance_km(mine[0], mine[1], theirs["lat"], theirs["lon"]) > 5:
                print(f"warning: {q['id']}: scout placed {q['near']['place']!r} at {theirs.get('name')}, "
                      f"the labels at {mine[2]}", file=sys.stderr)

    groups = [("overall", rows)]
    groups += [(f"kind {k}", [r for r in rows if r["kind"] == k]) for k in KINDS]
    groups += [(f"lang {l}", [r for r in rows if r["lang"] == l]) for l in ("en", "pl")]
    groups += [(f"{k} {l}", [r for r in rows if r["kind"] == k and r["lang"] == l])
               for k in KINDS for l in ("en", "pl")]
    groups = [(name, g) for name, g in groups if g]
    table = {name: summarise(g) for name, g in groups}

    misses = [r for r in rows if r["rank"] is None or r["rank"] > 3]
    if args.json:
        summary = {
            "scout": str(scout), "queries": len(rows), "depth": TOP,
            "overall": table["overall"],
            "by_kind": {k: table[f"kind {k}"] for k in KINDS if f"kind {k}" in table},
            "by_lang": {l: table[f"lang {l}"] for l in ("en", "pl") if f"lang {l}" in table},
            "by_kind_lang": {name.replace(" ", "/"): s for name, s in table.items()
                             if not name.startswith(("overall", "kind ", "lang "))},
        }
        if args.show_misses:
            summary["misses"] = [{"id": r["id"], "text": r["text"], "top3": r["ids"][:3], "rank": r["rank"],
                                  "error": r["error"]} for r in misses]
        print(json.dumps(summary, ensure_ascii=False, indent=1))
    else:
        print(f"{'':<16}{'n':>5}{'top-1':>8}{'top-3':>8}{'MRR@10':>8}{'empty':>7}{'errors':>7}")
        for name, _ in groups:
            s = table[name]
            print(f"{name:<16}{s['n']:>5}{s['top1']:>8.3f}{s['top3']:>8.3f}{s['mrr']:>8.3f}"
                  f"{s['empty']:>7}{s['errors']:>7}")
        if args.show_misses:
            print(f"\nmisses (no relevant hit in the top 3): {len(misses)}")
            for r in misses:
                where = "error" if r["error"] else ("no results" if not r["ids"] else
                                                    f"first relevant at {r['rank']}" if r["rank"] else "none relevant in top 10")
                top3 = ", ".join(r["ids"][:3]) or "-"
                print(f"  {r['id']} [{r['lang']}] {r['text']!r}: {where}; top 3: {top3}")

    overall, failed = table["overall"], []
    if args.min_top3 is not None and overall["top3"] < args.min_top3:
        failed.append(f"top-3 {overall['top3']:.3f} is below --min-top3 {args.min_top3:.3f}")
    if args.min_mrr is not None and overall["mrr"] < args.min_mrr:
        failed.append(f"MRR {overall['mrr']:.3f} is below --min-mrr {args.min_mrr:.3f}")
    for message in failed:
        print(f"FAIL: {message}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
