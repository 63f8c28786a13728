#!/usr/bin/env bash
# Batch scoring throughput of the activity recommender on one core, library and worker in
# the same run (issue 4's speed target: at least 1,000,000 (pet, activity) scores per second).
# Usage: bash scripts/bench-recommender.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
cd Benchmarks
swift build -c release --product RecommenderThroughput 2>&1 | tail -n 1 >&2
SCOUT_DATA="$PWD/../data" taskset -c 0 "$(swift build -c release --show-bin-path)/RecommenderThroughput"
