package io.slurmwise.kb;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;

import java.util.HashSet;
import java.util.Set;

/**
 * The text a finding is searched with: the kind's title, then its evidence lines (log lines, the sacct state, the
 * sanity checks), as the user sees them in the diagnosis.
 *
 * <pre>{@code
 * QueryText.of(finding, job);
 * // "Out of memory (host RAM)\nState=OUT_OF_MEMORY\nMaxRSS 31.8G is 99% of the 32G memory limit\n..."
 * }</pre>
 */
public final class QueryText {

    /** Evidence lines beyond these (distinct ones) add little meaning and dilute the query. */
    static final int MAX_EVIDENCE = 8;
    private static final int MAX_LINE = 300;

    private QueryText() {
    }

    /**
     * Log lines without what means nothing to a sentence model and only adds noise: directories of paths (the file
     * name stays), hex addresses, timestamps and long numbers (job ids, pids, byte counts).
     */
    public static String normalize(String text) {
        String s = text.replaceAll("(?:/[^\\s/:'\"(),]+)+/([^\\s/:'\"(),]+)", "$1");
        s = s.replaceAll("0x[0-9a-fA-F]+", " ");
        s = s.replaceAll("\\b\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d[.,\\d]*", " ");
        s = s.replaceAll("\\[[^\\]\\n]*\\d\\d:\\d\\d:\\d\\d[^\\]\\n]*\\]", " ");
        s = s.replaceAll("\\b\\d{5,}\\b", " ");
        s = s.replaceAll("[ \\t]+", " ");
        return s.strip();
    }

    /** @param job may be null (a bare log) */
    public static String of(Finding finding, JobRecord job) {
        StringBuilder sb = new StringBuilder(finding.kind().title());
        Set<String> seen = new HashSet<>();
        for (Evidence e : finding.evidence()) {
            String t = e.text() == null ? "" : e.text().strip();
            t = t.length() > MAX_LINE ? t.substring(0, MAX_LINE) : t;
            // the same message from every rank says no more than once
            if (!t.isEmpty() && seen.add(t)) {
                sb.append('\n').append(t);
            }
            if (seen.size() == MAX_EVIDENCE) {
                break;
            }
        }
        if (finding.evidence().isEmpty() && job != null) {
            sb.append("\nState=").append(job.status());
            if (job.exitCode() != null) {
                sb.append(" ExitCode=").append(job.exitCode());
            }
        }
        return sb.toString();
    }
}
