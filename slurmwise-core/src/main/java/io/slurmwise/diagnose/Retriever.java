package io.slurmwise.diagnose;

import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;

import java.util.List;

/**
 * Finds the fix notes for a finding. The default looks up the kind's own note; the knowledge-base module
 * retrieves ranked sections by embedding similarity.
 */
public interface Retriever {

    /**
     * @param job the failed job, or null when classifying a bare log
     * @param k   the most notes to return
     */
    List<FixNote> retrieve(Finding finding, JobRecord job, int k);

    /**
     * Note sections for a free text (a question, a pasted error), best first. {@code rulesReading} is the kind the
     * rules find in the text, if any: its note comes first. The default has no index to search, so it returns that
     * kind's own sections and nothing when the rules recognise nothing; the knowledge base ranks by similarity.
     */
    default List<FixNote> search(String text, Finding rulesReading, int k) {
        return rulesReading == null ? List.of() : retrieve(rulesReading, null, k);
    }

    /** Short name shown in the diagnosis footer, e.g. {@code notes} or {@code kb}. */
    String name();

    /**
     * Starts loading whatever expensive part the retriever needs (an embedding model) in the background, so it
     * overlaps the log reads and the rules; a no-op by default. {@link DiagnosisWorkflow} calls it once a job is known
     * to have failed (a job with nothing to retrieve for starts no load). A retriever that holds resources waits for
     * the load when it is closed, so that no process exits in the middle of one.
     */
    default void prewarm() {
    }
}
