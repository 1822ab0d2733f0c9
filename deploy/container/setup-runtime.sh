#!/bin/sh
# The runtime stage of the container image, as a script so that .ci/static-binary runs the
# very same steps in a minimal Debian root (no container engine there): a non-root user that
# owns /work, the folder scans read from and reports are written to. Nothing is installed: the
# binary loads only the C library, libm and the GCC/C++ runtime, which every Debian has (the
# Swift runtime, Foundation, SQLite and zlib are linked in). No compiler or toolchain.
set -eu
groupadd --system --gid 10001 preflight
useradd --system --uid 10001 --gid preflight --home-dir /work --shell /usr/sbin/nologin preflight
mkdir -p /work
chown preflight:preflight /work
