#!/usr/bin/env bash
# Runs every fuzz target (or the named ones) for SECONDS each, with its seed corpus and
# dictionary, appending "target seconds executions result" lines to Fuzz/.build/log.txt.
# New crashers land in Fuzz/.build/artifacts/<target>/; minimize them and commit them under
# Tests/Fixtures/Malformed/ with the expected error, so the normal test suite replays them.
# Usage: Fuzz/run.sh SECONDS [Target…]
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: run.sh SECONDS [Target…]}; shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls Targets | sed 's/\.swift$//'))
./build.sh "${targets[@]}" >/dev/null
for t in "${targets[@]}"; do
  work=.build/corpus/$t; art=.build/artifacts/$t
  mkdir -p "$work" "$art"
  dict=(); [ -f "Dictionaries/$t.dict" ] && dict=(-dict="Dictionaries/$t.dict")
  seeds=(); [ -d "Corpus/$t" ] && seeds=("Corpus/$t")
  ".build/$t" "$work" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$art/" -print_final_stats=1 > ".build/$t.log" 2>&1
  status=$?
  runs=$(grep -E '^stat::number_of_executed_units' ".build/$t.log" | tail -1 | awk '{print $2}')
  result=$([ $status -eq 0 ] && echo ok || echo "FAILED (exit $status, see Fuzz/.build/$t.log)")
  echo "$t $seconds ${runs:-0} $result" | tee -a .build/log.txt
done
