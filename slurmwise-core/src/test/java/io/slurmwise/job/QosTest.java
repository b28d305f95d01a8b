package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** sacctmgr's QOS table, as {@code sacctmgr -n -P show qos format=Name,MaxWall,Preempt} prints it. */
class QosTest {

    static final String TABLE = """
            normal|2-00:00:00|
            gpu|1-00:00:00|scavenger
            long||
            scavenger||
            debug|00:30:00|
            """;

    @Test
    void rowsAreReadWithTheirMaxWallAndWhomTheyPreempt() {
        List<Qos> qos = Qos.parse(TABLE);
        assertThat(qos).extracting(Qos::name).containsExactly("normal", "gpu", "long", "scavenger", "debug");
        assertThat(qos.get(0).maxWallLimit()).contains(Duration.ofDays(2));
        assertThat(qos.get(2).maxWallLimit()).isEmpty();
        assertThat(qos.get(2).allows(Duration.ofDays(300))).isTrue();
        assertThat(qos.get(1).preempts()).containsExactly("scavenger");
        assertThat(qos.get(4).describe()).isEqualTo("debug (MaxWall 00:30:00)");
        assertThat(Qos.named(qos, "GPU")).contains(qos.get(1));
        // with the header a run without -n prints, and a trailing blank line
        assertThat(Qos.parse("Name|MaxWall|Preempt\nnormal|2-00:00:00|\n\n")).hasSize(1);
    }

    @Test
    void aMoveGoesToAnUnpreemptedQosThatAllowsTheRunAndOnlyByNameToThePartitionsOwn() {
        List<Qos> qos = Qos.parse(TABLE);
        // scavenger has no MaxWall but gpu preempts it: a time limit traded for a preemption is no fix
        assertThat(Qos.allowing(qos, Duration.ofDays(3), "normal")).extracting(Qos::name).containsExactly("long");
        assertThat(Qos.allowing(qos, Duration.ofHours(36), "gpu")).extracting(Qos::name).containsExactly("normal", "long");
        assertThat(Qos.forPartition(qos, Duration.ofDays(3), "long", "normal")).map(Qos::name).contains("long");
        // who preempts a QOS's jobs: gpu preempts scavenger, nobody preempts gpu (names are matched as sacctmgr lists them)
        assertThat(Qos.preemptorsOf(qos, "Scavenger")).containsExactly("gpu");
        assertThat(Qos.preemptorsOf(qos, "gpu")).isEmpty();
        assertThat(Qos.preemptorsOf(List.of(), "scavenger")).isEmpty();
        assertThat(Qos.forPartition(qos, Duration.ofDays(3), "cpu", "normal")).isEmpty();
        assertThat(Qos.forPartition(qos, Duration.ofDays(3), "long", "long")).isEmpty(); // the job's own
    }

    @Test
    void anAnswerThatIsNoQosTableIsRefusedNamingTheLine() {
        assertThatThrownBy(() -> Qos.parse("normal|2-00:00:00\n")).hasMessageContaining("line 1 is no QOS row");
        assertThatThrownBy(() -> Qos.parse("normal|2-00:00:00|\ngpu|soon|\n")).hasMessageContaining("line 2");
        assertThatThrownBy(() -> Qos.parse("sacctmgr: error: Problem talking to the database\n"))
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> Qos.parse("|1:00:00|\n")).hasMessageContaining("line 1");
    }

    /** scontrol's partitions: each one's QoS=, none for N/A; the job's QOS caps where the partition has none. */
    @Test
    void aPartitionsOwnQosFromScontrolAndWhichQosCapsTheTime() {
        String scontrol = """
                PartitionName=cpu
                   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
                   AllocNodes=ALL Default=YES QoS=N/A
                   MaxNodes=UNLIMITED MaxTime=02:00:00 MinNodes=0
                
                PartitionName=long
                   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
                   AllocNodes=ALL Default=NO QoS=plong
                """;
        assertThat(Partition.qosOf(scontrol)).containsExactly(java.util.Map.entry("long", "plong"));
        assertThat(Partition.qosOf("")).isEmpty();
        assertThat(Partition.qosOf(null)).isEmpty();
        // the QOSes each admits: SLURM prints AllowQos (ALL or a list) or, when only a deny list is set, DenyQos
        java.util.Map<String, Partition.QosAccess> access = Partition.qosAccessOf(scontrol
                + "\nPartitionName=gpu\n   AllowGroups=ALL AllowAccounts=ALL AllowQos=gpu,Normal\n"
                + "\nPartitionName=debug\n   AllowGroups=ALL DenyAccounts=guests DenyQos=scavenger\n"
                + "\nPartitionName=old\n   AllowGroups=ALL\n");
        assertThat(access.keySet()).containsExactly("cpu", "long", "gpu", "debug");
        assertThat(access.get("cpu").admits("anything")).hasValue(true);
        assertThat(access.get("gpu").admits("normal")).hasValue(true);
        assertThat(access.get("gpu").refuses("scavenger")).isTrue();
        assertThat(access.get("gpu").describe()).isEqualTo("AllowQos=gpu,normal");
        assertThat(access.get("debug").admits("normal")).hasValue(true);
        assertThat(access.get("debug").refuses("SCAVENGER")).isTrue();
        // a block without either field, or a partition scontrol did not list, is not known: nothing refused
        assertThat(Partition.QosAccess.UNKNOWN.admits("normal")).isEmpty();
        assertThat(Partition.QosAccess.UNKNOWN.refuses("normal")).isFalse();
        Partition sinfoCpu = new Partition("cpu", true, TimeLimit.parse("2-00:00:00"), 1, 1, null, "", true);
        Partition sinfoOther = new Partition("other", false, TimeLimit.parse("2-00:00:00"), 1, 1, null, "", true);
        assertThat(Partition.withScontrol(List.of(sinfoCpu, sinfoOther), scontrol))
                .extracting(p -> p.qosAccess().known()).containsExactly(true, false);
        // the time a job that asks none gets: DefaultTime=NONE (the lab's) is none, the MaxTime applies
        assertThat(Partition.defaultTimesOf("PartitionName=a\n   DefaultTime=01:00:00 DisableRootJobs=NO\n"
                + "PartitionName=b\n   DefaultTime=NONE\nPartitionName=c\n   DefaultTime=UNLIMITED\n"))
                .containsOnlyKeys("a", "c").containsEntry("a", TimeLimit.parse("01:00:00"));
        assertThat(Partition.withScontrol(List.of(sinfoCpu), "PartitionName=cpu\n   DefaultTime=2:00:00\n").get(0)
                .defaultTime().human()).isEqualTo("02:00:00");
        java.util.List<Qos> table = Qos.parse("normal|2-00:00:00|\nplong|7-00:00:00|\nnolimit||\n");
        java.util.Optional<Qos> normal = Qos.named(table, "normal");
        Partition cpu = new Partition("cpu", true, TimeLimit.parse("2-00:00:00"), 1, 1, null, "", true);
        assertThat(Qos.timeCap(() -> table, normal, cpu)).isEqualTo(normal);
        assertThat(Qos.timeCap(() -> table, normal, cpu.withQos("plong")).map(Qos::name)).hasValue("plong");
        assertThat(Qos.isOwnQos(Qos.named(table, "plong").orElseThrow(), cpu.withQos("plong"))).isTrue();
        // a partition QOS without a MaxWall, or one the table does not list, sets no time: the job's caps
        assertThat(Qos.timeCap(() -> table, normal, cpu.withQos("nolimit"))).isEqualTo(normal);
        assertThat(Qos.timeCap(() -> table, normal, cpu.withQos("unlisted"))).isEqualTo(normal);
        // what a pending job's Waiting line and the patch read alike: the capping QOS's MaxWall against the time
        java.time.Duration day3 = java.time.Duration.ofDays(3);
        assertThat(Qos.timeCap(() -> table, normal, cpu.withQos("plong")).flatMap(q -> q.tooShortFor(day3))).isEmpty();
        assertThat(normal.flatMap(q -> q.tooShortFor(day3))).hasValue("time 3-00:00:00 (QOS normal MaxWall 2-00:00:00)");
        assertThat(Qos.named(table, "nolimit").flatMap(q -> q.tooShortFor(day3))).isEmpty();
    }
}
