#!/usr/bin/env bash
# Checks that Scout and PostgreSQL + PostGIS give the same answers to filtered nearest
# queries (k = 5, 100 seeded centres, five selectivities), and prints the quick timings.
# Starts a private PostgreSQL cluster (installs postgresql-15 and postgresql-15-postgis-3
# with apt-get when missing; psycopg into .build/peers/python with pip) and stops it again.
# Exit status 1 when any answer differs. See Benchmarks/peers/README.md.
#
#   bash scripts/peers_test.sh                     # the release scout (built when missing)
#   SCOUT_BIN=path/to/scout bash scripts/peers_test.sh
#   bash scripts/peers_test.sh --scout path/to/scout --centres 300
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/peers
start=$(date +%s)
if ! python3 Benchmarks/peers/filtered_nearest.py --check --csv .build/peers/filtered_nearest-check.csv "$@" \
    > .build/peers/check.log 2>&1; then
  tail -n 60 .build/peers/check.log
  echo "peers_test.sh: Scout and PostGIS answers differ (or the run failed); log: .build/peers/check.log" >&2
  exit 1
fi
grep -E "^\| |answers differ|^Largest" .build/peers/check.log
echo "peers_test.sh: every answer agrees ($(( $(date +%s) - start )) s)"
