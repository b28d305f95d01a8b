#!/usr/bin/env bash
# The launcher's JIT choice, measured: each short command through ./slurmwise as committed (the quick compiler only)
# against the same with SLURMWISE_JAVA_OPTS=-XX:TieredStopAtLevel=4 (both compilers, the default before), runs
# interleaved so both see the same machine load. Prints median wall and CPU (user+sys) seconds of N runs.
# Usage: scripts/bench/jit.sh [runs=7]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runs="${1:-7}"
./slurmwise --version >/dev/null 2>&1       # build and train the start-up archive if needed
export SLURMWISE_BACKEND=mock
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

printf '%-44s %16s %16s\n' command "C1+C2 wall/cpu" "C1 wall/cpu"
for args in "--version" "diagnose 1001" "diagnose 1001 --rules-only" \
            "classify slurmwise-backend-mock/src/main/resources/io/slurmwise/mock/cluster/logs/1008.err" "jobs"; do
  : >"$work/both"; : >"$work/c1"
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %U %S' -o "$work/t" env SLURMWISE_JAVA_OPTS=-XX:TieredStopAtLevel=4 ./slurmwise $args >/dev/null 2>&1
    cat "$work/t" >>"$work/both"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %U %S' -o "$work/t" ./slurmwise $args >/dev/null 2>&1
    cat "$work/t" >>"$work/c1"
  done
  printf '%-44s %7s / %6s %7s / %6s\n' "${args:0:44}" \
    "$(awk '{print $1}' "$work/both" | median)" "$(awk '{print $2 + $3}' "$work/both" | median)" \
    "$(awk '{print $1}' "$work/c1" | median)" "$(awk '{print $2 + $3}' "$work/c1" | median)"
done
