#!/usr/bin/env bash
# What a newcomer pays before the first scan: a fresh clone's first `swift build` of the
# scanner (debug, as `swift run` does) and first `swift build -c release`, for a revision
# before the light default build and for this one, on the same machine in one run.
# Each build starts from a new clone with no .build folder; package checkouts come from the
# machine's git mirror as for any user. Prints wall time, CPU time (user + system, steadier
# than wall time on a shared machine), compile steps, and how many C/C++ steps (BoringSSL's, before the light build).
# Usage: Benchmarks/build_time.sh [BEFORE_REV] [AFTER_REV] [debug|release|both]
#   BEFORE_REV defaults to 3c41a44 (the last commit that built postgres-nio and swift-crypto
#   by default), AFTER_REV to HEAD. Record the result in BENCHMARKS.md.
set -euo pipefail
before=${1:-3c41a44}
after=${2:-HEAD}
modes=${3:-both}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/preflight-build-time.XXXXXX)
trap 'rm -rf "$work"' EXIT

measure() { # label rev mode
  local label=$1 rev=$2 mode=$3 dir="$work/$1-$3"
  git clone -q "$repo" "$dir"
  git -C "$dir" checkout -q "$rev"
  [ -e "$repo/../shared" ] && ln -s "$repo/../shared" "$work/shared" 2>/dev/null || true
  local args=(build --product preflight)
  [ "$mode" = release ] && args+=(-c release)
  local log="$work/$label-$mode.log" times="$work/$label-$mode.time"
  (cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$times" swift "${args[@]}" >"$log" 2>&1) || {
    echo "build failed: $label $mode (see below)"; tail -20 "$log"; return 1; }
  read -r wall user sys peak < "$times"
  local steps boring
  steps=$(grep -cE '^\[[0-9]+/[0-9]+\] Compiling' "$log" || true)
  # SwiftPM's log names C files, not their module: C/C++/assembly steps are BoringSSL's
  # (and the few C shims) — 785 before the light build, 6 after.
  boring=$(grep -cE '^\[[0-9]+/[0-9]+\] Compiling .*\.(c|cc|cpp|S)( |$)' "$log" || true)
  printf '%-8s %-7s %-12s wall %7.1f s  cpu %7.1f s  compile steps %5s  C/C++ steps %4s  peak %5d MB\n' \
    "$label" "$mode" "$(git -C "$dir" rev-parse --short HEAD)" "$wall" "$(echo "$user + $sys" | bc -l)" \
    "$steps" "$boring" "$((peak / 1024))"
  echo "$label $mode $wall $(echo "$user + $sys" | bc -l)" >> "$work/results"
  rm -rf "$dir"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(swift --version 2>&1 | head -1)"
case $modes in both) list="debug release" ;; *) list=$modes ;; esac
for mode in $list; do
  measure before "$before" "$mode"
  measure after "$after" "$mode"
done
awk '{ w[$1" "$2]=$3; c[$1" "$2]=$4 } END {
  split("debug release", m, " ")
  for (i = 1; i <= 2; i++) if ((("before " m[i]) in w) && (("after " m[i]) in w))
    printf "%s: after / before = %.2f wall, %.2f cpu\n", m[i], w["after " m[i]] / w["before " m[i]], c["after " m[i]] / c["before " m[i]]
}' "$work/results"
