#!/usr/bin/env bash
# The MCP server as an independent client sees it: the MCP Inspector CLI (from npm) starts `slurmwise mcp`
# over stdio, lists the tools and calls diagnose_job. Fails on any error or missing field.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${MCP_INSPECTOR_DIR:-/var/tmp/slurmwise-mcp-inspector}"
mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/mcp-inspector" ]; then
  (cd "$dir" && npm install --silent --no-audit --no-fund @modelcontextprotocol/inspector@2.12.0 >/dev/null 2>&1)
fi
inspector="$dir/node_modules/.bin/mcp-inspector"
# the Inspector starts the server with a clean environment: choose the backend with a flag
backend="${SLURMWISE_BACKEND:-mock}"
"$root/slurmwise" --version >/dev/null   # build outside the client's startup timeout

tools=$("$inspector" --cli "$root/slurmwise" --backend "$backend" mcp --method tools/list)
for t in diagnose_job list_jobs classify_log failure_kinds fleet_stats; do
  grep -q "\"$t\"" <<<"$tools" || { echo "tools/list lacks $t: $tools" >&2; exit 1; }
done
result=$("$inspector" --cli "$root/slurmwise" --backend "$backend" mcp --method tools/call --tool-name diagnose_job --tool-arg job_id=1001)
grep -q 'slurmwise.diagnosis/v1' <<<"$result" || { echo "diagnose_job answered: $result" >&2; exit 1; }
grep -q '\\"kind\\" : \\"oom\\"' <<<"$result" || { echo "diagnose_job did not find oom: $result" >&2; exit 1; }
echo "mcp-inspector: 5 tools listed; diagnose_job 1001 -> oom"
