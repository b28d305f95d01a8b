/**
 * The read-only MCP server (stdio): tool definitions are data in {@code io/slurmwise/mcp/tools/*.json}, their
 * handlers {@link io.slurmwise.mcp.SlurmwiseTools}; its {@code main} is wired by the same composition root as the CLI.
 */
package io.slurmwise.mcp;
