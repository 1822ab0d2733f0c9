#!/usr/bin/env bash
# Builds the Linux release binary: the Swift runtime and Foundation linked statically
# (--static-swift-stdlib), so that it runs on a glibc Linux of its architecture without Swift;
# it loads the C library, the GCC runtime, zlib and SQLite (libsqlite3-0) from the system. Used by the release workflow, the Dockerfile and .ci/static-binary.
# Usage: deploy/container/build-linux-binary.sh OUT_DIR [extra swift build arguments…]
#   e.g. deploy/container/build-linux-binary.sh dist --traits PostgreSQL
# Needs: a Swift 6.1+ toolchain, zlib1g-dev and libsqlite3-dev (their .a files).
set -euo pipefail
out=$1; shift
cd "$(dirname "$0")/../.."
swift build -c release --product preflight --static-swift-stdlib "$@"
bin=$(swift build -c release --show-bin-path "$@")/preflight
mkdir -p "$out"
cp "$bin" "$out/preflight"
strip "$out/preflight" 2>/dev/null || true
echo "$out/preflight"
