#!/usr/bin/env bash
# Scan time of two large .ipa files as a ratio to the floor `unzip -p` of the entries Preflight
# needs (everything but image payloads and Assets.car), on the same file in the same run, and
# Preflight's peak memory. Not a timed test: it prints figures.
#   synthetic: binaries linked here (clang + ld64.lld-14) with __LINKEDIT and the code
#              signature at the end, as real linkers lay them out (make_large_ipa.py)
#   real:      the same app whose 40 frameworks carry the real iOS Mach-O dylibs of Pillow's
#              iOS wheel from PyPI (checked by its SHA-256), round robin
# Usage: Benchmarks/run.sh [runs]   (record the result in BENCHMARKS.md)
#        PREFLIGHT_BIN=path/to/preflight Benchmarks/run.sh   measures that build instead
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${PREFLIGHT_BIN:-}" ]; then
  swift build -c release --product preflight --scratch-path .build-release >/dev/null
fi
bin=${PREFLIGHT_BIN:-$PWD/.build-release/release/preflight}

wheel_sha=7d5e097eabd5d4915c27ac9f6e9325bb1e01a7c94d7348b5c4451d3fc30e8521
wheel=.build/bench-wheels/pillow-13.0.0-cp315-cp315-ios_13_0_arm64_iphoneos.whl
if ! { [ -f "$wheel" ] && echo "$wheel_sha  $wheel" | sha256sum --check --status; }; then
  mkdir -p .build/bench-wheels
  curl -sSfL -o "$wheel" "https://files.pythonhosted.org/packages/6e/eb/e86a41962a3a31ad495a3d6a912d9002b01bba4a6fa71c28703abdca7f69/pillow-13.0.0-cp315-cp315-ios_13_0_arm64_iphoneos.whl"
  echo "$wheel_sha  $wheel" | sha256sum --check --status || { echo "pillow wheel: SHA-256 mismatch" >&2; exit 1; }
fi

python3 Benchmarks/make_large_ipa.py "$work/Synthetic.ipa" >/dev/null
python3 Benchmarks/make_large_ipa.py "$work/Real.ipa" --real-binaries "$wheel" >/dev/null

source Benchmarks/common.sh
for name in Synthetic Real; do
  ipa=$work/$name.ipa
  size=$(stat -c %s "$ipa")
  entries=$(unzip -Z1 "$ipa" | wc -l)
  needed=$(unzip -Z1 "$ipa" | grep -vE '(\.png|/Assets\.car)$' | wc -l)
  floor=$(best sh -c "unzip -p '$ipa' -x '*.png' '*/Assets.car' > /dev/null")
  all=$(best sh -c "unzip -p '$ipa' > /dev/null")
  scan=$(best "$bin" scan "$ipa" --format json)
  inspect=$(best "$bin" inspect "$ipa" --format json)
  peak=$( { /usr/bin/time -f %M "$bin" scan "$ipa" --format json >/dev/null || true; } 2>&1 | tail -1 )
  printf '%s: %s bytes, %s entries (%s needed)\n' "$name" "$size" "$entries" "$needed"
  printf '  unzip -p needed entries (floor): %.3f s   (all entries %.3f s)\n' "$floor" "$all"
  printf '  preflight scan:    %.3f s  (ratio %.2f)\n' "$scan" "$(echo "$scan / $floor" | bc -l)"
  printf '  preflight inspect: %.3f s  (ratio %.2f)\n' "$inspect" "$(echo "$inspect / $floor" | bc -l)"
  printf '  peak memory (scan): %.1f MB\n' "$(echo "$peak / 1024" | bc -l)"
done
