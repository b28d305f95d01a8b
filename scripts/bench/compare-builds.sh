#!/usr/bin/env bash
# Before/after on a shared machine: runs one command with another checkout's ./slurmwise and with this one's,
# interleaved (old, new, old, new, ...) so that both see the same load, and prints each run's wall time, user+sys
# CPU and peak RSS (GNU time, taskset -c 0,1) with the load, then the medians.
# Usage: scripts/bench/compare-builds.sh OLD_CHECKOUT [runs=5] -- COMMAND ARGS...
#   git worktree add /tmp/before HEAD~3
#   scripts/bench/compare-builds.sh /tmp/before 5 -- stats --input /tmp/slurmwise-stats-input/sacct-5500.psv --json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
old="${1:?usage: compare-builds.sh OLD_CHECKOUT [runs] -- COMMAND ARGS...}"
shift
runs=5
if [ "${1:-}" != "--" ]; then runs="$1"; shift; fi
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "compare-builds.sh: give the command after --" >&2; exit 2; }
export SLURMWISE_HOME="${SLURMWISE_HOME:-$(mktemp -d)}"
"$old/slurmwise" --version >/dev/null && "$root/slurmwise" --version >/dev/null   # build both first
median() { sort -n | awk '{a[NR]=$1} END {printf "%.2f", (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }
declare -A wall cpu
printf '%-4s %8s %8s %8s %6s\n' side "wall s" "cpu s" "RSS MB" load
for ((i = 0; i < runs; i++)); do
  for side in old new; do
    dir="$root"; [ "$side" = old ] && dir="$old"
    read -r e u s m < <( { /usr/bin/time -f '%e %U %S %M' taskset -c 0,1 "$dir/slurmwise" "$@" >/dev/null; } 2>&1 | tail -1)
    c=$(echo "$u + $s" | bc -l)
    wall[$side]+="$e "; cpu[$side]+="$c "
    printf '%-4s %8.2f %8.2f %8d %6s\n' "$side" "$e" "$c" "$((m / 1024))" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
for side in old new; do
  printf 'median %-4s wall %s s, cpu %s s\n' "$side" "$(tr ' ' '\n' <<<"${wall[$side]}" | grep . | median)" \
    "$(tr ' ' '\n' <<<"${cpu[$side]}" | grep . | median)"
done
