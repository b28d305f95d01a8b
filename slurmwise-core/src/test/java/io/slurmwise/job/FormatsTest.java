package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FormatsTest {

    @Test
    void statesKeepTheirSuffix() {
        JobStatus s = JobStatus.parse("CANCELLED by 1001");
        assertThat(s.state()).isEqualTo(JobState.CANCELLED);
        assertThat(s.detail()).isEqualTo("by 1001");
        assertThat(JobState.parse("OOM")).isEqualTo(JobState.OUT_OF_MEMORY);
        assertThat(JobState.parse("to")).isEqualTo(JobState.TIMEOUT);
        assertThat(JobState.parse("COMPLETED+")).isEqualTo(JobState.COMPLETED);
        assertThat(JobState.parse("WEIRD")).isEqualTo(JobState.UNKNOWN);
        // sacct's default table cuts values at 10 characters and marks the cut with '+'
        assertThat(JobState.parse("OUT_OF_ME+")).isEqualTo(JobState.OUT_OF_MEMORY);
        assertThat(JobState.parse("CANCELLED+")).isEqualTo(JobState.CANCELLED);
        assertThat(JobState.parse("SPECIAL_E+")).isEqualTo(JobState.SPECIAL_EXIT);
        assertThat(JobState.parse("REQUEUE_+")).as("two states begin so").isEqualTo(JobState.UNKNOWN);
        assertThat(JobState.parse("OU+")).as("too short to tell").isEqualTo(JobState.UNKNOWN);
        assertThat(JobState.parse("")).isEqualTo(JobState.UNKNOWN);
    }

    @Test
    void exitCodesDecodeSignalsInBothConventions() {
        ExitCode oom = ExitCode.parse("0:125");
        assertThat(oom.signal()).isEqualTo(125);
        assertThat(oom.killSignal()).isEmpty();
        assertThat(ExitCode.parse("0:9").killSignal()).contains(9);
        assertThat(ExitCode.parse("139:0").killSignal()).contains(11);       // scontrol's view
        assertThat(ExitCode.parse("11:0").killSignal()).isEmpty();           // sacct's view of the same job
        assertThat(ExitCode.parse("11:0").sacctWrappedSignal()).contains(11);
        assertThat(ExitCode.parse("1:0").sacctWrappedSignal()).isEmpty();
        assertThat(ExitCode.tryParse("1:x")).isEmpty();
        assertThat(ExitCode.tryParse("300:0")).isEmpty();
        assertThat(ExitCode.tryParse("")).isEmpty();
        assertThatThrownBy(() -> ExitCode.parse("bogus")).hasMessageContaining("code:signal");
    }

    @Test
    void durationsInEverySlurmForm() {
        assertThat(SlurmTime.parseDuration("41:12")).contains(Duration.ofMinutes(41).plusSeconds(12));
        assertThat(SlurmTime.parseDuration("00:41:12")).contains(Duration.ofMinutes(41).plusSeconds(12));
        assertThat(SlurmTime.parseDuration("1-02:03:04")).contains(Duration.ofDays(1).plusHours(2).plusMinutes(3).plusSeconds(4));
        assertThat(SlurmTime.parseDuration("2-00")).contains(Duration.ofDays(2));
        assertThat(SlurmTime.parseDuration("7-00:00")).contains(Duration.ofDays(7));
        assertThat(SlurmTime.parseDuration("00:00.417")).contains(Duration.ofMillis(417));
        assertThat(SlurmTime.parseDuration("30")).contains(Duration.ofMinutes(30));
        assertThat(SlurmTime.parseDuration("UNLIMITED")).isEmpty();
        assertThat(SlurmTime.parseDuration("1:2:3:4")).isEmpty();
        assertThat(SlurmTime.parseDuration("-5")).isEmpty();
        assertThat(SlurmTime.format(Duration.ofHours(12).plusSeconds(3))).isEqualTo("12:00:03");
        assertThat(SlurmTime.format(Duration.ofDays(1).plusHours(2))).isEqualTo("1-02:00:00");
        assertThat(TimeLimit.parse("Partition_Limit").kind()).isEqualTo(TimeLimit.Kind.PARTITION_LIMIT);
        assertThat(TimeLimit.parse("Partition_Limit").human()).isEqualTo("partition default");
        assertThat(TimeLimit.parse("Partition_Limit").toString()).as("SLURM's form for JSON").isEqualTo("Partition_Limit");
        assertThat(TimeLimit.parse("1-00:00:00").human()).isEqualTo("1-00:00:00");
        assertThat(TimeLimit.parse("UNLIMITED").kind()).isEqualTo(TimeLimit.Kind.UNLIMITED);
        assertThat(TimeLimit.parse("12:00:00").limit()).contains(Duration.ofHours(12));
        assertThat(TimeLimit.parse("garbage")).isEqualTo(TimeLimit.UNKNOWN);
    }

    @Test
    void whenAcceptsSacctStyleTimes() {
        LocalDateTime now = LocalDateTime.of(2026, 11, 30, 12, 0);
        assertThat(SlurmTime.parseWhen("now-30days", now)).isEqualTo(now.minusDays(30));
        assertThat(SlurmTime.parseWhen("now-12hours", now)).isEqualTo(now.minusHours(12));
        assertThat(SlurmTime.parseWhen("now-2weeks", now)).isEqualTo(now.minusDays(14));
        assertThat(SlurmTime.parseWhen("2026-11-01", now)).isEqualTo(LocalDateTime.of(2026, 11, 1, 0, 0));
        assertThat(SlurmTime.parseWhen("2026-11-01T10:00", now)).isEqualTo(LocalDateTime.of(2026, 11, 1, 10, 0));
        assertThatThrownBy(() -> SlurmTime.parseWhen("yesterday", now)).hasMessageContaining("now-30days");
    }

    @Test
    void whenAcceptsEveryFormOfSacctsManPage() {
        LocalDateTime now = LocalDateTime.of(2026, 11, 30, 12, 0);
        assertThat(SlurmTime.parseWhen("today", now)).isEqualTo(LocalDateTime.of(2026, 11, 30, 0, 0));
        assertThat(SlurmTime.parseWhen("midnight", now)).isEqualTo(LocalDateTime.of(2026, 11, 30, 0, 0));
        assertThat(SlurmTime.parseWhen("noon", now)).isEqualTo(LocalDateTime.of(2026, 11, 30, 12, 0));
        // a time of day not reached yet today means yesterday's, as sacct reads a start time
        assertThat(SlurmTime.parseWhen("teatime", now)).isEqualTo(LocalDateTime.of(2026, 11, 29, 16, 0));
        assertThat(SlurmTime.parseWhen("fika", now)).isEqualTo(LocalDateTime.of(2026, 11, 29, 15, 0));
        assertThat(SlurmTime.parseWhen("elevenses", now)).isEqualTo(LocalDateTime.of(2026, 11, 30, 11, 0));
        assertThat(SlurmTime.parseWhen("now-2hours", now)).isEqualTo(now.minusHours(2));
        assertThat(SlurmTime.parseWhen("now-90", now)).isEqualTo(now.minusSeconds(90));
        assertThat(SlurmTime.parseWhen("09:15", now)).isEqualTo(LocalDateTime.of(2026, 11, 30, 9, 15));
        assertThat(SlurmTime.parseWhen("2:30PM", now)).isEqualTo(LocalDateTime.of(2026, 11, 29, 14, 30));
        assertThat(SlurmTime.parseWhen("11/01", now)).isEqualTo(LocalDateTime.of(2026, 11, 1, 0, 0));
        assertThat(SlurmTime.parseWhen("1101", now)).isEqualTo(LocalDateTime.of(2026, 11, 1, 0, 0));
        assertThat(SlurmTime.parseWhen("12.24", now)).isEqualTo(LocalDateTime.of(2025, 12, 24, 0, 0));
        assertThat(SlurmTime.parseWhen("11/01/26-14:30", now)).isEqualTo(LocalDateTime.of(2026, 11, 1, 14, 30));
        assertThat(SlurmTime.parseWhen("tomorrow", now)).isEqualTo(LocalDateTime.of(2026, 12, 1, 0, 0));
        assertThatThrownBy(() -> SlurmTime.parseWhen("13/45", now)).hasMessageContaining("today, midnight");
        assertThatThrownBy(() -> SlurmTime.parseWhen("25:00", now)).hasMessageContaining("is not a time");
    }

    @Test
    void oneStateListParserForTheCliAndTheTools() {
        assertThat(JobState.parseList(List.of("FAILED,TIMEOUT", "oom"))).containsExactlyInAnyOrder(JobState.FAILED,
                JobState.TIMEOUT, JobState.OUT_OF_MEMORY);
        assertThat(JobState.parseList(List.of("F TO, PD"))).containsExactlyInAnyOrder(JobState.FAILED, JobState.TIMEOUT,
                JobState.PENDING);
        assertThat(JobState.parseList(List.of())).isEmpty();
        assertThatThrownBy(() -> JobState.parseList(List.of("FAILED,BROKEN"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'BROKEN' is not a SLURM job state");
    }

    @Test
    void memoryInEverySlurmForm() {
        assertThat(DataSize.tryParse("32G")).contains(new DataSize(32 * DataSize.GIB));
        assertThat(DataSize.tryParse("4000M")).contains(DataSize.ofMebibytes(4000));
        assertThat(DataSize.tryParse("31.8G").orElseThrow().toString()).isEqualTo("31.8G");
        assertThat(DataSize.tryParse("33344307K", DataSize.KIB).orElseThrow().toString()).isEqualTo("31.8G");
        assertThat(DataSize.tryParse("4000")).contains(DataSize.ofMebibytes(4000));
        assertThat(DataSize.tryParse("1.5T").orElseThrow().gibibytes()).isEqualTo(1536.0);
        // a whole number of a unit as sacct writes a request: 2000G is not "2T" (48G more) nor "1.95T"
        assertThat(DataSize.tryParse("2000G").orElseThrow().toString()).isEqualTo("2000G");
        assertThat(DataSize.tryParse("1536M").orElseThrow().toString()).isEqualTo("1536M");
        assertThat(DataSize.tryParse("10240G").orElseThrow().toString()).isEqualTo("10T");
        assertThat(DataSize.tryParse("10000G").orElseThrow().toString()).as("10,000 and more: rounded").isEqualTo("9.77T");
        // any other amount rounded, below 10 of a unit with two decimals
        assertThat(DataSize.tryParse("2047.5G").orElseThrow().toString()).isEqualTo("2T");
        assertThat(DataSize.tryParse("1900000K", DataSize.KIB).orElseThrow().toString()).isEqualTo("1.81G");
        assertThat(DataSize.tryParse("2T").orElseThrow().toString()).isEqualTo("2T");
        assertThat(DataSize.tryParse("lots")).isEmpty();
        assertThat(DataSize.tryParse("-1G")).isEmpty();
        assertThat(DataSize.tryParse("1e400G")).isEmpty();
        MemoryRequest perCpu = MemoryRequest.tryParse("4000Mc").orElseThrow();
        assertThat(perCpu.per()).isEqualTo(MemoryRequest.Per.CPU);
        assertThat(perCpu.total(4, 0, 1)).isEqualTo(DataSize.ofMebibytes(16000));
        assertThat(MemoryRequest.tryParse("4000Mn").orElseThrow().per()).isEqualTo(MemoryRequest.Per.NODE);
        // before 21.08 a suffix says per node; since, no suffix and the value is the job's total
        assertThat(MemoryRequest.tryParse("32Gn").orElseThrow().total(16, 1, 2)).isEqualTo(new DataSize(64 * DataSize.GIB));
        assertThat(MemoryRequest.tryParse("32G").orElseThrow().total(16, 1, 2)).isEqualTo(new DataSize(32 * DataSize.GIB));
        assertThat(MemoryRequest.tryParse("32G").orElseThrow().perNode(16, 1, 2)).isEqualTo(new DataSize(16 * DataSize.GIB));
    }

    @Test
    void tresStrings() {
        Tres t = Tres.parse("cpu=16,mem=64G,node=1,billing=16,gres/gpu=1,gres/gpu:a100=1");
        assertThat(t.cpus()).isEqualTo(16);
        assertThat(t.gpus()).isEqualTo(1);
        assertThat(t.gpuModel()).contains("a100");
        assertThat(t.memory()).contains(new DataSize(64 * DataSize.GIB));
        assertThat(Tres.parse("cpu=8,gres/gpu:h100=4").gpus()).isEqualTo(4);
        assertThat(Tres.parse("").gpus()).isZero();
        Tres hostile = Tres.parse("=,,cpu=,=5,cpu=99999999999999,gres/gpu=x");
        assertThat(hostile.cpus()).isEqualTo(Integer.MAX_VALUE);
        assertThat(hostile.gpus()).isZero();
    }
}
