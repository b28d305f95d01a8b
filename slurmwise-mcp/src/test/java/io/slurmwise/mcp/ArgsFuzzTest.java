package io.slurmwise.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the reading of MCP tool arguments (whatever a model or client sends as JSON: strings, numbers of any size,
 * booleans, arrays, objects, null): each read returns a value in range or an IllegalArgumentException whose
 * message says what to send, which the server turns into a tool error.
 */
@Tag("fuzz")
class ArgsFuzzTest {

    private static final String[] NAMES = {"job_id", "limit", "all_users", "states", "text", "kind", ""};

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    private static final Function<Random, String> TEXT = Hostile.pick("1001", "4242_3", "20", "0", "-5", "1000",
            "true", "no", "YES", "1.5", "FAILED,TIMEOUT", " , ,", "2147483648");
    private static final Object[] NUMBERS = {Double.NaN, Double.POSITIVE_INFINITY, -0.0, 1e300, 4294967297.0, 20.5,
            new BigInteger("4294967301"), new BigInteger("9".repeat(400)), BigInteger.ONE.negate(),
            new BigDecimal("20.0"), new BigDecimal("1e400"), new BigDecimal("20.5"), Long.MIN_VALUE, 4294967316L};

    /** A JSON value as the SDK hands it over: a string, a number of any Java type, a boolean, a list, a map, null. */
    private static Object value(Random r, int depth) {
        return switch (r.nextInt(depth > 2 ? 6 : 8)) {
            case 0, 1 -> TEXT.apply(r);
            case 2 -> r.nextInt();
            case 3 -> r.nextInt(3) == 0 ? r.nextLong() : r.nextDouble() * 2000 - 500;
            case 4 -> NUMBERS[r.nextInt(NUMBERS.length)];
            case 5 -> r.nextBoolean() ? null : r.nextBoolean();
            case 6 -> {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(5); i > 0; i--) {
                    l.add(value(r, depth + 1));
                }
                yield l;
            }
            default -> {
                Map<String, Object> m = new HashMap<>();
                m.put("nested", value(r, depth + 1));
                yield m;
            }
        };
    }

    /** Arguments of known and unknown names, and which name and which read the tool does with them. */
    record Call(Map<String, Object> args, String name, int read) {
    }

    static Function<Random, Call> callsGen() {
        return (r -> {
            Map<String, Object> args = new HashMap<>();
            for (int i = r.nextInt(NAMES.length + 1); i > 0; i--) {
                args.put(NAMES[r.nextInt(NAMES.length)], value(r, 0));
            }
            return new Call(args, NAMES[r.nextInt(NAMES.length)], r.nextInt(6));
        });
    }

    @Test
    void mcpArguments() {
        for (Call c : Fuzz.inputs(callsGen())) {
            Args a = new Args(c.args());
            String name = c.name();
            Fuzz.rejectsOnlyWith("MCP Args (tool arguments)", IllegalArgumentException.class, c, () -> {
                switch (c.read()) {
                    case 0 -> assertThat(a.required(name)).isNotBlank();
                    case 1 -> a.optional(name);
                    case 2 -> assertThat(a.orDefault(name, "x")).isNotNull();
                    case 3 -> {
                        int n = a.integer(name, 20, 1, 1000);
                        assertThat(n).isBetween(1, 1000);
                        // a number is taken as it is or refused: never wrapped (2^32+5 -> 5) or cut (20.5 -> 20)
                        if (c.args().get(name) instanceof Number num && !(num instanceof Double d && d.isNaN())) {
                            assertThat(new BigDecimal(num.toString()).compareTo(BigDecimal.valueOf(n))).isZero();
                        }
                    }
                    case 4 -> a.bool(name, false);
                    default -> assertThat(a.list(name)).doesNotContainNull();
                }
            });
        }
    }
}
