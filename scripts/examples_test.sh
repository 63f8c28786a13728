#!/usr/bin/env bash
# Builds Examples/ScoutService, a package outside Scout's that depends on the `Scout` product,
# and runs both of its programs: the library tour (the README's library section; it imports
# only Scout) and the Hummingbird 2 service, exercised over real HTTP on loopback.
# `--build-only` stops after the build (scripts/test.sh builds it while other tests run).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Examples/ScoutService 2>&1 | tail -n 1
[ "${1:-}" = "--build-only" ] && exit 0
python3 scripts/examples_test.py --bin "$(swift build --package-path Examples/ScoutService --show-bin-path)"
