package io.slurmwise.patch;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What bash's {@code slurm_script: line 12: /scratch/out/log.txt: Permission denied} was, read from the script: bash
 * prints the same words when it cannot execute a command and when a redirection cannot open its file for writing, so
 * only the script's line tells them apart. The real lab's array task writing into a root-owned results/ was told to
 * {@code chmod u+x} the CSV it could not create.
 *
 * @param evidence the log line with bash's message
 * @param path     the path bash named ({@code ./tools/decompose.sh}, {@code /scratch/out/log.txt})
 * @param line     the 0-based index of the script's line bash named (it may lie outside a script changed since)
 * @param redirect the 0-based index of the script's line that sends output into the path ({@code > path},
 *                 {@code >> path}, {@code 2> path}, {@code &> path}), or -1 when none does: a command was executed;
 *                 read without the script ({@link #readWithoutScript}), the line bash named when the path is a data file
 */
public record DeniedPath(String evidence, String path, int line, int redirect) {

    /** Whether a redirect could not write the path (nothing was executed), not a command that could not run. */
    public boolean written() {
        return redirect >= 0;
    }

    /** The first of bash's denials among {@code lines}, read against the script {@code s}. */
    static Optional<DeniedPath> read(Patterns patterns, List<String> lines, BatchScript s) {
        for (String l : lines) {
            Optional<Matcher> m = patterns.find("exec.denied", l);
            if (m.isEmpty()) {
                continue;
            }
            int index;
            try {
                index = Integer.parseInt(m.get().group(1)) - 1;
            } catch (NumberFormatException e) {
                return Optional.empty(); // more digits than an int: no line of any script
            }
            String path = m.get().group(2);
            return Optional.of(new DeniedPath(l, path, index, redirect(s, index, path)));
        }
        return Optional.empty();
    }

    /**
     * The first of bash's denials among {@code lines} when the job's script is not at hand (a log read alone): bash names
     * the line of the redirect that could not write, but only the script shows the redirect, so the path's name decides.
     * A data file ({@code results/out.csv}, {@code run.log}) is written, never executed: a redirect on the line bash
     * named. Any other name keeps bash's words, a command it could not execute.
     */
    public static Optional<DeniedPath> readWithoutScript(List<String> lines) {
        return read(Patterns.bundled(), lines, BatchScript.parse("")).map(d -> DATA_FILE.matcher(d.path()).find()
                ? new DeniedPath(d.evidence(), d.path(), d.line(), d.line()) : d);
    }

    /** Names of files programs write and nobody runs: tables, logs, text, arrays, checkpoints, archives, sequences. */
    private static final Pattern DATA_FILE = Pattern.compile("(?i)\\.(csv|tsv|txt|log|out|err|dat|json|xml|ya?ml"
            + "|h5|hdf5|nc|npy|npz|pt|pth|ckpt|pkl|parquet|bam|sam|vcf|fa|fasta|fastq|fq|png|pdf|gz|zip|tar)$");

    /** The line of the script that redirects output into {@code path}: the one bash named, else the first. */
    private static int redirect(BatchScript s, int index, String path) {
        Pattern into = Pattern.compile("(?:^|[^<>&\\d])\\d?(?:>>?|&>>?|>\\|)\\s*[\"']?" + Pattern.quote(path)
                + "[\"']?(?=\\s|$|;|\\))");
        if (index >= 0 && index < s.lines().size() && into.matcher(s.lines().get(index)).find()) {
            return index;
        }
        for (int i = 0; i < s.lines().size(); i++) {
            if (into.matcher(s.lines().get(i)).find()) {
                return i;
            }
        }
        return -1;
    }
}
