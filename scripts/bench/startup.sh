#!/usr/bin/env bash
# CLI start-up: median wall time of N runs of whole commands, with and without the AppCDS archive.
# Usage: scripts/bench/startup.sh [runs=15]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runs="${1:-15}"
./slurmwise --version >/dev/null            # build and train the archive if needed
dist="$root/slurmwise-cli/target"
cp="$dist/slurmwise-cli.jar:$dist/lib/*"
export SLURMWISE_BACKEND=mock

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.0f", m}'; }

time_ms() { # command...
  local i s e
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    echo $(((e - s) / 1000000))
  done | median
}

printf '%-34s %8s %8s %6s\n' command "no CDS" "AppCDS" ratio
for args in "--version" "diagnose 1001" "diagnose 1001 --no-llm --direct" "diagnose 1001 --rules-only" "classify $root/slurmwise-backend-mock/src/main/resources/io/slurmwise/mock/cluster/logs/1008.err"; do
  # shellcheck disable=SC2086
  plain=$(time_ms java -XX:+UseSerialGC -cp "$cp" io.slurmwise.cli.Main $args)
  # shellcheck disable=SC2086
  cds=$(time_ms java -XX:+UseSerialGC -XX:SharedArchiveFile="$dist/slurmwise.jsa" -cp "$cp" io.slurmwise.cli.Main $args)
  printf '%-34s %6s ms %6s ms %6.2f\n' "${args:0:34}" "$plain" "$cds" "$(echo "$plain / $cds" | bc -l)"
done
