package io.slurmwise.cli.render;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.function.BooleanSupplier;

/**
 * The last guard between the CLI and the terminal: every character the commands print to standard output and
 * standard error passes here. Printable text, newlines, tabs and CRLF line ends go through; a colour sequence
 * (SGR, {@code ESC [ ... m}) goes through while colour is on and is dropped when it is off; every other control
 * character is written as its visible escape ({@link TerminalText}). So whatever a printer forgot to clean, a log
 * line, a job name or an error message naming a path can never drive the terminal. JSON output is untouched: its
 * writer escapes every such character itself ({@link Json}).
 *
 * <p>Writes go straight through (no buffer of its own beyond an escape sequence being read), so output written to
 * the wrapped writer directly (a progress line) stays in order.
 */
public final class TerminalWriter extends Writer {

    private static final int NORMAL = 0;
    private static final int ESC = 1;
    private static final int CSI = 2;
    private static final int CR = 3;
    /** Longest SGR sequence held while it is read; a longer one is no colour of ours and is shown escaped. */
    private static final int MAX_SGR = 40;

    private final Writer out;
    private final BooleanSupplier colour;
    private final StringBuilder pending = new StringBuilder();
    private int state = NORMAL;

    public TerminalWriter(Writer out, BooleanSupplier colour) {
        this.out = out;
        this.colour = colour;
    }

    /** {@code raw} behind this guard, as a print writer the commands use. */
    public static PrintWriter wrap(PrintWriter raw, BooleanSupplier colour) {
        return new PrintWriter(new TerminalWriter(raw, colour), true);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws java.io.IOException {
        synchronized (lock) {
            StringBuilder sb = new StringBuilder(len + 8);
            for (int i = off; i < off + len; i++) {
                accept(cbuf[i], sb);
            }
            emit(sb);
        }
    }

    @Override
    public void write(String str, int off, int len) throws java.io.IOException {
        synchronized (lock) {
            StringBuilder sb = new StringBuilder(len + 8);
            for (int i = off; i < off + len; i++) {
                accept(str.charAt(i), sb);
            }
            emit(sb);
        }
    }

    private void accept(char c, StringBuilder sb) {
        switch (state) {
            case ESC -> {
                if (c == '[') {
                    pending.append(c);
                    state = CSI;
                    return;
                }
                release(sb);
            }
            case CSI -> {
                if ((c >= '0' && c <= '9' || c == ';' || c == ':') && pending.length() < MAX_SGR) {
                    pending.append(c);
                    return;
                }
                if (c == 'm') {
                    if (colour.getAsBoolean()) {
                        sb.append(pending).append(c);
                    }
                    pending.setLength(0);
                    state = NORMAL;
                    return;
                }
                release(sb);
            }
            case CR -> {
                if (c == '\n') {
                    sb.append("\r\n");
                    pending.setLength(0);
                    state = NORMAL;
                    return;
                }
                release(sb);
            }
            default -> {
            }
        }
        if (c == 0x1b) {
            pending.append(c);
            state = ESC;
        } else if (c == '\r') {
            pending.append(c);
            state = CR;
        } else if (TerminalText.isControl(c)) {
            TerminalText.escape(c, sb);
        } else {
            sb.append(c);
        }
    }

    /** What was held as the start of a sequence that did not become one: shown escaped. */
    private void release(StringBuilder sb) {
        for (int i = 0; i < pending.length(); i++) {
            char p = pending.charAt(i);
            if (TerminalText.isControl(p)) {
                TerminalText.escape(p, sb);
            } else {
                sb.append(p);
            }
        }
        pending.setLength(0);
        state = NORMAL;
    }

    private void emit(StringBuilder sb) throws java.io.IOException {
        if (sb.length() > 0) {
            out.write(sb.toString());
        }
    }

    @Override
    public void flush() throws java.io.IOException {
        synchronized (lock) {
            if (state != NORMAL) {
                StringBuilder sb = new StringBuilder();
                release(sb);
                emit(sb);
            }
            out.flush();
        }
    }

    @Override
    public void close() throws java.io.IOException {
        flush();
        out.close();
    }
}
