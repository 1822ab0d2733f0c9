#!/usr/bin/env bash
# Builds one libFuzzer binary per reader: Formats is compiled once with ASan + fuzzer
# coverage into a static library, then each Targets/<Name>.swift links against it.
# Usage: Fuzz/build.sh [Target…]   → Fuzz/.build/<Target>
set -euo pipefail
cd "$(dirname "$0")"
out=.build
mkdir -p "$out/formats"
flags=(-O -sanitize=fuzzer,address -parse-as-library -g)
sources=$(find ../Sources/Formats -name '*.swift' | sort)
if [ ! -f "$out/formats/libFormats.a" ] || [ -n "$(find ../Sources/Formats -newer "$out/formats/libFormats.a" -name '*.swift')" ]; then
  # shellcheck disable=SC2086
  swiftc "${flags[@]}" -module-name Formats -emit-module -emit-module-path "$out/formats/Formats.swiftmodule" \
    -emit-library -static -o "$out/formats/libFormats.a" $sources
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls Targets | sed 's/\.swift$//'))
for t in "${targets[@]}"; do
  swiftc "${flags[@]}" -I "$out/formats" -L "$out/formats" -lFormats "Targets/$t.swift" -o "$out/$t" 2>&1 | grep -v "Cannot export local symbol" || true
  echo "built $out/$t"
done
