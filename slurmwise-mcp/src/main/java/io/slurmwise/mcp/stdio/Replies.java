package io.slurmwise.mcp.stdio;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.UncheckedIOException;

/** The answers the front writes itself, as compact JSON lines: JSON-RPC errors, a tool error, an empty result. */
final class Replies {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** Implementation-defined server error: too many calls waiting, retry. */
    static final int BUSY = -32000;
    /** Implementation-defined server error: the call ran past {@link StdioLimits#callTimeout()}. */
    static final int TIMED_OUT = -32001;
    /** MCP's resource not found. */
    static final int RESOURCE_NOT_FOUND = -32002;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Messages quote little of what the client sent. */
    private static final int QUOTE = 200;

    private Replies() {
    }

    /** A JSON-RPC error answer; {@code id} null when it could not be read. */
    static byte[] error(Object id, int code, String message) {
        ObjectNode n = envelope(id);
        ObjectNode e = n.putObject("error");
        e.put("code", code);
        e.put("message", message);
        return bytes(n);
    }

    /** A tools/call result flagged as an error: what a model reads and can act on. */
    static byte[] toolError(Object id, String text) {
        ObjectNode n = envelope(id);
        ObjectNode r = n.putObject("result");
        r.putArray("content").addObject().put("type", "text").put("text", text);
        r.put("isError", true);
        return bytes(n);
    }

    /** An empty result, as ping answers. */
    static byte[] empty(Object id) {
        ObjectNode n = envelope(id);
        n.putObject("result");
        return bytes(n);
    }

    /** One line of at most {@value #QUOTE} characters, as {@link Shown#oneLine}. */
    static String quote(String s) {
        String one = Shown.oneLine(s);
        return one.length() <= QUOTE ? one : one.substring(0, QUOTE) + "...";
    }

    /** "{@code 9.0 MiB, over the 8.0 MiB}", in bytes where the two would read the same. */
    static String size(long length, long limit) {
        String a = megabytes(length);
        String b = megabytes(limit);
        return a.equals(b) ? String.format(java.util.Locale.ROOT, "%,d bytes, over the %,d (%s)", length, limit, b)
                : a + ", over the " + b;
    }

    static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static ObjectNode envelope(Object id) {
        ObjectNode n = JSON.createObjectNode();
        n.put("jsonrpc", "2.0");
        n.set("id", JSON.valueToTree(id));
        return n;
    }

    private static byte[] bytes(ObjectNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
