#!/usr/bin/env bash
# Soak: an index that lives forever. Builds the Soak benchmark (release) and runs it:
# ≥ 50M single-record upserts over 2,000 and 100,000 ids through PointSet, then gym upserts
# through Engine.upsert, printing RSS and index bytes every 5M writes (a Markdown table).
# Extra arguments go to the benchmark, e.g. `bash scripts/soak.sh --writes 10000000`.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
scratch="${SOAK_SCRATCH:-../.build-soak}"
swift build -c release --scratch-path "$scratch" --product Soak
"$scratch/release/Soak" "$@"
