#!/usr/bin/env bash
# Mean time per query (issue 2's statistic) and build time, Scout against the GEOS STRtree
# baseline on the 1M-point benchmark set, in alternating rounds. Usage: ROUNDS=3 bash scripts/bench-mean.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bench-data.sh
cd Benchmarks
swift build -c release --product MeanPerQuery 2>&1 | tail -n 1 >&2
SCOUT_BENCH_DATA="$PWD/../.bench-data" "$(swift build -c release --show-bin-path)/MeanPerQuery"
