#!/usr/bin/env bash
# Builds one libFuzzer binary per reader: Formats, Artifacts (with the system zlib), FuzzHarness
# (Fuzz/Harness: the limits and fixed files the replay tests share) and, for targets that
# import it, Evidence are each compiled once with ASan + fuzzer coverage into a static
# library; then each Targets/<Name>.swift links against them.
# Artifacts reads YAML with Yams: its C half (libyaml) and Swift half are built the same way
# from the package's checkout (run `swift build` or `swift package resolve` once first).
# Usage: Fuzz/build.sh [Target…]   → Fuzz/.build/<Target>
set -euo pipefail
cd "$(dirname "$0")"
out=.build
yams=../.build/checkouts/Yams/Sources
[ -d "$yams/CYaml" ] || { echo "no Yams checkout in $yams: run swift package resolve" >&2; exit 1; }
# SWIFT_PACKAGE: Yams imports CYaml only when built as a package.
flags=(-O -sanitize=fuzzer,address -parse-as-library -g -I ../Sources/CZlib -I "$yams/CYaml/include" -D SWIFT_PACKAGE)

# library MODULE SOURCE_DIR [DEPENDENCY…]: builds $out/lib/<MODULE>/lib<MODULE>.a when a source,
# this script or a dependency's library is newer than it.
library() {
  local module=$1 dir=$2; shift 2
  local lib="$out/lib/$module/lib$module.a" stale=""
  local includes=()
  for dep in "$@"; do
    includes+=(-I "$out/lib/$dep")
    [ "$out/lib/$dep/lib$dep.a" -nt "$lib" ] && stale=1
  done
  if [ ! -f "$lib" ] || [ build.sh -nt "$lib" ] || [ -n "$stale" ] || [ -n "$(find "$dir" -newer "$lib" -name '*.swift')" ]; then
    mkdir -p "$out/lib/$module"
    rm -f "$lib"  # ar would keep objects of deleted sources
    # shellcheck disable=SC2046
    swiftc "${flags[@]}" "${includes[@]}" "${library_flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/lib/$module/$module.swiftmodule" \
      -emit-library -static -o "$lib" $(find "$dir" -name '*.swift' | sort)
  fi
}

# cyaml: libyaml as $out/lib/CYaml/libCYaml.a, instrumented like the Swift libraries.
cyaml() {
  local lib="$out/lib/CYaml/libCYaml.a"
  if [ ! -f "$lib" ] || [ build.sh -nt "$lib" ]; then
    mkdir -p "$out/lib/CYaml/obj"
    rm -f "$lib"
    for c in "$yams"/CYaml/src/*.c; do
      clang -O1 -g -fsanitize=fuzzer-no-link,address -DYAML_DECLARE_EXPORT -I "$yams/CYaml/include" \
        -c "$c" -o "$out/lib/CYaml/obj/$(basename "$c" .c).o"
    done
    ar rcs "$lib" "$out"/lib/CYaml/obj/*.o
  fi
}

# swiftsyntax: the Swift source scanner's parser, taken from the package's debug build
# (`swift build` first) and linked uninstrumented: coverage follows Preflight's own walk.
# Its modules are linked into $out/lib/SwiftSyntax so that no other module of that build is seen.
syntax_build=../.build/debug
syntax_modules=(SwiftSyntax SwiftParser SwiftSyntax509 SwiftSyntax510 SwiftSyntax600 _SwiftSyntaxCShims)
swiftsyntax() {
  [ -f "$syntax_build/Modules/SwiftParser.swiftmodule" ] || { echo "no swift-syntax build in $syntax_build: run swift build" >&2; exit 1; }
  mkdir -p "$out/lib/SwiftSyntax"
  for m in SwiftSyntax SwiftParser SwiftSyntax509 SwiftSyntax510 SwiftSyntax600; do
    ln -sf "$(cd "$syntax_build/Modules" && pwd)/$m.swiftmodule" "$out/lib/SwiftSyntax/$m.swiftmodule"
  done
}
syntax_link() {
  local objects=()
  for m in "${syntax_modules[@]}"; do objects+=("$syntax_build/$m.build"/*.o); done
  printf '%s\n' "${objects[@]}"
}
library_flags=()

cyaml
library Formats ../Sources/Formats
library Yams "$yams/Yams"
library Artifacts ../Sources/Artifacts Formats Yams
library FuzzHarness Harness Formats Artifacts Yams
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls Targets | sed 's/\.swift$//'))
for t in "${targets[@]}"; do
  modules=(FuzzHarness Artifacts Yams CYaml Formats)
  if grep -q '^import Evidence' "Targets/$t.swift"; then
    library Evidence ../Sources/Evidence Formats Artifacts Yams
    modules=(Evidence "${modules[@]}")
  fi
  syntax_objects=()
  if grep -q '^import SwiftSourceScan' "Targets/$t.swift"; then
    swiftsyntax
    library_flags=(-I "$out/lib/SwiftSyntax" -Xcc -I../.build/checkouts/swift-syntax/Sources/_SwiftSyntaxCShims/include)
    library SwiftSourceScan ../Sources/SwiftSourceScan Formats Evidence Artifacts Yams
    library_flags=()
    modules=(SwiftSourceScan "${modules[@]}")
    mapfile -t syntax_objects < <(syntax_link)
    syntax_objects=(-I "$out/lib/SwiftSyntax" -Xcc -I../.build/checkouts/swift-syntax/Sources/_SwiftSyntaxCShims/include "${syntax_objects[@]}")
  fi
  link=()
  for m in "${modules[@]}"; do link+=(-I "$out/lib/$m" -L "$out/lib/$m" "-l$m"); done
  # A target of a module the libraries above do not build names its files on a first line
  # `// sources: …` (paths from Fuzz/), compiled into the target itself.
  extra=()
  if head -1 "Targets/$t.swift" | grep -q '^// sources: '; then
    read -r -a extra <<< "$(head -1 "Targets/$t.swift" | sed 's|^// sources: ||')"
  fi
  swiftc "${flags[@]}" "${link[@]}" "${syntax_objects[@]}" -lz "Targets/$t.swift" "${extra[@]}" -o "$out/$t" 2>&1 | grep -v "Cannot export local symbol" || true
  echo "built $out/$t"
done
