#!/usr/bin/env bash
# Classifier scan speed vs GNU grep with the same signatures on the same synthetic log, medians of N runs.
# Usage: scripts/bench/grep-compare.sh [MB=64] [runs=7]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
./mvnw -q -B -DskipTests -pl slurmwise-bench -am package
exec java -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.GrepCompare "${1:-64}" "${2:-7}"
