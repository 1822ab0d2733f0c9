# Preflight as a container image: `docker run --rm -v "$PWD:/work" IMAGE scan App.ipa`.
# Build stage: the official Swift image compiles a static binary (PostgreSQL store included).
# Runtime stage: Debian slim, a non-root user, the binary and nothing else (no compiler).
FROM swift:6.3-bookworm AS build
# The -dev packages of the image's own Debian release: their versions follow the base image.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends zlib1g-dev libsqlite3-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN bash deploy/container/build-linux-binary.sh /out --traits PostgreSQL,Server

FROM debian:bookworm-slim
COPY deploy/container/setup-runtime.sh /tmp/setup-runtime.sh
RUN sh /tmp/setup-runtime.sh && rm /tmp/setup-runtime.sh
COPY --from=build /out/preflight /usr/local/bin/preflight
USER 10001:10001
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/preflight"]
CMD ["--help"]
