#!/usr/bin/env bash
# The MCP server as independent clients see it: the MCP Inspector CLI and the official TypeScript SDK client (both
# from npm) start `bin/slurmwise-mcp` (the seed's `slurmwise-mcp` command) over stdio, list the tools, resources
# and prompts, get the three newest failed jobs, diagnose one, read a log tail, and check that every answer is
# under 16 KB. Fails on any error or missing field.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${MCP_INSPECTOR_DIR:-/var/tmp/slurmwise-mcp-inspector}"
mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/mcp-inspector" ] || [ ! -d "$dir/node_modules/@modelcontextprotocol/sdk" ]; then
  (cd "$dir" && npm install --silent --no-audit --no-fund @modelcontextprotocol/inspector@2.12.0 \
    @modelcontextprotocol/sdk@1.32.2 >/dev/null 2>&1)
fi
inspector="$dir/node_modules/.bin/mcp-inspector"
# the Inspector starts the server with a clean environment: choose the backend with a flag
backend="${SLURMWISE_BACKEND:-mock}"
"$root/slurmwise" --version >/dev/null   # build outside the client's startup timeout
server=("$root/bin/slurmwise-mcp" --backend "$backend")

# one JSON answer in, a field or a check out (node is there: npm needs it)
js() { node -e "const r=JSON.parse(require('fs').readFileSync(0,'utf8')); $1"; }
# the whole answer, the JSON and the text form together, within 16 KB (what the server bounds)
under16k() { js "const n = r.content.reduce((s, c) => s + Buffer.byteLength(c.text, 'utf8'), 0); if (n > 16384) { console.error('$1: ' + n + ' bytes'); process.exit(1); }"; }

tools=$("$inspector" --cli "${server[@]}" --method tools/list)
n=$(js "console.log(r.tools.length)" <<<"$tools")
[ "$n" -ge 10 ] || { echo "tools/list lists $n tools: $tools" >&2; exit 1; }
for t in list_jobs get_job diagnose_job read_job_log suggest_patch explain_pending partition_limits job_efficiency \
         classify_log search_knowledge failure_kinds fleet_stats; do
  grep -q "\"$t\"" <<<"$tools" || { echo "tools/list lacks $t" >&2; exit 1; }
done
resources=$("$inspector" --cli "${server[@]}" --method resources/list)
grep -q 'slurmwise://knowledge/oom' <<<"$resources" || { echo "resources/list: $resources" >&2; exit 1; }
prompts=$("$inspector" --cli "${server[@]}" --method prompts/list)
grep -q '"diagnose_recent_failures"' <<<"$prompts" || { echo "prompts/list: $prompts" >&2; exit 1; }

newest=$("$inspector" --cli "${server[@]}" --method tools/call --tool-name list_jobs \
  --tool-arg states=FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL --tool-arg limit=3)
under16k list_jobs <<<"$newest"
ids=$(js "const j=JSON.parse(r.content[0].text); if (j.count !== 3 || j.order !== 'newest') process.exit(1); console.log(j.jobs.map(x => x.id).join(' '))" <<<"$newest") \
  || { echo "list_jobs did not give the three newest failures: $newest" >&2; exit 1; }
first=${ids%% *}
result=$("$inspector" --cli "${server[@]}" --method tools/call --tool-name diagnose_job --tool-arg job_id=1001)
under16k diagnose_job <<<"$result"
js "const d=JSON.parse(r.content[0].text); if (d.schema !== 'slurmwise.diagnosis/v1' || d.finding.kind !== 'oom') process.exit(1)" <<<"$result" \
  || { echo "diagnose_job 1001 answered: $result" >&2; exit 1; }
tail=$("$inspector" --cli "${server[@]}" --method tools/call --tool-name read_job_log --tool-arg job_id="$first" --tool-arg lines=20)
under16k read_job_log <<<"$tail"
js "const l=JSON.parse(r.content[0].text); if (!l.logs.some(x => x.text.length > 0)) process.exit(1)" <<<"$tail" \
  || { echo "read_job_log $first read nothing: $tail" >&2; exit 1; }
stats=$("$inspector" --cli "${server[@]}" --method tools/call --tool-name fleet_stats)
under16k fleet_stats <<<"$stats"
echo "mcp-inspector: $n tools, resources and prompts listed; newest failures $ids; diagnose_job 1001 -> oom; log tail of $first read; answers <= 16 KB"

node "$root/scripts/mcp/sdk-client-smoke.mjs" "$dir/node_modules" "$root" "$backend"
node "$root/scripts/mcp/hostile-client.mjs" "$dir/node_modules" "$root" "$backend"
