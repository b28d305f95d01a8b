package io.slurmwise.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads tool arguments as models send them (numbers as strings, booleans as words); errors say what to send. */
final class Args {

    private final Map<String, Object> args;

    Args(Map<String, Object> args) {
        this.args = args == null ? Map.of() : args;
    }

    String required(String name) {
        String v = optional(name);
        if (v == null) {
            throw new IllegalArgumentException("the argument '" + name + "' is "
                    + (args.get(name) == null ? "required" : "blank: give it a value"));
        }
        return v;
    }

    String optional(String name) {
        Object v = args.get(name);
        if (v instanceof List<?>) {
            throw new IllegalArgumentException("the argument '" + name + "' is a list; give one value, as a string");
        }
        if (v instanceof Double || v instanceof Float || v instanceof java.math.BigDecimal) {
            java.math.BigDecimal d;
            try {
                d = new java.math.BigDecimal(v.toString()).stripTrailingZeros();
            } catch (NumberFormatException e) {
                d = null; // NaN, infinity
            }
            if (d == null || d.scale() > 0) {
                // 1024.5 is no job id (read as one, it was job 1024's step 5: an outside audit)
                throw new IllegalArgumentException("the argument '" + name + "' is the number " + v + ", which is no"
                        + " whole number; give it as a string ('1001', '1001_3', '1001.batch') or a whole number");
            }
            return d.toPlainString(); // 1e3 and 1000.0 are 1000, not 1000's step 0
        }
        return v == null || v.toString().isBlank() ? null : v.toString().strip();
    }

    String orDefault(String name, String dflt) {
        String v = optional(name);
        return v == null ? dflt : v;
    }

    /** An integer from {@code min} to {@code max}; {@code dflt} when absent. */
    int integer(String name, int dflt, int min, int max) {
        Object v = args.get(name);
        if (v == null || v.toString().isBlank()) {
            return dflt;
        }
        try {
            // exact: 4294967297 or 2.5 is not 1 or 2 (Number.intValue() would wrap or cut)
            java.math.BigDecimal d = new java.math.BigDecimal(v.toString().strip());
            if (d.compareTo(java.math.BigDecimal.valueOf(min)) < 0 || d.compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
                throw new NumberFormatException();
            }
            return d.intValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ", got " + v);
        }
    }

    boolean bool(String name, boolean dflt) {
        Object v = args.get(name);
        if (v == null || v.toString().isBlank()) {
            return dflt;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return switch (v.toString().strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, got " + v);
        };
    }

    /** A list given as a JSON array or as one comma-separated string; empty when absent. */
    List<String> list(String name) {
        Object v = args.get(name);
        List<String> out = new ArrayList<>();
        if (v instanceof List<?> l) {
            l.forEach(x -> out.add(String.valueOf(x)));
        } else if (v != null) {
            for (String s : v.toString().split(",")) {
                if (!s.isBlank()) {
                    out.add(s.strip());
                }
            }
        }
        return out;
    }
}
