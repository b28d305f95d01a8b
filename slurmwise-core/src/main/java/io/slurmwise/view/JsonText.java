package io.slurmwise.view;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * Writes a view (the maps, lists and scalars of {@link StatsViews} and friends) as indented JSON with the streaming
 * generator, in the layout of Jackson's default pretty printer: the bytes an {@code ObjectMapper} with
 * {@code INDENT_OUTPUT} gives for the same map, without data binding. Every program that prints a
 * {@code slurmwise.stats/v1} document (the CLI, slurmwise-spark) prints it through here, so they agree byte for
 * byte.
 */
public final class JsonText {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonText() {
    }

    /** The view as indented JSON, without a final newline. */
    public static String of(Object view) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            write(g, view);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write JSON: " + e.getMessage(), e);
        }
        return w.toString();
    }

    private static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Iterable<?> it) {
            g.writeStartArray();
            for (Object o : it) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else if (v instanceof Long l) {
            g.writeNumber(l);
        } else if (v instanceof Double d) {
            g.writeNumber(d);
        } else if (v instanceof Float f) {
            g.writeNumber(f);
        } else if (v instanceof Short s) {
            g.writeNumber(s);
        } else if (v instanceof BigDecimal b) {
            g.writeNumber(b);
        } else if (v instanceof BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof Enum<?> e) {
            g.writeString(e.name());
        } else {
            throw new IllegalArgumentException("a view holds maps, lists and scalars, not " + v.getClass().getName());
        }
    }
}
