#!/usr/bin/env bash
# Executes every notebook in notebooks/ in place at full size (their outputs are committed).
# First: the Debian packages (scripts/setup.sh: PostgreSQL + PostGIS, Redis, cartopy's map
# data), the pinned Python packages (scripts/notebooks_venv.sh), the sample dogs, a release
# scout, and the peers runner at 10k, 100k, 1M and 10M points (Benchmarks/peers/spatial.py, with
# filtered nearest) into .build/peers/peers.csv. The notebooks themselves use no network.
# Figures and CSVs go to .build-notebooks/out/ (not committed).
#
#   bash scripts/notebooks.sh                   # everything
#   bash scripts/notebooks.sh --reuse-peers     # keep an existing .build/peers/peers.csv
#   SCOUT_BIN=path/to/scout bash scripts/notebooks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
reuse=0; [ "${1:-}" = "--reuse-peers" ] && reuse=1
bash scripts/setup.sh
bash scripts/notebooks_venv.sh
python3 scripts/build_data.py --sample-dogs --if-missing
python3 scripts/build_data.py --time-zones --if-missing
if [ -z "${SCOUT_BIN:-}" ]; then
  swift build -c release --product scout 2>&1 | tail -n 1
  SCOUT_BIN="$(swift build -c release --show-bin-path)/scout"
fi
export SCOUT_BIN
py=.build-notebooks/venv/bin/python
# On a fresh clone .build/peers/ does not exist yet, and tee opens peers.md before the runner makes it.
mkdir -p .build/peers
if [ "$reuse" = 0 ] || [ ! -f .build/peers/peers.csv ]; then
  "$py" Benchmarks/peers/spatial.py --sizes 10000,100000,1000000,10000000 --with-filtered --csv .build/peers/peers.csv | tee .build/peers/peers.md
fi
"$py" scripts/run_notebooks.py --size full --scout "$SCOUT_BIN" --param peers_csv=.build/peers/peers.csv
