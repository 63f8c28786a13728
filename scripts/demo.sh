#!/usr/bin/env bash
# The main job on the bundled sample: set up, build (release), load the sample catalogue
# into `scout serve` and answer example requests from scripts/demo-requests.jsonl: one call
# per screen of the five apps (ids 19-34 name the screen in their id).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 scripts/build_data.py --sample-dogs --if-missing
python3 scripts/build_data.py --time-zones --if-missing
swift build -c release --product scout 2>&1 | tail -n 3 >&2
bin="$(swift build -c release --show-bin-path)/scout"
"$bin" serve \
  --load data/sample/dogs.jsonl \
  --load data/sample/gyms.jsonl \
  --load data/sample/shelters.jsonl \
  --load data/sample/animals.jsonl \
  --load data/sample/articles.jsonl \
  --load data/sample/programs.jsonl \
  --load data/sample/lovers.jsonl \
  < scripts/demo-requests.jsonl
