package io.slurmwise.cli.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.DiagnosisRenderer;
import io.slurmwise.cli.render.Json;
import io.slurmwise.view.Views;
import io.slurmwise.diagnose.LogClassification;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code slurmwise classify <logfile>...}: diagnose log files without any cluster. */
@Command(name = "classify",
        header = "Classify the log files of one job without a cluster.", mixinStandardHelpOptions = true,
        description = {"Classify job log files without a cluster (the files are one job's output: .out and .err).",
                "Example: slurmwise classify slurm-1001.out --state OUT_OF_MEMORY --exit-code 0:125"})
public final class ClassifyCommand implements Callable<Integer> {

    private final Cli cli;

    public ClassifyCommand(Cli cli) {
        this.cli = cli;
    }

    @Parameters(arity = "1..*", paramLabel = "LOGFILE", description = "Log files of one job; '-' reads standard input.")
    private List<String> files;

    @Option(names = "--state", paramLabel = "STATE", description = "The job's SLURM state, if known (e.g. OUT_OF_MEMORY).")
    private String state;

    @Option(names = "--exit-code", paramLabel = "CODE:SIGNAL", description = "The job's exit code, if known (e.g. 0:125).")
    private String exitCode;

    @Option(names = "--rules-only", description = "The kind's own note only: no embedding index (fastest), as diagnose --rules-only.")
    private boolean rulesOnly;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        JobFacts facts = JobFacts.NONE;
        if (state != null) {
            JobState s = JobState.parse(state);
            if (s == JobState.UNKNOWN) {
                throw new IllegalArgumentException("--state '" + state + "' is not a SLURM job state (e.g. FAILED, OUT_OF_MEMORY, TIMEOUT)");
            }
            facts = facts.withState(s);
        }
        if (exitCode != null) {
            facts = facts.withExitCode(ExitCode.parse(exitCode));
        }
        int tail = cli.settings().logTailLines();
        java.time.Duration timeout = cli.settings().logReadTimeout();
        List<LogTail> logs = new ArrayList<>();
        for (String f : files) {
            logs.add(read(f, tail, timeout));
        }
        // the retriever a diagnosis uses (and eval, and the classify_log tool), without a backend
        LogClassification c = LogClassification.of(new Classifier(cli.taxonomy()),
                cli.retriever(rulesOnly ? Cli.Answers.RULES_ONLY : Cli.Answers.FULL),
                facts, logs, LogClassification.FIXES);
        if (json.enabled()) {
            Json.print(cli.out(), Views.classification(files, c.finding(), c.fixes(), c.explanation()));
        } else {
            new DiagnosisRenderer(cli.style()).printFinding(cli.out(), String.join(" ", files.stream().map(f -> f.equals("-") ? "stdin" : f).toList()), c.finding(), c.fixes(),
                    c.explanation());
        }
        return ExitCodes.OK;
    }

    /**
     * One log's tail: a file from its end; a FIFO ({@code classify <(zcat job.err.gz)}) or standard input read to
     * its end keeping only the tail. A file that gives nothing within the timeout is an error; one that stalls
     * after giving some is classified on what it gave, with a notice.
     */
    private LogTail read(String name, int tail, java.time.Duration timeout) {
        LogStream stream = name.endsWith(".out") ? LogStream.STDOUT : LogStream.STDERR;
        if (name.equals("-")) {
            try {
                return LogTails.ofStream(LogStream.STDERR, "<stdin>", System.in, tail);
            } catch (IOException e) {
                throw new UserError(ExitCodes.INPUT, "cannot read standard input: " + e.getMessage());
            }
        }
        LogTail t = LogTails.read(Path.of(name), stream, tail, LogTails.MAX_TAIL_BYTES, timeout);
        if (t.problem() != null && t.isEmpty()) {
            throw new UserError(ExitCodes.INPUT, t.problem());
        }
        if (t.problem() != null) {
            cli.notice(t.problem());
        }
        return t;
    }
}
