package io.slurmwise.bench;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Classifier throughput: a 300-line tail (what a diagnosis reads) and a 64 MB log (what a user may point
 * {@code classify} at). Both logs are built by {@link SyntheticLogs}: realistic training output with NCCL INFO
 * noise, and the deciding error near the end. Compare the 64 MB case with {@code scripts/bench/grep-compare.sh},
 * which times GNU grep with the same signatures on the same file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClassifierBenchmark {

    @Param({"tail300", "log64mb"})
    public String input;

    private Classifier classifier;
    private List<LogTail> logs;

    @Setup(Level.Trial)
    public void setUp() {
        classifier = new Classifier(Taxonomy.load(null));
        byte[] log = input.equals("tail300") ? SyntheticLogs.tail(300) : SyntheticLogs.ofSize(64 << 20);
        logs = List.of(new LogTail(LogStream.STDERR, "bench.err", log, 1, log.length, null));
    }

    @Benchmark
    public Finding classify() {
        return classifier.classify(JobFacts.NONE, logs);
    }
}
