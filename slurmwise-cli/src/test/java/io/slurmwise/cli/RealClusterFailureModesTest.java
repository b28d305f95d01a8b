package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.backend.real.LabCluster;
import io.slurmwise.backend.real.RealBackend;
import io.slurmwise.backend.real.RealBackendConfig;
import io.slurmwise.backend.real.SlurmCommandException;
import io.slurmwise.config.Settings;
import io.slurmwise.job.JobId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.slurmwise.cli.RealCliScenariosTest.env;
import static io.slurmwise.cli.RealCliScenariosTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The cluster itself failing: slurmdbd stopped (sacct errors at once) and slurmctld stopped (squeue/scontrol
 * hang, then fail). slurmwise must answer within its own timeouts, with a message that says what is down, and
 * still diagnose what accounting alone can. Each test restarts what it stopped, whatever happens. Timings go to
 * target/real-failure-modes.tsv.
 */
@Tag("slurm")
class RealClusterFailureModesTest {

    static LabCluster lab;
    static final List<String> TIMINGS = new ArrayList<>();

    @BeforeAll
    static void cluster() {
        lab = LabCluster.require();
    }

    static void timing(String what, long millis) {
        TIMINGS.add(what + "\t" + millis);
    }

    @AfterAll
    static void write() throws IOException {
        Files.createDirectories(Path.of("target"));
        List<String> lines = new ArrayList<>(List.of("what\tmillis"));
        lines.addAll(TIMINGS);
        Files.write(Path.of("target", "real-failure-modes.tsv"), lines);
    }

    @Test
    void slurmdbdStoppedGivesAClearAccountingErrorAtOnce() throws IOException {
        String failed = lab.scenario("import_error").jobId();
        timing("daemon-ctl stop slurmdbd", LabCluster.daemon("stop", "slurmdbd").toMillis());
        try {
            RealCliScenariosTest.Result r = run("diagnose", failed);
            timing("diagnose (slurmdbd down)", r.millis());
            assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
            assertThat(StderrText.text(r.err())).startsWith("slurmwise: sacct cannot reach the accounting database (slurmdbd):")
                    .contains("Connection refused").contains("check that slurmdbd is running");
            assertThat(r.millis()).as("within slurmwise's sacct timeout")
                    .isLessThan(RealBackendConfig.DEFAULT_SACCT_TIMEOUT.toMillis());
            RealCliScenariosTest.Result doctor = run("doctor", "--json");
            assertThat(doctor.code()).as(doctor.out()).isEqualTo(ExitCodes.BACKEND);
            var checks = new ObjectMapper().readTree(doctor.out()).get("checks");
            assertThat(checks.toString()).contains("\"name\":\"accounting\",\"status\":\"fail\"")
                    .contains("check that slurmdbd is running");
            RealCliScenariosTest.Result jobs = run("jobs", "--since", "now-1days");
            timing("jobs (slurmdbd down)", jobs.millis());
            assertThat(jobs.code()).isEqualTo(ExitCodes.BACKEND);
            assertThat(StderrText.text(jobs.err())).contains("sacct cannot reach the accounting database (slurmdbd)");
            RealBackend backend = RealBackend.create(RealBackendConfig.from(Settings.fromEnvironment()));
            assertThatThrownBy(() -> backend.job(JobId.parse(failed)))
                    .isInstanceOfSatisfying(SlurmCommandException.class,
                            e -> assertThat(e.failure()).isEqualTo(SlurmCommandException.Failure.ACCOUNTING_DOWN));
        } finally {
            timing("daemon-ctl start slurmdbd", LabCluster.daemon("start", "slurmdbd").toMillis());
        }
        RealCliScenariosTest.Result back = run("diagnose", failed, "--json");
        assertThat(back.code()).as(back.err()).isZero();
        assertThat(new ObjectMapper().readTree(back.out()).at("/finding/kind").asText()).isEqualTo("import_error");
    }

    @Test
    void slurmctldStoppedTimesOutWithAClearMessageAndAccountingStillDiagnoses() throws IOException {
        String failed = lab.scenario("import_error").jobId();
        String pending = lab.scenario("dependency").jobId();
        timing("daemon-ctl stop slurmctld", LabCluster.daemon("stop", "slurmctld").toMillis());
        try {
            // default timeouts: squeue gives up by itself (~MessageTimeout) before slurmwise's 15 s
            RealCliScenariosTest.Result p = run("diagnose", pending);
            timing("diagnose pending job (slurmctld down, default timeout)", p.millis());
            assertThat(p.code()).isEqualTo(ExitCodes.BACKEND);
            assertThat(StderrText.text(p.err())).contains("job " + pending + " is PENDING in accounting, but only slurmctld knows why it waits")
                    .containsAnyOf("could not reach slurmctld", "did not answer within");
            assertThat(p.millis()).isLessThan(RealBackendConfig.DEFAULT_CONTROLLER_TIMEOUT.toMillis() + 5_000);

            // a short timeout: slurmwise kills scontrol itself, then finds the logs through accounting
            Map<String, String> quick = env(Map.of(RealBackendConfig.CONTROLLER_TIMEOUT_VARIABLE, "3"));
            RealCliScenariosTest.Result f = run(quick, "diagnose", failed, "--json");
            timing("diagnose failed job (slurmctld down, 3 s timeout)", f.millis());
            assertThat(f.code()).as(f.err()).isZero();
            var j = new ObjectMapper().readTree(f.out());
            assertThat(j.at("/finding/kind").asText()).isEqualTo("import_error");
            assertThat(j.at("/job/exit_code_scontrol").isNull()).as("no controller, no scontrol view").isTrue();
            assertThat(Path.of(j.at("/logs/1/path").asText())).isRegularFile();
            assertThat(f.millis()).isLessThan(3_000 + 10_000);

            // the controller down degrades slurmwise, it does not stop it: doctor warns and exits 0
            RealCliScenariosTest.Result doctor = run(quick, "doctor", "--json");
            assertThat(doctor.code()).as(doctor.out()).isZero();
            String checks = new ObjectMapper().readTree(doctor.out()).get("checks").toString();
            assertThat(checks).contains("\"name\":\"accounting\",\"status\":\"ok\"")
                    .contains("\"name\":\"controller\",\"status\":\"warn\"")
                    .contains("Finished jobs can still be diagnosed");
            RealCliScenariosTest.Result list = run(quick, "jobs", "--since", "now-1days", "--json");
            timing("jobs (slurmctld down, 3 s timeout)", list.millis());
            assertThat(list.code()).as(list.err()).isZero();
            assertThat(list.out()).contains("\"id\" : \"" + failed + "\"");

            RealBackend backend = RealBackend.create(RealBackendConfig.from(Settings.fromEnvironment())
                    .withTimeouts(RealBackendConfig.DEFAULT_SACCT_TIMEOUT, Duration.ofSeconds(2)));
            long t0 = System.nanoTime();
            assertThatThrownBy(backend::partitions).isInstanceOfSatisfying(SlurmCommandException.class, e -> {
                assertThat(e.failure()).isEqualTo(SlurmCommandException.Failure.TIMEOUT);
                assertThat(e.controllerUnavailable()).isTrue();
            }).hasMessageContaining("`sinfo -o %P|%l|%D|%c|%m|%G|%a` did not answer within 2 s: slurmctld (the controller)"
                    + " is down or overloaded");
            timing("partitions/sinfo (slurmctld down, 2 s timeout)", (System.nanoTime() - t0) / 1_000_000);
        } finally {
            timing("daemon-ctl start slurmctld", LabCluster.daemon("start", "slurmctld").toMillis());
        }
        RealCliScenariosTest.Result back = run("diagnose", pending, "--json");
        assertThat(back.code()).as(back.err()).isZero();
        assertThat(new ObjectMapper().readTree(back.out()).at("/pending/reason").asText()).isEqualTo("DependencyNeverSatisfied");
    }
}
