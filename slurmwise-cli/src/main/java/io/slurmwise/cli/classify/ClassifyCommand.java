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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code slurmwise classify <logfile>...}: diagnose log files without any cluster. */
@Command(name = "classify", mixinStandardHelpOptions = true,
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
        List<LogTail> logs = new ArrayList<>();
        for (String f : files) {
            logs.add(read(f, tail));
        }
        // the retriever a diagnosis uses, without a backend: classify needs no cluster
        LogClassification c = LogClassification.of(new Classifier(cli.taxonomy()), cli.retriever(Cli.Answers.FULL),
                facts, logs, LogClassification.FIXES);
        if (json.enabled()) {
            Json.print(cli.out(), Views.classification(files, c.finding(), c.fixes(), c.explanation()));
        } else {
            new DiagnosisRenderer(cli.style()).printFinding(cli.out(), String.join(" ", files), c.finding(), c.fixes(),
                    c.explanation());
        }
        return ExitCodes.OK;
    }

    private static LogTail read(String name, int tail) {
        LogStream stream = name.endsWith(".out") ? LogStream.STDOUT : LogStream.STDERR;
        if (name.equals("-")) {
            try {
                return LogTails.ofBytes(LogStream.STDERR, "<stdin>", System.in.readAllBytes(), tail);
            } catch (IOException e) {
                throw new UserError(ExitCodes.INPUT, "cannot read standard input: " + e.getMessage());
            }
        }
        Path p = Path.of(name);
        LogTail t = LogTails.read(p, stream, tail);
        if (t.problem() != null) {
            throw new UserError(ExitCodes.INPUT, t.problem());
        }
        if (!Files.isRegularFile(p)) {
            throw new UserError(ExitCodes.INPUT, name + " is not a regular file");
        }
        return t;
    }
}
