/**
 * JMH benchmarks and measurement tools behind every speed claim in the README: the classifier, fleet statistics,
 * the grep comparison, and synthetic jobs and logs to run them on.
 */
package io.slurmwise.bench;
