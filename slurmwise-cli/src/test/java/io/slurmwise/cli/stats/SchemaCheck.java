package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks a JSON document against the subset of JSON Schema that {@code stats-v1.schema.json} uses (type, const,
 * enum, properties, required, additionalProperties, items, $ref into $defs), so the documented schema and the
 * output cannot drift apart.
 */
final class SchemaCheck {

    private final JsonNode root;

    private SchemaCheck(JsonNode root) {
        this.root = root;
    }

    static SchemaCheck load(String resource) throws IOException {
        try (InputStream in = SchemaCheck.class.getClassLoader().getResourceAsStream(resource)) {
            return new SchemaCheck(new ObjectMapper().readTree(in));
        }
    }

    List<String> errors(JsonNode doc) {
        List<String> errors = new ArrayList<>();
        check(root, doc, "$", errors);
        return errors;
    }

    private void check(JsonNode schema, JsonNode v, String path, List<String> errors) {
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            check(root.at(ref.substring(1)), v, path, errors);
            return;
        }
        if (schema.has("const") && !schema.get("const").equals(v)) {
            errors.add(path + ": expected " + schema.get("const") + ", got " + v);
        }
        if (schema.has("enum")) {
            boolean found = false;
            for (JsonNode e : schema.get("enum")) {
                found |= e.equals(v);
            }
            if (!found) {
                errors.add(path + ": " + v + " is not one of " + schema.get("enum"));
            }
        }
        if (schema.has("type") && !typeMatches(schema.get("type"), v)) {
            errors.add(path + ": expected type " + schema.get("type") + ", got " + v.getNodeType() + " " + v);
            return;
        }
        if (v.isObject()) {
            JsonNode props = schema.get("properties");
            if (schema.has("required")) {
                for (JsonNode r : schema.get("required")) {
                    if (!v.has(r.asText())) {
                        errors.add(path + ": missing required " + r.asText());
                    }
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode sub = props == null ? null : props.get(f.getKey());
                JsonNode extra = schema.get("additionalProperties");
                if (sub != null) {
                    check(sub, f.getValue(), path + "." + f.getKey(), errors);
                } else if (extra != null && extra.isBoolean() && !extra.asBoolean()) {
                    errors.add(path + ": undocumented field " + f.getKey());
                } else if (extra != null && extra.isObject()) {
                    check(extra, f.getValue(), path + "." + f.getKey(), errors);
                }
            }
        }
        if (v.isArray() && schema.has("items")) {
            for (int i = 0; i < v.size(); i++) {
                check(schema.get("items"), v.get(i), path + "[" + i + "]", errors);
            }
        }
    }

    private static boolean typeMatches(JsonNode type, JsonNode v) {
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (typeMatches(t, v)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "string" -> v.isTextual();
            case "integer" -> v.isIntegralNumber();
            case "number" -> v.isNumber();
            case "boolean" -> v.isBoolean();
            case "null" -> v.isNull();
            default -> false;
        };
    }
}
