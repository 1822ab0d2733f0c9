#!/usr/bin/env bash
# Builds the Linux release binary: the Swift runtime, Foundation, SQLite and zlib linked
# statically (--static-swift-stdlib, and the system's libsqlite3.a/libz.a), so that it runs on
# a glibc Linux of its architecture without Swift; it loads only the C library, libm and the
# GCC/C++ runtime. Used by the release workflow, the Dockerfile and .ci/static-binary.
# SQLite and zlib: GRDB's module map and ours autolink `-lsqlite3`/`-lz`, which the linker
# resolves in the first search folder that has the library, shared or static. A folder holding
# only the two archives, named first (-Xswiftc -L: before the toolchain's folders), makes both
# resolve to the archives without touching any package.
# Usage: deploy/container/build-linux-binary.sh OUT_DIR [extra swift build arguments…]
#   e.g. deploy/container/build-linux-binary.sh dist --traits PostgreSQL,Server
# Needs: a Swift 6.1+ toolchain, zlib1g-dev and libsqlite3-dev (their .a files).
set -euo pipefail
out=$1; shift
cd "$(dirname "$0")/../.."
# A fixed folder: the flag reaches every compile step, so a new path would rebuild everything.
archives=$PWD/.build-archives
mkdir -p "$archives"
for lib in sqlite3 z; do
  archive=$(cc -print-file-name="lib$lib.a")
  [ -f "$archive" ] || { echo "lib$lib.a not found: install libsqlite3-dev and zlib1g-dev" >&2; exit 1; }
  ln -sf "$archive" "$archives/lib$lib.a"
done
flags=(-c release --static-swift-stdlib -Xswiftc "-L$archives")
swift build "${flags[@]}" --product preflight "$@"
bin=$(swift build "${flags[@]}" --show-bin-path "$@")/preflight
mkdir -p "$out"
cp "$bin" "$out/preflight"
strip "$out/preflight" 2>/dev/null || true
echo "$out/preflight"
