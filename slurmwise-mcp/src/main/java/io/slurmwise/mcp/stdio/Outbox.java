package io.slurmwise.mcp.stdio;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The answers on their way to stdout, one JSON line each, written by one thread. The bytes waiting are bounded:
 * a call's answer waits (so calls stop, and then the work queue fills) once {@code budget} bytes are unread, and
 * the reader's own short answers have {@link #RESERVE} more before they wait too, which stops the reading of stdin.
 * A client that never reads thus holds the server at a fixed size instead of growing it. When writing fails (the
 * client closed its end), everything waiting is discarded and {@code onFailure} runs once.
 */
final class Outbox {

    /** Room past the budget for the reader's own answers (parse errors, busy): thousands of them. */
    static final long RESERVE = 1 << 20;

    private final OutputStream out;
    private final long budget;
    private final Runnable onFailure;
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private long waiting;
    private boolean writing;
    private boolean failed;
    private boolean closed;

    Outbox(OutputStream out, long budget, Runnable onFailure) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
        this.budget = budget;
        this.onFailure = onFailure;
    }

    void start() {
        Thread t = new Thread(this::writeLoop, "mcp-stdout");
        t.setDaemon(true);
        t.start();
    }

    /** Queues one answer of a call; waits while {@code budget} bytes are unread. False when output has failed. */
    boolean put(byte[] line) throws InterruptedException {
        return enqueue(line, budget);
    }

    /** Queues one of the reader's own answers; waits only past the budget and the reserve. */
    boolean putReply(byte[] line) throws InterruptedException {
        return enqueue(line, budget + RESERVE);
    }

    private synchronized boolean enqueue(byte[] line, long limit) throws InterruptedException {
        while (!failed && !closed && waiting > 0 && waiting + line.length > limit) {
            wait();
        }
        if (failed || closed) {
            return false;
        }
        queue.add(line);
        waiting += line.length;
        notifyAll();
        return true;
    }

    /** Waits until everything queued is written (true), or output failed or the time ran out (false). */
    synchronized boolean drain(long timeout, TimeUnit unit) throws InterruptedException {
        long end = System.nanoTime() + unit.toNanos(timeout);
        while (!failed && (!queue.isEmpty() || writing)) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return !failed;
    }

    /** Takes no more answers and lets every waiting producer go; the writer ends once the queue is written. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    private void writeLoop() {
        try {
            while (true) {
                byte[] line;
                boolean last;
                synchronized (this) {
                    while (queue.isEmpty() && !closed) {
                        writing = false;
                        notifyAll();
                        wait();
                    }
                    line = queue.poll();
                    writing = line != null;
                    last = queue.isEmpty();
                }
                if (line == null) {
                    out.flush();  // closed and all written (outside the lock: a stalled client must not hold it)
                    return;
                }
                out.write(line);
                out.write('\n');
                if (last) {
                    out.flush();
                }
                synchronized (this) {
                    waiting -= line.length;
                    notifyAll();
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                failed = true;
                writing = false;
                queue.clear();
                waiting = 0;
                notifyAll();
            }
            onFailure.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
