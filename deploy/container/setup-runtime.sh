#!/bin/sh
# The runtime stage of the container image, as a script so that .ci/static-binary runs the
# very same steps in a minimal Debian root (no container engine there): SQLite's shared library
# (the one library beyond the C library, the GCC runtime and zlib that the binary loads; the
# Swift runtime is linked in), and a non-root user that owns /work, the folder scans read from
# and reports are written to. No Swift runtime, compiler or toolchain is installed.
set -eu
if ! ls /usr/lib/*/libsqlite3.so.0 >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libsqlite3-0 >/dev/null
  rm -rf /var/lib/apt/lists/*
fi
groupadd --system --gid 10001 preflight
useradd --system --uid 10001 --gid preflight --home-dir /work --shell /usr/sbin/nologin preflight
mkdir -p /work
chown preflight:preflight /work
