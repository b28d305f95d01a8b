package io.slurmwise.spark;

import io.slurmwise.stats.ExportStats;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.stats.FleetStats;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.view.JsonText;
import io.slurmwise.view.StatsContext;
import io.slurmwise.view.StatsViews;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * {@code slurmwise stats --input} on Spark. Exports are cut into {@link ExportSplit}s (one Spark partition each),
 * read as blocks of whole jobs ({@link JobRows}) and aggregated by {@link FleetAggregator}; Parquet written by
 * {@link #toParquet} holds one job per row, grouped into the same blocks per partition. No shuffle: each task
 * aggregates its partition, and the partial aggregates merge exactly.
 *
 * <pre>{@code
 * SparkStats.Result r = SparkStats.run(spark, List.of("/data/sacct"), StatsSettings.defaults(), SparkStats.SPLIT);
 * System.out.println(SparkStats.json(r, StatsSettings.defaults()));   // = slurmwise stats --input /data/sacct --json
 * }</pre>
 */
public final class SparkStats {

    /** Bytes of a plain export per split (default 64 MiB). */
    public static final long SPLIT = 64L << 20;
    /** Bytes of rows per block handed to the aggregator. */
    static final int BLOCK = 4 << 20;

    private SparkStats() {
    }

    /** The aggregate, what was read, and the {@code backend} text of the document. */
    public record Result(FleetStats stats, ExportStats.Counts counts, String origin) {
    }

    /** Aggregates the inputs (sacct exports, or the converter's Parquet). */
    public static Result run(SparkSession spark, List<String> inputs, StatsSettings settings, long splitBytes) {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        Inputs in = Inputs.of(inputs, conf, splitBytes);
        Dataset<JobRows> rows = in.parquet().isEmpty() ? exportRows(spark, in.splits())
                : parquetRows(spark, in.parquet());
        byte[] out = rows.select(new FleetAggregator(settings).toColumn()).head();
        StatsBuffer b = StatsBuffer.fromBytes(out);
        FleetScan scan = settings.scan(settings.taxonomy());
        FleetStats stats = scan.newStats();
        stats.coverWindow(settings.since(), settings.until());
        stats.merge(b.stats(scan::newStats));
        // the first malformed row is not carried back from the tasks: the document does not show it; rows that
        // repeat a job (overlapping exports) are not looked for here, as they are by ExportStats: no shuffle
        ExportStats.Counts counts = new ExportStats.Counts(b.jobs, stats.records(), b.malformed,
                in.parquet().isEmpty() ? in.files() : in.parquet().size(), null, 0);
        String origin = in.parquet().isEmpty() ? StatsContext.exportOrigin(in.first(), counts)
                : "parquet: " + counts.files() + " files of " + String.join(", ", inputs) + " (" + counts.jobs()
                + " records read" + (counts.malformed() > 0 ? ", " + counts.malformed() + " malformed rows skipped" : "")
                + ")";
        return new Result(stats, counts, origin);
    }

    /** The {@code slurmwise.stats/v1} document, byte for byte what {@code stats --input ... --json} prints. */
    public static String json(Result r, StatsSettings settings) {
        Taxonomy taxonomy = settings.taxonomy();
        StatsContext ctx = new StatsContext(r.stats().report(), settings.query(), FleetScan.DEFAULT_SLICE, 1, false,
                r.origin(), taxonomy);
        return JsonText.of(StatsViews.json(ctx));
    }

    /**
     * Writes the exports as Parquet, one row per job ({@link JobText}: header, JobID, the job's rows verbatim),
     * so a Parquet row is never part of a job and reading it back gives exactly the same figures.
     *
     * @return jobs written
     */
    public static long toParquet(SparkSession spark, List<String> inputs, String out, long splitBytes) {
        Inputs in = Inputs.of(inputs, spark.sparkContext().hadoopConfiguration(), splitBytes);
        if (!in.parquet().isEmpty()) {
            throw new Inputs.InputException("--to-parquet reads sacct exports; " + in.parquet().get(0)
                    + " is Parquet already");
        }
        Dataset<JobText> jobs = splits(spark, in.splits()).flatMap((FlatMapFunction<ExportSplit, JobText>) s -> {
            SplitReader r = new SplitReader(s, SplitReader.conf());
            return new Iterator<>() {
                boolean ready;

                @Override
                public boolean hasNext() {
                    if (!ready) {
                        ready = r.nextJob();
                        if (!ready) {
                            r.close();
                        }
                    }
                    return ready;
                }

                @Override
                public JobText next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    ready = false;
                    return new JobText(r.header(), r.jobId(),
                            new String(r.jobBytes(), 0, r.jobLength(), StandardCharsets.UTF_8));
                }
            };
        }, Encoders.bean(JobText.class));
        jobs.cache();
        try {
            jobs.write().mode(SaveMode.ErrorIfExists).parquet(out);
            return jobs.count();
        } finally {
            jobs.unpersist();
        }
    }

    private static Dataset<ExportSplit> splits(SparkSession spark, List<ExportSplit> splits) {
        JavaRDD<ExportSplit> rdd = JavaSparkContext.fromSparkContext(spark.sparkContext())
                .parallelize(splits, Math.max(1, splits.size()));
        return spark.createDataset(rdd.rdd(), Encoders.bean(ExportSplit.class));
    }

    /** The exports' rows as blocks of whole jobs, one split per partition. */
    static Dataset<JobRows> exportRows(SparkSession spark, List<ExportSplit> splits) {
        return splits(spark, splits).flatMap((FlatMapFunction<ExportSplit, JobRows>) s ->
                new Blocks(new SplitReader(s, SplitReader.conf()), s.getName()), Encoders.bean(JobRows.class));
    }

    /** The converter's Parquet rows (one job each) as blocks of whole jobs, partition by partition. */
    static Dataset<JobRows> parquetRows(SparkSession spark, List<String> files) {
        Dataset<JobText> jobs = spark.read().parquet(files.toArray(String[]::new)).as(Encoders.bean(JobText.class));
        return jobs.mapPartitions((MapPartitionsFunction<JobText, JobRows>) it -> new Iterator<>() {
            JobText held;

            @Override
            public boolean hasNext() {
                return held != null || it.hasNext();
            }

            @Override
            public JobRows next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                JobText first = held != null ? held : it.next();
                held = null;
                ByteArrayOutputStream block = new ByteArrayOutputStream(64 << 10);
                block.writeBytes(first.getRows().getBytes(StandardCharsets.UTF_8));
                while (block.size() < BLOCK && it.hasNext()) {
                    JobText j = it.next();
                    if (!j.getHeader().equals(first.getHeader())) {
                        held = j; // another export's header: a new block
                        break;
                    }
                    block.writeBytes(j.getRows().getBytes(StandardCharsets.UTF_8));
                }
                return new JobRows("parquet", first.getHeader(), block.toByteArray());
            }
        }, Encoders.bean(JobRows.class));
    }

    /** A split's jobs gathered into blocks of about {@link #BLOCK} bytes. */
    static final class Blocks implements Iterator<JobRows> {
        private final SplitReader reader;
        private final String source;
        private boolean pending;
        private boolean done;

        Blocks(SplitReader reader, String source) {
            this.reader = reader;
            this.source = source;
        }

        @Override
        public boolean hasNext() {
            if (!pending && !done) {
                pending = reader.nextJob();
                if (!pending) {
                    done = true;
                    reader.close();
                }
            }
            return pending;
        }

        @Override
        public JobRows next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ByteArrayOutputStream block = new ByteArrayOutputStream(BLOCK + (BLOCK >> 2));
            do {
                block.write(reader.jobBytes(), 0, reader.jobLength());
                pending = false;
            } while (block.size() < BLOCK && hasNext());
            return new JobRows(source, reader.header(), block.toByteArray());
        }
    }

    /** The message of the first slurmwise input error among a failure's causes (Spark wraps task failures). */
    static String inputProblem(Throwable t) {
        List<Throwable> seen = new ArrayList<>();
        for (Throwable c = t; c != null && !seen.contains(c); c = c.getCause()) {
            seen.add(c);
            if (c instanceof ExportStats.ExportException || c instanceof Inputs.InputException) {
                return c.getMessage();
            }
        }
        return null;
    }
}
