#!/usr/bin/env bash
# Whole `preflight scan` of a source checkout as a ratio to the Swift compiler's own parser
# (`swiftc -frontend -parse` of all its Swift files: one process, single-threaded) on the same
# files in the same run, and a check that the prefiltered scan reports exactly what a scan
# that parses every file (`--full-parse`) reports. Not a timed test: it prints figures.
# Usage: Benchmarks/source_scan.sh APP_FOLDER [runs]   (record the result in BENCHMARKS.md,
#        with the phases it prints: `preflight scan --timings`)
#        PREFLIGHT_BIN=path/to/preflight measures that build instead of building one
# The app is not committed: fetch it (e.g. the corpus's largest app, home-assistant/iOS at the
# commit in ../shared/corpus/LABELS.json) beside the repository.
set -euo pipefail
app=$(cd "$1" && pwd)
runs=${2:-3}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${PREFLIGHT_BIN:-}" ]; then
  swift build -c release --product preflight --scratch-path .build-release >/dev/null
fi
bin=${PREFLIGHT_BIN:-$PWD/.build-release/release/preflight}
(cd "$app" && find . -name '*.swift' -not -path '*/.build/*' -print0) > "$work/files"
count=$(tr -cd '\0' < "$work/files" | wc -c)
bytes=$(cd "$app" && xargs -0 cat < "$work/files" | wc -c)

source Benchmarks/common.sh
floor=$(best sh -c "cd '$app' && xargs -0 -s 2000000 swiftc -frontend -parse < '$work/files'")
scan=$(best "$bin" scan "$app" --format json)
full=$(best "$bin" scan "$app" --format json --full-parse)
"$bin" scan "$app" --format json -o "$work/prefiltered.json" || true
"$bin" scan "$app" --format json --full-parse -o "$work/full.json" || true
same=$(python3 - "$work/prefiltered.json" "$work/full.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda d: json.dumps([r.get("findings") for r in d.get("results", [d])], sort_keys=True)
print("identical" if strip(a) == strip(b) else "DIFFERENT")
PY
)
peak=$( { /usr/bin/time -f %M "$bin" scan "$app" --format json >/dev/null || true; } 2>&1 | tail -1 )
printf 'input: %s Swift files, %s bytes\n' "$count" "$bytes"
printf 'swiftc -frontend -parse floor: %.3f s\n' "$floor"
printf 'preflight scan:               %.3f s  (ratio %.2f)\n' "$scan" "$(echo "$scan / $floor" | bc -l)"
printf 'preflight scan --full-parse:  %.3f s  (ratio %.2f)\n' "$full" "$(echo "$full / $floor" | bc -l)"
printf 'findings prefiltered vs full parse: %s\n' "$same"
printf 'peak memory (scan): %.1f MB\n' "$(echo "$peak / 1024" | bc -l)"
printf 'candidates parsed: %s of %s files read\n' \
  "$("$bin" scan "$app" --format json --timings -o /dev/null 2>&1 | sed -n 's/^sources: parse and visit candidates (\([0-9]*\)).*/\1/p')" \
  "$("$bin" scan "$app" --format json --timings -o /dev/null 2>&1 | sed -n 's/^sources: read, byte facts, URLs (\([0-9]*\)).*/\1/p')"
echo "phases of one scan (--timings):"
"$bin" scan "$app" --format json --timings -o /dev/null 2>&1 | sed -n '/^timings/,/^rules/p' | sed 's/^/  /'
[ "$same" = identical ]
