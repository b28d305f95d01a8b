package io.slurmwise.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.function.Function;

import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import io.slurmwise.testing.Lines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the batch-script parser (a job's script is the user's text): directives with every option form, CRLF,
 * heredocs, quotes, hostile values. It never fails, and an edit keeps every other line as it was.
 */
@Tag("fuzz")
class BatchScriptFuzzTest {

    private static final List<String> SCRIPTS = List.of("""
            #!/bin/bash
            #SBATCH --job-name=train
            #SBATCH -p gpu --gres=gpu:a100:1
            #SBATCH --mem 32G
            #SBATCH -t 1-00:00:00 -c8
            #SBATCH --exclusive --requeue
            #SBATCH -J "name with spaces" # a comment
            #SBATCH -x node[01-03]
            module load cuda
            cat <<EOF > cfg
            #SBATCH --mem=1G
            EOF
            srun python train.py
            """, """
            #!/bin/sh
            # comment
            #SBATCH --time=30
            #SBATCHX --mem=1
            #SBATCH
            #SBATCH -
            #SBATCH --
            #SBATCH -t
            #SBATCH --mem=
            #SBATCH "--mem=1G
            echo hi
            """, "#SBATCH --mem=4G\n", "");

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    static Function<Random, String> scriptsGen() {
        java.util.function.Function<java.util.Random, String> hostile = Hostile.pick("#SBATCH --mem=", "#SBATCH -t", "#SBATCH --time 99999999999999",
                "#SBATCH -J \"", "#SBATCH --gres=gpu:\u0000", "#SBATCH\t--mem\t8G", "#!/bin/bash\r", "<<'EOF'", "EOF",
                "#SBATCH -" + "x".repeat(5000), "#SBATCH " + "--a ".repeat(2000), "\r", "\r\r\n");
        return (Fuzz.oneOf(Lines.damaged(SCRIPTS, hostile, "\n"), Lines.damaged(SCRIPTS, hostile, "\r\n"),
                Hostile.pick()));
    }

    @Test
    void batchScripts() {
        Fuzz.inputs(scriptsGen()).forEach(BatchScriptFuzzTest::parse);
    }

    private static void parse(String text) {
        Fuzz.neverThrows("BatchScript.parse", text, () -> {
            BatchScript s = BatchScript.parse(text);
            s.shebang();
            s.lastDirectiveLine();
            for (BatchScript.Option o : s.options()) {
                if (o.value() != null) {
                    assertThat(s.lines().get(o.line()).substring(o.valueStart(), o.valueEnd())).isNotNull();
                }
            }
            BatchScript edited = s.withOption("mem", "64G").withOption("time", "02:00:00");
            assertThat(edited.option("mem").orElseThrow().value()).isEqualTo("64G");
            edited.text();
            s.insertDirective("#SBATCH --requeue").text();
        });
    }
}
