/**
 * {@code slurmwise doctor}: checks the setup in the order a diagnosis uses it and says what to fix.
 */
package io.slurmwise.cli.doctor;
