package io.slurmwise.spark;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SacctReader;
import io.slurmwise.stats.ExportStats;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.stats.FleetStats;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.expressions.Aggregator;

import java.io.ByteArrayInputStream;

/**
 * The stats aggregate as a typed Spark {@link Aggregator}: each block of whole jobs' rows is parsed by
 * slurmwise-core's {@link SacctReader} and added by {@link FleetScan#add} to the task's {@link FleetStats}, the loop
 * of {@code stats --input}'s workers; partial aggregates merge exactly ({@link FleetStats#merge}), so the result is
 * the one a single pass gives. The output is the aggregate's bytes ({@link StatsBuffer#toBytes}), which the driver
 * merges into an aggregate it built alike.
 *
 * <p>The buffer's encoder is Java serialization of {@link StatsBuffer}, which writes the aggregate's own exact
 * encoding ({@link FleetStats#writeTo}): small (counters per partition, user, day, kind; the top jobs; one entry per
 * array job), versioned, and independent of FleetStats' private layout, where Kryo would copy every private field
 * reflectively (and trip over its records and its comparator lambdas).
 */
public final class FleetAggregator extends Aggregator<JobRows, StatsBuffer, byte[]> {
    private static final long serialVersionUID = 1L;

    private final StatsSettings settings;
    private transient FleetScan scan;
    private transient JobQuery query;

    public FleetAggregator(StatsSettings settings) {
        this.settings = settings;
    }

    private FleetScan scan() {
        if (scan == null) {
            scan = settings.scan(settings.taxonomy());
            query = settings.query();
        }
        return scan;
    }

    @Override
    public StatsBuffer zero() {
        return new StatsBuffer(scan().newStats());
    }

    @Override
    public StatsBuffer reduce(StatsBuffer b, JobRows rows) {
        FleetScan s = scan();
        // the partition is FleetStats' to select: a heterogeneous job's components elsewhere decide how it ended
        FleetStats stats = b.stats(s::newStats).onlyPartition(query.partition());
        JobQuery anyPartition = query.withPartition(null);
        try (SacctReader r = SacctReader.open(new ByteArrayInputStream(rows.getRows()),
                SacctReader.Header.of(rows.getHeader()))) {
            while (r.hasNext()) {
                JobRecord j = r.next();
                b.jobs++;
                if (anyPartition.covers(j)) {
                    s.add(stats, j);
                }
            }
            b.malformed += r.malformedRows();
        } catch (ExportStats.ExportException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ExportStats.ExportException("cannot read " + rows.getSource() + ": " + e.getMessage(), e);
        }
        return b;
    }

    @Override
    public StatsBuffer merge(StatsBuffer a, StatsBuffer b) {
        FleetScan s = scan();
        a.stats(s::newStats).merge(b.stats(s::newStats));
        a.jobs += b.jobs;
        a.malformed += b.malformed;
        return a;
    }

    @Override
    public byte[] finish(StatsBuffer b) {
        return b.toBytes();
    }

    @Override
    public Encoder<StatsBuffer> bufferEncoder() {
        return Encoders.javaSerialization(StatsBuffer.class);
    }

    @Override
    public Encoder<byte[]> outputEncoder() {
        return Encoders.BINARY();
    }
}
