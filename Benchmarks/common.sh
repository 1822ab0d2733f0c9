# Shared by the benchmark scripts: `best CMD…` prints the best wall time of $runs runs, in seconds.
best() {
  local best=""
  for _ in $(seq "$runs"); do
    local s e t
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
