package io.slurmwise.patch;

import io.slurmwise.job.SlurmTime;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The directive parser and rewriter on the forms real scripts use. */
class BatchScriptTest {

    @Test
    void readsEqualsSpaceAndShortForms() {
        BatchScript s = BatchScript.parse("""
                #!/bin/bash
                #SBATCH --mem 64G
                #SBATCH -t 4:00:00
                #SBATCH -N 1 --ntasks-per-node=128
                #SBATCH --exclusive
                #SBATCH -c16
                #SBATCH --qos=scavenger      # cheap, but can be preempted
                srun ./prog
                """);
        assertThat(s.option("mem").orElseThrow().value()).isEqualTo("64G");
        assertThat(s.option("time").orElseThrow().value()).isEqualTo("4:00:00");
        assertThat(s.option("nodes").orElseThrow().value()).isEqualTo("1");
        assertThat(s.option("ntasks-per-node").orElseThrow().value()).isEqualTo("128");
        assertThat(s.option("exclusive").orElseThrow().value()).isNull();
        assertThat(s.option("cpus-per-task").orElseThrow().value()).isEqualTo("16");
        assertThat(s.option("qos").orElseThrow().value()).isEqualTo("scavenger");
        assertThat(s.options()).hasSize(7);
    }

    @Test
    void directivesAfterCommentsCountButNotAfterTheFirstCommand() {
        BatchScript s = BatchScript.parse("""
                #!/bin/bash
                # a comment between directives

                #SBATCH --mem=32G
                ## #SBATCH --mem=1G is disabled
                  #SBATCH --time=1:00:00 (indented: a comment to sbatch)
                echo start
                #SBATCH --partition=ignored
                """);
        assertThat(s.option("mem").orElseThrow().value()).isEqualTo("32G");
        assertThat(s.has("time")).isFalse();
        assertThat(s.has("partition")).isFalse();
        assertThat(s.headerEnd()).isEqualTo(6);
    }

    @Test
    void rewritesAValueInTheFormTheUserWrote() {
        String text = "#!/bin/bash\n#SBATCH --mem=32G\n#SBATCH --mem-per-cpu 1G # why\n#SBATCH -t 1:00:00\n#SBATCH --time=1-00:00:00\nrun\n";
        BatchScript s = BatchScript.parse(text);
        assertThat(s.withOption("mem", "48G").text()).contains("#SBATCH --mem=48G\n");
        // a comment after a value speaks of that value: it goes when the value changes, stays when it does not
        assertThat(s.withOption("mem-per-cpu", "2G").text()).contains("#SBATCH --mem-per-cpu 2G\n");
        assertThat(s.withOption("mem-per-cpu", "1G").text()).contains("#SBATCH --mem-per-cpu 1G # why\n");
        // the last --time wins in sbatch, so that is the one changed
        BatchScript t = s.withOption("time", "2-00:00:00");
        assertThat(t.text()).contains("#SBATCH -t 1:00:00\n#SBATCH --time=2-00:00:00\n");
        assertThat(SlurmTime.parseDuration(t.option("time").orElseThrow().value())).contains(Duration.ofDays(2));
        BatchScript u = BatchScript.parse("#!/bin/bash\n#SBATCH -t 1:00:00\nrun\n").withOption("time", "20:00:00");
        assertThat(u.text()).isEqualTo("#!/bin/bash\n#SBATCH -t 20:00:00\nrun\n");
    }

    @Test
    void insertsAnAbsentDirectiveAfterTheLastOneOrTheShebang() {
        BatchScript s = BatchScript.parse("#!/bin/bash\n#SBATCH -p cpu\n# note\n\necho hi\n");
        assertThat(s.withOption("requeue", null).text()).isEqualTo("#!/bin/bash\n#SBATCH -p cpu\n#SBATCH --requeue\n# note\n\necho hi\n");
        BatchScript bare = BatchScript.parse("#!/bin/sh\necho hi\n");
        assertThat(bare.withOption("mem", "4G").text()).isEqualTo("#!/bin/sh\n#SBATCH --mem=4G\necho hi\n");
        assertThat(BatchScript.parse("echo hi").withOption("mem", "4G").text()).isEqualTo("#SBATCH --mem=4G\necho hi");
    }

    @Test
    void keepsCrlfLineEndings() {
        String text = "#!/bin/bash\r\n#SBATCH --mem=220G\r\n#SBATCH --time=12:00:00\r\n\r\ntorchrun train.py\r\n";
        BatchScript s = BatchScript.parse(text);
        assertThat(s.option("mem").orElseThrow().value()).isEqualTo("220G");
        assertThat(s.text()).isEqualTo(text);
        String patched = s.withOption("mem", "320G").insertDirective("#SBATCH --requeue").text();
        assertThat(patched).isEqualTo("#!/bin/bash\r\n#SBATCH --mem=320G\r\n#SBATCH --time=12:00:00\r\n#SBATCH --requeue\r\n\r\ntorchrun train.py\r\n");
    }

    @Test
    void quotedValuesAndSbatchTimeForms() {
        BatchScript s = BatchScript.parse("#!/bin/bash\n#SBATCH --job-name=\"my job\" --time=90\n");
        assertThat(s.option("job-name").orElseThrow().value()).isEqualTo("my job");
        assertThat(SlurmTime.parseDuration("90")).contains(Duration.ofMinutes(90));
        assertThat(SlurmTime.parseDuration("30:00")).contains(Duration.ofMinutes(30));
        assertThat(SlurmTime.parseDuration("1-12")).contains(Duration.ofHours(36));
        assertThat(SlurmTime.parseDuration("1-00:30")).contains(Duration.ofHours(24).plusMinutes(30));
        assertThat(SlurmTime.parseDuration("nonsense")).isEmpty();
    }

    @Test
    void hostLists() {
        assertThat(HostList.expand("cn[081-084]")).containsExactly("cn081", "cn082", "cn083", "cn084");
        assertThat(HostList.expand("gpua[030-031,040],lm03")).containsExactly("gpua030", "gpua031", "gpua040", "lm03");
        assertThat(HostList.expand("None assigned")).isEmpty();
        assertThat(HostList.expand("gpua012")).containsExactly("gpua012");
    }
}
