package io.slurmwise.diagnose;

import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;

import java.util.List;
import java.util.Optional;

/** Words a finding for the user. Implementations may reword, never re-decide: the kind comes from the rules. */
public interface Explainer {

    /** @param job the failed job, or null for a bare log */
    Explanation explain(JobRecord job, Finding finding, List<FixNote> fixes);

    /**
     * The same, knowing the batch-script change shown beside the explanation, so the words can agree with it (a
     * model's "more time will not help" above a patch that raises {@code --time}). By default the patch is not read.
     *
     * @param patch the diagnosis's patch, suggested or not, or null without one
     */
    default Explanation explain(JobRecord job, Finding finding, List<FixNote> fixes, io.slurmwise.patch.Patch patch) {
        return explain(job, finding, fixes);
    }

    /** Why the last explanation was worded by a fallback (the model did not answer), if it was. */
    default Optional<String> fallbackReason() {
        return Optional.empty();
    }
}
