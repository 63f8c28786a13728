#!/usr/bin/env bash
# Snapshot load against JSON Lines load, 1M points (issue 13): release build, 3 runs each.
#
#   bash scripts/bench-snapshot.sh            # 1,000,000 points
#   N=200000 RUNS=5 bash scripts/bench-snapshot.sh
#
# Writes .bench-data/snapshot/points.jsonl (seeded: 99% around 2,000 random "towns",
# 1% uniform on the sphere incl. poles and the antimeridian) once, then
#   - times the JSON Lines load: `scout snapshot --load points.jsonl --out p.snap`
#     (the "loaded N records … in T s" log line: reading, parsing, validating, indexing);
#   - times `scout rank --snapshot p.snap` on an empty input: the whole process until it
#     is ready to answer and done (start-up, snapshot checks and restore, exit), and the
#     restore alone (the "snapshot … in T s" log line);
# and prints medians and the ratio restore / JSON Lines load (target ≤ 0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-1000000}
runs=${RUNS:-3}
scratch=${SCRATCH:-.build-release}
out=.bench-data/snapshot
mkdir -p "$out"
swift build -c release --scratch-path "$scratch" --product scout >/dev/null
bin="$scratch/release/scout"

if [ ! -f "$out/points-$n.jsonl" ]; then
python3 - "$n" > "$out/points-$n.jsonl" <<'PY'
import math, random, sys
n = int(sys.argv[1])
r = random.Random(13)
towns = [(r.uniform(-60, 70), r.uniform(-180, 180)) for _ in range(2000)]
w = sys.stdout.write
for i in range(n):
    if r.random() < 0.01:
        lat = math.degrees(math.asin(r.uniform(-1, 1)))
        lon = r.uniform(-180, 180)
        if r.random() < 0.2: lon = r.choice([180.0, -180.0, 179.9999, -179.9999])
        if r.random() < 0.1: lat = r.choice([90.0, -90.0, 89.9999])
    else:
        tlat, tlon = r.choice(towns)
        d = r.expovariate(1 / 3000.0) / 6371008.8
        b = r.uniform(0, 2 * math.pi)
        p1, l1 = math.radians(tlat), math.radians(tlon)
        p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
        l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
        lat, lon = math.degrees(p2), (math.degrees(l2) + 540) % 360 - 180
    w('{"id":"p%07d","kind":"point","lat":%.6f,"lon":%.6f}\n' % (i + 1, lat, lon))
PY
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
now() { date +%s.%N; }

# From a directory without data/: no reference data on either side, points only.
root=$PWD
bin="$root/$bin"
cd "$out"
jsonl=(); restore=(); process=()
for i in $(seq "$runs"); do
  # Alternate the two loads, so that both see the same machine.
  log=$("$bin" snapshot --load "points-$n.jsonl" --out p.snap 2>&1 >/dev/null)
  jsonl+=("$(sed -n 's/.*loaded [0-9]* records from .* in \([0-9.]*\) s.*/\1/p' <<<"$log")")
  t0=$(now)
  log=$("$bin" rank --snapshot p.snap --quiet </dev/null 2>&1 >/dev/null)
  t1=$(now)
  process+=("$(echo "$t1 - $t0" | bc -l)")
  restore+=("$(sed -n 's/.*snapshot p.snap: .* in \([0-9.]*\) s$/\1/p' <<<"$log")")
done
j=$(printf '%s\n' "${jsonl[@]}" | median)
r=$(printf '%s\n' "${restore[@]}" | median)
p=$(printf '%s\n' "${process[@]}" | median)
size=$(stat -c %s p.snap); jsize=$(stat -c %s "points-$n.jsonl")
echo "points: $n; JSON Lines file $((jsize / 1048576)) MiB; snapshot $((size / 1048576)) MiB"
echo "JSON Lines load (s):       ${jsonl[*]}  median $j"
echo "snapshot restore (s):      ${restore[*]}  median $r"
echo "rank --snapshot, empty input, whole process (s): ${process[*]}  median $p"
printf 'ratio restore / JSON Lines load: %.3f; whole process / JSON Lines load: %.3f (target <= 0.1)\n' \
  "$(echo "$r / $j" | bc -l)" "$(echo "$p / $j" | bc -l)"
