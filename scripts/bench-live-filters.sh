#!/usr/bin/env bash
# Filtered nearest queries between live writes: builds the LiveFilters benchmark (release)
# and runs it on the sample dogs copied SCALE times (default 20: a million dogs). Each write
# patches one dog; the query after it runs at the new snapshot, per filter (none, ~1%,
# ~0.25%, a breed no dog has), against the same queries with no writes between.
# Usage: SCALE=1 WRITES=8000 bash scripts/bench-live-filters.sh  (see the benchmark's header)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/build_data.py --sample-dogs --if-missing >/dev/null
cd Benchmarks
swift build -c release --product LiveFilters 2>&1 | tail -n 1 >&2
SCOUT_DATA="${SCOUT_DATA:-$PWD/../data}" "$(swift build -c release --show-bin-path)/LiveFilters"
