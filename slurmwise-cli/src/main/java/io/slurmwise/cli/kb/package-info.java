/**
 * {@code slurmwise kb}: build, search, list and show the knowledge base of fix notes.
 */
package io.slurmwise.cli.kb;
