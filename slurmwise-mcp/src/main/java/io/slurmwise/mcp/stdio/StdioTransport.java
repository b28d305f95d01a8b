package io.slurmwise.mcp.stdio;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * MCP over stdio that no input can stop: a replacement for the SDK's stdio transport provider, whose reader and
 * writer threads end on the first line they cannot parse (after which the server answers nothing and never exits).
 * One thread reads lines ({@link LineReader}, bounded), checks each ({@link Gate}) and answers protocol faults
 * itself; well-formed calls go to a fixed pool of workers through a bounded queue, or are answered "busy, retry"
 * when it is full; answers leave through a bounded {@link Outbox}. {@link #run()} returns when stdin closes (after
 * giving running calls {@link StdioLimits#drain()} to finish) or when stdout breaks.
 *
 * <p>Every call gets exactly one answer, or none when the client cancelled it: a call still unanswered after
 * {@link StdioLimits#callTimeout()} is answered with an error by a watchdog thread and its worker interrupted; on
 * {@code notifications/cancelled} a waiting call is skipped and a running one interrupted, unanswered (as the MCP
 * specification asks). Whichever comes first of the call's own answer, the timeout error and the cancellation takes
 * the call's one answer; what comes after is dropped.
 *
 * <pre>{@code
 * StdioTransport stdio = new StdioTransport(mapper, System.in, out, StdioLimits.DEFAULT, System.err::println);
 * McpSyncServer server = McpServer.sync(stdio).immediateExecution(true)...build();
 * stdio.run();   // until the client closes stdin
 * server.close();
 * }</pre>
 * Build the server with {@code immediateExecution(true)}: the workers are the bound on concurrent calls.
 */
public final class StdioTransport implements McpServerTransportProvider {

    /** The MCP notification that cancels a request (not among the SDK's method constants). */
    static final String CANCELLED = "notifications/cancelled";

    private final McpJsonMapper mapper;
    private final InputStream in;
    private final StdioLimits limits;
    private final Consumer<String> notices;
    private final Gate gate;
    private final Outbox outbox;
    private final CountDownLatch done = new CountDownLatch(1);
    /** Bytes of the messages waiting for or held by a worker. */
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong busy = new AtomicLong();
    private volatile McpServerSession session;
    private volatile Thread reader;
    private ThreadPoolExecutor workers;
    private ScheduledThreadPoolExecutor watchdog;
    /** The calls read and not yet ended, by {@link #key(Object) id} (the newest, when an answered one's id is reused). */
    private final Map<Object, Call> calls = new ConcurrentHashMap<>();
    /** The call a worker thread runs: the SDK sends its answer from that thread. */
    private final ThreadLocal<Call> running = new ThreadLocal<>();
    // read and written by the reader thread only
    private boolean initializing;
    private boolean initialized;

    public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, StdioLimits limits,
                          Consumer<String> notices) {
        this(mapper, in, out, limits, notices, java.util.Set.of());
    }

    /**
     * @param tools the names of the tools the server offers: a call of any other is answered here, naming them
     *              (the SDK's own answer names a tool nobody sent); empty to leave it to the server
     */
    public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, StdioLimits limits,
                          Consumer<String> notices, java.util.Set<String> tools) {
        this(mapper, in, out, limits, notices, Offer.tools(tools));
    }

    /**
     * @param offer what the server offers (tools, prompts, resources): a request for anything else is answered here,
     *              naming what there is
     */
    public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, StdioLimits limits,
                          Consumer<String> notices, Offer offer) {
        this.mapper = mapper;
        this.in = in;
        this.limits = limits;
        this.notices = notices;
        this.gate = new Gate(limits, offer);
        this.outbox = new Outbox(out, limits.outputBytes(), () -> {
            notices.accept("stdout closed: the client is gone; stopping");
            done.countDown();
        });
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        this.session = sessionFactory.create(new Session());
    }

    /** Serves until stdin closes or stdout breaks; then lets running calls finish for {@link StdioLimits#drain()}. */
    public void run() {
        if (session == null) {
            throw new IllegalStateException("build the MCP server on this transport before running it");
        }
        AtomicInteger n = new AtomicInteger();
        workers = new ThreadPoolExecutor(limits.workers(), limits.workers(), 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(limits.queuedCalls()), r -> {
                    Thread t = new Thread(r, "mcp-call-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        watchdog = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "mcp-call-timeout");
            t.setDaemon(true);
            return t;
        });
        watchdog.setRemoveOnCancelPolicy(true);
        outbox.start();
        Thread t = new Thread(this::readLoop, "mcp-stdin");
        t.setDaemon(true);
        reader = t;
        t.start();
        try {
            done.await();
            long end = System.nanoTime() + limits.drain().toNanos();
            workers.shutdown();
            if (workers.awaitTermination(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                outbox.drain(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            int unanswered = workers.shutdownNow().size() + workers.getActiveCount();
            if (unanswered > 0) {
                // MCP's stdio rule: closing stdin ends the session; a script that pipes requests in should know
                notices.accept(unanswered + " calls were not answered: stdin closed, and running calls get "
                        + limits.drain().toSeconds() + " s after that; keep stdin open until every answer is read");
            }
            watchdog.shutdownNow();
            outbox.close();
            if (busy.get() > 0) {
                notices.accept(busy.get() + " calls were answered busy (the workers' queue was full: "
                        + limits.queuedCalls() + " calls, or " + Replies.megabytes(limits.queuedBytes())
                        + " of waiting requests)");
            }
        }
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession s = session;
        return s == null ? Mono.error(new IllegalStateException("no MCP session yet")) : s.sendNotification(method, params);
    }

    /** Stops serving as a closed stdin does. */
    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(done::countDown);
    }

    private void readLoop() {
        LineReader lines = new LineReader(in, limits.lineBytes());
        try {
            while (done.getCount() > 0) {
                LineReader.Frame f = lines.next();
                if (f instanceof LineReader.End) {
                    return;
                }
                try {
                    Gate.Verdict v = f instanceof LineReader.TooLong big ? gate.tooLong(big.head(), big.length(), this::idTaken)
                            : gate.check(((LineReader.Line) f).bytes(), ((LineReader.Line) f).length());
                    if (lines.endedWithoutNewline()) {
                        // MCP's stdio messages end with a newline: a client that left it out and closed stdin (an
                        // outside audit thought its message dropped in silence) is told what became of it
                        long bytes = f instanceof LineReader.TooLong big ? big.length() : ((LineReader.Line) f).length();
                        notices.accept("stdin closed in the middle of a message (" + bytes + " bytes after the last"
                                + " newline): " + (f instanceof LineReader.TooLong ? "answered as an oversized one"
                                : v instanceof Gate.Reply ? "it is not a whole JSON-RPC message and was answered as a"
                                + " malformed one" : v instanceof Gate.Skip ? "it needs no answer"
                                : "read as the last message"));
                    }
                    dispatch(v);
                } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                    // a fault of this server on one message: answer it and read on
                    outbox.putReply(Replies.error(null, Replies.INTERNAL_ERROR, "the server failed on a message: "
                            + Replies.quote(String.valueOf(e))));
                }
            }
        } catch (IOException e) {
            notices.accept("stdin failed: " + Replies.quote(e.getMessage()) + "; stopping");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            done.countDown();
        }
    }

    private void dispatch(Gate.Verdict v) throws InterruptedException {
        if (v instanceof Gate.Reply r) {
            outbox.putReply(r.line());
        } else if (v instanceof Gate.Request q) {
            request(q.request(), q.weight());
        } else if (v instanceof Gate.Notification n) {
            if (CANCELLED.equals(n.notification().method())) {
                cancel(n.notification().params());
            } else if (McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(n.notification().method())) {
                if (initializing && !initialized) {
                    initialized = true;
                    forward(n.notification());
                }
            } else if (initialized) {
                forward(n.notification());
            }
        } else if (v instanceof Gate.Response r && initialized) {
            forward(r.response());
        }
    }

    /** Whether a call not answered yet holds {@code id}. */
    private boolean idTaken(Object id) {
        Object key = key(id);
        Call taken = key == null ? null : calls.get(key);
        return taken != null && !taken.answered.get();
    }

    private void request(McpSchema.JSONRPCRequest q, int weight) throws InterruptedException {
        Object key = key(q.id());
        Call taken = key == null ? null : calls.get(key);
        if (taken != null && !taken.answered.get()) {
            // a cancellation could not tell the two apart (an answered call's id may be used again at once)
            outbox.putReply(Replies.error(q.id(), Replies.INVALID_REQUEST, "the id " + Replies.quote(String.valueOf(q.id()))
                    + " is taken by a call not answered yet: give every request its own id"));
        } else if (McpSchema.METHOD_PING.equals(q.method())) {
            outbox.putReply(Replies.empty(q.id()));
        } else if (q.method() != null && q.method().startsWith("notifications/")) {
            outbox.putReply(Replies.error(q.id(), Replies.INVALID_REQUEST, Replies.quote(q.method())
                    + " is a notification: send it without an id"));
        } else if (McpSchema.METHOD_INITIALIZE.equals(q.method()) && initializing) {
            // the protocol version and capabilities were agreed once; a second initialize would change them mid-session
            outbox.putReply(Replies.error(q.id(), Replies.INVALID_REQUEST,
                    "the session is already initialized; start a new server process for a new session"));
        } else if (McpSchema.METHOD_INITIALIZE.equals(q.method())) {
            initializing = true;
            forward(q);  // at once, in order: the SDK answers it without blocking
        } else if (!initializing) {
            outbox.putReply(Replies.error(q.id(), Replies.INVALID_REQUEST,
                    "the session is not initialized: send initialize first, then notifications/initialized"));
        } else {
            if (!initialized) {
                // a client that skips notifications/initialized still gets answers (the SDK would wait for it)
                initialized = true;
                forward(new McpSchema.JSONRPCNotification(McpSchema.METHOD_NOTIFICATION_INITIALIZED, null));
            }
            submit(q, weight);
        }
    }

    private void submit(McpSchema.JSONRPCRequest q, int weight) throws InterruptedException {
        if (held.get() + weight <= limits.queuedBytes()) {
            held.addAndGet(weight);
            Call c = new Call(q);
            calls.put(c.key, c);
            c.deadline = watchdog.schedule(() -> timeOut(c), limits.callTimeout().toNanos(), TimeUnit.NANOSECONDS);
            try {
                workers.execute(() -> call(c, weight));
                return;
            } catch (RejectedExecutionException e) {
                c.deadline.cancel(false);
                calls.remove(c.key, c);
                held.addAndGet(-weight);
            }
        }
        busy.incrementAndGet();
        boolean bytes = held.get() + weight > limits.queuedBytes();
        outbox.putReply(Replies.error(q.id(), Replies.BUSY, "slurmwise is busy: " + workers.getQueue().size()
                + " calls are waiting" + (bytes ? " with " + Replies.megabytes(held.get()) + " of requests, the most it"
                + " holds" : "") + "; retry in a few seconds"));
    }

    private void call(Call c, int weight) {
        try {
            synchronized (c) {
                if (c.answered.get()) {
                    return;  // cancelled or timed out while it waited
                }
                c.worker = Thread.currentThread();
            }
            running.set(c);
            session.handle(c.request).block();
        } catch (Throwable e) {
            if (c.answered.compareAndSet(false, true)) {
                try {
                    outbox.put(Replies.error(c.request.id(), Replies.INTERNAL_ERROR, "the server failed on this call: "
                            + Replies.quote(String.valueOf(e))));
                } catch (InterruptedException ie) {
                    // the pool's thread is reused: its flag is cleared below
                }
            }
        } finally {
            running.remove();
            synchronized (c) {
                c.worker = null;
            }
            // an interrupt meant for this call must not reach the next one on this thread
            Thread.interrupted();
            c.deadline.cancel(false);
            calls.remove(c.key, c);
            held.addAndGet(-weight);
        }
    }

    /** The watchdog's side: answers a call still unanswered at its deadline and stops its worker. */
    private void timeOut(Call c) {
        if (!c.answered.compareAndSet(false, true)) {
            return;
        }
        c.interrupt();
        try {
            outbox.putReply(Replies.error(c.request.id(), Replies.TIMED_OUT, "the call took longer than "
                    + seconds(limits.callTimeout()) + " and was stopped: narrow it (fewer jobs, a shorter time window, "
                    + "fewer log lines) or raise " + StdioLimits.CALL_TIMEOUT_VARIABLE + " (seconds) where the server "
                    + "is started"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@code notifications/cancelled}: the call named by {@code params.requestId} gets no answer; a waiting one is
     * skipped, a running one interrupted. An id of no call in progress (unknown, already answered) is ignored.
     */
    private void cancel(Object params) {
        Object id = params instanceof Map<?, ?> m ? m.get("requestId") : null;
        Object key = key(id);
        Call c = key == null ? null : calls.get(key);
        if (c != null && c.answered.compareAndSet(false, true)) {
            c.deadline.cancel(false);
            c.interrupt();
        }
    }

    private static String seconds(java.time.Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /**
     * A request id as a map key: a string stays a string, an integer becomes a {@code Long} (the same for 1 read as
     * an int or a long), so the string "1" and the number 1 are different calls. Null for anything else.
     */
    static Object key(Object id) {
        if (id instanceof String) {
            return id;
        }
        if (id instanceof Integer || id instanceof Long || id instanceof Short || id instanceof Byte) {
            return ((Number) id).longValue();
        }
        if (id instanceof java.math.BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        return null;
    }

    /** One call read and not yet ended; {@code answered} is taken by whoever answers it first (or cancels it). */
    private static final class Call {
        final McpSchema.JSONRPCRequest request;
        final Object key;
        final AtomicBoolean answered = new AtomicBoolean();
        /** The worker running it; guarded by this. */
        private Thread worker;
        volatile ScheduledFuture<?> deadline;

        Call(McpSchema.JSONRPCRequest request) {
            this.request = request;
            this.key = key(request.id());
        }

        /** Interrupts its worker, only while that worker still runs this call. */
        synchronized void interrupt() {
            if (worker != null) {
                worker.interrupt();
            }
        }
    }

    /** Hands a message to the SDK without waiting for it: initialize and notifications complete at once. */
    private void forward(McpSchema.JSONRPCMessage m) {
        session.handle(m).subscribe(x -> {
        }, e -> notices.accept("the MCP session failed on " + m.getClass().getSimpleName() + ": "
                + Replies.quote(e.getMessage())));
    }

    /** The session's side: answers go to the outbox; the reader's own never wait behind calls' answers. */
    private final class Session implements McpServerTransport {

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            if (message instanceof McpSchema.JSONRPCResponse r) {
                Object key = key(r.id());
                Call c = running.get();
                if (c == null && Thread.currentThread() != reader && key != null) {
                    c = calls.get(key);  // not on its worker's thread (the SDK does not do that with immediate execution)
                }
                if (c != null && c.key.equals(key) && !c.answered.compareAndSet(false, true)) {
                    return Mono.empty();  // timed out or cancelled: its one answer was given, or none is due
                }
            }
            return Mono.fromCallable(() -> {
                byte[] line = mapper.writeValueAsBytes(message);
                boolean sent = Thread.currentThread() == reader ? outbox.putReply(line) : outbox.put(line);
                if (!sent) {
                    throw new IOException("stdout is closed");
                }
                return line;
            }).then();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public void close() {
            // the provider's run() owns the streams
        }
    }
}
