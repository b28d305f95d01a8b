package io.slurmwise.mcp.stdio;

import io.slurmwise.config.Settings;
import io.slurmwise.config.SettingsException;

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
 * @param callTimeout  how long a call may take, counted from when it is read (waiting for a worker included): past
 *                     that it is answered with an error at once, its worker is interrupted, and its own answer, if
 *                     it still comes, is dropped ({@value #CALL_TIMEOUT_VARIABLE})
 */
public record StdioLimits(int lineBytes, int idChars, int nestingDepth, int numberDigits, int workers,
                          int queuedCalls, long queuedBytes, long outputBytes, Duration drain, Duration callTimeout) {

    /** The environment variable of {@link #callTimeout()}, in seconds. */
    public static final String CALL_TIMEOUT_VARIABLE = "SLURMWISE_MCP_CALL_TIMEOUT";

    /**
     * 8 MiB messages (classify_log's 1 Mi characters fit however they are escaped: six bytes for each at most), 4 workers, 256 waiting calls, 16 MiB of unread answers,
     * 300 s per call (above the real backend's 120 s sacct timeout, so a slow sacct is reported by the backend).
     */
    public static final StdioLimits DEFAULT = new StdioLimits(8 << 20, 1024, 64, 1000, 4, 256, 32L << 20,
            16L << 20, Duration.ofSeconds(2), Duration.ofSeconds(300));

    public StdioLimits {
        if (lineBytes < 1024 || idChars < 1 || nestingDepth < 4 || numberDigits < 20 || workers < 1 || queuedCalls < 1
                || queuedBytes < lineBytes || outputBytes < 1024 || drain.isNegative() || callTimeout == null
                || callTimeout.isNegative() || callTimeout.isZero()) {
            throw new IllegalArgumentException("stdio limits out of range: " + this);
        }
    }

    /**
     * {@link #DEFAULT} with {@value #CALL_TIMEOUT_VARIABLE} (seconds, 1 to 3600) of the settings, when set.
     *
     * @throws SettingsException when the variable is not a number of seconds in that range
     */
    public static StdioLimits from(Settings settings) {
        return DEFAULT.withCallTimeout(settings.seconds(CALL_TIMEOUT_VARIABLE, DEFAULT.callTimeout(), 1, 3600));
    }

    public StdioLimits withCallTimeout(Duration timeout) {
        return new StdioLimits(lineBytes, idChars, nestingDepth, numberDigits, workers, queuedCalls, queuedBytes,
                outputBytes, drain, timeout);
    }
}
