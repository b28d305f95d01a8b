package io.slurmwise.mcp.stdio;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class OutboxTest {

    /** A client that does not read: every write blocks until it is let go, then fails (the client left). */
    static final class Stalled extends OutputStream {
        final CountDownLatch go = new CountDownLatch(1);

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("Broken pipe");
        }
    }

    @Test
    void writesLinesInOrderAndDrains() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Outbox box = new Outbox(out, 1024, () -> { });
        box.start();
        for (int i = 0; i < 100; i++) {
            assertThat(box.put(("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8))).isTrue();
        }
        assertThat(box.drain(10, TimeUnit.SECONDS)).isTrue();
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(100);
        assertThat(lines[99]).isEqualTo("{\"n\":99}");
    }

    @Test
    void aClientThatDoesNotReadStopsCallsAtTheBudgetLetsRepliesUseTheReserveAndFailsCleanly() throws Exception {
        Stalled out = new Stalled();
        AtomicBoolean failed = new AtomicBoolean();
        Outbox box = new Outbox(out, 64 * 1024, () -> failed.set(true));
        box.start();
        byte[] answer = new byte[8 * 1024];
        AtomicInteger queued = new AtomicInteger();
        Thread calls = new Thread(() -> {
            try {
                while (box.put(answer)) {
                    queued.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        calls.setDaemon(true);
        calls.start();
        Thread.sleep(500);
        // held: the writer's buffer (64 KiB) plus the budget (64 KiB), in 8 KiB answers; then the calls wait
        int held = queued.get();
        assertThat(held).isBetween(8, 8 + 8 + 2);
        Thread.sleep(300);
        assertThat(queued.get()).isEqualTo(held);
        assertThat(calls.getState()).isIn(Thread.State.WAITING, Thread.State.TIMED_WAITING);
        // the reader's short answers still get through, up to the reserve
        assertThat(box.putReply(new byte[200])).isTrue();
        // the client goes away: waiting calls are released and told, nothing more is queued
        out.go.countDown();
        calls.join(5000);
        assertThat(calls.isAlive()).isFalse();
        for (int i = 0; i < 100 && !failed.get(); i++) {
            Thread.sleep(20);  // the failure is told right after the waiting calls are let go
        }
        assertThat(failed.get()).isTrue();
        assertThat(box.put(answer)).isFalse();
        assertThat(box.drain(1, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void closingLetsWaitingCallsGoAndTakesNoMore() throws Exception {
        Stalled out = new Stalled();
        Outbox box = new Outbox(out, 1024, () -> { });
        box.start();
        AtomicBoolean refused = new AtomicBoolean();
        Thread calls = new Thread(() -> {
            try {
                while (box.put(new byte[512])) {
                    Thread.onSpinWait();
                }
                refused.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        calls.setDaemon(true);
        calls.start();
        Thread.sleep(300);
        assertThat(calls.isAlive()).as("waiting on the stalled client").isTrue();
        box.close();
        calls.join(5000);
        assertThat(refused.get()).isTrue();
        assertThat(box.putReply(new byte[10])).isFalse();
        out.go.countDown();
    }
}
