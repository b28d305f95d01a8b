package io.slurmwise.patch;

/**
 * One mechanical fix of a batch script, named in the front matter of the notes whose kinds it fixes
 * ({@code fixers: [memory, requeue]}, see knowledge/README.md). A fixer knows how to change a script, never which
 * failure kinds it is for: the notes say that, so a site note can reuse a fixer without Java code.
 *
 * <pre>{@code
 * Step s = fixer.apply(context, BatchScript.parse(script));
 * s.changes();   // what it changed, each with why ("--mem=48G (was 32G)", ...)
 * }</pre>
 */
public interface Fixer {

    /** The name notes use in {@code fixers:}: lower case letters and {@code _}. */
    String name();

    /**
     * @param cx     what is known of the job: record, finding, log lines, partitions
     * @param script the script as the fixers before this one left it
     * @return the script after this fix, with the changes made and advice; {@link Step#none} when nothing applies
     */
    Step apply(FixContext cx, BatchScript script);
}
