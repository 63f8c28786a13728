#!/usr/bin/env python3
"""A Scout ranking job on Apache Spark: the requests of a JSON Lines file are split into
partitions, each partition's lines go through `scout rank` on an executor, and the answers
are written in input order as JSON Lines (part files, in order) or Parquet (`index`, `line`).

The `scout` binary and the catalogue (reference data directory and record files) are
shipped to the executors with `SparkContext.addFile` and found there with `SparkFiles.get`.
Each response depends only on its request and the catalogue, so the concatenated output is
byte for byte what one `scout rank` over the whole file writes.

    spark-submit scripts/spark_rank.py --scout .build/release/scout --data data \\
        --load data/sample/dogs.jsonl --input requests.jsonl --output out/ [--format jsonl|parquet]

Local test (the test command runs this): `--master local[2]`. On a cluster, see README.md
("Ranking on Spark") for the spark-submit line and what executors need installed.
"""
import argparse
import os
import subprocess
import sys


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scout", required=True, help="the scout executable to ship")
    ap.add_argument("--data", help="reference data directory (breeds.csv, places.tsv, …)")
    ap.add_argument("--load", action="append", default=[], help="record file to load (repeatable)")
    ap.add_argument("--input", required=True, help="JSON Lines requests (any path Spark can read)")
    ap.add_argument("--output", required=True, help="output directory")
    ap.add_argument("--format", choices=["jsonl", "parquet", "both"], default="jsonl",
                    help="output format; both: OUTPUT/jsonl and OUTPUT/parquet from one ranking pass")
    ap.add_argument("--partitions", type=int, default=0, help="number of partitions (default: Spark's parallelism)")
    ap.add_argument("--threads", type=int, default=1, help="scout rank threads per task (one task per core: 1)")
    ap.add_argument("--master", help="Spark master (default: from spark-submit, else local[*])")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    from pyspark import SparkFiles
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("scout-rank").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")

    sc.addFile(os.path.abspath(args.scout))
    scout_name = os.path.basename(args.scout)
    data_name = None
    if args.data:
        sc.addFile(os.path.abspath(args.data), recursive=True)
        data_name = os.path.basename(os.path.abspath(args.data))
    load_names = []
    for path in args.load:
        sc.addFile(os.path.abspath(path))
        load_names.append(os.path.basename(path))
    threads = args.threads

    def rank_partition(lines):
        lines = list(lines)
        if not lines:
            return iter(())
        binary = SparkFiles.get(scout_name)
        os.chmod(binary, 0o755)
        cmd = [binary, "rank", "--quiet", "--threads", str(threads)]
        if data_name:
            cmd += ["--data", SparkFiles.get(data_name)]
        for name in load_names:
            cmd += ["--load", SparkFiles.get(name)]
        # A request line that is blank gets no answer from scout (as in serve); keep them
        # out so that answers pair with requests one to one.
        payload = "".join(l + "\n" for l in lines).encode()
        p = subprocess.run(cmd, input=payload, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError("scout rank failed (%d): %s" % (p.returncode, p.stderr.decode(errors="replace")[-2000:]))
        out = p.stdout.decode().splitlines()
        if len(out) != len(lines):
            raise RuntimeError("scout rank answered %d of %d requests" % (len(out), len(lines)))
        return iter(out)

    requests = sc.textFile(args.input, minPartitions=max(1, args.partitions)) \
        .filter(lambda l: l.strip() != "")
    if args.partitions > 0:
        # Keep input order: number the lines, then cut the numbering into contiguous ranges.
        n = requests.count()
        per = max(1, -(-n // args.partitions))
        requests = requests.zipWithIndex().map(lambda t: (t[1] // per, (t[1], t[0]))) \
            .partitionBy(args.partitions, lambda k: k).values() \
            .mapPartitions(lambda it: (line for _, line in sorted(it)))
    answers = requests.mapPartitions(rank_partition)
    if args.format == "both":
        # Ranked once, written twice.
        answers = answers.cache()
    if args.format in ("jsonl", "both"):
        answers.saveAsTextFile(os.path.join(args.output, "jsonl") if args.format == "both" else args.output)
    if args.format in ("parquet", "both"):
        from pyspark.sql.types import LongType, StringType, StructField, StructType
        schema = StructType([StructField("index", LongType(), False), StructField("line", StringType(), False)])
        spark.createDataFrame(answers.zipWithIndex().map(lambda t: (t[1], t[0])), schema) \
            .write.parquet(os.path.join(args.output, "parquet") if args.format == "both" else args.output)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
