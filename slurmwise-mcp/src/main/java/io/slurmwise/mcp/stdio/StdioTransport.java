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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * <pre>{@code
 * StdioTransport stdio = new StdioTransport(mapper, System.in, out, StdioLimits.DEFAULT, System.err::println);
 * McpSyncServer server = McpServer.sync(stdio).immediateExecution(true)...build();
 * stdio.run();   // until the client closes stdin
 * server.close();
 * }</pre>
 * Build the server with {@code immediateExecution(true)}: the workers are the bound on concurrent calls.
 */
public final class StdioTransport implements McpServerTransportProvider {

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
    // read and written by the reader thread only
    private boolean initializing;
    private boolean initialized;

    public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, StdioLimits limits,
                          Consumer<String> notices) {
        this.mapper = mapper;
        this.in = in;
        this.limits = limits;
        this.notices = notices;
        this.gate = new Gate(limits);
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
            workers.shutdownNow();
            outbox.close();
            if (busy.get() > 0) {
                notices.accept(busy.get() + " calls were answered busy (more than " + limits.queuedCalls()
                        + " waiting)");
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
                    Gate.Verdict v = f instanceof LineReader.TooLong big ? gate.tooLong(big.head(), big.length())
                            : gate.check(((LineReader.Line) f).bytes(), ((LineReader.Line) f).length());
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
            if (McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(n.notification().method())) {
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

    private void request(McpSchema.JSONRPCRequest q, int weight) throws InterruptedException {
        if (McpSchema.METHOD_PING.equals(q.method())) {
            outbox.putReply(Replies.empty(q.id()));
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
            try {
                workers.execute(() -> call(q, weight));
                return;
            } catch (RejectedExecutionException e) {
                held.addAndGet(-weight);
            }
        }
        busy.incrementAndGet();
        outbox.putReply(Replies.error(q.id(), Replies.BUSY, "slurmwise is busy: " + workers.getQueue().size()
                + " calls are waiting; retry in a few seconds"));
    }

    private void call(McpSchema.JSONRPCRequest q, int weight) {
        try {
            session.handle(q).block();
        } catch (Throwable e) {
            try {
                outbox.put(Replies.error(q.id(), Replies.INTERNAL_ERROR, "the server failed on this call: "
                        + Replies.quote(String.valueOf(e))));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        } finally {
            held.addAndGet(-weight);
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
