// The MCP server as a hostile client sees it through the official TypeScript SDK client (not the Java SDK the
// module's tests use): lone surrogates and terminal escapes in arguments, job ids of a shell or a path, a tool
// that writes, an argument the tool does not take or of the wrong type, a 1 MB job id, 200 concurrent calls and a
// call the client gives up on. Each must get its specific answer, quote nothing that could steer a terminal, and
// leave the server serving. Run from scripts/mcp/inspector-smoke.sh (which installs the SDK).
// Usage: node hostile-client.mjs <node_modules dir> <repo root> <backend>
import { createRequire } from "node:module";
import path from "node:path";

const [modules, root, backend] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

function fail(msg) {
  console.error("hostile-client: " + msg);
  process.exit(1);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}
// what a terminal would act on, or a strict JSON parser refuse
const STEERING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const transport = new StdioClientTransport({
  command: path.join(root, "bin", "slurmwise-mcp"),
  args: ["--backend", backend],
  env: { ...process.env, SLURMWISE_NO_LLM: "1" },
  stderr: "inherit",
});
const client = new Client({ name: "slurmwise-hostile", version: "1.0.0" });
await client.connect(transport);

/** A tool error whose text contains `says` and nothing that steers a terminal. */
async function toolError(name, args, says) {
  const r = await client.callTool({ name, arguments: args });
  const text = r.content?.[0]?.text ?? "";
  check(r.isError === true, `${name} ${JSON.stringify(args).slice(0, 80)} was no error: ${text.slice(0, 200)}`);
  check(text.includes(says), `${name} ${JSON.stringify(args).slice(0, 80)} answered "${text.slice(0, 300)}", not "${says}"`);
  check(!STEERING.test(text) && !LONE.test(text), `${name}: the error quotes steering characters: ${JSON.stringify(text)}`);
  check(text.length < 2000, `${name}: an error of ${text.length} characters`);
  return text;
}

let cases = 0;
// a lone surrogate (a string cut inside an emoji): read as U+FFFD, quoted back as text every parser takes
await toolError("get_job", { job_id: "1001\ud800" }, "'1001\ufffd' is not a SLURM job id"); cases++;
await toolError("get_job", { job_id: "\u001b]0;pwned\u0007 1\u202e" }, "'?]0;pwned? 1?' is not a SLURM job id"); cases++;
for (const id of ["../../etc/passwd", "$(id)", "1;rm -rf /", "`id`", "-1", "1001_-1"]) {
  await toolError("diagnose_job", { job_id: id }, `'${id}' is not a SLURM job id; use a number such as 1001`); cases++;
}
await toolError("read_job_log", { job_id: "1001_[1-999999999]" }, "the array task id 999999999 is larger than SLURM allows"); cases++;
await toolError("get_job", { job_id: "4294967296" }, "larger than SLURM allows (at most 4294967292"); cases++;
await toolError("get_job", { job_id: "1".repeat(1 << 20) }, "at most 64"); cases++;
await toolError("get_job", { job_id: { $gt: "" } }, "not an object"); cases++;
await toolError("list_jobs", { state: "FAILED" }, "has no argument 'state' (did you mean 'states'?)"); cases++;
await toolError("list_jobs", { limit: -5 }, "limit must be a whole number from 1 to 500, got -5"); cases++;
await toolError("read_job_log", { job_id: "1001", path: "/etc/shadow" }, "has no argument 'path'"); cases++;

// a tool that writes is not there: a protocol error naming the tools there are
try {
  await client.callTool({ name: "cancel_job", arguments: { job_id: "1001" } });
  fail("cancel_job was answered");
} catch (e) {
  check(/-32602/.test(String(e.code ?? e.message)) && e.message.includes("'cancel_job'") && e.message.includes("diagnose_job"),
    `cancel_job: ${e.message}`);
}
cases++;

// 200 calls at once: each gets a diagnosis or a "busy, retry" answer, never nothing
const all = await Promise.allSettled(Array.from({ length: 200 }, () =>
  client.callTool({ name: "diagnose_job", arguments: { job_id: "1001" } })));
let results = 0;
let busy = 0;
for (const a of all) {
  if (a.status === "fulfilled") {
    check(!a.value.isError, `a concurrent diagnose_job failed: ${a.value.content?.[0]?.text?.slice(0, 200)}`);
    results++;
  } else {
    check(a.reason?.code === -32000 && /busy/.test(a.reason.message), `a concurrent call: ${a.reason?.message}`);
    busy++;
  }
}
check(results + busy === 200 && results > 0, `200 concurrent calls: ${results} results, ${busy} busy`);
cases++;

// a call the client gives up on (the SDK sends notifications/cancelled): the session serves on
const ac = new AbortController();
const given = client.callTool({ name: "fleet_stats", arguments: { compact: false } }, undefined, { signal: ac.signal });
ac.abort();
try {
  await given;
} catch (e) {
  // the SDK rejects the call it cancelled
}
await client.ping();
const after = await client.callTool({ name: "get_job", arguments: { job_id: "1001" } });
check(!after.isError && JSON.parse(after.content[0].text).job.id === "1001", "get_job after the hostile calls");
cases++;
await client.close();
console.log(`hostile-client: ${cases} hostile cases answered as specified (200 concurrent: ${results} results, `
  + `${busy} busy); nothing steering quoted back; the session served on`);
