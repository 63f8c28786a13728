#!/usr/bin/env bash
# Runs every test: set-up check, data checks, then the Swift test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 scripts/build_data.py --sample-dogs --if-missing
python3 scripts/build_data.py --time-zones --if-missing
python3 scripts/check_activities.py
swift build --build-tests 2>&1 | tail -n 3
swift test --skip-build --parallel --num-workers 2 2>&1 | tail -n 40
