package io.slurmwise.testing;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Input streams for tests of readers that must stay bounded: text, a line made as it is read, a sequence. */
public final class Streams {

    private Streams() {
    }

    /** The text as UTF-8 bytes. */
    public static InputStream utf8(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code n} bytes of 'x' without a newline, made as they are read (never a whole array). */
    public static InputStream endlessLine(long n) {
        return new InputStream() {
            long left = n;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left <= 0) {
                    return -1;
                }
                int k = (int) Math.min(len, left);
                Arrays.fill(b, off, off + k, (byte) 'x');
                left -= k;
                return k;
            }
        };
    }

    /** The streams one after the other. */
    public static InputStream concat(InputStream... parts) {
        return new SequenceInputStream(Collections.enumeration(List.of(parts)));
    }
}
