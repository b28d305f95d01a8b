#!/usr/bin/env bash
# Counts what `watch` (and `jobs`) ask of the backend, no timings: a "counting" backend (watch-calls/
# CountingProvider.java, compiled here, never part of the build) wraps the mock cluster and prints each jobs() query
# with the records it returned (how many COMPLETED) and, at exit, every backend call counted.
#   1. the bundled mock: a first `watch` poll (30 days) and two more right after (their windows overlap by 10 min)
#   2. a busy centre's last two hours (watch-calls/busy-centre.py: 3,000 COMPLETED jobs an hour with 3 step rows
#      each, 30 FAILED, 1 COMPLETED with an srun step OUT_OF_MEMORY), two steady-state polls of `--interval 5m`:
#      the first over [now - 15 min, now], the second right after over [first's end - 10 min, now]
# Usage: scripts/bench/watch-calls.sh   (after ./mvnw -B -o -q package -DskipTests -pl slurmwise-cli -am)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cp="$root/slurmwise-cli/target/slurmwise-cli.jar:$root/slurmwise-cli/target/lib/*"
[ -f "$root/slurmwise-cli/target/slurmwise-cli.jar" ] || { echo "build the CLI first (see Usage)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/classes/META-INF/services" "$work/busy"
javac -nowarn -d "$work/classes" -cp "$cp" "$root/scripts/bench/watch-calls/CountingProvider.java" 2>&1 | grep -v '^Note:' || true
echo cnt.CountingProvider > "$work/classes/META-INF/services/io.slurmwise.backend.BackendProvider"
export SLURMWISE_NO_LLM=1 COLUMNS=80
run() { java -cp "$work/classes:$cp" io.slurmwise.cli.Main "$@" --backend counting 2>&1 >/dev/null | grep -E '^count:|rror' || true; }

echo "== bundled mock: watch --interval 1s --max-polls 3"
SLURMWISE_HOME="$work/h1" run watch --interval 1s --max-polls 3

echo "== busy centre: two steady-state polls of watch --interval 5m"
(cd "$work/busy" && python3 "$root/scripts/bench/watch-calls/busy-centre.py")
cp "$root/slurmwise-backend-mock/src/main/resources/io/slurmwise/mock/seed-window/partitions.psv" "$work/busy/"
echo "replay.shift-to-now=false" > "$work/busy/cluster.properties"
mkdir -p "$work/h2"
printf '{"schema":"slurmwise.watch-state/v1","window_end":"%s","diagnosed":{}}\n' "$(date -d '-5 min' +%Y-%m-%dT%H:%M:%S)" \
  > "$work/h2/watch-mock.json"
for poll in 1 2; do
  echo "poll $poll:"
  SLURMWISE_MOCK_DIR="$work/busy" SLURMWISE_HOME="$work/h2" run watch --once
  echo "  state file: $(wc -c < "$work/h2/watch-mock.json") bytes"
done
