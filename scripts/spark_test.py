#!/usr/bin/env python3
"""Checks `scripts/spark_rank.py` on Spark in local[2] mode against `scout rank`.

    python3 scripts/spark_test.py --scout .build/debug/scout [--requests N]

Installs the pinned PySpark if it is missing (Java 17 must be installed: scripts/setup.sh),
generates seeded read-only requests over the sample gyms and shelters, runs `scout rank`
directly and the Spark job once (`--format both`: JSON Lines and Parquet from one ranking
pass, 3 partitions), and fails unless all three give byte-identical answers in input order.
Prints the times.
"""
import argparse, glob, json, os, random, shutil, subprocess, sys, tempfile, time

PYSPARK = "pyspark==4.0.1"
ap = argparse.ArgumentParser()
ap.add_argument("--scout", required=True)
ap.add_argument("--requests", type=int, default=600)
args = ap.parse_args()
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)

try:
    import pyspark  # noqa: F401
except ImportError:
    print(f"spark_test: installing {PYSPARK}", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", PYSPARK], check=True)

rng = random.Random(20261124)
places = ["Galway", "Dublin", "Wrocław", "London", "Cork", "Kraków", "Poznań", "Limerick"]
breeds = ["Border Collie", "Labrador Retriever", "Beagle", "Mixed", "Pug"]
lines = []
for i in range(args.requests):
    place = rng.choice(places)
    k = i % 4
    if k == 0:
        lines.append(json.dumps({"id": i, "op": "recommend_activities", "pet": {"name": f"P{i}", "species": "dog", "breed": rng.choice(breeds), "birth_date": "2019-05-04"},
                                 "now": f"2026-06-1{rng.randint(0, 9)}T{rng.randint(0, 23):02d}:10:00Z", "location": {"place": place},
                                 "weather": {"temperature_c": rng.randint(-5, 30)}, "seed": rng.randint(0, 999)}, ensure_ascii=False))
    elif k == 1:
        lines.append(json.dumps({"id": i, "op": "rank_gyms", "from": {"place": place}, "now": "2026-11-24T07:30:00+01:00", "limit": 5}, ensure_ascii=False))
    elif k == 2:
        lines.append(json.dumps({"id": i, "op": "search", "kind": "shelter", "near": {"place": place}, "radius_m": 30000, "limit": 3, "fields": False}, ensure_ascii=False))
    else:
        lines.append("not json" if i % 40 == 3 else json.dumps({"id": i, "op": "nearest", "kind": "gym", "from": {"place": place}, "k": 2}, ensure_ascii=False))

tmp = tempfile.mkdtemp(prefix="scout-spark-")
requests = os.path.join(tmp, "requests.jsonl")
with open(requests, "w") as f:
    f.write("\n".join(lines) + "\n")
catalog = ["--data", "data", "--load", "data/sample/gyms.jsonl", "--load", "data/sample/shelters.jsonl"]

t = time.time()
direct = subprocess.run([args.scout, "rank", "--quiet", "--threads", "2", "--input", requests] + catalog,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True).stdout
t_direct = time.time() - t
assert direct.count(b"\n") == len(lines), "scout rank answered every request"

env = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
def spark(fmt):
    out = os.path.join(tmp, "out-" + fmt)
    t = time.time()
    subprocess.run([sys.executable, "scripts/spark_rank.py", "--master", "local[2]", "--scout", args.scout, "--input", requests,
                    "--output", out, "--format", fmt, "--partitions", "3", "--data", "data",
                    "--load", "data/sample/gyms.jsonl", "--load", "data/sample/shelters.jsonl"], check=True, env=env)
    return out, time.time() - t

# One job writes both formats from one ranking pass (`--format both`).
out, t_spark = spark("both")
got = b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(out, "jsonl", "part-*"))))
assert got == direct, "Spark (JSON Lines) differs from scout rank"

from pyspark.sql import SparkSession
s = SparkSession.builder.master("local[1]").appName("scout-spark-check").config("spark.ui.showConsoleProgress", "false").getOrCreate()
s.sparkContext.setLogLevel("ERROR")
rows = s.read.parquet(os.path.join(out, "parquet")).orderBy("index").collect()
s.stop()
got = "".join(r["line"] + "\n" for r in rows).encode()
assert got == direct, "Spark (Parquet) differs from scout rank"
print(f"spark_test: {len(lines)} requests; scout rank {t_direct:.1f} s; Spark local[2] JSON Lines and Parquet {t_spark:.1f} s; "
      f"outputs identical")
shutil.rmtree(tmp, ignore_errors=True)
