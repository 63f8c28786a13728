#!/usr/bin/env bash
# Runs the Swift tests under sanitizers, each build in its own scratch path. See docs/fuzzing.md.
#
#   scripts/sanitize.sh [asan|tsan|stress|all]      default: all (stress: StressEngine alone)
#
# asan  AddressSanitizer over the whole test suite (.build-asan): the GEOS/PROJ bridges, the
#       packed arrays, the unsafe-pointer readers. UBSan is not run: this Swift (6.3, Linux)
#       refuses -sanitize=undefined ("unsupported option for target x86_64-unknown-linux-gnu"),
#       and the C code it would check is the system's GEOS and PROJ.
# tsan  ThreadSanitizer over the concurrency tests (.build-tsan): PointSet readers and writer
#       with background merges and compaction, the region cache's lending, concurrent
#       time-zone lookups, the worker through real pipes; then Fuzz/'s StressEngine
#       (.build-tsan/stress): three readers and a writer on one engine through Worker.respond.
#
# ASAN_FILTER / TSAN_FILTER override the test filters (a `swift test --filter` regex).
# Exits non-zero if any run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
case "$which" in asan|tsan|stress|all) ;; *) echo "usage: scripts/sanitize.sh [asan|tsan|stress|all]" >&2; exit 2;; esac

bash scripts/setup.sh || exit 1
python3 scripts/build_data.py --sample-dogs --if-missing >/dev/null || exit 1

tsan_filter=${TSAN_FILTER:-"LiveUpdateTests|CompactionTests|RegionCacheTests|ValidityCacheTests|TimeZoneMapTests.concurrent|PolygonSearchTests|ServeEndToEndTests"}
status=0

run() { # name scratch filter sanitizer-flags...
  local name=$1 scratch=$2 filter=$3; shift 3
  local log="$scratch.log" start=$SECONDS
  echo "sanitize: $name: building tests in $scratch" >&2
  # Others may be editing the sources: a file changed under the build is retried (3 tries).
  local try
  for try in 1 2 3; do
    nice -n 10 swift build --build-tests --scratch-path "$scratch" "$@" >"$log" 2>&1 && break
    grep -q "was modified during the build" "$log" || break
    sleep 30
  done
  if ! grep -q "Build complete" "$log"; then
    grep -E "error:" "$log" | head -n 20 >&2
    echo "sanitize: $name: build FAILED (see $log)" >&2
    status=1; return
  fi
  local built=$((SECONDS - start))
  local args=(--skip-build --scratch-path "$scratch" "$@")
  [ -n "$filter" ] && args+=(--filter "$filter")
  echo "sanitize: $name: running tests${filter:+ matching $filter}" >&2
  if nice -n 10 swift test "${args[@]}" >>"$log" 2>&1; then
    echo "sanitize: $name: PASS (build ${built}s, tests $((SECONDS - start - built))s); $(grep -E "^✔ Test run with|Executed [0-9]+ tests" "$log" | tail -n 1)" >&2
  else
    echo "sanitize: $name: FAILED (build ${built}s, tests $((SECONDS - start - built))s); log: $log" >&2
    grep -E "^==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: |✘ |Fatal error" "$log" | sort | uniq -c | head -n 20 >&2
    status=1
  fi
}

if [ "$which" = asan ] || [ "$which" = all ]; then
  # LeakSanitizer cannot see class references that Swift keeps in multi-payload enums (the
  # case tag sits in the pointer's spare bits), so it reports live records as leaked.
  ASAN_OPTIONS=${ASAN_OPTIONS:-"detect_leaks=0"} run "ASan" .build-asan "${ASAN_FILTER:-}" --sanitize=address
fi
# Fuzz/tsan-suppressions.txt: critical sections of Synchronization.Mutex, which TSan cannot
# see on Linux (see the file).
export TSAN_OPTIONS=${TSAN_OPTIONS:-"halt_on_error=0:second_deadlock_stack=1:suppressions=$(pwd)/Fuzz/tsan-suppressions.txt"}
if [ "$which" = tsan ] || [ "$which" = all ]; then
  run "TSan" .build-tsan "$tsan_filter" --sanitize=thread
fi
if [ "$which" = tsan ] || [ "$which" = stress ] || [ "$which" = all ]; then
  log=.build-tsan/stress.log
  echo "sanitize: TSan: building and running Fuzz/'s StressEngine in .build-tsan/stress" >&2
  if (cd Fuzz && nice -n 10 swift build --product StressEngine --sanitize=thread --scratch-path ../.build-tsan/stress) >"$log" 2>&1 \
     && SCOUT_ROOT=$(pwd) nice -n 10 .build-tsan/stress/debug/StressEngine "${STRESS_ROUNDS:-300}" >>"$log" 2>&1 \
     && ! grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "sanitize: TSan: StressEngine PASS; $(grep -E "StressEngine:" "$log" | tail -n 1)" >&2
  else
    echo "sanitize: TSan: StressEngine FAILED; log: $log" >&2
    grep -E "error:|WARNING: ThreadSanitizer|SUMMARY: |StressEngine:|fuzz: " "$log" | sort | uniq -c | head -n 20 >&2
    status=1
  fi
fi
exit $status
