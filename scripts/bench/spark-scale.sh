#!/usr/bin/env bash
# slurmwise-spark at 10^7 rows: the mock cluster's rows repeated with new job ids (51,814 copies = 10,000,102 rows,
# 3,471,538 jobs; steps included) in one sacct -P export under $TMPDIR (never the repository), aggregated by the
# runnable jar at local[1] and local[2] (the speed-up), then by `slurmwise stats --input` on the same file (one
# machine's way); the documents must be byte-identical. Prints wall time, user+sys CPU and
# peak resident memory (GNU time) of each run, and the load it started under. Deletes the export unless KEEP=1.
# Usage: scripts/bench/spark-scale.sh [copies=51814]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
copies="${1:-51814}"
version="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n 1)"
jar="slurmwise-spark/target/slurmwise-spark-$version-all.jar"
./slurmwise --version >/dev/null            # build the CLI if needed
[ -f slurmwise-bench/target/benchmarks.jar ] || ./mvnw -q -B -DskipTests -pl slurmwise-bench -am package
[ -f "$jar" ] || ./mvnw -q -B -DskipTests -pl slurmwise-spark -am package
# the options Spark's launcher gives a JVM (the pom's spark.jvm.options, the README's list)
read -r -a opens <<<"$(sed -n 's:.*<spark.jvm.options>\(.*\)</spark.jvm.options>.*:\1:p' slurmwise-spark/pom.xml)"
work="$(mktemp -d "${TMPDIR:-/tmp}/slurmwise-spark-scale.XXXXXX")"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
export="$work/sacct-$copies.psv"
java -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.MockExport "$export" "$copies"
rows=$(($(wc -l <"$export") - 1))
echo "export: $rows rows, $(du -h "$export" | cut -f1); machine: $(nproc) cores; load when starting: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %8s %8s %12s %8s  %s\n' run "wall s" "cpu s" "rows/s wall" "RSS MB" "load before"
measure() {
  local label="$1" out="$2"; shift 2
  local load; load="$(cut -d' ' -f1 /proc/loadavg)"
  /usr/bin/time -o "$out.time" -f '%e %U %S %M' "$@" >"$out" 2>"$out.err"
  local e u s m; read -r e u s m <"$out.time"
  printf '%-34s %8.1f %8.1f %12.0f %8d  %s\n' "$label" "$e" "$(echo "$u + $s" | bc -l)" "$(echo "$rows / $e" | bc -l)" \
    "$((m / 1024))" "$load"
}
measure "spark local[1] (java -jar, -Xmx2g)" "$work/l1.json" java -Xmx2g "${opens[@]}" -jar "$jar" --master 'local[1]' --input "$export" --json
measure "spark local[2] (java -jar, -Xmx2g)" "$work/l2.json" java -Xmx2g "${opens[@]}" -jar "$jar" --master 'local[2]' --input "$export" --json
measure "slurmwise stats --input (2 threads)" "$work/cli.json" ./slurmwise stats --input "$export" --json --threads 2
for f in l1 l2; do
  if cmp -s "$work/$f.json" "$work/cli.json"; then
    echo "$f: byte-identical to the stats --input document"
  else
    echo "$f: DIFFERS from stats --input"; exit 1
  fi
done
echo "load when done: $(cut -d' ' -f1-3 /proc/loadavg)"
