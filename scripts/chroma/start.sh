#!/usr/bin/env bash
# start.sh DATA_DIR [PORT]: starts a Chroma server (one process, 127.0.0.1 only) with its data in DATA_DIR,
# waits until /api/v2/heartbeat answers, writes its PID to DATA_DIR/chroma.pid and prints its URL.
# Stop it with stop.sh DATA_DIR. The log is DATA_DIR/chroma.log. Started directly, never through npx
# (SIGTERM to npx leaves the server running).
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
data="${1:?usage: start.sh DATA_DIR [PORT]}"
port="${2:-8000}"
"$dir/install.sh"
mkdir -p "$data"
data="$(cd "$data" && pwd)"
if [ -f "$data/chroma.pid" ] && kill -0 "$(cat "$data/chroma.pid")" 2>/dev/null; then
  echo "chroma/start.sh: a server from $data is already running (pid $(cat "$data/chroma.pid"))" >&2
  exit 1
fi
"$dir/node_modules/.bin/chroma" run --path "$data/db" --host 127.0.0.1 --port "$port" >"$data/chroma.log" 2>&1 &
pid=$!
echo "$pid" >"$data/chroma.pid"
for _ in $(seq 1 300); do
  if curl -sf "http://127.0.0.1:$port/api/v2/heartbeat" >/dev/null 2>&1; then
    echo "http://127.0.0.1:$port"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "chroma/start.sh: the server exited; see $data/chroma.log:" >&2
    tail -5 "$data/chroma.log" >&2
    rm -f "$data/chroma.pid"
    exit 1
  fi
  sleep 0.1
done
echo "chroma/start.sh: no answer on port $port after 30 s; stopping it (see $data/chroma.log)" >&2
kill -TERM "$pid" 2>/dev/null || true
rm -f "$data/chroma.pid"
exit 1
