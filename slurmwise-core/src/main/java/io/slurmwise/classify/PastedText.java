package io.slurmwise.classify;

import java.util.Arrays;

/**
 * A log's bytes with the typography that copying, rendering and locales put into fixed messages turned back into the
 * ASCII the messages are written in, so that one signature reads every copy of a message:
 * <ul>
 *   <li>Unicode spaces (no-break space from web pages and chat tools, the U+2000 to U+200A spaces, narrow no-break,
 *       ideographic) become a space; zero-width spaces and joiners, and a byte order mark, are dropped;</li>
 *   <li>typographic quotes become ASCII quotes: GNU tools in a UTF-8 locale quote with {@code ‘x’} where the C
 *       locale prints {@code 'x'} (coreutils' {@code cannot stat ‘x’}), and editors, wikis and mail "smarten" quotes;</li>
 *   <li>the HTML entities that a page or an XML report escapes a message with ({@code &quot; &#39; &#x27; &apos;
 *       &lt; &gt; &amp; &nbsp;}) become their characters (once: {@code &amp;lt;} becomes {@code &lt;}).</li>
 * </ul>
 * Line breaks are never added or removed, so line numbers stay those of the log. Text without any byte above 0x7F and
 * without {@code &} is returned as it is, after one pass that only looks.
 */
final class PastedText {

    private PastedText() {
    }

    /** The text with typographic spaces, quotes and HTML entities plain; {@code in} itself when nothing changes. */
    static byte[] plain(byte[] in) {
        int first = firstCandidate(in);
        if (first < 0) {
            return in;
        }
        byte[] out = new byte[in.length];
        System.arraycopy(in, 0, out, 0, first);
        int n = first;
        int i = first;
        boolean changed = false;
        while (i < in.length) {
            int b = in[i] & 0xff;
            if (b < 0x80 && b != '&') {
                out[n++] = (byte) b;
                i++;
                continue;
            }
            int used = 0;
            int put = -1; // the ASCII byte written in place of the sequence, or -1 to drop it
            if (b == '&') {
                int[] entity = entity(in, i);
                if (entity != null) {
                    used = entity[0];
                    put = entity[1];
                }
            } else if (b == 0xC2 && i + 1 < in.length && (in[i + 1] & 0xff) == 0xA0) {
                used = 2;
                put = ' ';
            } else if (b == 0xE2 && i + 2 < in.length) {
                int b1 = in[i + 1] & 0xff;
                int b2 = in[i + 2] & 0xff;
                if (b1 == 0x80) {
                    if (b2 >= 0x80 && b2 <= 0x8A || b2 == 0xAF) {
                        used = 3;
                        put = ' ';
                    } else if (b2 >= 0x8B && b2 <= 0x8D) {
                        used = 3; // zero-width space, non-joiner, joiner
                    } else if (b2 == 0x98 || b2 == 0x99 || b2 == 0x9B || b2 == 0xB2) {
                        used = 3;
                        put = '\'';
                    } else if (b2 == 0x9C || b2 == 0x9D || b2 == 0x9E || b2 == 0xB3) {
                        used = 3;
                        put = '"';
                    }
                } else if (b1 == 0x81 && b2 == 0x9F) {
                    used = 3;
                    put = ' ';
                } else if (b1 == 0x81 && b2 == 0xA0) {
                    used = 3; // word joiner
                }
            } else if (b == 0xE3 && i + 2 < in.length && (in[i + 1] & 0xff) == 0x80 && (in[i + 2] & 0xff) == 0x80) {
                used = 3;
                put = ' ';
            } else if (b == 0xEF && i + 2 < in.length && (in[i + 1] & 0xff) == 0xBB && (in[i + 2] & 0xff) == 0xBF) {
                used = 3; // byte order mark
            }
            if (used == 0) {
                out[n++] = (byte) b;
                i++;
                continue;
            }
            if (put >= 0) {
                out[n++] = (byte) put;
            }
            i += used;
            changed = true;
        }
        return changed ? Arrays.copyOf(out, n) : in;
    }

    /** The offset of the first byte that may start something to change, or -1. */
    private static int firstCandidate(byte[] in) {
        for (int i = 0; i < in.length; i++) {
            byte b = in[i];
            if (b < 0 || b == '&') {
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
