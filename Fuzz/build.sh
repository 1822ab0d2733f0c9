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
# Artifacts (with the system zlib) and FuzzHarness are linked into every target; targets that
# import Evidence also link Sources/Evidence.
zlib=(-I ../Sources/CZlib -lz)
build_artifacts() {
  mkdir -p "$out/artifacts"
  if [ ! -f "$out/artifacts/libArtifacts.a" ] || [ "$out/formats/libFormats.a" -nt "$out/artifacts/libArtifacts.a" ] \
     || [ build.sh -nt "$out/artifacts/libArtifacts.a" ] \
     || [ -n "$(find ../Sources/Artifacts -newer "$out/artifacts/libArtifacts.a" -name '*.swift')" ]; then
    rm -f "$out/artifacts/libArtifacts.a"
    # shellcheck disable=SC2046
    swiftc "${flags[@]}" "${zlib[@]}" -module-name Artifacts -I "$out/formats" -emit-module -emit-module-path "$out/artifacts/Artifacts.swiftmodule" \
      -emit-library -static -o "$out/artifacts/libArtifacts.a" $(find ../Sources/Artifacts -name '*.swift' | sort)
  fi
}
# Every target links FuzzHarness (Fuzz/Harness: the limits and fixed files the replay tests share).
build_harness() {
  build_artifacts
  mkdir -p "$out/harness"
  if [ ! -f "$out/harness/libFuzzHarness.a" ] || [ "$out/artifacts/libArtifacts.a" -nt "$out/harness/libFuzzHarness.a" ] \
     || [ -n "$(find Harness -newer "$out/harness/libFuzzHarness.a" -name '*.swift')" ]; then
    rm -f "$out/harness/libFuzzHarness.a"
    # shellcheck disable=SC2046
    swiftc "${flags[@]}" "${zlib[@]}" -module-name FuzzHarness -I "$out/formats" -I "$out/artifacts" -emit-module \
      -emit-module-path "$out/harness/FuzzHarness.swiftmodule" -emit-library -static -o "$out/harness/libFuzzHarness.a" \
      $(find Harness -name '*.swift' | sort)
  fi
}
build_evidence() {
  build_artifacts
  mkdir -p "$out/evidence"
  if [ ! -f "$out/evidence/libEvidence.a" ] || [ "$out/artifacts/libArtifacts.a" -nt "$out/evidence/libEvidence.a" ] \
     || [ -n "$(find ../Sources/Evidence -newer "$out/evidence/libEvidence.a" -name '*.swift')" ]; then
    rm -f "$out/evidence/libEvidence.a"
    # shellcheck disable=SC2046
    swiftc "${flags[@]}" "${zlib[@]}" -module-name Evidence -I "$out/formats" -I "$out/artifacts" -emit-module \
      -emit-module-path "$out/evidence/Evidence.swiftmodule" -emit-library -static -o "$out/evidence/libEvidence.a" \
      $(find ../Sources/Evidence -name '*.swift' | sort)
  fi
}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls Targets | sed 's/\.swift$//'))
for t in "${targets[@]}"; do
  build_harness
  extra=(-I "$out/harness" -L "$out/harness" -lFuzzHarness -I "$out/artifacts" -L "$out/artifacts" -lArtifacts "${zlib[@]}")
  if grep -q '^import Evidence' "Targets/$t.swift"; then
    build_evidence
    extra=(-I "$out/evidence" -L "$out/evidence" -lEvidence "${extra[@]}")
  fi
  swiftc "${flags[@]}" -I "$out/formats" -L "$out/formats" "${extra[@]}" -lFormats "Targets/$t.swift" -o "$out/$t" 2>&1 | grep -v "Cannot export local symbol" || true
  echo "built $out/$t"
done
