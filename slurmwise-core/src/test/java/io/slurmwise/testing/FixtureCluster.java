package io.slurmwise.testing;

import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SacctReader;
import io.slurmwise.job.SinfoParser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The mock cluster's files (real-looking sacct, logs, batch scripts, sinfo) read straight from the backend-mock
 * module's folder, so core tests run the diagnosis workflow on them without depending on that module.
 */
public final class FixtureCluster implements SlurmBackend {

    public static final Path DIR = Path.of("..", "slurmwise-backend-mock", "src", "main", "resources", "io", "slurmwise",
            "mock", "cluster");

    private final Map<String, JobRecord> jobs = new LinkedHashMap<>();
    private final List<Partition> partitions;
    private final List<io.slurmwise.job.Qos> qos;
    private final java.util.Properties properties = new java.util.Properties();

    public FixtureCluster() {
        try (Stream<JobRecord> s = SacctReader.stream(Files.newBufferedReader(DIR.resolve("sacct.psv")))) {
            s.forEach(j -> jobs.put(j.id().toString(), j));
            partitions = Partition.withScontrol(SinfoParser.parse(Files.readString(DIR.resolve("partitions.psv"))),
                    Files.readString(DIR.resolve("scontrol_partition.txt")));
            qos = io.slurmwise.job.Qos.parse(Files.readString(DIR.resolve("qos.psv")));
            try (var in = Files.newBufferedReader(DIR.resolve("cluster.properties"))) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The account's row of the fixture's {@code shares.psv}, as the mock backend reads it. */
    @Override
    public Optional<io.slurmwise.job.AccountUsage> accountUsage(String account) {
        try {
            return io.slurmwise.job.AccountUsage.parse(Files.readString(DIR.resolve("shares.psv")), account);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The user's rows of the fixture's {@code associations.psv}, as the mock backend reads them. */
    @Override
    public List<io.slurmwise.job.Association> associations(String user) {
        try {
            return io.slurmwise.job.Association.parse(Files.readString(DIR.resolve("associations.psv"))).stream()
                    .filter(a -> a.user().equals(user)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fixture's {@code uid.<n>=<name>} lines, as the mock backend reads them. */
    @Override
    public Optional<String> userName(long uid) {
        String name = properties.getProperty("uid." + uid);
        return name != null ? Optional.of(name) : SlurmBackend.super.userName(uid);
    }

    public JobRecord get(String id) {
        return jobs.get(id);
    }

    public List<JobRecord> all() {
        return List.copyOf(jobs.values());
    }

    public static Optional<String> script(String id) {
        Path p = DIR.resolve("scripts").resolve(id + ".sh");
        try {
            return Files.isRegularFile(p) ? Optional.of(Files.readString(p, StandardCharsets.UTF_8)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String name() {
        return "fixture";
    }

    @Override
    public JobLookup lookup(JobId id) {
        JobRecord j = jobs.get(id.toString());
        return JobLookup.of(id, j == null ? List.of() : List.of(j), UnaryOperator.identity());
    }

    @Override
    public Stream<JobRecord> jobs(JobQuery query) {
        return jobs.values().stream().filter(j -> query.matchesState(j.state()));
    }

    @Override
    public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
        Path p = DIR.resolve("logs").resolve(job.id() + (stream == LogStream.STDOUT ? ".out" : ".err"));
        return Files.isRegularFile(p) ? LogTails.read(p, stream, maxLines)
                : LogTail.unavailable(stream, p.toString(), p + " does not exist");
    }

    @Override
    public Optional<String> batchScript(JobRecord job) {
        Optional<String> s = script(job.id().withoutStep().toString());
        return s.isEmpty() && job.id().isArrayTask() ? script(String.valueOf(job.id().arrayJobId())) : s;
    }

    @Override
    public List<Partition> partitions() {
        return partitions;
    }

    @Override
    public List<io.slurmwise.job.Qos> qos() {
        return qos;
    }
}
