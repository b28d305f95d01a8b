package io.slurmwise.backend;

/**
 * The last bytes of a stream, in a ring of at most {@code max} bytes: what is read before falls out. Grows up to
 * its bound, so a short stream costs what it holds. Safe to read from another thread while one appends (a read
 * given up on a timeout keeps what had arrived).
 */
final class TailBuffer {

    private final int max;
    private byte[] buf;
    /** Index of the oldest byte once the ring is full. */
    private int start;
    private int size;
    private long total;
    private volatile long lastData = System.nanoTime();

    TailBuffer(int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("max must be positive, got " + max);
        }
        this.max = max;
        this.buf = new byte[Math.min(max, 64 << 10)];
    }

    synchronized void append(byte[] b, int off, int len) {
        if (len <= 0) {
            return;
        }
        total += len;
        lastData = System.nanoTime();
        if (len >= max) {
            buf = java.util.Arrays.copyOfRange(b, off + len - max, off + len);
            start = 0;
            size = max;
            return;
        }
        if (size + len > buf.length && buf.length < max) {
            byte[] grown = new byte[(int) Math.min(max, Math.max((long) buf.length * 2, size + len))];
            int n = copyTo(grown);
            buf = grown;
            start = 0;
            size = n;
        }
        for (int i = 0; i < len; ) {
            int end = (start + size) % buf.length;
            if (size == buf.length) {
                // full: overwrite the oldest bytes
                int chunk = Math.min(len - i, buf.length - start);
                System.arraycopy(b, off + i, buf, start, chunk);
                start = (start + chunk) % buf.length;
                i += chunk;
            } else {
                int chunk = Math.min(len - i, Math.min(buf.length - size, buf.length - end));
                System.arraycopy(b, off + i, buf, end, chunk);
                size += chunk;
                i += chunk;
            }
        }
    }

    private int copyTo(byte[] target) {
        int first = Math.min(size, buf.length - start);
        System.arraycopy(buf, start, target, 0, first);
        System.arraycopy(buf, 0, target, first, size - first);
        return size;
    }

    /** The bytes held, oldest first. */
    synchronized byte[] bytes() {
        byte[] out = new byte[size];
        copyTo(out);
        return out;
    }

    /** Bytes appended in all, held or not. */
    synchronized long total() {
        return total;
    }

    /** {@link System#nanoTime()} when data last came (or when the ring was made). */
    long lastData() {
        return lastData;
    }
}
