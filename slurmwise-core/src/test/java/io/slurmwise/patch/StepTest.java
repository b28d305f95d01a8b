package io.slurmwise.patch;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A change says which options it sets from the scripts themselves, not from its wording. */
class StepTest {

    private static final BatchScript SCRIPT = BatchScript.parse("""
            #!/bin/bash
            #SBATCH -t 8:00:00
            #SBATCH --mem 32G
            #SBATCH --partition=short
            srun ./prog
            """);

    @Test
    void aChangeListsTheOptionsItGaveANewValue() {
        Step step = Step.none(SCRIPT).change(SCRIPT.withOption("time", "17:00:00").withOption("partition", "long"),
                "a wording that names no option at all", "why");
        assertThat(step.changes().get(0).sets()).containsExactly(Map.entry("time", "17:00:00"),
                Map.entry("partition", "long"));
    }

    @Test
    void anInsertedOptionIsSetAndAFlagOrAnUntouchedOptionIsNot() {
        BatchScript next = SCRIPT.insertDirective("#SBATCH --requeue").withOption("signal", "B:USR1@300")
                .withOption("mem", "32G");
        Step step = Step.none(SCRIPT).change(next, "--requeue", "why");
        assertThat(step.changes().get(0).sets()).containsExactly(Map.entry("signal", "B:USR1@300"));
    }

    @Test
    void eachChangeOfTheSameOptionSaysItsOwnValue() {
        Step step = Step.none(SCRIPT).change(SCRIPT.withOption("time", "17:00:00"), "--time=17:00:00", "more time");
        step = step.change(step.script().withOption("time", "12:00:00"), "--time=12:00:00, capped", "the cap");
        assertThat(step.changes()).extracting(Patch.Change::sets)
                .containsExactly(Map.of("time", "17:00:00"), Map.of("time", "12:00:00"));
    }
}
