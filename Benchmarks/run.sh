#!/usr/bin/env bash
# Scan time of a large synthetic .ipa as a ratio to the floor `unzip -p file.ipa > /dev/null`
# on the same file, and Preflight's peak memory. Not a timed test: it prints figures.
# Usage: Benchmarks/run.sh [runs]   (record the result in BENCHMARKS.md)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product preflight --scratch-path .build-release >/dev/null
bin=$PWD/.build-release/release/preflight
python3 Benchmarks/make_large_ipa.py "$work/Big.ipa" >/dev/null
size=$(stat -c %s "$work/Big.ipa")
entries=$(unzip -Z1 "$work/Big.ipa" | wc -l)

source Benchmarks/common.sh
floor=$(best sh -c "unzip -p '$work/Big.ipa' > /dev/null")
scan=$(best "$bin" scan "$work/Big.ipa" --format json)
inspect=$(best "$bin" inspect "$work/Big.ipa" --format json)
peak=$( { /usr/bin/time -f %M "$bin" scan "$work/Big.ipa" --format json >/dev/null || true; } 2>&1 | tail -1 )
printf 'input: %s bytes, %s entries\n' "$size" "$entries"
printf 'unzip -p floor:  %.3f s\n' "$floor"
printf 'preflight scan:  %.3f s  (ratio %.2f)\n' "$scan" "$(echo "$scan / $floor" | bc -l)"
printf 'preflight inspect: %.3f s  (ratio %.2f)\n' "$inspect" "$(echo "$inspect / $floor" | bc -l)"
printf 'peak memory (scan): %.1f MB\n' "$(echo "$peak / 1024" | bc -l)"
