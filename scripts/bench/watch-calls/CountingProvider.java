package cnt;

import io.slurmwise.backend.BackendProvider;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.config.Settings;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The "counting" backend of scripts/bench/watch-calls.sh: the mock (or SLURMWISE_MOCK_DIR's) cluster behind a proxy
 * that counts every call the CLI makes of it and the records each jobs() query returns, printed to stderr as
 * "count: ..." lines. Compiled by the script against the built CLI; no module builds it.
 */
public final class CountingProvider implements BackendProvider {
    static final Map<String, AtomicLong> CALLS = new TreeMap<>();

    static synchronized void count(String k, long n) {
        CALLS.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(n);
    }

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("count: total " + CALLS)));
    }

    @Override public String name() { return "counting"; }
    @Override public int autoRank() { return -100; }
    @Override public Optional<String> unavailableReason(Settings s) { return Optional.empty(); }

    @Override
    public SlurmBackend create(Settings settings) {
        SlurmBackend mock = new io.slurmwise.backend.mock.MockBackendProvider().create(settings);
        return (SlurmBackend) Proxy.newProxyInstance(SlurmBackend.class.getClassLoader(), new Class<?>[]{SlurmBackend.class},
                (proxy, m, args) -> {
                    if (!m.getName().equals("name") && !m.getName().equals("close")) {
                        count("call " + m.getName(), 1);
                    }
                    Object r;
                    try {
                        r = m.invoke(mock, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (m.getName().equals("jobs")) {
                        JobQuery q = (JobQuery) args[0];
                        AtomicLong all = new AtomicLong(), completed = new AtomicLong(), completedFine = new AtomicLong();
                        return ((Stream<JobRecord>) r).peek(j -> {
                            all.incrementAndGet();
                            if (j.state() == JobState.COMPLETED) {
                                completed.incrementAndGet();
                                if (j.failedStepOfCompleted().isEmpty()) completedFine.incrementAndGet();
                            }
                        }).onClose(() -> {
                            count("records", all.get());
                            count("records COMPLETED", completed.get());
                            System.err.println("count: jobs(" + (q.states().isEmpty() ? "any state" : q.states().size() + " states"
                                    + (q.states().contains(JobState.COMPLETED) ? " incl. COMPLETED" : "")) + ", " + q.since() + " .. " + q.until()
                                    + ") -> " + all + " records, " + completed + " COMPLETED (" + completedFine + " without a failed step)");
                        });
                    }
                    return r;
                });
    }
}
