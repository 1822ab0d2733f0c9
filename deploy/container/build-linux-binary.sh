#!/usr/bin/env bash
# Builds the Linux release binary: the Swift runtime and Foundation linked statically
# (--static-swift-stdlib), and SQLite and zlib from their static archives, so that it runs on
# any glibc Linux of its architecture with nothing else installed (ldd: the C library and
# friends only). Used by the release workflow, the Dockerfile and .ci/static-binary.
# Usage: deploy/container/build-linux-binary.sh OUT_DIR [extra swift build arguments…]
#   e.g. deploy/container/build-linux-binary.sh dist --traits PostgreSQL
# Needs: a Swift 6.1+ toolchain, zlib1g-dev and libsqlite3-dev (their .a files).
set -euo pipefail
out=$1; shift
cd "$(dirname "$0")/../.."
for lib in libsqlite3.a libz.a; do
  path=$(gcc -print-file-name="$lib")
  [ -f "$path" ] || { echo "missing $lib: install libsqlite3-dev and zlib1g-dev" >&2; exit 1; }
done
# -l:lib….a before the module maps' -lsqlite3/-lz: the linker takes every symbol from the
# archive, and --as-needed drops the shared library nothing then needs.
swift build -c release --product preflight --static-swift-stdlib \
  -Xlinker --as-needed -Xlinker -l:libsqlite3.a -Xlinker -l:libz.a "$@"
bin=$(swift build -c release --show-bin-path "$@")/preflight
mkdir -p "$out"
cp "$bin" "$out/preflight"
strip "$out/preflight" 2>/dev/null || true
echo "$out/preflight"
