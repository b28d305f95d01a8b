package io.slurmwise.taxonomy;

import com.google.re2j.Pattern;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A child's exit status as the programs that wrap a job's commands report it in their own words. A note's
 * {@code wrapper_status} field turns the statuses that stand for its kind into one signature of this shape, so
 * the wording of the wrappers lives here once and a note says only which statuses are its and how much they weigh.
 *
 * <p>A shell reports a command it did not find as 127 and a command it could not execute as 126 (POSIX, "Exit
 * Status for Commands"), and a child killed by signal N as 128+N. The wrappers pass the number on:
 * <ul>
 *   <li>Nextflow (TaskProcessor): {@code Process `X` terminated with an error exit status (139)};</li>
 *   <li>Python's subprocess (Lib/subprocess.py, CalledProcessError): {@code Command '...' returned non-zero exit
 *       status 127.};</li>
 *   <li>batchtools and other R and shell tools: {@code (exit code 127)}, {@code exited with code 127},
 *       {@code exit with exit code 134}; runners that check a subprocess's return code, such as OpenCompass's
 *       ({@code OpenICLEval[model/siqa] failed with code 127}, its runners' summary);</li>
 *   <li>Cromwell (KnownJobFailureException.scala, WrongReturnCode): {@code Job wf.x:NA:1 exited with return code
 *       137 which has not been declared as a valid return code.}</li>
 *   <li>FireWorks (user_objects/firetasks/script_task.py, ScriptTask): {@code RuntimeError: ScriptTask fizzled! Return
 *       code: [137]}.</li>
 *   <li>R's {@code system()}/{@code system2()} (src/library/base/R/unix/system.unix.R): {@code running command 'samtools sort x.bam' had
 *       status 137}; Julia's ProcessFailedException: {@code failed process: Process(`x`, ProcessExited(137)) [137]};
 *       Go's and Rust's ExitStatus: {@code exit status 137}, {@code exit status: 137}; GNU make's report of a recipe:
 *       {@code make: *** [Makefile:12: all] Error 137}.</li>
 * </ul>
 * A child killed by a signal has no exit status of its own: the shell makes one (128+N), while Python's
 * {@code Popen.returncode} is -N ("A negative value -N indicates that the child was terminated by signal N",
 * Lib/subprocess.py), and the programs that pass that number on say so: MEGAHIT's {@code ...; Exit code -9} and
 * {@code [Exit code -9]}, a runner's {@code failed with exit code -9} or {@code return code: -9} (DeepSpeed's
 * {@code exits with return code = -9} and CalledProcessError's {@code died with <Signals.SIGKILL: 9>} are the notes'
 * own signatures); Julia's {@code ProcessSignaled(9)}, Rust's {@code signal: 9 (SIGKILL)} (cargo's {@code (signal: 9, SIGKILL: kill)}), Go's
 * {@code signal: killed} (its strsignal name). An exit status is 0..255, so a negative one is always this convention:
 * each 128+N status also matches its -N and signal forms.
 * Each of them outlived the child whose status it reports.
 * The same number can be a program's own choice of exit code, so a note gives such a line a weak weight.
 */
public final class WrapperStatus {

    private WrapperStatus() {
    }

    /** The smallest and largest status a wrapper can report (an 8-bit exit status, 0 being success). */
    public static final int MIN = 1;
    public static final int MAX = 255;

    /** The statuses that stand for a kind: its own ones and 128+N for each of its exit signals. */
    public static Set<Integer> statuses(Set<Integer> own, Set<Integer> exitSignals) {
        Set<Integer> all = new TreeSet<>(own);
        for (int s : exitSignals) {
            all.add(128 + s);
        }
        return all;
    }

    /** What an exit status says in a shell's words: 126 and 127 by POSIX, 128+N a signal, others the program's own. */
    public static String meaning(int status) {
        if (status == 127) {
            return "the shell's exit status for a command not found";
        }
        if (status == 126) {
            return "the shell's exit status for a command found but not executable";
        }
        if (status > 128 && status < 128 + 65) {
            return "the shell's exit status for a child killed by signal " + (status - 128);
        }
        return "the program's own exit status " + status;
    }

    /** The regex (RE2, case-insensitive) that matches a wrapper's report of one of these statuses. */
    public static String pattern(Set<Integer> statuses) {
        if (statuses.isEmpty()) {
            throw new IllegalArgumentException("no statuses");
        }
        TreeSet<Integer> sorted = new TreeSet<>(statuses);
        String s = sorted.size() == 1 ? String.valueOf(sorted.first())
                : "(?:" + sorted.stream().map(String::valueOf).collect(Collectors.joining("|")) + ")";
        // the generic wording's only long literal is the number's ("code 139"): one alternative per status keeps it,
        // so the scanner's literal prefilter sends only lines with that number to the regex, not every " with "
        String generic = sorted.stream().map(n -> "|\\b(?:exit(?:ed)?|failed) with (?:exit )?code " + n + "\\b")
                .collect(Collectors.joining());
        return "(?i)terminated with an error exit status \\(" + s + "\\)"
                + "|returned non-zero exit status " + s + "\\b"
                + "|\\(exit code " + s + "(?::0)?\\)"
                + generic
                + "|exited with return code " + s + " which"
                + "|fizzled! Return code: \\[" + s + "\\]"
                + "|' had status " + s + "\\b"
                + "|ProcessExited\\(" + s + "\\)"
                + sorted.stream().map(n -> "|\\bexit status " + n + "\\b|\\bexit status: " + n + "\\b|\\] Error " + n + "\\b")
                .collect(Collectors.joining())
                + signalled(sorted);
    }

    /** Go's names of the signals (syscall's signal table, as ProcessState.String() prints them). */
    private static final java.util.Map<Integer, String> GO_NAMES = java.util.Map.of(4, "illegal instruction", 6, "aborted",
            7, "bus error", 8, "floating point exception", 9, "killed", 11, "segmentation fault");

    /** The -N and the runtimes' signal forms of the statuses that are 128+N (see the class comment). */
    private static String signalled(Set<Integer> statuses) {
        StringBuilder out = new StringBuilder();
        for (int status : statuses) {
            if (status <= 128 || status >= 128 + 65) {
                continue;
            }
            int n = status - 128;
            // one alternative per wording, each with a literal that holds the number ("code -9"), for the prefilter
            // DeepSpeed's "exits with return code = -9" and CalledProcessError's "died with <Signals.SIGKILL: 9>" are
            // the notes' own signatures (oom, segfault, shm_bus_error), at the same weight: not read twice here
            for (String words : new String[] {"exit code -", "exit code: -", "return code -", "return code: -"}) {
                out.append("|\\b").append(words).append(n).append("\\b");
            }
            out.append("|ProcessSignaled\\(").append(n).append("\\)");
            out.append("|\\bsignal: ").append(n).append("(?: \\(SIG|, SIG)");
            String go = GO_NAMES.get(n);
            if (go != null) {
                out.append("|\\bsignal: ").append(go).append("\\b");
            }
        }
        return out.toString();
    }

    /** One signature of {@code kindId} for a wrapper's report of one of these statuses. */
    public static Signature signature(String kindId, Set<Integer> statuses, double weight) {
        String p = pattern(statuses);
        return new Signature(kindId, p, Pattern.compile(p), weight, null);
    }
}
