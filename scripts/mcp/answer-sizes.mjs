// How large each MCP tool's answer is, as a client receives it: the compact JSON (first text content) and the text
// form (second), in UTF-8 bytes, and both together, which the server keeps under 16 KB (16,384 bytes) by default.
// The figures of README.md's "MCP server" section come from it, on the mock cluster.
// Usage: node answer-sizes.mjs <node_modules dir with @modelcontextprotocol/sdk> <repo root> [backend, default mock]
// (scripts/mcp/inspector-smoke.sh installs the SDK into /var/tmp/slurmwise-mcp-inspector/node_modules.)
import { createRequire } from "node:module";
import path from "node:path";

const [modules, root, backend = "mock"] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const transport = new StdioClientTransport({
  command: path.join(root, "bin", "slurmwise-mcp"),
  args: ["--backend", backend],
  env: { ...process.env, SLURMWISE_NO_LLM: "1" },
  stderr: "inherit",
});
const client = new Client({ name: "slurmwise-answer-sizes", version: "1.0.0" });
await client.connect(transport);

async function answer(name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${r.content?.[0]?.text}`);
  const json = r.content[0].text;
  const text = r.content[1]?.text ?? "";
  return { json, text, parsed: JSON.parse(json) };
}

const pending = (await answer("list_jobs", { states: "PENDING", limit: 1 })).parsed.jobs[0].id;
const failed = (await answer("list_jobs", { states: "FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL", limit: 1 })).parsed.jobs[0].id;
const calls = [
  ["list_jobs", {}],
  ["list_jobs", { states: "FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL", limit: 3 }],
  ["list_jobs", { limit: 500, full: true }],
  ["get_job", { job_id: "1001" }],
  ["diagnose_job", { job_id: "1001" }],
  ["diagnose_job", { job_id: failed }],
  ["diagnose_job", { last_failed: 3 }],
  ["diagnose_job", { last_failed: 10 }],
  ["read_job_log", { job_id: "1001" }],
  ["explain_pending", { job_id: pending }],
  ["explain_pending", {}],
  ["suggest_patch", { job_id: "1001" }],
  ["classify_log", { log: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" }],
  ["search_knowledge", { query: "CUDA out of memory" }],
  ["failure_kinds", {}],
  ["failure_kinds", { kind: "oom" }],
  ["partition_limits", {}],
  ["job_efficiency", {}],
  ["fleet_stats", {}],
  ["fleet_stats", { compact: false }],
];
console.log("| call | JSON bytes | text bytes | whole answer | cut |");
console.log("|---|---:|---:|---:|---|");
let largest = 0;
for (const [name, args] of calls) {
  const a = await answer(name, args);
  const j = Buffer.byteLength(a.json, "utf8");
  const t = Buffer.byteLength(a.text, "utf8");
  largest = Math.max(largest, j + t);
  const cut = ["truncated", "text_truncated", "fields_cut_to", "left_out", "left_out_of_each_job"]
    .filter((k) => a.parsed[k] !== undefined && a.parsed[k] !== false).join(", ");
  const shown = Object.entries(args).map(([k, v]) => `${k}=${typeof v === "string" && v.length > 24 ? v.slice(0, 21) + "..." : v}`).join(" ");
  console.log(`| \`${name}${shown ? " " + shown : ""}\` | ${j.toLocaleString("en")} | ${t.toLocaleString("en")} | ${(j + t).toLocaleString("en")} | ${cut} |`);
}
await client.close();
console.log(`\nlargest whole answer: ${largest.toLocaleString("en")} bytes (budget 16,384)`);
