package io.slurmwise.testing;

import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.AccountUsage;
import io.slurmwise.job.Association;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.Qos;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A backend that answers every question as {@code inner} does: a test overrides only the read it changes (an
 * association read that fails, a dependency slurmctld holds, a log at a never-started job's path).
 */
public class DelegatingBackend implements SlurmBackend {

    private final SlurmBackend inner;

    public DelegatingBackend(SlurmBackend inner) {
        this.inner = inner;
    }

    /** The fixture cluster, to override a read of. */
    public DelegatingBackend() {
        this(new FixtureCluster());
    }

    @Override public String name() { return inner.name(); }
    @Override public JobLookup lookup(JobId id) { return inner.lookup(id); }
    @Override public Stream<JobRecord> jobs(JobQuery q) { return inner.jobs(q); }
    @Override public LogTail logTail(JobRecord j, LogStream s, int n) { return inner.logTail(j, s, n); }
    @Override public Optional<String> batchScript(JobRecord j) { return inner.batchScript(j); }
    @Override public List<Association> associations(String user) { return inner.associations(user); }
    @Override public Optional<String> dependency(JobRecord j) { return inner.dependency(j); }
    @Override public Optional<io.slurmwise.backend.EligibleTime> eligibleTime(JobRecord j) { return inner.eligibleTime(j); }
    @Override public List<Partition> partitions() { return inner.partitions(); }
    @Override public List<Qos> qos() { return inner.qos(); }
    @Override public Optional<AccountUsage> accountUsage(String a) { return inner.accountUsage(a); }
    @Override public boolean knowsUser(String name) { return inner.knowsUser(name); }
    @Override public Optional<String> userName(long uid) { return inner.userName(uid); }
}
