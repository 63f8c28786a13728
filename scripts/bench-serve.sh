#!/usr/bin/env bash
# End-to-end throughput of `scout serve` through a pipe: 1,000,000 points loaded, then a
# stream of radius-4 km searches (limit 20) around the benchmark query centres.
# Prints requests/s. Usage: bash scripts/bench-serve.sh [requests, default 200000]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-200000}"
bash scripts/bench-data.sh
python3 - "$n" > .bench-data/serve-requests.jsonl <<'PY'
import sys
n = int(sys.argv[1])
qs = [l.strip().split(",") for l in open(".bench-data/queries.csv").read().splitlines()[1:]]
out = []
for i in range(n):
    lat, lon = qs[i % len(qs)]
    out.append('{"id":%d,"op":"search","kind":"p","near":{"lat":%s,"lon":%s},"radius_m":4000,"limit":20}' % (i, lat, lon))
sys.stdout.write("\n".join(out) + "\n")
PY
swift build -c release --product scout 2>&1 | tail -n 1 >&2
bin="$(swift build -c release --show-bin-path)/scout"
# Warm-up run (load only), then the timed run; load time is reported separately on stderr.
start=$(date +%s.%N)
"$bin" serve --load .bench-data/points.csv:p < /dev/null 2>/dev/null
loaded=$(date +%s.%N)
"$bin" serve --load .bench-data/points.csv:p < .bench-data/serve-requests.jsonl > .bench-data/serve-responses.jsonl 2>/dev/null
done_=$(date +%s.%N)
lines=$(wc -l < .bench-data/serve-responses.jsonl)
python3 - "$start" "$loaded" "$done_" "$lines" "$n" <<'PY'
import sys
s, l, d, lines, n = map(float, sys.argv[1:])
load = l - s
serve = (d - l) - load
print(f"load 1M points: {load:.2f} s; {int(lines)} responses to {int(n)} requests in {serve:.2f} s: {n/serve:,.0f} requests/s")
PY
