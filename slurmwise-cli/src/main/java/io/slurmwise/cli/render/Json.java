package io.slurmwise.cli.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintWriter;

/** Writes the JSON views; one mapper for the whole CLI. */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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
