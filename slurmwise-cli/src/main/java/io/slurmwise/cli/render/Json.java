package io.slurmwise.cli.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintWriter;

/**
 * Writes the JSON views; one mapper for the whole CLI. Strings are exact (a log line's escape characters come back
 * as they were when parsed) and terminal-safe: besides the control characters JSON itself escapes, DEL, the C1
 * controls, the bidirectional controls and the Unicode line separators are written as JSON unicode
 * escapes, so {@code --json} on a terminal cannot drive it either.
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static {
        MAPPER.getFactory().setCharacterEscapes(new TerminalSafeEscapes());
    }

    /** JSON's own escapes, plus every character {@link TerminalText#isControl} names. */
    private static final class TerminalSafeEscapes extends CharacterEscapes {

        private final int[] ascii = CharacterEscapes.standardAsciiEscapesForJSON();

        TerminalSafeEscapes() {
            ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch <= 0xffff && TerminalText.isControl((char) ch)
                    ? new SerializedString(String.format(java.util.Locale.ROOT, "\\u%04x", ch)) : null;
        }
    }

    private Json() {
    }

    public static void print(PrintWriter out, Object view) {
        try {
            out.println(MAPPER.writeValueAsString(view));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** One compact line, for JSON Lines output. */
    public static void printLine(PrintWriter out, Object view) {
        try {
            out.println(MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(view));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
