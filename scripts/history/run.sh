#!/usr/bin/env bash
# A busy centre's history measured from outside: generate it (scripts/history/sacct-history.py, deterministic),
# check `slurmwise stats --input` against the generator's own count (check-truth.py: every total, partition, user
# and day; the 80-column panel's headline figures against its --json), then time whole commands: the median wall
# time, user+sys CPU and peak RSS (GNU time) of N runs.
# Usage: scripts/history/run.sh [jobs=220000] [runs=5] [seed=39] [tz=Europe/Berlin] [start=2026-03-12T00:00:00]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
jobs="${1:-220000}" runs="${2:-5}" seed="${3:-39}" tz="${4:-Europe/Berlin}" start="${5:-2026-03-12T00:00:00}"
work="${TMPDIR:-/tmp}/slurmwise-history"
mkdir -p "$work"
base="$work/history-$jobs-$seed-${tz//\//_}"
if [ ! -f "$base.psv" ] || [ ! -f "$base.truth.json" ]; then
  python3 scripts/history/sacct-history.py "$base.psv" --jobs "$jobs" --seed "$seed" --tz "$tz" --start "$start" \
    --truth "$base.truth.json"
fi
./slurmwise --version >/dev/null            # build the CLI if needed
export TZ="$tz"                             # the zone sacct printed the history in (see sacct-history.py)
rows=$(($(wc -l <"$base.psv") - 1))
echo "history: $base.psv ($rows rows, $(du -h "$base.psv" | cut -f1)); runs: $runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
./slurmwise stats --input "$base.psv" --all-users --json >"$base.stats.json"
COLUMNS=80 ./slurmwise stats --input "$base.psv" --all-users >"$base.stats.txt"
python3 scripts/history/check-truth.py "$base.stats.json" "$base.truth.json" "$base.stats.txt"

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%s", m}'; }
measure() {  # label, then the command
  local label="$1"; shift
  local walls=() cpus=() rss=() tf="$work/time.out"
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" >/dev/null 2>&1
    read -r e u s m < <(tail -1 "$tf")      # GNU time writes a line before its figures when the exit is not 0
    walls+=("$e"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')"); rss+=("$((m / 1024))")
  done
  local w
  w=$(printf '%s\n' "${walls[@]}" | median)
  printf '%-34s %8.2f %8.2f %10.0f %8s\n' "$label" "$w" "$(printf '%s\n' "${cpus[@]}" | median)" \
    "$(awk -v r="$rows" -v w="$w" 'BEGIN {print r / w}')" "$(printf '%s\n' "${rss[@]}" | median)"
}
printf '%-34s %8s %8s %10s %8s\n' command "wall s" "cpu s" "rows/s" "RSS MB"
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "stats --input --all-users --json" ./slurmwise stats --input "$base.psv" --all-users --json
measure "stats --input --all-users (text)" env COLUMNS=80 ./slurmwise stats --input "$base.psv" --all-users
measure "stats --input --threads 1 --json" ./slurmwise stats --input "$base.psv" --all-users --threads 1 --json
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)"
