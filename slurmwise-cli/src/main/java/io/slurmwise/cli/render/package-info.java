/**
 * Terminal output: the diagnosis panel, tables, colour that turns itself off, and JSON printing.
 */
package io.slurmwise.cli.render;
