/**
 * {@code slurmwise mcp}: the read-only MCP server on stdio, wired as every other command is.
 */
package io.slurmwise.cli.mcp;
