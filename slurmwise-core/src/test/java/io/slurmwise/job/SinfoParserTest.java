package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SinfoParserTest {

    @Test
    void parsesPartitionsWithLimitsAndMergesStateRows() {
        List<Partition> parts = SinfoParser.parse("""
                PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL
                cpu*|2:00:00|1|2|4000|(null)|up
                gpuA100x4|30:00|1|2|4000|gpu:a100:4|up
                gpuA100x4|30:00|3|64|512000|gpu:a100:4|up
                long|7-00:00:00|4|128|1024000+|(null)|down
                inf|infinite|1|2|4000|(null)|up
                """);
        assertThat(parts).extracting(Partition::name).containsExactly("cpu", "gpuA100x4", "long", "inf");
        assertThat(parts.get(0).isDefault()).isTrue();
        assertThat(parts.get(0).maxTime().limit()).contains(Duration.ofHours(2));
        assertThat(parts.get(1).maxTime().limit()).contains(Duration.ofMinutes(30));
        assertThat(parts.get(1).nodes()).isEqualTo(4);
        assertThat(parts.get(1).cpusPerNode()).isEqualTo(64);
        assertThat(parts.get(1).gres()).isEqualTo("gpu:a100:4");
        assertThat(parts.get(2).up()).isFalse();
        assertThat(parts.get(2).memoryPerNode()).isNotNull();
        assertThat(parts.get(3).maxTime().kind()).isEqualTo(TimeLimit.Kind.UNLIMITED);
    }

    @Test
    void headerlessOutputUsesTheDefaultFormat() {
        assertThat(SinfoParser.parse("debug|30:00|2|8|16000|(null)|up\n")).singleElement()
                .satisfies(p -> assertThat(p.maxTime().limit()).contains(Duration.ofMinutes(30)));
    }
}
