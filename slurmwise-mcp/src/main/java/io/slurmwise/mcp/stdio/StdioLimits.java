package io.slurmwise.mcp.stdio;

import java.time.Duration;

/**
 * The bounds of the stdio front. {@link #DEFAULT} is what {@code slurmwise mcp} uses:
 *
 * <pre>{@code
 * new StdioTransport(mapper, System.in, out, StdioLimits.DEFAULT, System.err::println);
 * }</pre>
 *
 * @param lineBytes    the longest message read whole; a longer line is skipped as it streams in (its first bytes are
 *                     kept to find its id) and answered with an error
 * @param idChars      the longest string id answered with itself; a longer one is an invalid request
 * @param nestingDepth how deep arrays and objects may nest in one message
 * @param numberDigits the longest number literal in a message
 * @param workers      calls run at once
 * @param queuedCalls  calls that may wait for a worker; past that a call is answered "busy, retry"
 * @param queuedBytes  bytes of waiting and running messages; past that a call is answered "busy, retry"
 * @param outputBytes  bytes of answers the client has not read yet before calls stop taking up answers; the reader
 *                     then stops reading new messages once {@code outputBytes} plus a small reserve for its own
 *                     error answers is reached (stdin backpressure): memory stays bounded and nothing is dropped
 * @param drain        after stdin closes, how long calls still running get to finish and be written
 */
public record StdioLimits(int lineBytes, int idChars, int nestingDepth, int numberDigits, int workers,
                          int queuedCalls, long queuedBytes, long outputBytes, Duration drain) {

    /** 8 MiB messages (a 4 MiB log with JSON escaping fits), 4 workers, 256 waiting calls, 16 MiB of unread answers. */
    public static final StdioLimits DEFAULT = new StdioLimits(8 << 20, 1024, 64, 1000, 4, 256, 32L << 20,
            16L << 20, Duration.ofSeconds(2));

    public StdioLimits {
        if (lineBytes < 1024 || idChars < 1 || nestingDepth < 4 || numberDigits < 20 || workers < 1 || queuedCalls < 1
                || queuedBytes < lineBytes || outputBytes < 1024 || drain.isNegative()) {
            throw new IllegalArgumentException("stdio limits out of range: " + this);
        }
    }
}
