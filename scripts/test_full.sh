#!/usr/bin/env bash
# The Swift tests at full size: the long property tests run their whole count
# (SCOUT_TEST_FULL=1, ScoutTestSupport's TestScale), not the short form of the test command.
# About twice the test command's Swift test time. Assumes `bash scripts/test.sh` has set up
# the machine and built once (it builds again if sources changed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 scripts/build_data.py --sample-dogs --if-missing
python3 scripts/build_data.py --time-zones --if-missing
swift build --build-tests 2>&1 | tail -n 3
SCOUT_TEST_FULL=1 swift test --skip-build --parallel --num-workers 2 2>&1 | tail -n 40
