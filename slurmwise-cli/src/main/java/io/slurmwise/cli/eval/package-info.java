/**
 * {@code slurmwise eval}: scores the rules and the fix-note retrieval on labeled cases.
 */
package io.slurmwise.cli.eval;
