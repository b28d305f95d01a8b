package io.slurmwise.kb;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;

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

    /** Evidence lines beyond these add little meaning and dilute the query. */
    static final int MAX_EVIDENCE = 8;
    private static final int MAX_LINE = 300;

    private QueryText() {
    }

    /** @param job may be null (a bare log) */
    public static String of(Finding finding, JobRecord job) {
        StringBuilder sb = new StringBuilder(finding.kind().title());
        int n = 0;
        for (Evidence e : finding.evidence()) {
            if (n++ == MAX_EVIDENCE) {
                break;
            }
            String t = e.text() == null ? "" : e.text().strip();
            sb.append('\n').append(t.length() > MAX_LINE ? t.substring(0, MAX_LINE) : t);
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
