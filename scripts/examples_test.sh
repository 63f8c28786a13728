#!/usr/bin/env bash
# Builds Examples/ScoutService, a package outside Scout's that depends on the `Scout` product,
# and runs its programs: the library tour (the README's library section; it imports
# only Scout), the Hummingbird 2 service, exercised over real HTTP on loopback, and
# scout-in-process, whose answers to the peers' quick spatial workload must equal scout serve's.
# `--build-only` stops after the build (scripts/test.sh builds it while other tests run).
set -euo pipefail
cd "$(dirname "$0")/.."
# No index store: nothing reads it here (the examples have no tests, whose discovery on Linux
# needs one), and it costs about a tenth of the build's CPU (5:09 against 5:37 measured).
swift build --package-path Examples/ScoutService --disable-index-store ${SCOUT_BUILD_FLAGS:-} 2>&1 | tail -n 1
[ "${1:-}" = "--build-only" ] && exit 0
python3 scripts/examples_test.py --bin "$(swift build --package-path Examples/ScoutService --disable-index-store --show-bin-path)"
# scout-in-process (Scout as a library in the peers' spatial workload) against scout serve on
# the quick point set: every answer must be the same (the runner exits 1 on any difference).
bash scripts/notebooks_venv.sh > /dev/null
.build-notebooks/venv/bin/python Benchmarks/peers/spatial.py --quick --peers scout,scout_library \
  --scout "$(swift build --show-bin-path)/scout" \
  --scout-library "$(swift build --package-path Examples/ScoutService --disable-index-store --show-bin-path)/scout-in-process" \
  --csv .build/peers/in-process-check.csv > .build/in-process-check.md 2> .build/in-process-check.log \
  || { tail -n 20 .build/in-process-check.log; echo "examples: scout-in-process and scout serve disagree" >&2; exit 1; }
echo "examples: scout-in-process agrees with scout serve on $(grep -c '| in_process |' .build/in-process-check.md) query types"
