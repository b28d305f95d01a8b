/**
 * {@code slurmwise chat}: ask about your jobs in words; the model calls the read-only tools in process or on an MCP
 * server given by {@code --mcp-server}.
 */
package io.slurmwise.cli.chat;
