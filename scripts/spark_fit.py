#!/usr/bin/env python3
"""Fit the recommender's next enjoyment prior on Apache Spark, as `scout fit-prior` does on
one machine, with the same bytes out.

The decision log (JSON Lines: request, offers with propensities, ratings; docs/recommender.md)
is split into partitions; each partition's lines go through `scout fit-prior --emit-examples`
on an executor (the map: reading requests, pets and offer moments into feature rows, the
costly part of a large log); the rows come back in log order and one `scout fit-prior
--examples` on the driver fits the coefficients (the reduce: a few Newton rounds over rows
that fit in memory). The `scout` binary and the data directory are shipped with
`SparkContext.addFile`, as scripts/spark_rank.py does.

    spark-submit scripts/spark_fit.py --scout .build/release/scout --data data \\
        --log decisions.jsonl --output next_prior.json --version 2026-12-01.1 [--prior current.json]

Written by the Scout team for this project. The test command runs it in local mode
(`recommender_sim.py --refit --spark`) and checks its output equals `scout fit-prior`'s.
"""
import argparse
import os
import subprocess
import sys
import tempfile


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scout", required=True, help="the scout executable to ship")
    ap.add_argument("--data", required=True, help="data directory (activities.json, weights.json, enjoyment_prior.json, …)")
    ap.add_argument("--prior", help="the prior to start from (default: the data directory's)")
    ap.add_argument("--log", required=True, help="the decision log (any path Spark can read)")
    ap.add_argument("--output", required=True, help="where to write the fitted prior")
    ap.add_argument("--version", required=True, help="the fitted prior's version")
    ap.add_argument("--ridge", default="1", help="as scout fit-prior --ridge")
    ap.add_argument("--largest-weight", default=None, help="as scout fit-prior --largest-weight")
    ap.add_argument("--partitions", type=int, default=0, help="number of partitions (default: Spark's parallelism)")
    ap.add_argument("--master", help="Spark master (default: from spark-submit, else local[*])")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    from pyspark import SparkFiles
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("scout-fit-prior").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    sc.addFile(os.path.abspath(args.scout))
    scout_name = os.path.basename(args.scout)
    sc.addFile(os.path.abspath(args.data), recursive=True)
    data_name = os.path.basename(os.path.abspath(args.data))
    prior_name = None
    if args.prior:
        sc.addFile(os.path.abspath(args.prior))
        prior_name = os.path.basename(args.prior)

    def rows(indexed):
        lines = [l for _, l in indexed]
        if not lines:
            return iter(())
        binary = SparkFiles.get(scout_name)
        os.chmod(binary, 0o755)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            # Blank lines keep the log's line numbers in messages.
            f.write("".join(l + "\n" for l in lines))
            path = f.name
        try:
            cmd = [binary, "fit-prior", "--data", SparkFiles.get(data_name), "--log", path, "--emit-examples"]
            if prior_name:
                cmd += ["--prior", SparkFiles.get(prior_name)]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        finally:
            os.unlink(path)
        if p.returncode != 0:
            raise RuntimeError("scout fit-prior --emit-examples failed (%d): %s" % (p.returncode, p.stderr.decode(errors="replace")[-2000:]))
        return iter(p.stdout.decode().splitlines())

    # zipWithIndex before any shuffle keeps the log's order; sortByKey restores it after one.
    indexed = sc.textFile(args.log).zipWithIndex().map(lambda p: (p[1], p[0]))
    if args.partitions:
        indexed = indexed.repartition(args.partitions).sortByKey()
    examples = indexed.mapPartitions(rows).collect()
    spark.stop()
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(e + "\n" for e in examples))
        path = f.name
    try:
        cmd = [args.scout, "fit-prior", "--data", args.data, "--examples", path, "--output", args.output, "--version", args.version,
               "--ridge", args.ridge]
        if args.largest_weight:
            cmd += ["--largest-weight", args.largest_weight]
        if args.prior:
            cmd += ["--prior", args.prior]
        subprocess.run(cmd, check=True)
    finally:
        os.unlink(path)
    print(f"spark_fit: {len(examples)} rated offers and choices from {args.log}, wrote {args.output}")


if __name__ == "__main__":
    main(sys.argv[1:])
