package io.slurmwise.classify;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A log's bytes with the typography that copying, rendering and locales put into fixed messages turned back into the
 * ASCII the messages are written in, so that one signature reads every copy of a message:
 * <ul>
 *   <li>Unicode spaces (no-break space from web pages and chat tools, the U+2000 to U+200A spaces, narrow no-break,
 *       ideographic) become a space; zero-width spaces and joiners, and a byte order mark, are dropped;</li>
 *   <li>typographic quotes become ASCII quotes: GNU tools in a UTF-8 locale quote with {@code ‘x’} where the C
 *       locale prints {@code 'x'} (coreutils' {@code cannot stat ‘x’}), and editors, wikis and mail "smarten" quotes;
 *       so do such quotes and no-break spaces that a tool decoded as Windows-1252 or Latin-1 ({@code â€˜xâ€™});</li>
 *   <li>the HTML entities that a page or an XML report escapes a message with ({@code &quot; &#39; &#x27; &apos;
 *       &lt; &gt; &amp; &nbsp;}) become their characters (once: {@code &amp;lt;} becomes {@code &lt;});</li>
 *   <li>NUL bytes are dropped: a terminal shows nothing for them, and they are where a file lost its text (logrotate's
 *       {@code copytruncate} while the job kept writing at its offset, a node that crashed before its file system
 *       flushed the data), or the other half of a UTF-16 text's ASCII (PowerShell's redirection).</li>
 * </ul>
 * Line breaks are never added or removed, so line numbers stay those of the log. Text without any byte above 0x7F and
 * without {@code &} or NUL is returned as it is, after one pass that only looks.
 */
final class PastedText {

    private PastedText() {
    }

    /** The text with typographic spaces, quotes and HTML entities plain; {@code in} itself when nothing changes. */
    static byte[] plain(byte[] in) {
        // most logs have nothing to change, and many have other UTF-8 (progress bars' blocks, accents): look first
        int first = firstCandidate(in, 0);
        while (first >= 0 && change(in, first) == 0) {
            first = firstCandidate(in, first + 1);
        }
        if (first < 0) {
            return in;
        }
        byte[] out = new byte[in.length];
        System.arraycopy(in, 0, out, 0, first);
        int n = first;
        int i = first;
        while (i < in.length) {
            int b = in[i];
            int c = b <= 0 || b == '&' ? change(in, i) : 0;
            if (c == 0) {
                out[n++] = (byte) b;
                i++;
                continue;
            }
            int put = (c & 0xff) - 1;
            if (put >= 0) {
                out[n++] = (byte) put;
            }
            i += c >>> 8;
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * What to do with the sequence at {@code i}: 0 to keep it, else {@code used << 8 | (put + 1)} where {@code used} is
     * its length in bytes and {@code put} the ASCII byte written instead, or -1 to drop it.
     */
    private static int change(byte[] in, int i) {
        int b = in[i] & 0xff;
        if (b == 0) {
            return 1 << 8; // a NUL byte: dropped
        }
        if (b == '&') {
            int[] entity = entity(in, i);
            return entity == null ? 0 : entity[0] << 8 | (entity[1] + 1);
        }
        if (b == 0xC2 && i + 1 < in.length && (in[i + 1] & 0xff) == 0xA0) {
            return 2 << 8 | (' ' + 1);
        }
        if (b == 0xC3) {
            return mojibake(in, i);
        }
        if (i + 2 >= in.length) {
            return 0;
        }
        int b1 = in[i + 1] & 0xff;
        int b2 = in[i + 2] & 0xff;
        if (b == 0xE2 && b1 == 0x80) {
            if (b2 >= 0x80 && b2 <= 0x8A || b2 == 0xAF) {
                return 3 << 8 | (' ' + 1);
            }
            if (b2 >= 0x8B && b2 <= 0x8D) {
                return 3 << 8; // zero-width space, non-joiner, joiner
            }
            if (b2 == 0x98 || b2 == 0x99 || b2 == 0x9B || b2 == 0xB2) {
                return 3 << 8 | ('\'' + 1);
            }
            if (b2 == 0x9C || b2 == 0x9D || b2 == 0x9E || b2 == 0xB3) {
                return 3 << 8 | ('"' + 1);
            }
            return 0;
        }
        if (b == 0xE2 && b1 == 0x81) {
            return b2 == 0x9F ? 3 << 8 | (' ' + 1) : b2 == 0xA0 ? 3 << 8 : 0; // medium math space; word joiner
        }
        if (b == 0xE3 && b1 == 0x80 && b2 == 0x80) {
            return 3 << 8 | (' ' + 1); // ideographic space
        }
        if (b == 0xEF && b1 == 0xBB && b2 == 0xBF) {
            return 3 << 8; // byte order mark
        }
        return 0;
    }

    /**
     * A typographic quote or a no-break space that a tool decoded as Windows-1252 or Latin-1 and wrote back as UTF-8
     * (a Windows console, an editor or a mail client guessing the encoding): {@code ’} shows as {@code â€™} (or {@code
     * â}, U+0080, U+0099), {@code “} as {@code â€œ}, a no-break space as {@code Â} and a no-break space. Each is the
     * ASCII it stands for; 0 when the bytes at {@code i} are no such sequence.
     */
    private static int mojibake(byte[] in, int i) {
        int b1 = at(in, i + 1);
        if (b1 == 0x82 && at(in, i + 2) == 0xC2 && at(in, i + 3) == 0xA0) {
            return 4 << 8 | (' ' + 1);
        }
        if (b1 != 0xA2) {
            return 0;
        }
        int j; // after the second byte of the original E2 80 xx, as it was mis-decoded
        if (at(in, i + 2) == 0xE2 && at(in, i + 3) == 0x82 && at(in, i + 4) == 0xAC) {
            j = i + 5; // U+20AC, Windows-1252's 0x80
        } else if (at(in, i + 2) == 0xC2 && at(in, i + 3) == 0x80) {
            j = i + 4; // U+0080, Latin-1's 0x80
        } else {
            return 0;
        }
        int c0 = at(in, j);
        int c1 = at(in, j + 1);
        int original; // the third byte of the quote's UTF-8, from the char it was decoded as
        int used;
        if (c0 == 0xC2 && c1 >= 0x80 && c1 <= 0xBF) {
            original = c1; // Latin-1, or a byte Windows-1252 leaves undefined (0x9D)
            used = 2;
        } else if (c0 == 0xCB && c1 == 0x9C) {
            original = 0x98; // U+02DC
            used = 2;
        } else if (c0 == 0xC5 && c1 == 0x93) {
            original = 0x9C; // U+0153
            used = 2;
        } else if (c0 == 0xE2 && c1 == 0x84 && at(in, j + 2) == 0xA2) {
            original = 0x99; // U+2122
            used = 3;
        } else {
            return 0;
        }
        int put = original == 0x98 || original == 0x99 ? '\'' : original == 0x9C || original == 0x9D ? '"' : -1;
        return put < 0 ? 0 : (j + used - i) << 8 | (put + 1);
    }

    private static int at(byte[] in, int i) {
        return i < in.length ? in[i] & 0xff : -1;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH = 0x8080808080808080L;
    private static final long ONES = 0x0101010101010101L;
    private static final long AMPERSANDS = 0x2626262626262626L;

    /**
     * The offset of the first byte from {@code from} on that may start something to change, or -1. Eight bytes at a time: a byte above 0x7F
     * has its high bit set, a NUL is a zero byte of {@code word}, and a byte equal to {@code &} is a zero byte of
     * {@code word ^ AMPERSANDS} (a zero byte {@code x} is one where {@code (x - 1) & ~x} has the high bit set).
     */
    private static int firstCandidate(byte[] in, int from) {
        int i = from;
        for (; i + 8 <= in.length; i += 8) {
            long w = (long) LONGS.get(in, i);
            long amp = w ^ AMPERSANDS;
            if (((w | ((amp - ONES) & ~amp) | ((w - ONES) & ~w)) & HIGH) != 0) {
                break; // a candidate in these eight bytes: find it below
            }
        }
        for (; i < in.length; i++) {
            byte b = in[i];
            if (b <= 0 || b == '&') {
                return i;
            }
        }
        return -1;
    }

    private static final String[] NAMES = {"&quot;", "&#39;", "&#039;", "&#x27;", "&#X27;", "&apos;", "&lt;", "&gt;",
            "&amp;", "&nbsp;", "&#34;", "&#x22;"};
    private static final char[] CHARS = {'"', '\'', '\'', '\'', '\'', '\'', '<', '>', '&', ' ', '"', '"'};

    /** {length, character} of the entity at {@code i}, or null. */
    private static int[] entity(byte[] in, int i) {
        for (int k = 0; k < NAMES.length; k++) {
            String name = NAMES[k];
            if (i + name.length() > in.length) {
                continue;
            }
            boolean same = true;
            for (int j = 1; j < name.length() && same; j++) {
                same = in[i + j] == name.charAt(j);
            }
            if (same) {
                return new int[] {name.length(), CHARS[k]};
            }
        }
        return null;
    }
}
