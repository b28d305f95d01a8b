#!/usr/bin/env bash
# Hostile logs through `slurmwise classify --rules-only`: median wall time of N whole-command runs per log (file,
# and the same bytes on standard input), against a normal 1 KB log as the baseline (JVM start-up and rules load).
# The logs: a 50 MB line, 20 MB of random bytes, 8 MB of NULs, 1.7 MB of invalid UTF-8, 100k CRLF lines, 100k ANSI
# progress lines, each ending with a CUDA OOM line. HostileLogsTest checks the answers; this measures the time.
# Usage: scripts/bench/hostile-logs.sh [runs=7]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runs="${1:-7}"
./slurmwise --version >/dev/null            # build the CLI if needed
dist="$root/slurmwise-cli/target"
cp="$dist/slurmwise-cli.jar:$dist/lib/*"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export SLURMWISE_HOME="$work/home" SLURMWISE_NO_LLM=1

cause='torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'
{ for i in $(seq 1 20); do echo "epoch $i loss 0.25"; done; echo "$cause"; } >"$work/baseline.err"
{ head -c 52428800 /dev/zero | tr '\0' 'A'; echo " $cause"; } >"$work/line-50mb.err"
{ head -c 20971520 /dev/urandom; printf '\n%s\n' "$cause"; } >"$work/random-20mb.err"
{ head -c 8388608 /dev/zero; printf '\n%s\n' "$cause"; } >"$work/nuls-8mb.err"
{ for _ in $(seq 1 1000); do printf '\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\xff\xfe\xed\xa0\x80\n%.0s' $(seq 1 100); done; echo "$cause"; } >"$work/invalid-utf8.err"
{ awk 'BEGIN { for (i = 0; i < 100000; i++) printf "epoch %d loss 0.25\r\n", i }'; printf '%s\r\n' "$cause"; } >"$work/crlf-100k.err"
{ awk 'BEGIN { for (i = 0; i < 100000; i++) { p = i % 101; b = ""; for (j = 0; j < p / 5; j++) b = b "#";
    printf "\033[2K\r\033[32m%d%%|%-20s|\033[0m %d/100000 [00:01<00:00, 812.3it/s]\n", p, b, i } }'; echo "$cause"; } >"$work/ansi-100k.err"

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.0f", m}'; }
run_ms() { # mode file
  local i s e
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s%N)
    if [ "$1" = stdin ]; then
      java -XX:+UseSerialGC -cp "$cp" io.slurmwise.cli.Main classify - --rules-only --json <"$2" >"$work/out.json" 2>"$work/err.txt"
    else
      java -XX:+UseSerialGC -cp "$cp" io.slurmwise.cli.Main classify "$2" --rules-only --json >"$work/out.json" 2>"$work/err.txt"
    fi
    e=$(date +%s%N)
    grep -q '"kind" : "cuda_oom"' "$work/out.json" || { echo "hostile-logs.sh: $2 ($1) was not classified cuda_oom:" >&2; cat "$work/err.txt" >&2; exit 1; }
    echo $(((e - s) / 1000000))
  done | median
}

echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); medians of $runs runs (ms), whole command"
printf '%-18s %9s %9s %9s %9s\n' log size file stdin "file-base"
base=$(run_ms file "$work/baseline.err")
for f in baseline line-50mb random-20mb nuls-8mb invalid-utf8 crlf-100k ansi-100k; do
  p="$work/$f.err"
  size=$(du -h "$p" | cut -f1)
  file=$([ "$f" = baseline ] && echo "$base" || run_ms file "$p")
  stdin=$(run_ms stdin "$p")
  printf '%-18s %9s %9s %9s %9s\n' "$f" "$size" "$file" "$stdin" "$((file - base))"
done
