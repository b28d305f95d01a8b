package io.slurmwise.backend.real;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a lookup costs on the real lab cluster: the SLURM commands run through recording wrappers (each logs its
 * arguments, then runs the real command), so the test counts the accounting queries a whole-array id makes.
 */
@Tag("slurm")
class RealClusterLookupTest {

    static LabCluster lab;

    @BeforeAll
    static void cluster() {
        lab = LabCluster.require();
    }

    /** A PATH of wrappers around the real sacct, scontrol and squeue that append each call to {@code calls}. */
    static RealBackend recording(Path dir, Path calls) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : List.of("sacct", "scontrol", "squeue", "sinfo")) {
            Path real = Path.of("/usr/bin", tool);
            Path w = bin.resolve(tool);
            Files.writeString(w, "#!/bin/bash\nUS=$'\\x1f'\nprintf '%s\\n' \"" + tool + " ${*//$US/^_}\" >> '" + calls
                    + "'\nexec '" + real + "' \"$@\"\n");
            Files.setPosixFilePermissions(w, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(calls, "");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin.toString());
        return RealBackend.create(RealBackendConfig.from(Settings.from(env)));
    }

    static List<String> accountingQueries(Path calls) throws IOException {
        return Files.readAllLines(calls).stream().filter(c -> c.startsWith("sacct ") && c.contains(" -o ")).toList();
    }

    @Test
    void aWholeArrayIdCostsOneAccountingQuery(@TempDir Path dir) throws IOException {
        String task = lab.scenario("array_task_fail").jobId(); // e.g. 13_2
        String array = task.substring(0, task.indexOf('_'));
        Path calls = dir.resolve("calls.log");
        RealBackend backend = recording(dir, calls);
        backend.version(); // probed once per process: not part of what a lookup costs

        Files.writeString(calls, "");
        JobLookup lookup = backend.lookup(JobId.parse(array));
        assertThat(lookup).isInstanceOfSatisfying(JobLookup.Array.class, a -> assertThat(a.tasks())
                .extracting(j -> j.id().toString()).contains(task, lab.scenario("array_task_ok").jobId()));
        assertThat(accountingQueries(calls)).singleElement().asString().contains(" -j " + array + " ");

        Files.writeString(calls, "");
        try (Slurmwise sw = Slurmwise.builder().backend(backend).build()) {
            Diagnosis d = sw.diagnose(array);
            assertThat(d).isInstanceOfSatisfying(Diagnosis.Failed.class, f -> {
                assertThat(f.job().id().toString()).isEqualTo(task);
                assertThat(f.notices()).anyMatch(n -> n.startsWith("array job " + array + " has 3 tasks"));
                assertThat(f.logs()).allSatisfy(t -> assertThat(t.problem()).isNull());
            });
        }
        List<String> all = Files.readAllLines(calls);
        assertThat(accountingQueries(calls)).as("job records asked of accounting by one diagnosis of the whole array "
                + array + "; every call: " + all).singleElement().asString().contains(" -j " + array + " ");
        // any other sacct call is the script's fallback once slurmctld forgot the task (MinJobAge), at most one
        long scripts = all.stream().filter(c -> c.startsWith("sacct ") && c.contains("--batch-script")).count();
        assertThat(scripts).isLessThanOrEqualTo(1);
        assertThat(all).as("every call: " + all).filteredOn(c -> c.startsWith("sacct ")).hasSize(1 + (int) scripts);
    }

    /**
     * pending_array_task: a task of the lab's held array (--hold --array=1-3). SLURM keeps one row for the tasks that
     * have not started, and {@code sacct -j <id>_2} lists none (slurmdbd selects by the task's own id): the backend asks
     * for the array next and answers with that row, its reason from squeue; the diagnosis says the task is pending as
     * part of it. A task the array does not have is no record, after the same two queries.
     */
    @Test
    void aTaskOfAPendingArrayIsTheArraysRowFoundWithASecondQuery(@TempDir Path dir) throws IOException {
        LabCluster.Scenario s = lab.scenario("pending_array_task");
        String task = s.jobId(); // e.g. 550_2
        String array = task.substring(0, task.indexOf('_'));
        Path calls = dir.resolve("calls.log");
        RealBackend backend = recording(dir, calls);
        backend.version();

        Files.writeString(calls, "");
        JobLookup lookup = backend.lookup(JobId.parse(task));
        assertThat(lookup).isInstanceOfSatisfying(JobLookup.Found.class, f -> {
            assertThat(f.job().id().toString()).isEqualTo(array + "_[1-3]");
            assertThat(f.job().state()).isEqualTo(io.slurmwise.job.JobState.PENDING);
            assertThat(f.job().optPendingReason()).contains(s.observedReason()).contains("JobHeldUser");
        });
        assertThat(accountingQueries(calls)).as("the task's own query, then the array's").hasSize(2)
                .satisfies(q -> assertThat(q.get(0)).contains(" -j " + task + " "),
                        q -> assertThat(q.get(1)).contains(" -j " + array + " "));

        try (Slurmwise sw = Slurmwise.builder().backend(backend).build()) {
            Diagnosis d = sw.diagnose(task);
            assertThat(d).isInstanceOfSatisfying(Diagnosis.StatusOnly.class, so -> {
                assertThat(so.job().id().toString()).isEqualTo(array + "_[1-3]");
                assertThat(so.summary()).startsWith("task 2 of array " + array + " has not started: it is pending as"
                        + " part of " + array + "_[1-3]");
                assertThat(so.pending().reason()).isEqualTo("JobHeldUser");
            });
        }

        Files.writeString(calls, "");
        assertThat(backend.lookup(JobId.parse(array + "_4"))).isInstanceOf(JobLookup.Missing.class);
        assertThat(accountingQueries(calls)).hasSize(2);
    }

    @Test
    void aTaskIdAndAnUnknownIdCostOneAccountingQueryEach(@TempDir Path dir) throws IOException {
        String task = lab.scenario("array_task_fail").jobId();
        Path calls = dir.resolve("calls.log");
        RealBackend backend = recording(dir, calls);
        backend.version();
        Files.writeString(calls, "");
        assertThat(backend.lookup(JobId.parse(task))).isInstanceOfSatisfying(JobLookup.Found.class,
                f -> assertThat(f.job().stderrPath()).endsWith("/array-" + task + ".err"));
        assertThat(accountingQueries(calls)).hasSize(1);
        Files.writeString(calls, "");
        assertThat(backend.lookup(JobId.parse("999999"))).isInstanceOf(JobLookup.Missing.class);
        assertThat(accountingQueries(calls)).hasSize(1);
    }
}
