#!/usr/bin/env bash
# Generates the benchmark data (1M points around real towns, seeded) if missing and runs
# the package-benchmark suite (Scout vs a GEOS STRtree in the same run).
# Usage: bash scripts/bench.sh [extra `swift package benchmark` arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bench-data.sh
cd Benchmarks
SCOUT_BENCH_DATA="$PWD/../.bench-data" swift package --disable-sandbox benchmark --no-progress "$@"
