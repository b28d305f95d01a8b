#!/usr/bin/env bash
# CLI start-up: median wall time of N runs of whole commands, with and without the AppCDS archive.
# Then, when slurmwise-dist/target has the release archive, the installed command against ./slurmwise.
# Usage: scripts/bench/startup.sh [runs=15]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runs="${1:-15}"
./slurmwise --version >/dev/null            # build and train the archive if needed
dist="$root/slurmwise-cli/target"
cp="$dist/slurmwise-cli.jar:$dist/lib/*"
export SLURMWISE_BACKEND=mock

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.0f", m}'; }

time_ms() { # command...
  local i s e
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    echo $(((e - s) / 1000000))
  done | median
}

# STARTUP_INSTALLED_ONLY=1: only the installed command against ./slurmwise (below)
[ -n "${STARTUP_INSTALLED_ONLY:-}" ] || printf '%-34s %8s %8s %6s
' command "no CDS" "AppCDS" ratio
[ -n "${STARTUP_INSTALLED_ONLY:-}" ] || for args in "--version" "diagnose 1001" "diagnose 1001 --no-llm --direct" "diagnose 1001 --rules-only" "classify $root/slurmwise-backend-mock/src/main/resources/io/slurmwise/mock/cluster/logs/1008.err"; do
  # shellcheck disable=SC2086
  plain=$(time_ms java -XX:+UseSerialGC -cp "$cp" io.slurmwise.cli.Main $args)
  # shellcheck disable=SC2086
  cds=$(time_ms java -XX:+UseSerialGC -XX:SharedArchiveFile="$dist/slurmwise.jsa" -cp "$cp" io.slurmwise.cli.Main $args)
  printf '%-34s %6s ms %6s ms %6.2f\n' "${args:0:34}" "$plain" "$cds" "$(echo "$plain / $cds" | bc -l)"
done

# The installed command (release archive, its launcher and the start-up archive it trains in SLURMWISE_HOME)
# against the source launcher, whole commands, runs interleaved so both see the same machine load.
portable="$(ls "$root"/slurmwise-dist/target/slurmwise-*.tar.gz 2>/dev/null | grep -v -- -linux-x64 | head -n 1 || true)"
if [ -z "$portable" ]; then
  echo "(no release archive in slurmwise-dist/target: ./mvnw -DskipTests package, then rerun for the installed command)"
  exit 0
fi
work="$(mktemp -d)"
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
tar -xzf "$portable" -C "$work"
prefix="$(ls -d "$work"/slurmwise-*)"
chmod -R a-w "$prefix"
export SLURMWISE_HOME="$work/home"
"$prefix/bin/slurmwise" --version >/dev/null       # starts the background training of its start-up archive
for _ in $(seq 1 300); do compgen -G "$SLURMWISE_HOME/cds/*.lock" >/dev/null || break; sleep 1; done
"$prefix/bin/slurmwise" kb build >/dev/null 2>&1    # the knowledge index, as the source launcher's home has it
src_home="$(mktemp -d)"; SLURMWISE_HOME="$src_home" ./slurmwise kb build >/dev/null 2>&1

interleaved() { # args -> "source_ms installed_ms"
  local i s e a=() b=()
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    s=$(date +%s%N); SLURMWISE_HOME="$src_home" ./slurmwise $1 >/dev/null 2>&1; e=$(date +%s%N); a+=($(((e - s) / 1000000)))
    # shellcheck disable=SC2086
    s=$(date +%s%N); "$prefix/bin/slurmwise" $1 >/dev/null 2>&1; e=$(date +%s%N); b+=($(((e - s) / 1000000)))
  done
  echo "$(printf '%s\n' "${a[@]}" | median) $(printf '%s\n' "${b[@]}" | median)"
}
echo
printf '%-34s %10s %10s %6s\n' "whole command (launcher)" "./slurmwise" "installed" ratio
for args in "--version" "diagnose 1001 --no-llm" "stats" "classify $root/slurmwise-backend-mock/src/main/resources/io/slurmwise/mock/cluster/logs/1008.err"; do
  read -r src inst < <(interleaved "$args")
  printf '%-34s %7s ms %7s ms %6.2f\n' "${args:0:34}" "$src" "$inst" "$(echo "$inst / $src" | bc -l)"
done
rm -rf "$src_home"
