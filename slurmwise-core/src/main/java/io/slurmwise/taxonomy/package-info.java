/**
 * The failure kinds and their fix notes, read from the markdown files in {@code knowledge/} (and a site's
 * SLURMWISE_KNOWLEDGE): each note's front matter gives the kind's signatures and checks, its sections the cause, what
 * to check, the fixes and prevention. Data in files, not strings in code.
 */
package io.slurmwise.taxonomy;
