/**
 * The {@code mock} backend: a bundled cluster of real-looking jobs, logs and batch scripts (or a folder of your own
 * sacct export, SLURMWISE_MOCK_DIR) replayed as a {@link io.slurmwise.backend.SlurmBackend}, so everything runs without
 * a cluster.
 */
package io.slurmwise.backend.mock;
