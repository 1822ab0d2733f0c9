#!/usr/bin/env bash
# Batch throughput: `preflight batch` against a shell loop calling `preflight scan` once per
# file, on COUNT generated .ipa variants (distinct bytes), plus the peak memory of the batch
# process and of its largest worker at COUNT/4 and COUNT inputs (flat means it does not grow
# with the count). Release build, or the executable PREFLIGHT_BIN names; PREFLIGHT_LOOP_BIN
# runs the loop with another executable (default: the same).
# Usage: Benchmarks/batch.sh [COUNT] (default 1000).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
if [ -n "${PREFLIGHT_BIN:-}" ]; then
  bin=$PREFLIGHT_BIN
else
  swift build -c release --product preflight >/dev/null
  bin=$(swift build -c release --show-bin-path)/preflight
fi
work=$(mktemp -d /tmp/preflight-batch-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/make_ipa_variants.py "$work/ipas" "$count"
echo "inputs: $count distinct .ipa files, $(du -sh "$work/ipas" | cut -f1) in all; $(nproc) cores"

rate() { echo "scale=1; $1 * 60 / $2" | bc; }

s=$(date +%s.%N)
loopbin=${PREFLIGHT_LOOP_BIN:-$bin}
for f in "$work"/ipas/*.ipa; do "$loopbin" scan --format json "$f" >/dev/null 2>&1 || true; done
e=$(date +%s.%N)
loop=$(echo "$e - $s" | bc)
echo "shell loop, preflight scan per file: ${loop} s, $(rate "$count" "$loop") inputs/min"

for jobs in 1 $(nproc); do
  rm -f "$work"/store.sqlite*
  s=$(date +%s.%N)
  "$bin" batch "$work/ipas" --store "$work/store.sqlite" --jobs "$jobs" --format json >"$work/stats.json"
  e=$(date +%s.%N)
  t=$(echo "$e - $s" | bc)
  peak=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["batchPeakKB"], d["workerPeakKB"], d["scanned"])' "$work/stats.json")
  set -- $peak
  echo "preflight batch --jobs $jobs (SQLite): ${t} s, $(rate "$count" "$t") inputs/min, $(echo "scale=2; $loop / $t" | bc)x the loop; scanned $3; peak RSS batch $(($1 / 1024)) MiB, largest worker $(($2 / 1024)) MiB"
done

# Memory as the count grows: the same run over a quarter of the inputs.
quarter=$((count / 4))
ls "$work"/ipas/*.ipa | head -n "$quarter" >"$work/quarter.txt"
rm -f "$work"/store.sqlite*
"$bin" batch --list "$work/quarter.txt" --store "$work/store.sqlite" --format json >"$work/stats.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("memory at %d inputs: peak RSS batch %d MiB, largest worker %d MiB" % (d["scanned"], d["batchPeakKB"] // 1024, d["workerPeakKB"] // 1024))' "$work/stats.json"

# Resume: a rerun over a store that holds every input only hashes and looks up.
"$bin" batch "$work/ipas" --store "$work/store.sqlite" >/dev/null
s=$(date +%s.%N)
"$bin" batch "$work/ipas" --store "$work/store.sqlite" >/dev/null
e=$(date +%s.%N)
echo "rerun that skips all $count (already done): $(echo "$e - $s" | bc) s"
