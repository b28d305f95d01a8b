package io.slurmwise.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the value parsers of SLURM's fields (durations, time limits, timestamps, sizes, ReqMem, TRES, job ids,
 * exit codes, states, sinfo output): each returns a value or its documented rejection, nothing else. Inputs per
 * parser: slurmwise.fuzz.inputs (a quick pass in every build; 1,000,000 with -Pfuzz).
 */
@Tag("fuzz")
class JobValuesFuzzTest {

    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 12, 10, 0);

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    static Function<Random, String> durationsGen() {
        return (Hostile.pick("00:01:02", "1-02:03:04", "41:12", "00:00.417", "30", "5-00", "5-00:30",
                "365-00:00:00", "UNLIMITED", "Partition_Limit", "INVALID", "infinite", "99999999-00:00:00",
                "106751991167300-00", "0-2562047788015215:00", "1e300", "1:1e300", "153722867280912930",
                "00:00:99999999999999999"));
    }

    @Test
    void durations() {
        for (String text : Fuzz.inputs(durationsGen())) {
            Fuzz.neverThrows("SlurmTime.parseDuration", text, () -> SlurmTime.parseDuration(text)
                    .ifPresent(d -> assertThat(d.isNegative()).as(text).isFalse()));
            Fuzz.neverThrows("TimeLimit.parse", text, () -> TimeLimit.parse(text).toString());
        }
    }

    static Function<Random, String> timestampsGen() {
        return (Hostile.pick("2026-11-12T03:14:07", "2026-02-30T25:61:61", "Unknown", "None", "now-30days",
                "now+9999999weeks", "now-9999999days", "today", "tomorrow", "noon", "fika", "14:30", "2:30PM", "13:00AM",
                "2026-11-01", "2026-11-01T10:00", "11/01", "1101", "11/01-14:30", "11.01.26", "99/99", "1101-99:99",
                "+999999999-12-31T23:59:59"));
    }

    @Test
    void timestamps() {
        for (String text : Fuzz.inputs(timestampsGen())) {
            Fuzz.neverThrows("SlurmTime.parseTimestamp", text, () -> SlurmTime.parseTimestamp(text));
            Fuzz.rejectsOnlyWith("SlurmTime.parseWhen", IllegalArgumentException.class, text,
                    () -> SlurmTime.parseWhen(text, NOW));
        }
    }

    static Function<Random, String> sizesGen() {
        return (Hostile.pick("32G", "4000M", "31.8G", "33344307K", "1.5T", "2P", "512", "0", "0n", "4000Mc",
                "4000Mn", "16?", "8Gc", "1024Kn", "9007199254740993K", "8191P", "8192P", "1e18", "0x10G", "-1G", "NaNG",
                "G", "c"));
    }

    @Test
    void sizes() {
        for (String text : Fuzz.inputs(sizesGen())) {
            Fuzz.neverThrows("DataSize.tryParse", text, () -> DataSize.tryParse(text).ifPresent(s -> {
                assertThat(s.bytes()).isNotNegative();
                s.toString();
            }));
            Fuzz.neverThrows("MemoryRequest.tryParse", text, () -> MemoryRequest.tryParse(text).ifPresent(r -> {
                r.toString();
                // what a record derives from it for a job of any shape
                assertThat(r.total(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE).bytes()).isNotNegative();
                assertThat(r.total(0, 0, 0).bytes()).isNotNegative();
            }));
        }
    }

    static Function<Random, String> tresGen() {
        Function<Random, String> pair = Hostile.pick("cpu=16", "mem=64G", "node=1", "billing=16", "gres/gpu=1",
                "gres/gpu:a100=1", "gres/gpu:v100=2147483647", "energy=123", "fs/disk=0", "cpu=", "=1", "=",
                "mem=1e400G");
        return (Fuzz.oneOf(r -> {
            StringBuilder sb = new StringBuilder();
            for (int i = r.nextInt(13); i > 0; i--) {
                sb.append(pair.apply(r)).append(i > 1 ? "," : "");
            }
            return sb.toString();
        }, Hostile.pick("cpu=16,mem=64G,node=1,billing=16,gres/gpu=1,gres/gpu:a100=1"),
                r -> "gres/gpu:a=2147483647,".repeat(1 + r.nextInt(300))));
    }

    @Test
    void tres() {
        for (String text : Fuzz.inputs(tresGen())) {
            Fuzz.neverThrows("Tres.parse", text, () -> {
                Tres t = Tres.parse(text);
                assertThat(t.cpus()).isNotNegative();
                assertThat(t.nodes()).isNotNegative();
                assertThat(t.gpus()).isNotNegative();
                t.memory();
                t.gpuModel();
                t.toString();
            });
        }
    }

    static Function<Random, String> jobIdsGen() {
        return (Hostile.pick("123", "123_4", "123_[1-5%2]", "123_[1-3,7,9-11]", "123+1", "123.batch",
                "123.extern", "123.0", "123_4.0", "123+1.batch", "4294967296", "9999999999", "99999999999",
                "123_2147483648", "123_9999999999", "123+99999", "123.9999999999", "123_[", "0", "00", "123_", "123.",
                "123+", "123.interactive", "123_[" + "1,".repeat(40) + "]"));
    }

    @Test
    void jobIds() {
        for (String text : Fuzz.inputs(jobIdsGen())) {
            Fuzz.rejectsOnlyWith("JobId.parse", InvalidJobIdException.class, text, () -> {
                JobId id = JobId.parse(text);
                // parse, don't validate: what exists prints back to a form that parses to it
                assertThat(JobId.parse(id.toString())).isEqualTo(id);
            });
            Fuzz.neverThrows("JobId.tryParse", text, () -> JobId.tryParse(text));
        }
    }

    static Function<Random, String> exitCodesGen() {
        return (Hostile.pick("0:0", "1:0", "0:9", "137:0", "255:15", "256:0", "0:256", "-1:0", "1:", ":1",
                "1:2:3", "2147483648:0"));
    }

    @Test
    void exitCodes() {
        for (String text : Fuzz.inputs(exitCodesGen())) {
            Fuzz.neverThrows("ExitCode.tryParse", text, () -> ExitCode.tryParse(text).ifPresent(c -> {
                c.killSignal();
                c.shellSignal();
                c.sacctWrappedSignal();
            }));
            Fuzz.rejectsOnlyWith("ExitCode.parse", IllegalArgumentException.class, text, () -> ExitCode.parse(text));
        }
    }

    static Function<Random, String> statesGen() {
        return (Hostile.pick("FAILED", "CANCELLED+", "CANCELLED by 1000", "OUT_OF_ME+", "OUT_OF_MEMORY",
                "COMPLETED", "RUNNING", "PENDING", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "REQUEUED", "SPECIAL_EXIT",
                "REVOKED", "BOOT_FAIL", "DEADLINE", "F", "TO", "OOM", "CA", "+", "C+", "CAN+", "failed,timeout",
                "F TO OOM"));
    }

    @Test
    void states() {
        for (String text : Fuzz.inputs(statesGen())) {
            Fuzz.neverThrows("JobState/JobStatus.parse", text, () -> {
                JobState.parse(text).outcome();
                JobStatus.parse(text).toString();
            });
            Fuzz.rejectsOnlyWith("JobState.parseList", IllegalArgumentException.class, text,
                    () -> JobState.parseList(List.of(text)));
        }
    }

    static Function<Random, String> sinfoGen() {
        Function<Random, String> row = Hostile.pick("gpu*|2-00:00:00|4|64|512000|gpu:a100:4|up",
                "cpu|UNLIMITED|2147483647|128+|1000000+|(null)|down", "debug|30:00|1|8|16000|(null)|up",
                "PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL", "PARTITION|AVAIL", "*|||||",
                "a*|1|2147483647|1|1|x|up");
        Function<Random, String> field = Hostile.pick();
        return (r -> {
            StringBuilder sb = new StringBuilder();
            String eol = r.nextBoolean() ? "\n" : "\r\n";
            for (int i = r.nextInt(9); i > 0; i--) {
                if (r.nextBoolean()) {
                    sb.append(row.apply(r));
                } else {
                    for (int f = r.nextInt(10); f > 0; f--) {
                        sb.append(field.apply(r)).append(f > 1 ? "|" : "");
                    }
                }
                sb.append(eol);
            }
            return sb.toString();
        });
    }

    @Test
    void sinfo() {
        for (String text : Fuzz.inputs(sinfoGen())) {
            Fuzz.neverThrows("SinfoParser.parse", text, () -> {
                for (Partition p : SinfoParser.parse(text)) {
                    assertThat(p.nodes()).isNotNegative();
                    assertThat(p.cpusPerNode()).isNotNegative();
                }
            });
        }
    }

    /** sacctmgr's QOS table: rows, headers, errors and hostile fields; only its documented refusal. */
    @Test
    void qos() {
        Function<Random, String> row = Hostile.pick("normal|2-00:00:00|", "gpu|1-00:00:00|scavenger", "long||",
                "Name|MaxWall|Preempt", "debug|00:30:00|a,b,,c", "x|UNLIMITED|", "y|Partition_Limit|", "|1:00|",
                "sacctmgr: error: Problem talking to the database: Connection refused", "z|99999999-00:00:00|");
        for (String text : Fuzz.inputs(table(row, 5))) {
            Fuzz.rejectsOnlyWith("Qos.parse", IllegalArgumentException.class, text, () -> {
                for (Qos q : Qos.parse(text)) {
                    assertThat(q.name()).isNotBlank();
                    q.allows(java.time.Duration.ofDays(3));
                    q.describe();
                }
            });
        }
    }

    /** scontrol's partitions for their own QOS: blocks, fields and hostile values; it never throws. */
    @Test
    void partitionQos() {
        Function<Random, String> row = Hostile.pick("PartitionName=cpu", "   AllocNodes=ALL Default=YES QoS=N/A",
                "   AllocNodes=ALL Default=NO QoS=plong", "QoS=", "PartitionName=", "PartitionName=a QoS=b QoS=c",
                "slurm_load_partitions: Unable to contact slurm controller (connect failure)", "MaxTime=7-00:00:00");
        Function<Random, String> field = Hostile.pick();
        for (String text : Fuzz.inputs(r -> {
            StringBuilder sb = new StringBuilder();
            for (int i = r.nextInt(9); i > 0; i--) {
                sb.append(r.nextBoolean() ? row.apply(r) : List.of("QoS=", "PartitionName=", "AllowQos=", "DenyQos=",
                                "DefaultTime=").get(r.nextInt(5)) + field.apply(r))
                        .append(r.nextBoolean() ? "\n" : " ");
            }
            return sb.toString();
        })) {
            Fuzz.neverThrows("Partition.qosOf", text, () -> Partition.qosOf(text).forEach((p, q) -> {
                assertThat(p).isNotEmpty().doesNotContain(" ", "\n", "\t", "\r");
                assertThat(q).isNotEmpty().isNotEqualToIgnoringCase("N/A");
            }));
            Fuzz.neverThrows("Partition.qosAccessOf", text, () -> Partition.qosAccessOf(text).forEach((p, a) -> {
                assertThat(a.known()).isTrue();
                assertThat(a.allow()).allMatch(n -> !n.isEmpty() && !n.equalsIgnoreCase("all"));
                a.admits("normal"); // answers for any name
            }));
            Fuzz.neverThrows("Partition.defaultTimesOf", text, () -> Partition.defaultTimesOf(text).forEach((p, t) ->
                    assertThat(t.kind()).isIn(TimeLimit.Kind.LIMITED, TimeLimit.Kind.UNLIMITED)));
        }
    }

    /** scontrol's reservations: blocks, fields and hostile values; only its documented refusal, a block it cannot date. */
    @Test
    void reservations() {
        Function<Random, String> row = Hostile.pick("ReservationName=maint StartTime=2026-12-09T06:00:00"
                + " EndTime=2026-12-09T18:00:00 Duration=12:00:00", "   Nodes=cn[001-064] NodeCnt=64 PartitionName=(null)"
                + " Flags=MAINT,SPEC_NODES", "No reservations in the system", "ReservationName=", "Flags=",
                "   Users=root Groups=(null) Accounts=(null) State=INACTIVE", "StartTime=2026-12-09T06:00:00");
        Function<Random, String> field = Hostile.pick();
        for (String text : Fuzz.inputs(r -> {
            StringBuilder sb = new StringBuilder();
            for (int i = r.nextInt(9); i > 0; i--) {
                sb.append(r.nextBoolean() ? row.apply(r) : List.of("ReservationName=", "StartTime=", "EndTime=",
                                "Nodes=", "PartitionName=", "Flags=").get(r.nextInt(6)) + field.apply(r))
                        .append(r.nextBoolean() ? "\n" : " ");
            }
            return sb.toString();
        })) {
            Fuzz.rejectsOnlyWith("Reservation.parse", IllegalArgumentException.class, text, () ->
                    Reservation.parse(text).forEach(rv -> {
                        assertThat(rv.end()).isNotNull();
                        rv.describe();
                        rv.timeUntilStart(java.time.LocalDateTime.of(2026, 12, 1, 0, 0));
                    }));
        }
    }

    /** sshare's account rows: rows, headers, tree indents, errors and hostile fields; only its documented refusal. */
    @Test
    void accountUsage() {
        Function<Random, String> row = Hostile.pick("Account|User|GrpTRESMins|GrpTRESRaw|TRESRunMins",
                " genomics||billing=1500000|cpu=1503920,billing=1503920,gres/gpu=0|cpu=0,billing=0",
                "  genomics|bob||cpu=12,billing=12|cpu=0", "genomics||cpu=0|cpu=0|", "genomics||cpu=|cpu=0|",
                "genomics||=5|cpu=1|", "genomics||cpu=99999999999999999999|cpu=1|", "root|||cpu=1|cpu=0",
                "sshare: error: Problem talking to the database: Connection refused", "genomics|||");
        for (String text : Fuzz.inputs(table(row, 6))) {
            Fuzz.rejectsOnlyWith("AccountUsage.parse", IllegalArgumentException.class, text, () ->
                    AccountUsage.parse(text, "genomics").ifPresent(u -> {
                        assertThat(u.account()).isEqualTo("genomics");
                        u.describeSpent().ifPresent(d -> assertThat(d).startsWith("account genomics has "));
                        assertThat(u.pendingReason().isPresent()).isEqualTo(u.spent().isPresent());
                    }));
        }
    }

    /** sacctmgr's association rows: rows, headers, empty QOS lists, errors and hostile fields; only its refusal. */
    @Test
    void associations() {
        Function<Random, String> row = Hostile.pick("research|slurmtest||normal,short", "lab|ann|gpu|gpu,Normal",
                "Account|User|Partition|QOS", "lab|ann||", "lab|||normal", "|ann||normal", "lab|ann||normal,,short",
                "lab|a nn||normal", "sacctmgr: error: Problem talking to the database: Connection refused", "lab|ann|");
        for (String text : Fuzz.inputs(table(row, 5))) {
            Fuzz.rejectsOnlyWith("Association.parse", IllegalArgumentException.class, text, () -> {
                List<Association> rows = Association.parse(text);
                for (Association a : rows) {
                    assertThat(a.account()).isNotBlank();
                    assertThat(a.qos()).allSatisfy(q -> assertThat(q).isNotBlank().isLowerCase());
                }
                Association.allowedQos(rows, "ann", "lab", "gpu").ifPresent(q -> assertThat(q).isNotEmpty());
            });
        }
    }

    /**
     * A '|' table as a command prints it: up to 6 lines, each a known row or up to {@code fields - 1} hostile fields,
     * LF or CRLF.
     */
    private static Function<Random, String> table(Function<Random, String> row, int fields) {
        Function<Random, String> field = Hostile.pick();
        return r -> {
            StringBuilder sb = new StringBuilder();
            for (int i = r.nextInt(7); i > 0; i--) {
                if (r.nextBoolean()) {
                    sb.append(row.apply(r));
                } else {
                    for (int f = r.nextInt(fields); f > 0; f--) {
                        sb.append(field.apply(r)).append(f > 1 ? "|" : "");
                    }
                }
                sb.append(r.nextBoolean() ? "\n" : "\r\n");
            }
            return sb.toString();
        };
    }
}
