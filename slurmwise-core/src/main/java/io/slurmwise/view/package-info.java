/**
 * The JSON shapes every adapter prints (schemas {@code slurmwise.diagnosis/v1}, {@code slurmwise.jobs/v1},
 * {@code slurmwise.finding/v1}, {@code slurmwise.stats/v1}) as plain maps, so the CLI's {@code --json} and the MCP
 * tools answer with the same documents.
 */
package io.slurmwise.view;
