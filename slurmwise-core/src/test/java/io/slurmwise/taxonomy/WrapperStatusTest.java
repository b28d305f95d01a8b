package io.slurmwise.taxonomy;

import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WrapperStatusTest {

    private static final Pattern P = Pattern.compile(WrapperStatus.pattern(Set.of(127, 139)));

    @Test
    void eachWrappersWordingOfTheStatusMatches() {
        assertThat(P.matcher("Process `fastqc (1)` terminated with an error exit status (127)").find()).isTrue();
        assertThat(P.matcher("subprocess.CalledProcessError: Command 'samtools index x.bam' returned non-zero exit status 139.").find()).isTrue();
        assertThat(P.matcher("Error: Listing of jobs failed (exit code 127);").find()).isTrue();
        assertThat(P.matcher("worker exited with code 139").find()).isTrue();
        assertThat(P.matcher("Process finished: EXIT WITH EXIT CODE 127").find()).isTrue();
        assertThat(P.matcher("Job wf.align:NA:1 exited with return code 139 which has not been declared as a valid return code.").find()).isTrue();
        assertThat(P.matcher("12/13 01:45:41 - OpenCompass - ERROR - runners/base.py - summarize - 63 - OpenICLEval[m/siqa] failed with code 127").find()).isTrue();
        assertThat(P.matcher("RuntimeError: ScriptTask fizzled! Return code: [139]").find()).isTrue();
        // R, Julia, Go and Rust, GNU make
        assertThat(P.matcher("Warning message: running command 'samtools sort x.bam' had status 139").find()).isTrue();
        assertThat(P.matcher("ERROR: LoadError: failed process: Process(`./sim in.nml`, ProcessExited(139)) [139]").find()).isTrue();
        assertThat(P.matcher("Error: exit status 139").find()).isTrue();
        assertThat(P.matcher("Error: command failed: exit status: 127").find()).isTrue();
        assertThat(P.matcher("make: *** [Makefile:12: all] Error 139").find()).isTrue();
    }

    @Test
    void aChildKilledByASignalIsAlsoReadInPythonsMinusNAndSignalForms() {
        // 139 is 128 + SIGSEGV (11): Popen.returncode -11 as the programs that pass it on print it
        assertThat(P.matcher("/opt/megahit/bin/megahit_core assemble -k 27 --need_mercy; Exit code -11").find()).isTrue();
        assertThat(P.matcher("[Exit code -11]").find()).isTrue();
        assertThat(P.matcher("Exception: Application 0 failed with exit code -11. Stderr: ").find()).isTrue();
        assertThat(P.matcher("spades-core finished abnormally, OS return code: -11").find()).isTrue();
        // DeepSpeed's and CalledProcessError's own words are the notes' signatures, not read a second time here
        assertThat(P.matcher("[launch.py:315:sigkill_handler] ['python', 'train.py'] exits with return code = -11").find()).isFalse();
        assertThat(P.matcher("subprocess.CalledProcessError: Command 'bwa mem r.fa x.fq' died with <Signals.SIGSEGV: 11>.").find()).isFalse();
        assertThat(P.matcher("failed process: Process(`./a.out`, ProcessSignaled(11)) [0]").find()).isTrue();
        assertThat(P.matcher("Error: process didn't exit successfully: `target/release/sim` (signal: 11, SIGSEGV: invalid memory reference)").find()).isTrue();
        assertThat(P.matcher("child exited: signal: 11 (SIGSEGV) (core dumped)").find()).isTrue();
        assertThat(P.matcher("FATAL: container process failed: signal: segmentation fault (core dumped)").find()).isTrue();
        // 127 is no signal: its -N form (-127) means nothing; another signal's number is not this one's
        assertThat(P.matcher("[Exit code -127]").find()).isFalse();
        assertThat(P.matcher("[Exit code -9]").find()).isFalse();
        assertThat(P.matcher("[Exit code -110]").find()).isFalse();
        // PBS's Exit_status=-11 is its own JOB_EXEC code, not a signal: not this wording
        assertThat(P.matcher("Exit_status=-11").find()).isFalse();
        assertThat(P.matcher("make: *** [all] Error 1390").find()).isFalse();
        assertThat(P.matcher("exit status 13").find()).isFalse();
        assertThat(P.matcher("signal: killed").find()).isFalse(); // SIGKILL is not one of these statuses
    }

    @Test
    void otherStatusesAndLongerNumbersDoNot() {
        assertThat(P.matcher("terminated with an error exit status (1)").find()).isFalse();
        assertThat(P.matcher("returned non-zero exit status 1270.").find()).isFalse();
        assertThat(P.matcher("exited with code 13").find()).isFalse();
        assertThat(P.matcher("task failed with code 1").find()).isFalse();
        assertThat(P.matcher("(exit code 1390)").find()).isFalse();
        // a script task of several commands reports them all: which one ended how is not said
        assertThat(P.matcher("RuntimeError: ScriptTask fizzled! Return code: [0, 139]").find()).isFalse();
    }

    @Test
    void statusesAreTheOwnOnesAndThe128PlusNOfTheSignals() {
        assertThat(WrapperStatus.statuses(Set.of(127), Set.of(9, 11))).containsExactly(127, 137, 139);
        assertThatThrownBy(() -> WrapperStatus.pattern(Set.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
