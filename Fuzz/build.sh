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
  rm -f "$out/formats/libFormats.a"  # ar would keep objects of deleted sources
  # shellcheck disable=SC2086
  swiftc "${flags[@]}" -module-name Formats -emit-module -emit-module-path "$out/formats/Formats.swiftmodule" \
    -emit-library -static -o "$out/formats/libFormats.a" $sources
fi
# Targets that import Artifacts (the Xcode project loader) also link a second library: the
# Artifacts files that compile without ZIPFoundation (everything but ZipSource/ProductLoader).
artifacts_sources() {
  find ../Sources/Artifacts -name '*.swift' ! -name ZipSource.swift ! -name ProductLoader.swift | sort
}
build_artifacts() {
  mkdir -p "$out/artifacts"
  if [ ! -f "$out/artifacts/libArtifacts.a" ] || [ "$out/formats/libFormats.a" -nt "$out/artifacts/libArtifacts.a" ] \
     || [ -n "$(find ../Sources/Artifacts -newer "$out/artifacts/libArtifacts.a" -name '*.swift')" ]; then
    rm -f "$out/artifacts/libArtifacts.a"
    # shellcheck disable=SC2046
    swiftc "${flags[@]}" -module-name Artifacts -I "$out/formats" -emit-module -emit-module-path "$out/artifacts/Artifacts.swiftmodule" \
      -emit-library -static -o "$out/artifacts/libArtifacts.a" $(artifacts_sources)
  fi
}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls Targets | sed 's/\.swift$//'))
for t in "${targets[@]}"; do
  extra=()
  if grep -q '^import Artifacts' "Targets/$t.swift"; then
    build_artifacts
    extra=(-I "$out/artifacts" -L "$out/artifacts" -lArtifacts)
  fi
  swiftc "${flags[@]}" -I "$out/formats" -L "$out/formats" "${extra[@]}" -lFormats "Targets/$t.swift" -o "$out/$t" 2>&1 | grep -v "Cannot export local symbol" || true
  echo "built $out/$t"
done
