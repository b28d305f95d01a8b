/**
 * The Java API of slurmwise: {@link io.slurmwise.Slurmwise}, the facade an embedder, the CLI, the MCP server and the
 * chat agent all use, and its one composition root {@link io.slurmwise.Slurmwise#open}, which finds the backend,
 * retriever and explainer through their service providers as the {@link io.slurmwise.config.Settings} say. Core imports
 * no adapter, backend or model library; those come in as providers.
 */
package io.slurmwise;
