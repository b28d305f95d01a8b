package io.slurmwise.backend.real;

import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SbatchOutputOptionsTest {

    @Test
    void readsTheRealScenarioScripts() {
        String script = SlurmCommands.unwrapBatchScript(RealCaptures.output("sacct_batch_script.txt")).orElseThrow();
        SbatchOutputOptions o = SbatchOutputOptions.fromScript(script);
        assertThat(o.output()).contains("%x-%A_%a.out");
        assertThat(o.error()).contains("%x-%A_%a.err");
        String pyerr = Captures.outputs("cgroup/sacct_batch_script.txt").get(0);
        SbatchOutputOptions p = SbatchOutputOptions.fromScript(pyerr.substring(pyerr.indexOf("#!")));
        assertThat(p.output()).contains("%x-%j.out");
        assertThat(p.error()).contains("%x-%j.err");
    }

    @Test
    void everySpellingOfTheOptions() {
        String script = """
                #!/bin/bash
                # a comment
                #SBATCH -J name -o short-%j.out
                #SBATCH --error logs/err-%j.txt   # trailing comment
                #SBATCH --output="/quoted path/%x.out"
                """;
        SbatchOutputOptions o = SbatchOutputOptions.fromScript(script);
        assertThat(o.output()).contains("/quoted path/%x.out");
        assertThat(o.error()).contains("logs/err-%j.txt");
        assertThat(SbatchOutputOptions.fromScript("#!/bin/sh\n#SBATCH -ologs/%j.o\n#SBATCH -elogs/%j.e\n"))
                .isEqualTo(new SbatchOutputOptions(Optional.of("logs/%j.o"), Optional.of("logs/%j.e")));
        assertThat(SbatchOutputOptions.fromScript("#!/bin/sh\n#SBATCH --output=a.out --error=b.err\n"))
                .isEqualTo(new SbatchOutputOptions(Optional.of("a.out"), Optional.of("b.err")));
    }

    @Test
    void directivesAfterTheFirstCommandAreIgnoredLikeSbatchDoes() {
        String script = "#!/bin/bash\n#SBATCH --time=1:00\n\necho start\n#SBATCH --output=late.out\n";
        assertThat(SbatchOutputOptions.fromScript(script)).isEqualTo(SbatchOutputOptions.NONE);
        assertThat(SbatchOutputOptions.fromScript("#!/bin/bash\n#SBATCH --output=a.out\n##SBATCH --output=b.out\n")
                .output()).contains("a.out");
    }

    @Test
    void theCommandLineOverridesTheScript() {
        SbatchOutputOptions script = SbatchOutputOptions.fromScript("#!/bin/bash\n#SBATCH -o s.out\n#SBATCH -e s.err\n");
        SbatchOutputOptions line = SbatchOutputOptions.fromCommandLine(
                "sbatch -J x --partition gpu -o cli-%j.out train.sbatch -o not-an-sbatch-option");
        assertThat(line.output()).contains("cli-%j.out");
        assertThat(line.error()).isEmpty();
        SbatchOutputOptions both = script.overriddenBy(line);
        assertThat(both.output()).contains("cli-%j.out");
        assertThat(both.error()).contains("s.err");
    }
}
