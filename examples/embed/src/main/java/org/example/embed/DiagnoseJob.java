package org.example.embed;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.diagnose.Diagnosis;

/**
 * Diagnoses one job of slurmwise's bundled mock cluster through the Java API and prints the failure kind
 * (Java 17: no pattern switch over the sealed Diagnosis).
 */
public final class DiagnoseJob {

    private DiagnoseJob() {
    }

    public static void main(String[] args) {
        String jobId = args.length > 0 ? args[0] : "1001";
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            Diagnosis d = sw.diagnose(jobId);
            if (d instanceof Diagnosis.Failed f) {
                System.out.println("job " + jobId + ": " + f.finding().kindId()
                        + " (confidence " + Math.round(f.finding().confidence() * 100) + "%)");
            } else if (d instanceof Diagnosis.StatusOnly s) {
                System.out.println("job " + jobId + ": " + s.summary());
            } else if (d instanceof Diagnosis.NotFound n) {
                System.err.println("job " + jobId + ": " + n.message());
                System.exit(3);
            }
        }
    }
}
