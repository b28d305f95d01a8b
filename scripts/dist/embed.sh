#!/usr/bin/env bash
# Installs the slurmwise artifacts into a Maven repository and builds examples/embed against them as an outside
# project would (only slurmwise-bom, -core and -backend-mock), then runs it: job 1001 must be diagnosed as oom.
# Usage: scripts/dist/embed.sh [--no-install] [extra Maven flags, e.g. -Dmaven.repo.local=/tmp/m2]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
install=1
if [ "${1:-}" = --no-install ]; then install=0; shift; fi
version="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -n 1)"
if [ "$install" = 1 ]; then
  # the library modules and the BOM only: what an embedder resolves (with their sources and Javadoc jars)
  (cd "$root" && ./mvnw -q -B -DskipTests -Prelease "$@" install \
     -pl slurmwise-bom,slurmwise-core,slurmwise-backend-mock -am)
fi
(cd "$root/examples/embed" && "$root/mvnw" -q -B "$@" -Dslurmwise.version="$version" package)
out="$(java -jar "$root/examples/embed/target/slurmwise-embed-example.jar" 1001)"
echo "examples/embed: $out"
grep -q '^job 1001: oom ' <<<"$out"
