package io.slurmwise.mcp.stdio;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one line as a JSON-RPC 2.0 message of MCP and says what to do with it: hand a well-formed request,
 * notification or response on, answer a faulty one with the error the specification asks for (-32700 parse error
 * with id null, -32600 invalid request, -32601, -32602 invalid params), or skip what needs no answer (a blank line,
 * a faulty notification or response). The parser is bounded (nesting depth, number length, token count), so no
 * line can exhaust the stack or the heap.
 */
final class Gate {

    /** What to do with one line. */
    sealed interface Verdict permits Skip, Reply, Request, Notification, Response {
    }

    /** Nothing to answer. */
    record Skip() implements Verdict {
    }

    /** Answer this line now with {@code line}. */
    record Reply(byte[] line) implements Verdict {
    }

    /** A well-formed request; {@code weight} is the size of its line. */
    record Request(McpSchema.JSONRPCRequest request, int weight) implements Verdict {
    }

    record Notification(McpSchema.JSONRPCNotification notification) implements Verdict {
    }

    record Response(McpSchema.JSONRPCResponse response) implements Verdict {
    }

    static final Skip SKIP = new Skip();
    /** Method names longer than this are not methods of anything. */
    static final int METHOD_CHARS = 256;
    /** No MCP message needs more tokens than this; a log of classify_log is one. */
    static final long TOKENS = 200_000;

    private final StdioLimits limits;
    private final Offer offer;
    /** The longest member name a message may hold (JSON-RPC's and the tools' names are short). */
    static final int NAME_CHARS = 65_536;
    private final JsonFactory factory;
    private final ObjectMapper json;

    /** @param tools the tools the server offers, so that a call of another is answered here; empty: not checked */
    Gate(StdioLimits limits, Set<String> tools) {
        this(limits, Offer.tools(tools));
    }

    /** @param offer what the server offers, so that a request for anything else is answered here */
    Gate(StdioLimits limits, Offer offer) {
        this.limits = limits;
        this.offer = offer;
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(limits.nestingDepth())
                        .maxNumberLength(limits.numberDigits())
                        .maxStringLength(limits.lineBytes())
                        .maxNameLength(NAME_CHARS)
                        .maxTokenCount(TOKENS)
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.json = new ObjectMapper(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    Verdict check(byte[] bytes, int length) {
        if (blank(bytes, length)) {
            return SKIP;
        }
        int bad = invalidUtf8(bytes, length);
        if (bad >= 0) {
            // the parser decodes overlong forms ("\xc0\xaf" as "/"): a filter in front of the server that looks
            // at bytes would then be blind to what the server reads
            return new Reply(Replies.error(null, Replies.PARSE_ERROR, "the line is not valid UTF-8 (byte " + (bad + 1)
                    + "); send JSON text in UTF-8"));
        }
        JsonNode node;
        try {
            node = json.readTree(bytes, 0, length);
        } catch (IOException e) {
            StreamConstraintsException limit = constraint(e);
            if (limit != null) {
                Recovered r = recover(bytes, length);
                return new Reply(Replies.error(r.id(), Replies.INVALID_REQUEST, "the message " + describe(limit)
                        + "; it was not read"));
            }
            if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException
                    && String.valueOf(((JsonProcessingException) e).getOriginalMessage()).startsWith("Trailing token")) {
                // two messages on one line: said in the protocol's words, not the parser's class names
                return new Reply(Replies.error(null, Replies.PARSE_ERROR, "the line holds more than one JSON value"
                        + where(e) + "; send one JSON-RPC message per line, each ending with a newline"));
            }
            return new Reply(Replies.error(null, Replies.PARSE_ERROR, "parse error: " + brief(e)
                    + "; send one JSON-RPC message per line"));
        }
        if (node == null || node.isMissingNode()) {
            return SKIP;
        }
        if (node.isArray()) {
            return new Reply(Replies.error(null, Replies.INVALID_REQUEST, node.isEmpty() ? "an empty batch is not a request"
                    : "JSON-RPC batches are not supported (MCP 2025-06-18 dropped them): send each message on its own line"));
        }
        if (!node.isObject()) {
            return new Reply(Replies.error(null, Replies.INVALID_REQUEST, "a message must be a JSON object, not "
                    + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        if (surrogateEscape(bytes, length)) {
            JsonNode id = node.get("id");
            int lone = id != null && id.isTextual() ? Shown.loneSurrogate(id.textValue()) : -1;
            if (lone >= 0) {
                // an id is echoed as sent, and a strict client cannot parse a lone surrogate back
                return new Reply(Replies.error(null, Replies.INVALID_REQUEST, "the id holds a lone surrogate (\\u"
                        + Integer.toHexString(id.textValue().charAt(lone)) + "), which is no Unicode character; send"
                        + " the id as valid Unicode text"));
            }
            node = wholeCharacters(node);
        }
        return message(node, length);
    }

    /**
     * Whether {@code b[0, n)} holds a {@code \\uD800}-{@code \\uDFFF} escape: the valid UTF-8 check above sees
     * raw bytes only, and JSON lets such an escape stand alone (a client that cut a string between the halves of
     * a pair sends one).
     */
    static boolean surrogateEscape(byte[] b, int n) {
        for (int i = 0; i + 2 < n; i++) {
            if (b[i] == '\\' && b[i + 1] == 'u' && (b[i + 2] == 'd' || b[i + 2] == 'D')) {
                return true;
            }
            if (b[i] == '\\') {
                i++; // an escaped backslash is no escape's start
            }
        }
        return false;
    }

    /**
     * {@code node} with every lone surrogate in its string values replaced by U+FFFD, as a decoder replaces bytes
     * that are no character: what a tool, a prompt or the SDK quotes back in an answer is then text every client can
     * parse (a strict JSON parser refuses a lone {@code \\ud800}, and loses the whole answer). Member names keep
     * theirs: the parser refuses a lone surrogate in a name (a -32700).
     */
    static JsonNode wholeCharacters(JsonNode node) {
        if (node.isTextual()) {
            String s = node.textValue();
            return Shown.loneSurrogate(s) < 0 ? node
                    : com.fasterxml.jackson.databind.node.TextNode.valueOf(Shown.whole(s, '\uFFFD'));
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out =
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode(node.size());
            node.forEach(v -> out.add(wholeCharacters(v)));
            return out;
        }
        if (node.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode out =
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.set(e.getKey(), wholeCharacters(e.getValue()));
            }
            return out;
        }
        return node;
    }

    /**
     * A line over the length cap, of which {@code head} is the beginning: answered for the id it shows, if any,
     * unless a call not answered yet holds that id (its client would get two answers for one id): then id null.
     */
    Verdict tooLong(byte[] head, long length, java.util.function.Predicate<Object> idTaken) {
        Recovered r = recover(head, head.length);
        String size = "the message is " + Replies.size(length, limits.lineBytes()) + " this server reads in one message";
        if (r.id() != null && idTaken.test(r.id())) {
            return new Reply(Replies.error(null, Replies.INVALID_REQUEST, size + ", and its id "
                    + Replies.quote(String.valueOf(r.id())) + " is taken by a call not answered yet; it was skipped"));
        }
        if (r.id() != null && McpSchema.METHOD_TOOLS_CALL.equals(r.method())) {
            String tool = r.tool() == null ? "the tool" : Replies.quote(r.tool());
            return new Reply(Replies.toolError(r.id(), tool + " was not run: " + size
                    + "; send less (for a log, its last lines)"));
        }
        return new Reply(Replies.error(r.id(), Replies.INVALID_REQUEST, size + "; it was skipped"));
    }

    private Verdict message(JsonNode node, int length) {
        boolean hasId = node.has("id");
        Object id = hasId ? id(node.get("id")) : null;
        JsonNode method = node.get("method");
        boolean v2 = "2.0".equals(node.path("jsonrpc").textValue());
        JsonNode params = node.get("params");
        if (params != null && params.isNull()) {
            params = null;
        }
        if (method == null) {
            if (node.has("result") || node.has("error")) {
                return response(node, v2, id);
            }
            return new Reply(Replies.error(id, Replies.INVALID_REQUEST, "a request needs a method (a string)"));
        }
        if (!hasId) {
            // a notification is never answered, not even when it is faulty
            if (!v2 || !method.isTextual() || method.textValue().length() > METHOD_CHARS
                    || (params != null && !params.isObject())) {
                return SKIP;
            }
            return new Notification(new McpSchema.JSONRPCNotification(method.textValue(), map(params)));
        }
        if (id == null) {
            return new Reply(Replies.error(null, Replies.INVALID_REQUEST, "the id must be a string of at most "
                    + limits.idChars() + " characters or an integer"));
        }
        if (!v2) {
            return new Reply(Replies.error(id, Replies.INVALID_REQUEST, "jsonrpc must be \"2.0\""));
        }
        if (!method.isTextual()) {
            return new Reply(Replies.error(id, Replies.INVALID_REQUEST, "the method must be a string"));
        }
        String name = method.textValue();
        if (name.length() > METHOD_CHARS) {
            return new Reply(Replies.error(id, Replies.METHOD_NOT_FOUND, "no method has a " + name.length()
                    + "-character name"));
        }
        if (!Shown.oneLine(name).equals(name)) {
            // no method's name holds these; the SDK's own answer quoted the name whole, terminal escapes and all
            return new Reply(Replies.error(id, Replies.METHOD_NOT_FOUND, "no method is named '" + Replies.quote(name)
                    + "': the name holds control or bidirectional characters (shown as '?')"));
        }
        if (params != null && !params.isObject()) {
            return new Reply(Replies.error(id, Replies.INVALID_PARAMS, "params must be an object"));
        }
        String bad = Params.check(name, params, offer);
        if (bad != null) {
            return new Reply(Replies.error(id, Replies.INVALID_PARAMS, bad));
        }
        if (name.equals(McpSchema.METHOD_RESOURCES_READ) && !offer.resources().isEmpty()
                && !offer.hasResource(params.get("uri").textValue())) {
            // -32002, MCP's resource not found, naming the resources there are
            return new Reply(Replies.error(id, Replies.RESOURCE_NOT_FOUND, "there is no resource '"
                    + Replies.quote(params.get("uri").textValue()) + "': the resources are " + offer.describeResources()
                    + " (resources/list and resources/templates/list name them)"));
        }
        return new Request(new McpSchema.JSONRPCRequest(name, id, map(params)), length);
    }

    private Verdict response(JsonNode node, boolean v2, Object id) {
        JsonNode error = node.get("error");
        boolean one = node.has("result") ^ node.has("error");
        if (!v2 || id == null || !one || (error != null && !(error.isObject() && error.path("code").isInt()
                && error.path("message").isTextual()))) {
            return SKIP;  // a faulty response is not answered
        }
        try {
            return new Response(json.treeToValue(node, McpSchema.JSONRPCResponse.class));
        } catch (IOException | IllegalArgumentException e) {
            return SKIP;
        }
    }

    /** A string id of at most {@code idChars}, or an integer id; null for anything else. */
    private Object id(JsonNode id) {
        if (id == null) {
            return null;
        }
        if (id.isTextual()) {
            return id.textValue().length() <= limits.idChars() ? id.textValue() : null;
        }
        if (id.isIntegralNumber() && id.canConvertToLong()) {
            return id.canConvertToInt() ? (Object) id.intValue() : (Object) id.longValue();
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(JsonNode params) {
        return params == null ? null : json.convertValue(params, Map.class);
    }

    /** What can be read of a message the parser refused or cut: its id, method and tool name, when they come first. */
    record Recovered(Object id, String method, String tool) {
    }

    Recovered recover(byte[] bytes, int length) {
        Object id = null;
        String method = null;
        String tool = null;
        try (JsonParser p = factory.createParser(bytes, 0, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Recovered(null, null, null);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if ("id".equals(field)) {
                    id = parsedId(p, t);
                } else if ("method".equals(field) && t == JsonToken.VALUE_STRING && p.getTextLength() <= METHOD_CHARS) {
                    method = p.getText();
                } else if ("params".equals(field) && t == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        JsonToken v = p.nextToken();
                        if ("name".equals(inner) && v == JsonToken.VALUE_STRING && p.getTextLength() <= METHOD_CHARS) {
                            tool = p.getText();
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            // the message ends or breaks here: what was read stands
        }
        return new Recovered(id, method, tool);
    }

    private Object parsedId(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_STRING && p.getTextLength() <= limits.idChars()) {
            return p.getText();
        }
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return switch (p.getNumberType()) {
                case INT -> p.getIntValue();
                case LONG -> p.getLongValue();
                default -> null;
            };
        }
        p.skipChildren();
        return null;
    }

    private static StreamConstraintsException constraint(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamConstraintsException s) {
                return s;
            }
        }
        return null;
    }

    private String describe(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage()).toLowerCase(java.util.Locale.ROOT);
        if (m.contains("nesting")) {
            return "nests deeper than " + limits.nestingDepth() + " levels";
        }
        if (m.contains("number")) {
            return "has a number longer than " + limits.numberDigits() + " digits";
        }
        if (m.contains("token count")) {
            return "has more than " + TOKENS + " JSON tokens";
        }
        if (m.contains("name")) {
            return "has a member name longer than " + NAME_CHARS + " characters";
        }
        if (m.contains("string")) {
            return "has a string longer than the " + Replies.megabytes(limits.lineBytes()) + " of one message";
        }
        return "is over a parser limit (" + Replies.quote(e.getOriginalMessage()) + ")";
    }

    private static String brief(IOException e) {
        String m = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        // neither the parser's source notes nor the client's bytes (which may be binary) go back
        m = String.valueOf(m).replaceAll(" ?\\(start marker at \\[Source:[^\\]]*\\]\\)", "")
                // the parser's own switches are not the client's business: JSON has no NaN and no comments
                .replaceAll(": enable `[^`]*` to allow", " (not JSON)")
                .replaceAll(" ?\\(not recognized as one since Feature '[^']*' not enabled for parser\\)", " (JSON has none)")
                .replaceAll("token '[^']*'", "token");
        return Replies.quote(m) + where(e);
    }

    private static String where(IOException e) {
        return e instanceof JsonProcessingException j && j.getLocation() != null && j.getLocation().getColumnNr() > 0
                ? " at character " + j.getLocation().getColumnNr() : "";
    }

    /**
     * Where {@code b[0, n)} stops being well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
     * U+10FFFF), or -1.
     */
    static int invalidUtf8(byte[] b, int n) {
        int i = 0;
        while (i < n) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i++;
                continue;
            }
            int need;
            int min;
            if (c >= 0xc2 && c <= 0xdf) {
                need = 1;
                min = 0x80;
            } else if (c >= 0xe0 && c <= 0xef) {
                need = 2;
                min = 0x800;
            } else if (c >= 0xf0 && c <= 0xf4) {
                need = 3;
                min = 0x10000;
            } else {
                return i;
            }
            if (i + need >= n) {
                return i;
            }
            int cp = c & (0x3f >> need);
            for (int k = 1; k <= need; k++) {
                int d = b[i + k] & 0xff;
                if ((d & 0xc0) != 0x80) {
                    return i;
                }
                cp = (cp << 6) | (d & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                return i;
            }
            i += need + 1;
        }
        return -1;
    }

    private static boolean blank(byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The shape each MCP method's params must have, before the SDK converts them. */
    static final class Params {

        private Params() {
        }

        /** Null when {@code params} fit {@code method}; else what is wrong, in one sentence. */
        static String check(String method, JsonNode params, Set<String> tools) {
            return check(method, params, Offer.tools(tools));
        }

        /** Null when {@code params} fit {@code method} and name what {@code offer} has; else what is wrong. */
        static String check(String method, JsonNode params, Offer offer) {
            Set<String> tools = offer.tools();
            return switch (method) {
                case McpSchema.METHOD_INITIALIZE -> first(string(method, params, "protocolVersion", true, 64),
                        object(method, params, "capabilities"), object(method, params, "clientInfo"));
                case McpSchema.METHOD_TOOLS_CALL -> first(string(method, params, "name", true, METHOD_CHARS),
                        tool(text(params, "name"), tools), object(method, params, "arguments"));
                case McpSchema.METHOD_PROMPT_GET -> first(string(method, params, "name", true, METHOD_CHARS),
                        prompt(text(params, "name"), offer.prompts()), promptArguments(params));
                case McpSchema.METHOD_RESOURCES_READ -> string(method, params, "uri", true, 1024);
                case McpSchema.METHOD_TOOLS_LIST, McpSchema.METHOD_RESOURCES_LIST,
                        McpSchema.METHOD_RESOURCES_TEMPLATES_LIST, McpSchema.METHOD_PROMPT_LIST ->
                        string(method, params, "cursor", false, 1024);
                case McpSchema.METHOD_LOGGING_SET_LEVEL -> first(string(method, params, "level", true, 16),
                        level(text(params, "level")));
                default -> null;
            };
        }

        /** The levels of MCP's logging (RFC 5424's, lowest first). */
        static final List<String> LEVELS = List.of("debug", "info", "notice", "warning", "error", "critical", "alert",
                "emergency");

        /** A tool the server does not offer (a writing one, a typo) is named back with the tools it does offer. */
        /** A string field's text, or null when it is absent or not a string (which the shape checks report). */
        private static String text(JsonNode params, String field) {
            JsonNode v = params == null ? null : params.get(field);
            return v != null && v.isTextual() ? v.textValue() : null;
        }

        private static String tool(String name, Set<String> tools) {
            if (name == null || tools.isEmpty() || tools.contains(name)) {
                return null;
            }
            return "there is no tool '" + Replies.quote(name) + "': this server only reads, and its tools are "
                    + String.join(", ", tools);
        }

        /** A prompt the server does not offer is named back with the prompts it does offer. */
        private static String prompt(String name, Set<String> prompts) {
            if (name == null || prompts.isEmpty() || prompts.contains(name)) {
                return null;
            }
            return "there is no prompt '" + Replies.quote(name) + "': the prompts are " + String.join(", ", prompts);
        }

        private static String level(String level) {
            return level == null || LEVELS.contains(level) ? null : "params.level must be one of " + String.join(", ", LEVELS)
                    + ", not '" + Replies.quote(level) + "'";
        }

        /** A prompt's arguments are filled into its text: short scalars only. */
        private static String promptArguments(JsonNode params) {
            String bad = object(McpSchema.METHOD_PROMPT_GET, params, "arguments");
            if (bad != null || params == null || !params.has("arguments")) {
                return bad;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = params.get("arguments").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (!v.isValueNode() || v.asText().length() > 256) {
                    return "prompt argument '" + Replies.quote(e.getKey()) + "' must be a string of at most 256 characters";
                }
            }
            return null;
        }

        private static String string(String method, JsonNode params, String field, boolean required, int max) {
            JsonNode v = params == null ? null : params.get(field);
            if (v == null || v.isNull()) {
                return required ? method + " needs params." + field + " (a string)" : null;
            }
            if (!v.isTextual()) {
                return "params." + field + " must be a string";
            }
            if (v.textValue().length() > max) {
                return "params." + field + " is " + v.textValue().length() + " characters long; at most " + max
                        + " are read";
            }
            return null;
        }

        private static String object(String method, JsonNode params, String field) {
            JsonNode v = params == null ? null : params.get(field);
            return v == null || v.isNull() || v.isObject() ? null : "params." + field + " of " + method
                    + " must be an object";
        }

        private static String first(String... problems) {
            for (String p : problems) {
                if (p != null) {
                    return p;
                }
            }
            return null;
        }
    }
}
