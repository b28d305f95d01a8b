package io.slurmwise.backend.real;

import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlurmVersionTest {

    @Test
    void parsesWhatSacctPrints() {
        assertThat(SlurmVersion.parse(RealCaptures.output("sacct_version.txt"))).contains(new SlurmVersion(22, 5, 8));
        assertThat(SlurmVersion.parse(Captures.read("versions.txt"))).contains(new SlurmVersion(22, 5, 8));
        assertThat(SlurmVersion.parse("slurm 23.02.7")).contains(new SlurmVersion(23, 2, 7));
        assertThat(SlurmVersion.parse("slurm 24.11.0-0rc1")).contains(new SlurmVersion(24, 11, 0));
        assertThat(SlurmVersion.parse("slurm 25.05")).contains(new SlurmVersion(25, 5, 0));
        assertThat(SlurmVersion.parse("no version here")).isEmpty();
        assertThat(new SlurmVersion(22, 5, 8).toString()).isEqualTo("22.05.8");
    }

    @Test
    void theSacctFieldListFollowsTheRelease() {
        SlurmVersion v2205 = new SlurmVersion(22, 5, 8);
        SlurmVersion v2302 = new SlurmVersion(23, 2, 0);
        assertThat(v2205.hasSacctStdio()).isFalse();
        assertThat(v2302.hasSacctStdio()).isTrue();
        assertThat(SacctFields.forWindow(v2205)).contains("JobID", "MaxRSS", "WorkDir").doesNotContain("StdOut", "StdErr", "SubmitLine");
        assertThat(SacctFields.forJob(v2205)).endsWith("JobIDRaw").doesNotContain("StdOut", "StdErr", "SubmitLine");
        assertThat(SacctFields.forWindow(v2302)).contains("StdOut", "StdErr").doesNotContain("SubmitLine");
        assertThat(SacctFields.forJob(v2302)).contains("StdOut", "StdErr", "JobIDRaw").last().isEqualTo("SubmitLine");
    }
}
