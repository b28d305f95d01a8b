#!/usr/bin/env bash
# Memory stays flat however much sacct prints: N rows (default 5,000,000: 2.5M jobs with their .batch steps,
# ~930 MB of text) of one 7-day slice go into `slurmwise stats` through
#   real     the real backend, a stand-in sacct on PATH (scripts/bench/fake-slurm) printing the rows as it goes
#   real256  the same with the JVM heap capped at 256 MB (JAVA_TOOL_OPTIONS=-Xmx256m)
#   export   the same rows saved as a sacct -P export: stats --input FILE
#   mock     the same export replayed by the mock backend: SLURMWISE_MOCK_DIR
# Prints peak resident memory and wall time of each (GNU time -v), on 2 cores (taskset -c 0,1), with the
# machine's load. Usage: scripts/bench/stream-memory.sh [rows=5000000]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
rows="${1:-5000000}"
./slurmwise --version >/dev/null            # build the CLI if needed
fake="$root/scripts/bench/fake-slurm"
work="${TMPDIR:-/tmp}/slurmwise-stream-memory"
mkdir -p "$work/mock"
export SLURMWISE_HOME="$work/home"
export="$work/mock/sacct.psv"
if [ ! -f "$export" ] || [ "$(($(wc -l <"$export") - 1))" != "$rows" ]; then
  FAKE_SACCT_ROWS="$rows" "$fake/sacct" -P >"$export"
fi
window=(--all-users --since 2026-11-20 --until 2026-11-27 --json)
echo "rows: $rows ($(du -h "$export" | cut -f1) of sacct -P text), one 7-day slice; cores used: 2 (taskset -c 0,1)"
echo "machine load when starting: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %8s %8s %10s %s\n' path "wall s" "RSS MB" jobs "heap cap"

measure() { # name heap-cap command...
  local name="$1" cap="$2"; shift 2
  local log="$work/$name.time" out="$work/$name.json"
  /usr/bin/time -v -o "$log" taskset -c 0,1 "$@" >"$out" 2>"$work/$name.err" || { echo "$name failed:"; cat "$work/$name.err"; return 1; }
  local rss wall jobs
  rss=$(awk -F': ' '/Maximum resident set size/ {print int($2 / 1024)}' "$log")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$log")
  jobs=$(grep -o '"records" *: *[0-9]*' "$out" | head -1 | grep -o '[0-9]*$')
  printf '%-8s %8.1f %8s %10s %s\n' "$name" "$wall" "$rss" "$jobs" "$cap"
}

PATH="$fake:$PATH" FAKE_SACCT_ROWS="$rows" SLURMWISE_BACKEND=real measure real default ./slurmwise stats "${window[@]}"
PATH="$fake:$PATH" FAKE_SACCT_ROWS="$rows" SLURMWISE_BACKEND=real JAVA_TOOL_OPTIONS=-Xmx256m \
  measure real256 256MB ./slurmwise stats "${window[@]}"
measure export default ./slurmwise stats --input "$export" "${window[@]}"
SLURMWISE_BACKEND=mock SLURMWISE_MOCK_DIR="$work/mock" measure mock default ./slurmwise stats "${window[@]}"
echo "machine load when done: $(cut -d' ' -f1-3 /proc/loadavg)"
