package io.slurmwise.backend.real;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.real.SlurmCommandException.Failure;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The faults of a streamed sacct (and sinfo) over fake commands: each ends in one line that says what happened
 * and what to do, never a silently short answer, a stack trace or a process left running.
 */
class StreamingFaultsTest {

    static final LocalDateTime SINCE = LocalDateTime.of(2026, 11, 1, 0, 0);
    static final LocalDateTime UNTIL = LocalDateTime.of(2026, 11, 30, 0, 0);
    static final String HEADER = String.join("|", SacctFields.forWindow(new SlurmVersion(22, 5, 8)));
    static final String ROW = "4711|train|alice|proj|cpu|normal|FAILED|1:0|0:0|2026-11-10T10:00:00|"
            + "2026-11-10T10:00:05|2026-11-10T10:10:00|00:09:55|01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|"
            + "billing=8,cpu=8,mem=4G,node=1|n01|"
            + "00:10:00|0|/w|None";

    @TempDir
    Path dir;
    FakeSlurm fake;
    final List<String> notices = new ArrayList<>();

    @BeforeEach
    void setUp() {
        fake = new FakeSlurm(dir);
    }

    /** A sacct that answers --version and runs {@code body} for everything else. */
    void sacct(String body) {
        fake.tool("sacct", "if [ \"$1\" = --version ]; then echo 'slurm-wlm 22.05.8'; exit 0; fi\n" + body);
    }

    RealBackend backend(Duration sacctTimeout) {
        return RealBackend.create(fake.config().withTimeouts(sacctTimeout, Duration.ofSeconds(5)), notices::add);
    }

    List<JobRecord> window(RealBackend b) {
        try (Stream<JobRecord> s = b.jobs(JobQuery.window(SINCE, UNTIL).withStates(java.util.Set.of(
                io.slurmwise.job.JobState.FAILED)))) {
            return s.toList();
        }
    }

    @Test
    void aHungWrapperIsKilledWithEveryProcessItStarted() throws Exception {
        Path pid = dir.resolve("child.pid");
        // a site wrapper that starts the real client in the background and waits: the child must die too
        sacct("/bin/sleep 300 &\necho $! > '" + pid + "'\nwait");
        RealBackend b = backend(Duration.ofMillis(1500));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> window(b))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.TIMEOUT))
                .hasMessageContaining("did not answer within 1 s").hasMessageContaining("slurmdbd")
                .hasMessageContaining(RealBackendConfig.SACCT_TIMEOUT_VARIABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
        long child = Long.parseLong(Files.readString(pid).strip());
        Optional<ProcessHandle> h = ProcessHandle.of(child);
        for (int i = 0; i < 50 && h.isPresent() && h.get().isAlive(); i++) {
            Thread.sleep(100);
        }
        assertThat(h.filter(ProcessHandle::isAlive)).as("the wrapper's child sleep was killed too").isEmpty();
    }

    @Test
    void onlyTheTimeSpentWaitingForSacctCountsAgainstItsLimit() {
        Path out = fake.file("rows.psv", HEADER + "\n" + ROW + "\n" + ROW.replace("4711", "4712") + "\n"
                + ROW.replace("4711", "4713") + "\n");
        sacct("/bin/cat '" + out + "'");
        fake.tool("squeue", "exit 0");
        RealBackend b = backend(Duration.ofMillis(1200));
        List<String> ids = new ArrayList<>();
        try (Stream<JobRecord> s = b.jobs(JobQuery.window(SINCE, UNTIL))) {
            Iterator<JobRecord> it = s.iterator();
            while (it.hasNext()) {
                ids.add(it.next().id().toString());
                sleep(700); // a slow consumer (log classification): 2.1 s in all, longer than the limit
            }
        }
        assertThat(ids).containsExactly("4711", "4712", "4713");
    }

    @Test
    void theVersionProbeHonoursTheSacctTimeout() {
        fake.tool("sacct", "exec /bin/sleep 30");
        RealBackend b = backend(Duration.ofMillis(700));
        long t0 = System.nanoTime();
        assertThatThrownBy(b::version).isInstanceOfSatisfying(SlurmCommandException.class,
                        e -> assertThat(e.failure()).isEqualTo(Failure.TIMEOUT))
                .hasMessageContaining("`sacct --version` did not answer within 700 ms")
                .hasMessageContaining(RealBackendConfig.SACCT_TIMEOUT_VARIABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("not the old fixed 10 s").isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void garbageIsABackendErrorWithAPrintableExcerpt() throws IOException {
        Path junk = dir.resolve("junk.bin");
        byte[] bytes = new byte[4096];
        new java.util.Random(7).nextBytes(bytes);
        byte[] head = "\u001b]0;pwned\u0007\u001b[2J garbage\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(head, 0, bytes, 0, head.length);
        Files.write(junk, bytes);
        sacct("/bin/cat '" + junk + "'");
        assertThatThrownBy(() -> window(backend(Duration.ofSeconds(20))))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.GARBLED))
                .hasMessageContaining("printed something that is not sacct -P output")
                .hasMessageContaining("\\x1b]0;pwned\\x07")
                .hasMessageContaining("sacct --version")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u001b").doesNotContain("\u0007")
                        .hasSizeLessThan(800));
    }

    @Test
    void cutRowsAreToldAndNeverMakeAJobUnknown() {
        String cut = ROW.substring(0, 60);
        Path out = fake.file("cut.psv", HEADER + "\n" + ROW.replace("4711", "4700") + "\n" + cut + "\n");
        Path only = fake.file("only.psv", HEADER + "\n" + cut + "\n");
        sacct("case \"$*\" in *\"-j 4711 \"*) /bin/cat '" + only + "';; *) /bin/cat '" + out + "';; esac");
        RealBackend b = backend(Duration.ofSeconds(20));
        assertThat(window(b)).extracting(j -> j.id().toString()).containsExactly("4700");
        assertThat(notices).singleElement().asString().contains("printed 1 row of the window that slurmwise could not read")
                .contains("line 3: `4711|train|alice|").contains("left out").contains("rerun");
        assertThatThrownBy(() -> b.lookup(JobId.parse("4711")))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.GARBLED))
                .hasMessageContaining("1 row of job 4711 that slurmwise could not read")
                .hasMessageContaining("nothing else came");
    }

    @Test
    void aWindowOfOnlyUnreadableRowsIsAnErrorNotZeroJobs() {
        Path out = fake.file("cut.psv", HEADER + "\n" + ROW.substring(0, 40) + "\n" + ROW.substring(0, 90) + "\n");
        sacct("/bin/cat '" + out + "'");
        assertThatThrownBy(() -> window(backend(Duration.ofSeconds(20))))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.GARBLED))
                .hasMessageContaining("printed 2 rows of the window that slurmwise could not read (line 2: ");
    }

    @Test
    void slurmdbdDownMidStreamIsAccountingDown() {
        String text = Captures.read("daemon_down_errors.txt");
        String err = text.substring(text.indexOf("sacct: error: slurm_persist_conn_open"), text.indexOf("[rc=1, 0.0s]"));
        Path e = fake.file("err.txt", err);
        Path out = fake.file("rows.psv", HEADER + "\n" + ROW + "\n");
        // some rows, then the connection is lost: the answer is an error, not the rows that came
        sacct("/bin/cat '" + out + "'; /bin/cat '" + e + "' >&2; exit 1");
        assertThatThrownBy(() -> window(backend(Duration.ofSeconds(20))))
                .isInstanceOfSatisfying(SlurmCommandException.class, x -> assertThat(x.failure()).isEqualTo(Failure.ACCOUNTING_DOWN))
                .hasMessageStartingWith("sacct cannot reach the accounting database (slurmdbd)")
                .hasMessageContaining("check that slurmdbd is running");
    }

    @Test
    void aCutOrBinarySinfoIsNotAClusterOfPartitions() {
        fake.printing("sinfo", "PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL\ncpu*|2:00:00|1|2|4000|(null)|up\ngpu|30:0", "", 0);
        assertThatThrownBy(() -> backend(Duration.ofSeconds(5)).partitions())
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.GARBLED))
                .hasMessageContaining("printed 1 line that are no partition (line 3: `gpu|30:0`)")
                .hasMessageContaining("cut short");
        fake.printing("sinfo", "\u0000\u0001\u00ff\u001b[31mPK\u0003\u0004", "", 0);
        assertThatThrownBy(() -> backend(Duration.ofSeconds(5)).partitions())
                .hasMessageContaining("printed no header (first line: `\\x00\\x01")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u001b"));
        fake.printing("sinfo", "", "", 0);
        assertThatThrownBy(() -> backend(Duration.ofSeconds(5)).partitions()).hasMessageContaining("printed nothing");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
