package io.slurmwise.diagnose;

import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;

import java.util.ArrayList;
import java.util.List;

/** The default retriever: the Fixes (then What to check) section of the finding's own note. */
public final class NoteLookupRetriever implements Retriever {

    private static final List<String> SECTIONS = List.of("Fixes", "What to check");

    @Override
    public List<FixNote> retrieve(Finding finding, JobRecord job, int k) {
        FailureKind kind = finding.kind();
        List<FixNote> out = new ArrayList<>();
        double score = 1.0;
        for (String heading : SECTIONS) {
            for (NoteSection s : kind.note().sections()) {
                if (s.heading().equalsIgnoreCase(heading) && out.size() < k) {
                    out.add(new FixNote(kind.id(), kind.title(), s.heading(), s.text(), score, kind.note().source(),
                            s.items()));
                    score -= 0.1;
                }
            }
        }
        return out;
    }

    @Override
    public String name() {
        return "notes";
    }
}
