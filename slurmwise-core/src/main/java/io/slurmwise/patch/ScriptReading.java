package io.slurmwise.patch;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One batch script as slurmwise reads it, parsed once, with the patterns the fixers share: the batch size a command
 * passes to its program, and what bash's {@code Permission denied} for one of its lines was (a command it could not
 * execute, or a redirect that could not write). Advice fitted to a job and the patch read the script the same way.
 *
 * <pre>{@code
 * ScriptReading r = patchSuggester.read("#!/bin/bash\npython train.py --batch-size 8\n");
 * r.batchSize();                      // Optional[--batch-size 8]
 * r.denied(List.of("/var/spool/slurmd/job1/slurm_script: line 2: ./run.sh: Permission denied"));
 * }</pre>
 */
public final class ScriptReading {

    private final String text;
    private final BatchScript script;
    private final Patterns patterns;
    private Optional<BatchScript.ProgramOption> batchSize; // read when first asked

    ScriptReading(String text, Patterns patterns) {
        this.text = Objects.requireNonNull(text, "text");
        this.patterns = Objects.requireNonNull(patterns, "patterns");
        this.script = BatchScript.parse(text);
    }

    /**
     * A reading with slurmwise's bundled patterns, for a caller that holds no {@link PatchSuggester} (whose
     * {@link PatchSuggester#read} shares its fixers' patterns).
     */
    public static ScriptReading withBundledPatterns(String text) {
        return new ScriptReading(text, Patterns.bundled());
    }

    /** The script's text, as given. */
    public String text() {
        return text;
    }

    /** The script, parsed. */
    public BatchScript script() {
        return script;
    }

    /** The batch size a program of the script is given, if a command passes one ({@link BatchScript#batchSize}). */
    public Optional<BatchScript.ProgramOption> batchSize() {
        if (batchSize == null) {
            batchSize = script.batchSize(patterns);
        }
        return batchSize;
    }

    /** What bash's first {@code slurm_script: line N: PATH: Permission denied} among {@code lines} was, if one is. */
    public Optional<DeniedPath> denied(List<String> lines) {
        return DeniedPath.read(patterns, lines, script);
    }
}
