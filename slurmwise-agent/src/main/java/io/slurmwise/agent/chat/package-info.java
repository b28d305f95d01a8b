/**
 * {@code slurmwise chat}: a language model answers questions in words by calling slurmwise's read-only tools, in
 * process or from an MCP server ({@link io.slurmwise.agent.chat.McpChatTools}); the causes still come from the rules.
 */
package io.slurmwise.agent.chat;
