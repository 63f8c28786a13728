#!/usr/bin/env python3
"""Check Scout's hand-written content and the catalogue extras in data/.

Usage (from anywhere):  python3 scripts/check_content.py

Validates formats, ranges, enums and references of
  data/exercises.csv, data/breed_aliases.csv, data/species.tsv, data/synonyms.tsv,
  data/sample/articles.jsonl, data/sample/programs.jsonl, data/sample/lovers.jsonl,
  data/sample/animals.jsonl (each naming a shelter of data/sample/shelters.jsonl)
against data/breeds.csv and data/places.tsv (see data/README.md for every rule).
Prints one summary line and exits 0 when all is well; otherwise prints every problem
(file, line, what is wrong) to stderr and exits 1. Standard library only.
"""

from __future__ import annotations

import csv
import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SAMPLE = DATA / "sample"

PET_SPECIES = ["dog", "cat", "rabbit", "guinea_pig", "bird", "ferret", "horse", "reptile",
               "fish", "hamster", "other"]
SHELTER_SPECIES = ["dog", "cat", "rabbit", "guinea_pig", "bird", "ferret", "horse"]
URGENCIES = ["emergency", "call_vet", "home_care"]
ARTICLE_SOURCE = "Written by the Scout team. General guidance, not a substitute for a vet."
EXERCISE_KINDS = ["strength", "cardio", "mobility", "core", "plyometric"]
EQUIPMENT = ["none", "dumbbell", "barbell", "kettlebell", "machine", "band", "bench",
             "pull_up_bar", "cable", "rower", "bike", "treadmill", "box"]
MUSCLE_GROUPS = ["quads", "hamstrings", "glutes", "calves", "legs", "hips", "chest", "back",
                 "shoulders", "biceps", "triceps", "forearms", "core", "spine", "ankles",
                 "full_body"]
GOALS = ["strength", "hypertrophy", "endurance", "fat_loss", "mobility", "general_fitness"]
LEVELS = ["beginner", "intermediate", "advanced"]
ALIAS_LANGUAGES = ["en", "pl", "de", "fr"]
SEXES = ["male", "female", "unknown"]
SIZES = ["small", "medium", "large"]
COUNTRIES = ["IE", "GB", "PL"]

N_PROGRAMS = 600
N_AUTHORS = 300
N_LOVERS = 2000

KEYS = {
    "article": ["id", "kind", "title", "situation", "species", "urgency", "summary", "body",
                "keywords", "source"],
    "program": ["id", "kind", "name", "goal", "level", "weeks", "days_per_week",
                "description", "exercises", "author", "votes"],
    "lover": ["id", "kind", "name", "experience", "activity_level", "other_pets", "vetted",
              "about", "town", "country", "reviews"],
    "animal": ["id", "kind", "lat", "lon", "shelter_id", "species", "name", "sex",
               "age_years", "size", "marks", "description", "adoptable", "town", "country"],
}
ANIMAL_KEYS = ["id", "kind", "lat", "lon", "shelter_id", "species", "name", "sex", "age_years", "size",
               "marks", "description", "adoptable", "town", "country"]

problems: list[str] = []


def problem(where: str, what: str):
    problems.append(f"{where}: {what}")


# Letters NFKD does not decompose (as in build_data.py's fold_ascii).
SPECIAL = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "ß": "ss",
                         "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ð": "d", "þ": "th"})


def fold(s: str) -> str:
    """Lower case, no diacritics, letters and digits only: the key under which two names
    count as the same ("Shih-Tzu" = "shih tzu")."""
    s = unicodedata.normalize("NFKD", s.translate(SPECIAL).lower())
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]", "", s)


def is_int(v, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def read_lines(path: Path) -> list[str] | None:
    """The file's lines without their "\\n"; reports a missing file, bad UTF-8, "\\r" or a
    missing final newline."""
    rel = path.relative_to(ROOT)
    if not path.is_file():
        problem(str(rel), "missing (run: python3 scripts/build_data.py --catalogue-extras)")
        return None
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        problem(str(rel), f"not UTF-8 ({e})")
        return None
    if "\r" in text:
        problem(str(rel), "has \\r (line ends must be \\n)")
    if text.startswith("\ufeff"):
        problem(str(rel), "starts with a byte-order mark")
    if not text.endswith("\n"):
        problem(str(rel), "does not end with a newline")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def read_jsonl(path: Path, kind: str | None) -> list[tuple[int, dict]]:
    """(line number, object) for each line; checks compact form, key order, kind, ids
    unique and sorted."""
    lines = read_lines(path)
    if lines is None:
        return []
    rel = str(path.relative_to(ROOT))
    out = []
    prev_id = None
    for n, line in enumerate(lines, start=1):
        where = f"{rel}:{n}"
        if not line:
            problem(where, "empty line")
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            problem(where, f"not JSON ({e.msg})")
            continue
        if not isinstance(obj, dict):
            problem(where, "not a JSON object")
            continue
        if json.dumps(obj, ensure_ascii=False, separators=(",", ":")) != line:
            problem(where, "not compact JSON with unescaped UTF-8 (as json.dumps(ensure_ascii=False, "
                           "separators=(',', ':')) writes it)")
        if kind is not None:
            if list(obj) != KEYS[kind]:
                problem(where, f"keys {list(obj)} must be exactly {KEYS[kind]} in this order")
            if obj.get("kind") != kind:
                problem(where, f"kind must be {kind!r}")
        oid = obj.get("id")
        if not isinstance(oid, str) or not oid:
            problem(where, "id must be a non-empty string")
        elif prev_id is not None and oid <= prev_id:
            problem(where, f"id {oid!r} is not after {prev_id!r} (ids must be unique and sorted)")
        if isinstance(oid, str):
            prev_id = oid
        out.append((n, obj))
    return out


def read_breeds() -> list[str]:
    lines = read_lines(DATA / "breeds.csv")
    if lines is None:
        return []
    return [r["breed"] for r in csv.DictReader(lines)]


def read_places() -> dict[str, set[str]]:
    """Country -> every name and alternate name of its places in places.tsv."""
    names: dict[str, set[str]] = {}
    lines = read_lines(DATA / "places.tsv")
    if lines is None:
        return names
    for line in lines[1:]:
        c = line.split("\t")
        if len(c) < 5:
            continue
        s = names.setdefault(c[4], set())
        s.add(c[1])
        s.update(a for a in c[3].split("|") if a)
    return names


# --- exercises.csv ---------------------------------------------------------------------------

def check_exercises() -> set[str]:
    path = DATA / "exercises.csv"
    lines = read_lines(path)
    if lines is None:
        return set()
    rel = "data/exercises.csv"
    rows = list(csv.reader(lines))
    header = ["name", "muscle_group", "equipment", "kind"]
    if not rows or rows[0] != header:
        problem(f"{rel}:1", f"header must be {','.join(header)}")
        return set()
    names: dict[str, int] = {}
    kinds = set()
    for n, r in enumerate(rows[1:], start=2):
        where = f"{rel}:{n}"
        if len(r) != 4:
            problem(where, f"{len(r)} fields, want 4")
            continue
        name, group, equipment, kind = r
        if not name or name != name.strip() or "  " in name:
            problem(where, f"bad name {name!r}")
        elif name[0] != name[0].upper():
            problem(where, f"name {name!r} must start with a capital letter")
        if name.casefold() in names:
            problem(where, f"exercise {name!r} also on line {names[name.casefold()]}")
        names[name.casefold()] = n
        if group not in MUSCLE_GROUPS:
            problem(where, f"muscle_group {group!r} not one of {MUSCLE_GROUPS}")
        if equipment not in EQUIPMENT:
            problem(where, f"equipment {equipment!r} not one of {EQUIPMENT}")
        if kind not in EXERCISE_KINDS:
            problem(where, f"kind {kind!r} not one of {EXERCISE_KINDS}")
        kinds.add(kind)
    if len(rows) - 1 < 80:
        problem(rel, f"{len(rows) - 1} exercises, want at least 80")
    if kinds and kinds != set(EXERCISE_KINDS):
        problem(rel, f"kinds {sorted(set(EXERCISE_KINDS) - kinds)} never used")
    return {r[0] for r in rows[1:] if len(r) == 4}


# --- breed_aliases.csv -------------------------------------------------------------------------

def check_breed_aliases(breeds: list[str]) -> int:
    lines = read_lines(DATA / "breed_aliases.csv")
    if lines is None:
        return 0
    rel = "data/breed_aliases.csv"
    rows = list(csv.reader(lines))
    if not rows or rows[0] != ["alias", "breed", "language"]:
        problem(f"{rel}:1", "header must be alias,breed,language")
        return 0
    known = set(breeds)
    folded_breeds = {fold(b): b for b in breeds}
    seen: dict[str, tuple[int, str, str]] = {}
    for n, r in enumerate(rows[1:], start=2):
        where = f"{rel}:{n}"
        if len(r) != 3:
            problem(where, f"{len(r)} fields, want 3")
            continue
        alias, breed, lang = r
        key = fold(alias)
        if not key or alias != alias.strip():
            problem(where, f"bad alias {alias!r}")
            continue
        if breed not in known:
            problem(where, f"breed {breed!r} is not a breed of data/breeds.csv")
        if lang not in ALIAS_LANGUAGES:
            problem(where, f"language {lang!r} not one of {ALIAS_LANGUAGES}")
        if key in folded_breeds:
            problem(where, f"alias {alias!r} is the breed name {folded_breeds[key]!r} "
                           "(ignoring case, diacritics and punctuation)")
        if key in seen:
            line, other_alias, other_breed = seen[key]
            if other_breed != breed:
                problem(where, f"alias {alias!r} maps to {breed!r}, but {other_alias!r} on line "
                               f"{line} maps to {other_breed!r}")
            else:
                problem(where, f"alias {alias!r} repeats {other_alias!r} on line {line}")
        else:
            seen[key] = (n, alias, breed)
    if len(rows) - 1 < 120:
        problem(rel, f"{len(rows) - 1} aliases, want at least 120")
    return len(rows) - 1


# --- species.tsv -------------------------------------------------------------------------------

def check_species() -> tuple[int, set[str]]:
    lines = read_lines(DATA / "species.tsv")
    if lines is None:
        return 0, set()
    rel = "data/species.tsv"
    if not lines or lines[0] != "species\ten\tpl":
        problem(f"{rel}:1", "header must be species<TAB>en<TAB>pl")
        return 0, set()
    species = set()
    names: dict[str, tuple[int, str]] = {}
    for n, line in enumerate(lines[1:], start=2):
        where = f"{rel}:{n}"
        c = line.split("\t")
        if len(c) != 3:
            problem(where, f"{len(c)} fields, want 3")
            continue
        sp, en, pl = c
        if not re.fullmatch(r"[a-z]+(_[a-z]+)*", sp):
            problem(where, f"species {sp!r} must be a lower-case word (a-z and _)")
        if sp in species:
            problem(where, f"species {sp!r} listed twice")
        species.add(sp)
        for col, value in (("en", en), ("pl", pl)):
            forms = value.split("|")
            if not value or any(not f or f != f.strip() or "  " in f for f in forms):
                problem(where, f"{col}: empty or badly spaced name in {value!r}")
            for f in forms:
                if f != f.lower():
                    problem(where, f"{col}: {f!r} must be lower case")
                if f in names:
                    line_no, other = names[f]
                    problem(where, f"name {f!r} also on line {line_no} ({other})")
                else:
                    names[f] = (n, sp)
    missing = [s for s in PET_SPECIES if s != "other" and s not in species]
    if missing:
        problem(rel, f"no row for the pet species {missing}")
    return len(lines) - 1, set(names)


# --- synonyms.tsv ------------------------------------------------------------------------------

def check_synonyms(species_names: set[str]) -> tuple[int, int]:
    lines = read_lines(DATA / "synonyms.tsv")
    if lines is None:
        return 0, 0
    rel = "data/synonyms.tsv"
    seen: dict[str, tuple[int, str]] = {}
    sections = {"pets": 0, "catalogue": 0}
    section = None
    for n, line in enumerate(lines, start=1):
        where = f"{rel}:{n}"
        if line.startswith("#"):
            low = line.lower()
            if low.startswith("# pet situations"):
                section = "pets"
            elif low.startswith("# shelter catalogue"):
                section = "catalogue"
            continue
        if not line.strip():
            problem(where, "empty line (use a # comment line to separate)")
            continue
        phrases = line.split("\t")
        if len(phrases) < 2:
            problem(where, "a group needs at least two phrases")
        if section is None:
            problem(where, "group before the '# Pet situations' section comment")
        else:
            sections[section] += 1
        for p in phrases:
            if not p or p != p.strip() or "  " in p:
                problem(where, f"empty or badly spaced phrase {p!r}")
                continue
            if p != p.lower():
                problem(where, f"{p!r} must be lower case")
            if p in species_names:
                problem(where, f"{p!r} is a species name (species.tsv), not a synonym")
            # Scout matches folded text (no case, no diacritics): "małe" and "male" are one phrase.
            key = fold(p)
            if key in seen and seen[key][0] != n:
                problem(where, f"{p!r} is also in the group on line {seen[key][0]} ({seen[key][1]!r}) once folded")
            elif key not in seen:
                seen[key] = (n, phrases[0])
    if sections["pets"] < 40:
        problem(rel, f"{sections['pets']} pet-situation groups, want at least 40")
    if sections["catalogue"] < 30:
        problem(rel, f"{sections['catalogue']} shelter-catalogue groups, want at least 30")
    return sections["pets"], sections["catalogue"]


# --- articles ----------------------------------------------------------------------------------

def check_articles() -> int:
    rel = "data/sample/articles.jsonl"
    items = read_jsonl(SAMPLE / "articles.jsonl", "article")
    urgencies = set()
    for n, a in items:
        where = f"{rel}:{n}"
        aid = a.get("id")
        if not isinstance(aid, str) or not re.fullmatch(r"article-[a-z0-9]+(-[a-z0-9]+)*", aid or ""):
            problem(where, f"id {aid!r} must look like article-ate-chocolate")
        title = a.get("title")
        if not isinstance(title, str) or not (title.startswith("My ") or title.startswith("Help! My ")):
            problem(where, f"title {title!r} must start with 'My ' or 'Help! My '")
        sit = a.get("situation")
        if not isinstance(sit, str) or not sit or sit != sit.strip():
            problem(where, "situation must be a non-empty string")
        sp = a.get("species")
        if (not isinstance(sp, list) or not sp or any(s not in PET_SPECIES for s in sp)
                or len(set(sp)) != len(sp)):
            problem(where, f"species {sp!r} must be a non-empty list of distinct {PET_SPECIES}")
        u = a.get("urgency")
        if u not in URGENCIES:
            problem(where, f"urgency {u!r} not one of {URGENCIES}")
        urgencies.add(u)
        summary = a.get("summary")
        if not isinstance(summary, str) or not summary or len(summary) > 400 or "\n" in summary:
            problem(where, "summary must be one or two sentences on one line (at most 400 characters)")
        body = a.get("body")
        if not isinstance(body, str):
            problem(where, "body must be a string")
        else:
            paras = body.split("\n\n")
            if any(not p.strip() or p != p.strip() or "\n" in p for p in paras):
                problem(where, "body: paragraphs must be separated by exactly one blank line")
            words = len(body.split())
            if not 80 <= words <= 250:
                problem(where, f"body has {words} words, want 80-250")
            if not paras[-1].startswith("When to see a vet:"):
                problem(where, "body must end with a paragraph starting 'When to see a vet:'")
            elif not paras[-1].rstrip().endswith((".", "!")):
                problem(where, "the 'When to see a vet:' paragraph must end with a full stop")
        kw = a.get("keywords")
        if (not isinstance(kw, list) or not 3 <= len(kw) <= 12
                or any(not isinstance(k, str) or not k or k != k.lower() or k != k.strip()
                       or len(k.split()) > 4 for k in kw) or len(set(kw)) != len(kw)):
            problem(where, "keywords must be 3-12 distinct lower-case words or short phrases")
        if a.get("source") != ARTICLE_SOURCE:
            problem(where, f"source must be {ARTICLE_SOURCE!r}")
    if len(items) < 45:
        problem(rel, f"{len(items)} articles, want at least 45")
    if items and urgencies != set(URGENCIES):
        problem(rel, f"urgencies {sorted(set(URGENCIES) - urgencies)} never used")
    return len(items)


# --- programs ----------------------------------------------------------------------------------

def check_programs(exercises: set[str]) -> int:
    rel = "data/sample/programs.jsonl"
    items = read_jsonl(SAMPLE / "programs.jsonl", "program")
    for i, (n, p) in enumerate(items, start=1):
        where = f"{rel}:{n}"
        if p.get("id") != f"program-{i:04d}":
            problem(where, f"id {p.get('id')!r}, want program-{i:04d}")
        if not isinstance(p.get("name"), str) or not p["name"]:
            problem(where, "name must be a non-empty string")
        if p.get("goal") not in GOALS:
            problem(where, f"goal {p.get('goal')!r} not one of {GOALS}")
        if p.get("level") not in LEVELS:
            problem(where, f"level {p.get('level')!r} not one of {LEVELS}")
        if not is_int(p.get("weeks"), 2, 16):
            problem(where, "weeks must be an integer 2-16")
        if not is_int(p.get("days_per_week"), 1, 7):
            problem(where, "days_per_week must be an integer 1-7")
        if not isinstance(p.get("description"), str) or not p["description"]:
            problem(where, "description must be a non-empty string")
        ex = p.get("exercises")
        if not isinstance(ex, list) or not 3 <= len(ex) <= 10:
            problem(where, "exercises must be a list of 3-10 items")
            ex = []
        for j, e in enumerate(ex):
            at = f"{where}: exercises[{j}]"
            if not isinstance(e, dict):
                problem(at, "must be an object")
                continue
            keys = list(e)
            if keys not in (["name", "sets", "reps"], ["name", "sets", "seconds"]):
                problem(at, f"keys {keys} must be [name, sets, reps] or [name, sets, seconds]")
            if e.get("name") not in exercises:
                problem(at, f"{e.get('name')!r} is not an exercise of data/exercises.csv")
            if not is_int(e.get("sets"), 1, 6):
                problem(at, "sets must be an integer 1-6")
            if "reps" in e and not is_int(e["reps"], 1, 30):
                problem(at, "reps must be an integer 1-30")
            if "seconds" in e and not is_int(e["seconds"], 10, 3600):
                problem(at, "seconds must be an integer 10-3600")
        names = [e.get("name") for e in ex if isinstance(e, dict)]
        if len(set(names)) != len(names):
            problem(where, "an exercise appears twice")
        author = p.get("author")
        m = re.fullmatch(r"user-(\d{4})", author) if isinstance(author, str) else None
        if not m or not 1 <= int(m.group(1)) <= N_AUTHORS:
            problem(where, f"author {author!r} must be user-0001 ... user-{N_AUTHORS:04d}")
        v = p.get("votes")
        if (not isinstance(v, dict) or list(v) != ["up", "down"]
                or not is_int(v.get("up"), 0, 10**7) or not is_int(v.get("down"), 0, 10**7)):
            problem(where, "votes must be {\"up\": int >= 0, \"down\": int >= 0}")
    if len(items) != N_PROGRAMS:
        problem(rel, f"{len(items)} programs, want {N_PROGRAMS}")
    return len(items)


# --- lovers ------------------------------------------------------------------------------------

def check_review(where: str, r) -> None:
    if not isinstance(r, dict) or list(r) != ["mean", "count"]:
        problem(where, "must be {\"mean\", \"count\"}")
        return
    count, mean = r["count"], r["mean"]
    if not is_int(count, 0, 10**6):
        problem(where, "count must be an integer >= 0")
        return
    if count == 0:
        if mean is not None:
            problem(where, "mean must be null when count is 0")
    elif not is_number(mean) or not 1.0 <= mean <= 5.0 or round(mean, 1) != mean:
        problem(where, "mean must be 1.0-5.0 with one decimal when count > 0")


def check_lovers(places: dict[str, set[str]]) -> int:
    rel = "data/sample/lovers.jsonl"
    items = read_jsonl(SAMPLE / "lovers.jsonl", "lover")
    for i, (n, p) in enumerate(items, start=1):
        where = f"{rel}:{n}"
        if p.get("id") != f"lover-{i:05d}":
            problem(where, f"id {p.get('id')!r}, want lover-{i:05d}")
        if not isinstance(p.get("name"), str) or not p["name"].strip():
            problem(where, "name must be a non-empty string")
        if not is_int(p.get("experience"), 1, 5):
            problem(where, "experience must be an integer 1-5")
        if not is_int(p.get("activity_level"), 1, 5):
            problem(where, "activity_level must be an integer 1-5")
        pets = p.get("other_pets")
        if (not isinstance(pets, list) or any(x not in PET_SPECIES for x in pets)
                or pets != sorted(set(pets), key=PET_SPECIES.index)):
            problem(where, f"other_pets must be distinct species of {PET_SPECIES}, in that order")
        if not isinstance(p.get("vetted"), bool):
            problem(where, "vetted must be true or false")
        about = p.get("about")
        if not isinstance(about, str) or not about or len(about) > 300:
            problem(where, "about must be a non-empty string of at most 300 characters")
        cc = p.get("country")
        if cc not in COUNTRIES:
            problem(where, f"country {cc!r} not one of {COUNTRIES}")
        elif places and p.get("town") not in places.get(cc, ()):
            problem(where, f"town {p.get('town')!r} is not a place of {cc} in data/places.tsv")
        rv = p.get("reviews")
        if not isinstance(rv, dict) or list(rv) != ["reliability", "care"]:
            problem(where, "reviews must be {\"reliability\", \"care\"}")
        else:
            for k in ("reliability", "care"):
                check_review(f"{where}: reviews.{k}", rv[k])
    if len(items) != N_LOVERS:
        problem(rel, f"{len(items)} lovers, want {N_LOVERS}")
    return len(items)


# --- shelters and animals -----------------------------------------------------------------------

def check_animals(places: dict[str, set[str]]) -> tuple[int, int]:
    shelters = read_jsonl(SAMPLE / "shelters.jsonl", None)
    srel = "data/sample/shelters.jsonl"
    # A shelter's animals are the animal records naming it (Scout derives its list).
    by_id: dict[str, dict] = {}
    for n, s in shelters:
        if "animals" in s:
            problem(f"{srel}:{n}", "a shelter carries no animals list: its animals are records in animals.jsonl")
        by_id[s.get("id")] = s
    per_shelter: dict[str, int] = {}
    rel = "data/sample/animals.jsonl"
    animals = read_jsonl(SAMPLE / "animals.jsonl", "animal")
    seen = set()
    for n, a in animals:
        where = f"{rel}:{n}"
        aid = a.get("id")
        if not isinstance(aid, str) or not re.fullmatch(r"animal-\d{5}", aid):
            problem(where, f"id {aid!r} must look like animal-00001")
        if a.get("species") not in SHELTER_SPECIES:
            problem(where, f"species {a.get('species')!r} not one of {SHELTER_SPECIES}")
        if a.get("sex") not in SEXES:
            problem(where, f"sex {a.get('sex')!r} not one of {SEXES}")
        if a.get("size") not in SIZES:
            problem(where, f"size {a.get('size')!r} not one of {SIZES}")
        if not is_number(a.get("age_years")) or not 0 <= a["age_years"] <= 100:
            problem(where, "age_years must be a number 0-100")
        if not isinstance(a.get("adoptable"), bool):
            problem(where, "adoptable must be true or false")
        if not is_number(a.get("lat")) or not -90 <= a["lat"] <= 90 \
                or not is_number(a.get("lon")) or not -180 <= a["lon"] <= 180:
            problem(where, "lat/lon out of range")
        cc = a.get("country")
        if cc not in COUNTRIES:
            problem(where, f"country {cc!r} not one of {COUNTRIES}")
        elif places and a.get("town") not in places.get(cc, ()):
            problem(where, f"town {a.get('town')!r} is not a place of {cc} in data/places.tsv")
        if list(a) != ANIMAL_KEYS:
            problem(where, f"keys {list(a)} must be {ANIMAL_KEYS} (sex right after name)")
        s = by_id.get(a.get("shelter_id"))
        if s is None:
            problem(where, f"shelter_id {a.get('shelter_id')!r} is not a shelter of {srel}")
        else:
            addr = s.get("address") or {}
            want = {"lat": s.get("lat"), "lon": s.get("lon"), "town": addr.get("town"), "country": addr.get("country")}
            diff = sorted(k for k in want if a.get(k) != want[k])
            if diff:
                problem(where, f"differs from its shelter's place and address in {srel} in {diff}")
            per_shelter[s["id"]] = per_shelter.get(s["id"], 0) + 1
        if aid in seen:
            problem(where, f"{aid!r} appears twice")
        seen.add(aid)
    for sid in by_id:
        if not 2 <= per_shelter.get(sid, 0) <= 120:
            problem(srel, f"{sid} has {per_shelter.get(sid, 0)} animals, want 2-120")
    return len(shelters), len(animals)


def main() -> int:
    breeds = read_breeds()
    places = read_places()
    exercises = check_exercises()
    n_aliases = check_breed_aliases(breeds)
    n_species, species_names = check_species()
    n_syn = check_synonyms(species_names)
    n_articles = check_articles()
    n_programs = check_programs(exercises)
    n_lovers = check_lovers(places)
    n_shelters, n_animals = check_animals(places)
    if problems:
        for p in problems[:200]:
            print(f"check_content: {p}", file=sys.stderr)
        if len(problems) > 200:
            print(f"check_content: ... and {len(problems) - 200} more", file=sys.stderr)
        print(f"check_content: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_content: ok: {n_articles} articles, {len(exercises)} exercises, "
          f"{n_programs} programs, {n_lovers} lovers, {n_animals} animals in {n_shelters} "
          f"shelters, {n_aliases} breed aliases, {n_species} species, "
          f"{n_syn[0]} + {n_syn[1]} synonym groups")
    return 0


if __name__ == "__main__":
    sys.exit(main())
