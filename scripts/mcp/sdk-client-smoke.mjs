// The MCP server as the official TypeScript SDK client sees it: starts `bin/slurmwise-mcp` over stdio, lists the
// tools, resources and prompts, gets the three newest failed jobs, diagnoses them, reads a log tail, and checks
// that every answer is compact JSON, with its text form within 16 KB. Run from scripts/mcp/inspector-smoke.sh (which installs the SDK).
// Usage: node sdk-client-smoke.mjs <node_modules dir> <repo root> <backend>
import { createRequire } from "node:module";
import path from "node:path";

const [modules, root, backend] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const LIMIT = 16 * 1024;
function fail(msg) {
  console.error("sdk-client: " + msg);
  process.exit(1);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}

const transport = new StdioClientTransport({
  command: path.join(root, "bin", "slurmwise-mcp"),
  args: ["--backend", backend],
  env: { ...process.env, SLURMWISE_NO_LLM: "1" },
  stderr: "inherit",
});
const client = new Client({ name: "slurmwise-smoke", version: "1.0.0" });
await client.connect(transport);

async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  const json = r.content?.[0]?.text ?? "";
  check(!r.isError, `${name} failed: ${json}`);
  check(r.content.length === 2 && r.content[1].text.length > 0, `${name} has no short text form`);
  // the whole answer, the JSON and the text form together, is what the server keeps within 16 KB
  const bytes = Buffer.byteLength(json, "utf8") + Buffer.byteLength(r.content[1].text, "utf8");
  check(bytes <= LIMIT, `${name} answered ${bytes} bytes, JSON and text (limit ${LIMIT})`);
  return JSON.parse(json);
}

const tools = (await client.listTools()).tools;
check(tools.length >= 10, `only ${tools.length} tools`);
for (const t of tools) {
  check(t.annotations?.readOnlyHint === true, `${t.name} is not annotated read-only`);
  check(t.annotations?.destructiveHint === false, `${t.name} is not annotated non-destructive`);
  check(!Object.keys(t.inputSchema.properties ?? {}).some((p) => /path|file/i.test(p)), `${t.name} takes a path`);
}
const resources = (await client.listResources()).resources;
check(resources.some((r) => r.uri === "slurmwise://knowledge/oom"), "no slurmwise://knowledge/oom resource");
const note = await client.readResource({ uri: "slurmwise://knowledge/oom" });
check(note.contents[0].text.includes("## Fixes"), "the oom note has no Fixes section");
const prompts = (await client.listPrompts()).prompts;
check(prompts.length >= 3, `only ${prompts.length} prompts`);

const failed = await call("list_jobs", { states: "FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL", limit: 3 });
check(failed.order === "newest" && failed.count === 3, `list_jobs: ${JSON.stringify(failed).slice(0, 300)}`);
check(failed.jobs[0].submit >= failed.jobs[1].submit && failed.jobs[1].submit >= failed.jobs[2].submit, "not newest first");
const ids = failed.jobs.map((j) => j.id);
for (const id of ids) {
  const d = await call("diagnose_job", { job_id: id });
  check(d.schema === "slurmwise.diagnosis/v1" && d.status === "failed", `diagnose_job ${id}: ${d.status}`);
}
const log = await call("read_job_log", { job_id: ids[0], lines: 20 });
check(log.logs.length > 0 && log.logs.some((l) => l.text.length > 0 || l.problem), "read_job_log returned nothing");
const stats = await call("fleet_stats", {});
check(stats.schema === "slurmwise.stats/v1", "fleet_stats schema");
await call("partition_limits", {});
await call("job_efficiency", {});
await client.close();
console.log(`sdk-client: ${tools.length} tools, ${resources.length} resources, ${prompts.length} prompts; `
  + `newest failures ${ids.join(", ")} diagnosed; log tail read; every answer <= 16 KB`);
