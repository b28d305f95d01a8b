package io.slurmwise.spark;

import io.slurmwise.job.SlurmTime;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.stats.EnergyModelException;
import io.slurmwise.stats.FleetReport;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code slurmwise-spark}: {@code slurmwise stats --input} on Apache Spark, and the Parquet converter. Exit codes
 * are the CLI's: 0 ok, 2 usage, 5 input, 6 configuration, 1 a bug.
 */
@Command(name = "slurmwise-spark", mixinStandardHelpOptions = true, sortOptions = false,
        version = "slurmwise-spark (slurmwise stats on Apache Spark)",
        description = {"What failed jobs cost, from sacct exports or their Parquet, on Apache Spark: the",
                "document of slurmwise stats --input ... --json, for histories beyond one machine.",
                "Example: slurmwise-spark --master local[2] --input /data/sacct --json"})
public final class Main implements Callable<Integer> {

    static final int USAGE = 2;
    static final int INPUT = 5;
    static final int CONFIG = 6;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master (local[2], spark://host:7077, yarn); default: spark-submit's, else local[*].")
    String master;

    @Option(names = "--input", paramLabel = "PATH", arity = "1..*", required = true,
            description = "sacct -P exports (with their header; any delimiter; .gz or .zst), folders of them, or the"
                    + " Parquet --to-parquet wrote. Local paths or any Hadoop file system (hdfs://, ...).")
    List<String> inputs;

    @Option(names = "--json", description = "The slurmwise.stats/v1 document (what slurmwise stats --json prints).")
    boolean json;

    @Option(names = "--to-parquet", paramLabel = "DIR",
            description = "Convert the exports to Parquet in DIR (one row per job, its sacct rows verbatim) instead.")
    String toParquet;

    @Option(names = "--since", paramLabel = "WHEN", description = "Window start (default: the whole export).")
    String since;

    @Option(names = "--until", paramLabel = "WHEN", description = "Window end (default: the whole export).")
    String until;

    @Option(names = "--user", paramLabel = "USER", description = "Only this user's jobs.")
    String user;

    @Option(names = "--partition", paramLabel = "NAME", description = "Only this partition.")
    String partition;

    @Option(names = "--top", defaultValue = "10", paramLabel = "N", description = "How many wasteful jobs to list (default 10).")
    int top;

    @Option(names = "--split-mb", defaultValue = "64", paramLabel = "MB",
            description = "MiB of a plain export per Spark task (default 64; compressed exports are one task each).")
    int splitMb;

    @Option(names = "--gpu-watts", paramLabel = "W", description = "Watts of every GPU, whatever its model.")
    Double gpuWatts;

    @Option(names = "--cpu-watts", paramLabel = "W", description = "Watts per allocated CPU core (default 15).")
    Double cpuWatts;

    @Option(names = "--memory-watts", paramLabel = "W", description = "Watts per GB of requested memory (default 0).")
    Double memoryWatts;

    @Option(names = "--pue", paramLabel = "X", description = "Power usage effectiveness (default 1.0).")
    Double pue;

    @Option(names = "--carbon-intensity", paramLabel = "KG", description = "kg CO2e per kWh (default 0.37).")
    Double carbonIntensity;

    @Option(names = "--energy-file", paramLabel = "FILE", description = "Site energy settings (overrides "
            + "SLURMWISE_ENERGY_FILE); every worker must see the path.")
    String energyFile;

    private final PrintWriter out;
    private final PrintWriter err;
    private final Map<String, String> env;

    Main(PrintWriter out, PrintWriter err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, out, err, System.getenv()));
    }

    /** Runs the command; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
        CommandLine cl = new CommandLine(new Main(out, err, env));
        cl.setOut(out).setErr(err);
        cl.setParameterExceptionHandler((e, a) -> {
            err.println("slurmwise-spark: " + e.getMessage() + " (see --help)");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((e, c, p) -> {
            String input = SparkStats.inputProblem(e);
            if (input != null) {
                err.println("slurmwise-spark: " + input);
                return INPUT;
            }
            if (e instanceof Problem pr) {
                err.println("slurmwise-spark: " + pr.getMessage());
                return pr.code;
            }
            err.println("slurmwise-spark: internal error: " + e + " (a bug: please report it with the command)");
            if (env.containsKey("SLURMWISE_DEBUG")) {
                e.printStackTrace(err);
            }
            return 1;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** A usage or configuration error, said in one line. */
    static final class Problem extends RuntimeException {
        final int code;

        Problem(int code, String message) {
            super(message);
            this.code = code;
        }
    }

    @Override
    public Integer call() {
        if (top < 0 || top > 1000) {
            throw new Problem(USAGE, "--top must be between 0 and 1000, got " + top);
        }
        if (splitMb < 1 || splitMb > 1 << 16) {
            throw new Problem(USAGE, "--split-mb must be between 1 and 65536, got " + splitMb);
        }
        LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        StatsSettings settings;
        try {
            settings = new StatsSettings(since == null ? null : SlurmTime.parseWhen(since, now),
                    until == null ? null : SlurmTime.parseWhen(until, now), user, partition, top,
                    blankToNull(env.get("SLURMWISE_KNOWLEDGE")),
                    energyFile != null ? energyFile : blankToNull(env.get(EnergyModel.SITE_FILE_VARIABLE)),
                    gpuWatts, cpuWatts, memoryWatts, pue, carbonIntensity);
        } catch (IllegalArgumentException e) {
            throw new Problem(USAGE, e.getMessage());
        }
        try {
            settings.energy(); // a bad site file or flag is said here, once, not by every task
        } catch (EnergyModelException e) {
            throw new Problem(CONFIG, e.getMessage());
        }
        SparkSession.Builder b = SparkSession.builder().appName("slurmwise stats");
        if (master != null) {
            b.master(master);
        } else if (System.getProperty("spark.master") == null) {
            b.master("local[*]"); // java -jar: no spark-submit to say where
        }
        SparkSession spark = b.config("spark.ui.showConsoleProgress", "false").getOrCreate();
        try {
            spark.sparkContext().setLogLevel("WARN");
            long split = (long) splitMb << 20;
            if (toParquet != null) {
                long jobs = SparkStats.toParquet(spark, inputs, toParquet, split);
                out.println("wrote " + toParquet + " (" + jobs + " jobs, one Parquet row each)");
                return 0;
            }
            SparkStats.Result r = SparkStats.run(spark, inputs, settings, split);
            if (json) {
                out.println(SparkStats.json(r, settings));
            } else {
                FleetReport.Breakdown t = r.stats().report().total();
                out.printf(java.util.Locale.ROOT, "%d jobs · failure rate %s · wasted %.1f GPU-h, %.1f CPU-h, %.1f kWh"
                                + " (estimated) · %s%n", t.jobs(),
                        t.failureRate() == null ? "n/a" : String.format(java.util.Locale.ROOT, "%.1f%%", 100 * t.failureRate()),
                        t.wastedGpuHours(), t.wastedCpuHours(), t.wastedKwh(), r.origin());
                out.println("--json for the whole document (slurmwise.stats/v1)");
            }
            return 0;
        } finally {
            spark.stop();
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
