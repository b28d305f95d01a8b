package io.slurmwise.cli.eval;

import io.slurmwise.cli.render.Panel;
import io.slurmwise.Slurmwise;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.Json;
import io.slurmwise.cli.render.Style;
import io.slurmwise.cli.render.Table;
import io.slurmwise.eval.BenchmarkCase;
import io.slurmwise.eval.CaseFile;
import io.slurmwise.eval.CaseFileException;
import io.slurmwise.eval.EvalReport;
import io.slurmwise.eval.Evaluator;
import io.slurmwise.taxonomy.Taxonomy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code slurmwise eval}: how well the rules and the fix-note retrieval do on labeled cases. */
@Command(name = "eval",
        header = "Score the rules and the fix-note retrieval on labeled cases.", mixinStandardHelpOptions = true,
        description = {"Score the classifier and the fix-note retrieval on labeled cases: accuracy, macro-F1,",
                "per-kind precision and recall, the confusions, Recall@1, Recall@3 and MRR, and every wrong case.",
                "Without --cases it scores the bundled benchmark (benchmark/cases.jsonl).",
                "Example: slurmwise eval --split dev"})
public final class EvalCommand implements Callable<Integer> {

    public static final String SCHEMA = "slurmwise.eval/v1";

    enum Split { test, dev, all }

    private final Cli cli;

    public EvalCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--cases", paramLabel = "FILE",
            description = "A JSON Lines file of labeled cases in the benchmark's format (keys: id, label, sacct_state,"
                    + " exit_code, log, source, notes; optional split, elapsed, timelimit, req_mem, max_rss, pending_reason).")
    private Path cases;

    @Option(names = "--split", defaultValue = "test", paramLabel = "SPLIT",
            description = "Which cases: test (default; a case without a split is a test case), dev (the rules are tuned on it), all.")
    private Split split;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
        Taxonomy taxonomy = sw.taxonomy();
        List<BenchmarkCase> all;
        String source;
        try {
            if (cases == null) {
                all = CaseFile.bundled(taxonomy);
                source = "bundled benchmark (benchmark/cases.jsonl)";
            } else {
                if (Files.isDirectory(cases)) {
                    throw new UserError(ExitCodes.INPUT, cases + " is a folder; pass a .jsonl file of cases");
                }
                all = CaseFile.read(cases, taxonomy);
                source = cases.toString();
            }
        } catch (NoSuchFileException e) {
            throw new UserError(ExitCodes.INPUT, "no such case file: " + cases + "; pass a JSON Lines file (format in benchmark/README.md)");
        } catch (AccessDeniedException e) {
            throw new UserError(ExitCodes.INPUT, "cannot read " + cases + ": permission denied");
        } catch (IOException e) {
            throw new UserError(ExitCodes.INPUT, "cannot read " + cases + ": " + e.getMessage());
        } catch (CaseFileException e) {
            throw new UserError(ExitCodes.INPUT, e.getMessage());
        }
        List<BenchmarkCase> chosen = Evaluator.split(all, split.name());
        if (chosen.isEmpty()) {
            throw new UserError(ExitCodes.USAGE, source + " has no " + split + " cases (" + all.size()
                    + " in all); use --split all");
        }
        EvalReport r = new Evaluator(sw.classifier(), sw.retriever()).evaluate(source, split.name(), chosen);
        if (json.enabled()) {
            Json.print(cli.out(), view(r));
        } else {
            print(cli, r);
        }
        return ExitCodes.OK;
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private void print(Cli cli, EvalReport r) {
        Style st = cli.style();
        var out = cli.out();
        Panel.println(out, st.bold("slurmwise eval") + " · " + r.source() + " · split " + r.split() + " · " + r.cases()
                + " cases (" + r.hardCases() + " hard, " + r.clearCases() + " clear)", st.width());
        out.println();
        Table summary = new Table(st, "METRIC", "VALUE", "");
        summary.row("accuracy", pct(r.accuracy()), r.correct() + "/" + r.cases());
        summary.row("accuracy (hard cases)", pct(r.hardAccuracy()), r.hardCorrect() + "/" + r.hardCases());
        summary.row("accuracy (clear cases)", pct(r.clearAccuracy()), r.clearCorrect() + "/" + r.clearCases());
        summary.row("unknown on failed cases", pct(r.unknownRateOnFailed()), r.failedUnknown() + "/" + r.failedCases());
        summary.row("macro-F1", pct(r.macroF1()), "over " + r.perKind().size() + " labels");
        summary.row("retrieval Recall@1", pct(r.retrieval().recallAt1()), "retriever " + r.retrieval().retriever());
        summary.row("retrieval Recall@3", pct(r.retrieval().recallAt3()), "");
        summary.row("retrieval MRR", pct(r.retrieval().mrr()), "first relevant note in the top " + r.retrieval().k());
        summary.print(out);
        out.println();
        Table kinds = new Table(st, "LABEL", "SUPPORT", "PREDICTED", "PRECISION", "RECALL", "F1");
        for (EvalReport.KindMetrics m : r.perKind()) {
            kinds.row(m.kind(), String.valueOf(m.support()), String.valueOf(m.predicted()), pct(m.precision()),
                    pct(m.recall()), pct(m.f1()));
        }
        kinds.print(out);
        out.println();
        if (r.confusions().isEmpty()) {
            out.println(st.green("No confusions: every case was classified right."));
            return;
        }
        out.println(st.bold("Confusions") + " (label -> predicted)");
        for (EvalReport.Confusion c : r.confusions()) {
            Panel.println(out, "  " + c.label() + " -> " + c.predicted() + "  " + c.count() + "  " + String.join(", ", c.ids()), st.width());
        }
        out.println();
        out.println(st.bold("Wrong cases"));
        Table wrong = new Table(st, "ID", "LINE", "LABEL", "PREDICTED", "CONF", "HARD");
        for (EvalReport.WrongCase w : r.wrong()) {
            wrong.row(w.id(), String.valueOf(w.line()), w.label(), st.red(w.predicted()),
                    String.format(Locale.ROOT, "%.2f", w.confidence()), w.hard() ? "hard" : "");
        }
        wrong.print(out);
    }

    static Map<String, Object> view(EvalReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", SCHEMA);
        m.put("source", r.source());
        m.put("split", r.split());
        m.put("cases", r.cases());
        m.put("correct", r.correct());
        m.put("accuracy", r.accuracy());
        m.put("hard_cases", r.hardCases());
        m.put("hard_correct", r.hardCorrect());
        m.put("hard_accuracy", r.hardAccuracy());
        m.put("clear_cases", r.clearCases());
        m.put("clear_correct", r.clearCorrect());
        m.put("clear_accuracy", r.clearAccuracy());
        m.put("failed_cases", r.failedCases());
        m.put("failed_unknown", r.failedUnknown());
        m.put("unknown_rate_failed", r.unknownRateOnFailed());
        m.put("macro_f1", r.macroF1());
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("retriever", r.retrieval().retriever());
        ret.put("k", r.retrieval().k());
        ret.put("recall_at_1", r.retrieval().recallAt1());
        ret.put("recall_at_3", r.retrieval().recallAt3());
        ret.put("mrr", r.retrieval().mrr());
        m.put("retrieval", ret);
        m.put("per_kind", r.perKind().stream().map(k -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("label", k.kind());
            x.put("support", k.support());
            x.put("predicted", k.predicted());
            x.put("true_positives", k.truePositives());
            x.put("precision", k.precision());
            x.put("recall", k.recall());
            x.put("f1", k.f1());
            return x;
        }).toList());
        m.put("confusions", r.confusions().stream().map(c -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("label", c.label());
            x.put("predicted", c.predicted());
            x.put("count", c.count());
            x.put("ids", c.ids());
            return x;
        }).toList());
        m.put("wrong", r.wrong().stream().map(w -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", w.id());
            x.put("line", w.line());
            x.put("label", w.label());
            x.put("predicted", w.predicted());
            x.put("confidence", w.confidence());
            x.put("hard", w.hard());
            x.put("notes", w.notes());
            return x;
        }).toList());
        return m;
    }
}
