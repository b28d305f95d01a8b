package io.slurmwise.spark;

import io.slurmwise.stats.FleetStats;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/**
 * {@link FleetAggregator}'s buffer: a partial {@link FleetStats} and the rows it read. Spark keeps it as an object
 * while a task aggregates and serializes it (Java serialization, {@link Externalizable}) only to ship it to the
 * merge: then it is written as the aggregate's own exact bytes ({@link FleetStats#writeTo}), and read back lazily
 * ({@link #stats}) into an aggregate the receiving side builds alike.
 */
public final class StatsBuffer implements Externalizable {
    private static final long serialVersionUID = 1L;

    private FleetStats stats;
    private byte[] encoded;
    long jobs;
    long malformed;

    /** For deserialization. */
    public StatsBuffer() {
    }

    StatsBuffer(FleetStats empty) {
        this.stats = empty;
    }

    /** The aggregate; decoded into {@code empty.get()} when it arrived as bytes. */
    FleetStats stats(Supplier<FleetStats> empty) {
        if (stats == null) {
            try {
                stats = empty.get().mergeFrom(new DataInputStream(new ByteArrayInputStream(encoded)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read a partial aggregate: " + e.getMessage(), e);
            }
            encoded = null;
        }
        return stats;
    }

    /** Rows read, malformed rows, then the aggregate's bytes: what the driver gets. */
    byte[] toBytes() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeLong(jobs);
            out.writeLong(malformed);
            if (stats != null) {
                stats.writeTo(out);
            } else {
                out.write(encoded);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    static StatsBuffer fromBytes(byte[] bytes) {
        StatsBuffer s = new StatsBuffer();
        s.read(bytes);
        return s;
    }

    private void read(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            jobs = in.readLong();
            malformed = in.readLong();
            encoded = in.readAllBytes();
            stats = null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        byte[] b = toBytes();
        out.writeInt(b.length);
        out.write(b);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        read(b);
    }
}
