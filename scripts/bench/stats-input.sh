#!/usr/bin/env bash
# stats --input at centre scale: the mock cluster's rows repeated with new job ids (5,500 copies = 1,061,500 rows,
# 368,500 jobs; steps included) in one sacct -P export, aggregated by the whole command on 2 cores. Prints the
# median wall time, user+sys CPU and peak resident memory of N runs (GNU time), for the plain, .gz and .zst export.
# Usage: scripts/bench/stats-input.sh [runs=5] [copies=5500]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runs="${1:-5}"
copies="${2:-5500}"
./slurmwise --version >/dev/null            # build the CLI if needed
[ -f slurmwise-bench/target/benchmarks.jar ] || ./mvnw -q -B -DskipTests -pl slurmwise-bench -am package
work="${TMPDIR:-/tmp}/slurmwise-stats-input"
mkdir -p "$work"
export="$work/sacct-$copies.psv"
if [ ! -f "$export" ]; then
  java -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.MockExport "$export" "$copies"
fi
[ -f "$export.gz" ] || gzip -k -1 "$export"
if command -v zstd >/dev/null; then [ -f "$export.zst" ] || zstd -q -3 -k "$export" -o "$export.zst"; fi
rows=$(($(wc -l <"$export") - 1))
echo "export: $export ($rows rows, $(du -h "$export" | cut -f1)); cores used: 2 (taskset -c 0,1); runs: $runs"
echo "machine load when starting: $(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%s", m}'; }

printf '%-10s %10s %10s %12s %10s\n' input "wall s" "cpu s" "rows/s wall" "RSS MB"
for f in "$export" "$export.gz" "$export.zst"; do
  [ -f "$f" ] || continue
  walls=(); cpus=(); rss=()
  for ((i = 0; i < runs; i++)); do
    out=$( { /usr/bin/time -f '%e %U %S %M' taskset -c 0,1 ./slurmwise stats --input "$f" --json >/dev/null; } 2>&1 | tail -1)
    read -r e u s m <<<"$out"
    walls+=("$e"); cpus+=("$(echo "$u + $s" | bc -l)"); rss+=("$((m / 1024))")
  done
  w=$(printf '%s\n' "${walls[@]}" | median)
  c=$(printf '%s\n' "${cpus[@]}" | median)
  r=$(printf '%s\n' "${rss[@]}" | median)
  printf '%-10s %10.2f %10.2f %12.0f %10s\n' "${f##*.}" "$w" "$c" "$(echo "$rows / $w" | bc -l)" "$r"
done
