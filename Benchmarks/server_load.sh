#!/usr/bin/env bash
# Load on the real server over loopback: 20 concurrent uploads of real .ipa files (curl, each
# timed), then 200 concurrent report reads for 20 s (wrk), then checks that every upload was
# scanned once and nothing failed. Prints p50/p95 latencies, throughput, and the peak memory
# of the server and of its scanning processes. Not a timed test: record the figures in
# BENCHMARKS.md ("Server").
# Usage: Benchmarks/server_load.sh IPA_FOLDER        (needs wrk and curl; a Server-trait build:
#        PREFLIGHT_BIN=path, else it builds one with --traits Server into .build-server)
set -euo pipefail
ipas=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
if [ -z "${PREFLIGHT_BIN:-}" ]; then
  swift build -c release --product preflight --traits Server --scratch-path .build-server >/dev/null
fi
bin=${PREFLIGHT_BIN:-$PWD/.build-server/release/preflight}
work=$(mktemp -d /tmp/preflight-load.XXXXXX)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
token=$("$bin" token create --store "$work/server.sqlite" --role admin load 2>/dev/null)
"$bin" serve --store "$work/server.sqlite" --uploads "$work/uploads" --listen 127.0.0.1:0 --jobs 2 \
  --requests-per-minute 1000000 2> "$work/server.log" &
server=$!
for _ in $(seq 100); do grep -q "listening on" "$work/server.log" && break; sleep 0.1; done
port=$(grep -oE 'listening on http://127.0.0.1:[0-9]+' "$work/server.log" | grep -oE '[0-9]+$')
url=http://127.0.0.1:$port
mapfile -t files < <(find "$ipas" -name '*.ipa' | sort | head -20)
while [ "${#files[@]}" -lt 20 ]; do files+=("${files[@]}"); done
files=("${files[@]:0:20}")
echo "inputs: ${#files[@]} uploads of $(printf '%s\n' "${files[@]}" | sort -u | wc -l) distinct real .ipa files ($(du -ch "${files[@]}" | tail -1 | cut -f1))"

# 20 concurrent uploads.
printf '%s\n' "${files[@]}" | xargs -P 20 -I{} curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
  -H "Authorization: Bearer $token" -F "file=@{}" "$url/api/v1/uploads" > "$work/uploads.txt"
codes=$(cut -d' ' -f1 "$work/uploads.txt" | sort | uniq -c | tr '\n' ' ')
echo "upload statuses: $codes"
python3 - "$work/uploads.txt" <<'PY'
import sys
t = sorted(float(l.split()[1]) for l in open(sys.argv[1]))
q = lambda p: t[min(len(t) - 1, int(p * len(t)))]
print(f"upload latency: p50 {q(0.5)*1000:.0f} ms, p95 {q(0.95)*1000:.0f} ms, max {t[-1]*1000:.0f} ms")
PY

# Every upload scanned (the queue works while we wait).
start=$(date +%s.%N)
for _ in $(seq 600); do
  pending=$(curl -s -H "Authorization: Bearer $token" "$url/api/v1/uploads?limit=500" | grep -cE '"status" : "(queued|running)"' || true)
  [ "$pending" = 0 ] && break
  sleep 0.5
done
echo "all scans finished $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s after the last upload returned"

# 200 concurrent report reads for 20 s.
id=$(curl -s -H "Authorization: Bearer $token" "$url/api/v1/uploads?limit=1" | grep -oE '"id" : [0-9]+' | head -1 | grep -oE '[0-9]+')
wrk -t 2 -c 200 -d 20s --latency -H "Authorization: Bearer $token" "$url/api/v1/uploads/$id/report?format=json" > "$work/wrk.txt"
grep -E "Requests/sec|Non-2xx|Socket errors|50%|90%|99%" "$work/wrk.txt" | sed 's/^/reads: /'
# The floor: the same server, connections and client on its cheapest route (no token, no store).
wrk -t 2 -c 200 -d 10s --latency "$url/healthz" > "$work/floor.txt"
grep -E "Requests/sec|50%" "$work/floor.txt" | sed 's/^/floor (\/healthz): /'
python3 - "$work/wrk.txt" "$work/floor.txt" <<'PY'
import re, sys
rate = lambda p: float(re.search(r"Requests/sec:\s+([\d.]+)", open(p).read()).group(1))
print(f"report reads / floor throughput: {rate(sys.argv[1]) / rate(sys.argv[2]):.2f}")
PY

status=$(curl -s -H "Authorization: Bearer $token" "$url/api/v1/uploads?limit=500")
done=$(echo "$status" | grep -c '"status" : "done"' || true)
failed=$(echo "$status" | grep -c '"status" : "failed"' || true)
scans=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from scans').fetchone()[0])" "$work/server.sqlite")
echo "uploads done: $done, failed: $failed; scan rows: $scans (one per distinct file)"
echo "server peak memory: $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}')"
curl -s -H "Authorization: Bearer $token" "$url/metrics" | grep -E "^preflight_(scans_total|scan_failures_total|scan_retries_total|worker_peak_bytes)" | sed 's/^/metrics: /'
kill -TERM $server; wait $server || true
grep -E "stopping" "$work/server.log" | head -1
