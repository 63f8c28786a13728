#!/usr/bin/env bash
# Runs every test: set-up check, data checks, the Spark job against scout rank, the examples
# package, then the Swift test suite in its short form (last, so its summary closes the output;
# `scripts/test_full.sh` runs the long property tests at full size). The suite's short form of
# fuzzing replays every committed fuzz seed and regression through the fuzz targets' checks
# (Tests/ScoutFuzzTests); `scripts/fuzz.sh` builds the libFuzzer targets and fuzzes.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's end is stamped with the time since the start (minutes:seconds), for the CI log.
step() { printf 'test.sh: %s done at %d:%02d\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }
bash scripts/setup.sh
step "set-up"
python3 scripts/build_data.py --sample-dogs --if-missing
# Jobs started in the background below are stopped if a step fails.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
mkdir -p .build
# The time-zone polygons (about 1.5 min on a fresh clone, on one core) are built while Swift compiles.
python3 scripts/build_data.py --time-zones --if-missing > .build/time-zones.log 2>&1 &
time_zones=$!
python3 scripts/check_activities.py
python3 scripts/check_content.py
# SCOUT_BUILD_FLAGS (.ci/run sets it) goes to every build of this script and examples_test.sh.
swift build --build-tests ${SCOUT_BUILD_FLAGS:-} 2>&1 | tail -n 3
step "swift build"
wait "$time_zones" || { tail -n 20 .build/time-zones.log; echo "test.sh: building data/timezones.bin failed" >&2; exit 1; }
tail -n 1 .build/time-zones.log
step "time-zone data"
# scout serve --source against a private PostgreSQL 15 + PostGIS 3 (docs/operations.md); ~30 s.
# It runs first, on an otherwise idle machine: it holds the follower to its promise that a
# change is visible within 1 s, which a debug build sharing two cores with the builds and the
# Swift tests does not always keep (a TRUNCATE was seen later than that there).
python3 scripts/source_test.py --scout "$(swift build --show-bin-path)/scout" > .build/source-test.log 2>&1 \
  || { tail -n 40 .build/source-test.log; echo "test.sh: the PostgreSQL source test failed" >&2; exit 1; }
grep "^source_test: \(lag\|passed\)" .build/source-test.log
step "source test"
# The Swift tests run from here on, beside the other tests (much of whose time is waiting on
# Java, PostgreSQL and processes), and are collected last. The tests that need the spare-core
# helper (which runs at idle priority) to take a job run alone at the very end: beside the
# notebooks and the other suites no core may be idle for their 60 s (seen once).
idle_core_tests='SpareCoreTests|aFoldIsTakenWithTheChangesMadeWhileItRan'
swift test --skip-build --parallel --num-workers 2 --skip "$idle_core_tests" > .build/swift-test.log 2>&1 &
swift_tests=$!
# The Examples/ package (a separate build, about 3 min) compiles while the Spark, crash and
# notebook tests run; the examples run after those tests.
( bash scripts/examples_test.sh --build-only > .build/examples-build.log 2>&1; echo $? > .build/examples-build.rc ) &
examples_build=$!
if ! python3 scripts/spark_test.py --scout "$(swift build --show-bin-path)/scout" > .build/spark-test.log 2>&1; then
  tail -n 60 .build/spark-test.log; echo "test.sh: the Spark test failed" >&2; exit 1
fi
grep "^spark_test" .build/spark-test.log
step "Spark test"
# The recommender's learning simulation through scout serve at 25 dogs and 50 days (40 for the offline estimates; the full run:
# 200 dogs, 110 days, figures in docs/recommender.md): explore against rules only and random; a prior refitted on
# Spark (local mode) from a zero prior, equal to scout fit-prior's and lowering regret; SNIPS
# of other policies from a few hundred logged decisions (one offer, then "this or that") against their true value.
sim="python3 scripts/recommender_sim.py --scout $(swift build --show-bin-path)/scout --check"
# It runs beside the search-quality, crash and notebook tests (much of their time is waiting on
# processes and disks) and is collected after them.
( $sim --dogs 25 --days 50 > .build/learning.log 2>&1 && $sim --dogs 25 --refit --spark >> .build/learning.log 2>&1 \
  && $sim --dogs 40 --evaluate >> .build/learning.log 2>&1; echo $? > .build/learning.rc ) &
learning=$!
# Search relevance on a fifth of the labelled queries (Benchmarks/search-quality; the whole set:
# python3 Benchmarks/search-quality/evaluate.py, figures in docs/data-model.md).
python3 Benchmarks/search-quality/evaluate.py --scout "$(swift build --show-bin-path)/scout" --sample 40 --min-top3 0.85 --min-mrr 0.8 | sed -n 2p
step "search quality"
# Crash test of serve --state: SIGKILL mid-stream, restart, nothing answered lost (3 kills here, one per
# fsync policy; full run: --kills 100).
python3 scripts/crash_test.py --scout "$(swift build --show-bin-path)/scout" --kills 3 | tail -n 1
step "crash test"
# The notebooks at small size (10k points in every peer, a few days of simulation): any failing cell fails.
bash scripts/notebooks_venv.sh
if ! .build-notebooks/venv/bin/python scripts/run_notebooks.py --size small --scout "$(swift build --show-bin-path)/scout" \
    --out .build-notebooks/small > .build/notebooks-test.log 2>&1; then
  tail -n 60 .build/notebooks-test.log; echo "test.sh: a notebook failed" >&2; exit 1
fi
grep "^notebooks:" .build/notebooks-test.log
step "notebooks"
wait "$learning"
[ "$(cat .build/learning.rc)" = 0 ] || { tail -n 30 .build/learning.log; echo "test.sh: the learning simulation failed" >&2; exit 1; }
grep -E "^(new dog|60 days|this or that|refit|evaluate)" .build/learning.log
step "learning"
wait "$examples_build" || true
# Examples/: a package outside Scout's that depends on `Scout` and imports nothing else (the README's
# library section), and a Hummingbird 2 service that embeds Scout, driven over HTTP on loopback.
[ "$(cat .build/examples-build.rc)" = 0 ] || { tail -n 40 .build/examples-build.log; echo "test.sh: the examples did not build" >&2; exit 1; }
bash scripts/examples_test.sh > .build/examples-test.log 2>&1 \
  || { tail -n 40 .build/examples-test.log; echo "test.sh: the examples failed" >&2; exit 1; }
grep "^examples:" .build/examples-test.log
step "examples"
# The whole log stays in .build/swift-test.log; on failure, the recorded issues are printed
# last, so the end of a CI log names the failing test and why.
if ! wait "$swift_tests"; then
  tail -n 20 .build/swift-test.log
  echo "test.sh: what failed:"
  grep -E -A4 "recorded an issue|: error: |Fatal error|crashed|✘ Test [^ ]+\(.*\) failed" .build/swift-test.log | head -n 50
  echo "test.sh: the Swift tests failed (whole log: .build/swift-test.log)" >&2
  exit 1
fi
tail -n 40 .build/swift-test.log
if ! swift test --skip-build --filter "$idle_core_tests" > .build/swift-test-idle-core.log 2>&1; then
  grep -E -A4 "recorded an issue|: error: |Fatal error|crashed|✘ Test [^ ]+\(.*\) failed" .build/swift-test-idle-core.log | head -n 50
  echo "test.sh: the Swift tests that need an idle core failed (whole log: .build/swift-test-idle-core.log)" >&2
  exit 1
fi
tail -n 1 .build/swift-test-idle-core.log
step "Swift tests"
