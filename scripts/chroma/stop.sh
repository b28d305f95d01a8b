#!/usr/bin/env bash
# stop.sh DATA_DIR: stops the Chroma server that start.sh started there (by its PID file), waiting up to 10 s.
set -euo pipefail
data="${1:?usage: stop.sh DATA_DIR}"
pidfile="$data/chroma.pid"
[ -f "$pidfile" ] || exit 0
pid="$(cat "$pidfile")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "chroma/stop.sh: pid $pid did not stop on SIGTERM; sending SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
fi
rm -f "$pidfile"
