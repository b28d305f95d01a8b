/**
 * The MCP server's stdio front: newline-framed JSON-RPC read with a bounded line length, each line checked before
 * the MCP SDK's session sees it, a bounded work queue, a bounded output queue, a time limit per call,
 * {@code notifications/cancelled} honoured, and a prompt exit when stdin closes.
 * Every fault of the client (malformed JSON, batches, bad ids, deep nesting, huge numbers, oversized messages,
 * a flood of calls) is answered with a JSON-RPC error where the specification asks for an answer, and the server
 * keeps serving. Nothing but protocol is written to stdout.
 */
package io.slurmwise.mcp.stdio;
