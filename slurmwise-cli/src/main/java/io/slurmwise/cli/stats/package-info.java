/**
 * {@code slurmwise stats}: what failures cost, as a panel, JSON, CSV, a self-contained HTML report or Prometheus
 * text.
 */
package io.slurmwise.cli.stats;
