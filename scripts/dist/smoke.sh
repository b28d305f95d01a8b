#!/usr/bin/env bash
# The release archives as a user gets them (run as root; the commands run as the unprivileged user "nobody"):
#  1. slurmwise-VERSION.tar.gz unpacked into a read-only folder, an empty home: --version, diagnose 1001, stats,
#     an MCP client (initialize + tools/list + diagnose_job over stdio) on bin/slurmwise-mcp, bash completion,
#     the start-up archive made in the background and then used; with each Java in SMOKE_JAVAS; nothing written
#     under the prefix; a clear message and exit 6 when no Java 17+ is found.
#  2. slurmwise-VERSION-linux-x64.tar.gz with no java anywhere (the JDKs hidden in a private mount namespace).
#  3. install.sh --prefix into a read-only tree and real Lmod (Debian's lmod): module load slurmwise.
# Usage: scripts/dist/smoke.sh [DIST_TARGET_DIR]   (default slurmwise-dist/target; build: ./mvnw package)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="${1:-$root/slurmwise-dist/target}"
javas="${SMOKE_JAVAS:-/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64}"
portable="$(ls "$target"/slurmwise-*.tar.gz | grep -v -- '-linux-x64' | head -n 1)"
platform="$(ls "$target"/slurmwise-*-linux-x64.tar.gz | head -n 1)"
[ -f "$portable" ] && [ -f "$platform" ] || { echo "smoke: no archives in $target; run ./mvnw -DskipTests package" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "smoke: run as root (it runs the commands as the user nobody)" >&2; exit 1; }

work="$(mktemp -d /tmp/slurmwise-dist-smoke.XXXXXX)"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
chmod 755 "$work"
passed=0 failed=0
ok() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "  FAILED: $*" >&2; failed=$((failed + 1)); }
check() { # description command... : the command must succeed
  local what="$1"; shift
  if "$@" > "$work/out" 2> "$work/err"; then ok "$what"; else fail "$what (exit $?): $(tail -n 5 "$work/err")"; fi
}

# run as nobody with an empty home and a minimal environment
fresh_home() { local h; h="$(mktemp -d "$work/home.XXXXXX")"; chown 65534:65534 "$h"; echo "$h"; }
as_user() { # home env... -- command...
  local h="$1"; shift
  setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    env -i HOME="$h" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"
}
unpack() { # archive folder -> prints the prefix; made read-only
  mkdir -p "$2"
  tar -xzf "$1" -C "$2"
  local p; p="$(ls -d "$2"/slurmwise-*)"
  chmod -R a-w "$p"
  echo "$p"
}
snapshot() { (cd "$1" && find . -printf '%p %s %T@ %m\n' | sort | cksum); }

# a minimal MCP client over stdio: initialize, initialized, tools/list, tools/call diagnose_job 1001
mcp_client() { # command...
  local line got
  coproc MCP { "$@" 2>/dev/null; }
  send() { printf '%s\n' "$1" >&"${MCP[1]}"; }
  expect_id() { # id -> the response line
    while IFS= read -r -t 120 line <&"${MCP[0]}"; do
      case "$line" in *"\"id\":$1"* | *"\"id\" : $1"*) echo "$line"; return 0 ;; esac
    done
    return 1
  }
  send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"slurmwise-smoke","version":"1"}}}'
  got="$(expect_id 1)" || { echo "no initialize answer" >&2; return 1; }
  grep -q '"serverInfo"' <<<"$got" || { echo "initialize: $got" >&2; return 1; }
  send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  send '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  got="$(expect_id 2)" || { echo "no tools/list answer" >&2; return 1; }
  for t in diagnose_job list_jobs classify_log failure_kinds fleet_stats; do
    grep -q "\"$t\"" <<<"$got" || { echo "tools/list lacks $t: $got" >&2; return 1; }
  done
  send '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"diagnose_job","arguments":{"job_id":"1001"}}}'
  got="$(expect_id 3)" || { echo "no tools/call answer" >&2; return 1; }
  grep -q 'oom' <<<"$got" || { echo "diagnose_job 1001: $got" >&2; return 1; }
  exec {MCP[1]}>&-
  wait "$MCP_PID" 2>/dev/null || true
}

# bash completion: source the script, call its function as bash would on <TAB>
completes() { # script expected words...
  local script="$1"; shift
  local expected="$1"; shift
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="${COMP_WORDS[*]}"
           COMP_POINT=${#COMP_LINE}; _complete_slurmwise; printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$@" \
    | grep -x -- "$expected" >/dev/null
}

echo "== portable archive: $(basename "$portable")"
prefix="$(unpack "$portable" "$work/portable")"
before="$(snapshot "$prefix")"
check "bash completion: 'slurmwise di<TAB>' offers diagnose" completes "$prefix/share/completion/slurmwise.bash" diagnose slurmwise di
check "bash completion: 'slurmwise diagnose --<TAB>' offers --json" completes "$prefix/share/completion/slurmwise.bash" --json slurmwise diagnose --
check "bash completion: 'slurmwise kb <TAB>' offers search" completes "$prefix/share/completion/slurmwise.bash" search slurmwise kb ""
for jar in "$prefix"/lib/slurmwise-*.jar; do
  unzip -p "$jar" META-INF/MANIFEST.MF | grep -q '^Automatic-Module-Name: io\.slurmwise\.' \
    || fail "$(basename "$jar") has no Automatic-Module-Name"
done
ok "every slurmwise jar names its Java module (Automatic-Module-Name)"
check "man page renders" bash -c "man -l '$prefix/share/man/man1/slurmwise.1' 2>/dev/null | grep -q 'EXIT STATUS' || grep -q '^.SH EXIT STATUS' '$prefix/share/man/man1/slurmwise.1'"
for jdk in $javas; do
  [ -x "$jdk/bin/java" ] || { fail "no JDK at $jdk"; continue; }
  feature="$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')"
  echo "-- with Java $feature ($jdk) as JAVA_HOME, user nobody, empty home, prefix read-only"
  h="$(fresh_home)"
  check "Java $feature: --version" as_user "$h" JAVA_HOME="$jdk" "$prefix/bin/slurmwise" --version
  grep -q "Java $feature" "$work/out" || fail "Java $feature: --version names another Java: $(cat "$work/out")"
  check "Java $feature: diagnose 1001 --backend mock" as_user "$h" JAVA_HOME="$jdk" "$prefix/bin/slurmwise" diagnose 1001 --backend mock
  grep -q "oom" "$work/out" || fail "Java $feature: diagnose 1001 did not find oom"
  # the JVM and libraries stay quiet on every Java (no native-access or Unsafe warnings, no stack traces)
  if grep -qE "WARNING|Exception in|^[[:space:]]+at " "$work/err"; then fail "Java $feature: diagnose printed: $(grep -E 'WARNING|Exception|at ' "$work/err" | head -n 3)"; fi
  check "Java $feature: stats --backend mock" as_user "$h" JAVA_HOME="$jdk" "$prefix/bin/slurmwise" stats --backend mock
  check "Java $feature: MCP client on bin/slurmwise-mcp (initialize, tools/list, diagnose_job)" \
    mcp_client as_user "$h" JAVA_HOME="$jdk" "$prefix/bin/slurmwise-mcp" --backend mock
  # the start-up archive is trained in the background by the first command; then -Xshare:on proves it is used
  for _ in $(seq 1 180); do compgen -G "$h/.slurmwise/cds/*.lock" >/dev/null || break; sleep 1; done
  if compgen -G "$h/.slurmwise/cds/slurmwise-*.jsa" >/dev/null; then
    check "Java $feature: start-up archive used (-Xshare:on)" as_user "$h" JAVA_HOME="$jdk" SLURMWISE_JAVA_OPTS=-Xshare:on \
      "$prefix/bin/slurmwise" --version
  else
    fail "Java $feature: no start-up archive in $h/.slurmwise/cds: $(ls "$h/.slurmwise/cds" 2>&1)"
  fi
  link="$(mktemp -d "$work/link.XXXXXX")"; ln -s "$prefix/bin/slurmwise" "$link/sw"; chmod 755 "$link"
  check "Java $feature: through a symlink, from another folder" as_user "$h" JAVA_HOME="$jdk" bash -c "cd / && '$link/sw' --version"
done
[ "$(snapshot "$prefix")" = "$before" ] && ok "nothing written under the prefix" || fail "files under $prefix changed"

echo "-- no Java 17+: a clear message, exit 6"
fake="$(mktemp -d "$work/oldjava.XXXXXX")"; mkdir -p "$fake/bin"
printf '#!/bin/sh\necho "openjdk version \\"11.0.2\\" 2019-01-15" >&2\n' > "$fake/bin/java"; chmod -R a+rx "$fake"
h="$(fresh_home)"
set +e; as_user "$h" SLURMWISE_JAVA="$fake" "$prefix/bin/slurmwise" --version > "$work/out" 2> "$work/err"; code=$?; set -e
[ "$code" = 6 ] && grep -q "Java 17 or newer" "$work/err" && ok "SLURMWISE_JAVA=Java 11: exit 6, says it needs Java 17" \
  || fail "old SLURMWISE_JAVA: exit $code: $(cat "$work/err")"
set +e; unshare -m bash -c "mount -t tmpfs none /usr/lib/jvm && $(declare -f as_user); as_user '$h' JAVA_HOME='$fake' '$prefix/bin/slurmwise' --version" \
  > "$work/out" 2> "$work/err"; code=$?; set -e
[ "$code" = 6 ] && grep -q "needs Java 17 or newer" "$work/err" && grep -q "linux-x64 archive" "$work/err" \
  && ok "no Java 17+ anywhere: exit 6 and what to do" || fail "no java: exit $code: $(cat "$work/err")"

echo "== platform archive with its own runtime: $(basename "$platform")"
rprefix="$(unpack "$platform" "$work/platform")"
before="$(snapshot "$rprefix")"
h="$(fresh_home)"
nojava() { # command... : as nobody, with every JDK of this machine hidden and no JAVA_HOME
  unshare -m bash -c "mount -t tmpfs none /usr/lib/jvm && ! command -v java >/dev/null && $(declare -f as_user); as_user $(printf '%q ' "$@")"
}
check "no java on the machine: --version (bundled runtime)" nojava "$h" "$rprefix/bin/slurmwise" --version
grep -q "^Java " "$work/out" || fail "--version: $(cat "$work/out")"
check "no java on the machine: diagnose 1001 --backend mock" nojava "$h" "$rprefix/bin/slurmwise" diagnose 1001 --backend mock
grep -q "oom" "$work/out" || fail "bundled runtime: diagnose 1001 did not find oom"
check "no java on the machine: stats --backend mock" nojava "$h" "$rprefix/bin/slurmwise" stats --backend mock
check "no java on the machine: MCP client on bin/slurmwise-mcp" mcp_client nojava "$h" "$rprefix/bin/slurmwise-mcp" --backend mock
no_stdin() { "$@" </dev/null; }
check "no java on the machine: the MCP server runs in a 1 GB heap" no_stdin nojava "$h" \
  SLURMWISE_JAVA_OPTS=-Xlog:gc+init=info:stderr "$rprefix/bin/slurmwise-mcp" --backend mock
grep -q "Heap Max Capacity: 1G" "$work/err" || fail "slurmwise-mcp heap: $(grep -i 'heap max' "$work/err")"
for _ in $(seq 1 180); do compgen -G "$h/.slurmwise/cds/*.lock" >/dev/null || break; sleep 1; done
if compgen -G "$h/.slurmwise/cds/slurmwise-*.jsa" >/dev/null; then
  check "bundled runtime: start-up archive used (-Xshare:on)" nojava "$h" SLURMWISE_JAVA_OPTS=-Xshare:on "$rprefix/bin/slurmwise" --version
else
  fail "bundled runtime: no start-up archive in $h/.slurmwise/cds: $(ls "$h/.slurmwise/cds" 2>&1)"
fi
[ "$(snapshot "$rprefix")" = "$before" ] && ok "nothing written under the prefix" || fail "files under $rprefix changed"

echo "== install.sh --prefix and Lmod"
lmod_init=/usr/share/lmod/lmod/init/bash
if [ ! -r "$lmod_init" ]; then
  fail "Lmod is not installed ($lmod_init; Debian package lmod)"
else
  apps="$work/apps"
  check "install.sh --prefix --modulefiles" "$rprefix/install.sh" --prefix "$apps/slurmwise/current" --modulefiles "$apps/modulefiles"
  chmod -R a-w "$apps"
  before="$(snapshot "$apps")"
  h="$(fresh_home)"
  check "module load slurmwise; slurmwise --version; slurmwise diagnose 1001 --backend mock (nobody, read-only prefix)" \
    as_user "$h" bash -c "source $lmod_init && module use '$apps/modulefiles' && module load slurmwise \
      && slurmwise --version && slurmwise diagnose 1001 --backend mock && { ! command -v man >/dev/null || man -w slurmwise; }"
  grep -q "oom" "$work/out" || fail "module: diagnose 1001 did not find oom: $(tail -n 3 "$work/out")"
  check "module from the install's own modulefiles (prefix computed from the file's place)" \
    as_user "$h" bash -c "source $lmod_init && module use '$prefix/share/modulefiles' && module load slurmwise && slurmwise --version"
  [ "$(snapshot "$apps")" = "$before" ] && ok "nothing written under the install prefix" || fail "files under $apps changed"
fi

echo "dist-smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
