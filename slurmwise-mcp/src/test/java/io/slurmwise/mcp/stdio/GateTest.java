package io.slurmwise.mcp.stdio;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate's byte checks: well-formed UTF-8 only, and an oversized line never answered by a taken id. */
class GateTest {

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void onlyWellFormedUtf8Passes() {
        byte[] ok = "ascii, é, ‘quotes’, 中文, 🙂".getBytes(StandardCharsets.UTF_8);
        assertThat(Gate.invalidUtf8(ok, ok.length)).isEqualTo(-1);
        assertThat(Gate.invalidUtf8(bytes('a', 0xc0, 0xaf), 3)).as("overlong '/'").isEqualTo(1);
        assertThat(Gate.invalidUtf8(bytes(0xe0, 0x80, 0xaf), 3)).as("overlong in three bytes").isZero();
        assertThat(Gate.invalidUtf8(bytes(0xed, 0xa0, 0x80), 3)).as("a surrogate").isZero();
        assertThat(Gate.invalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80), 4)).as("past U+10FFFF").isZero();
        assertThat(Gate.invalidUtf8(bytes('x', 0xc3), 2)).as("cut at the end").isEqualTo(1);
        assertThat(Gate.invalidUtf8(bytes(0x80), 1)).as("a lone continuation").isZero();
        assertThat(Gate.invalidUtf8(bytes(0xc3, 0x28), 2)).as("a bad continuation").isZero();
        // only the given length counts
        assertThat(Gate.invalidUtf8(bytes('a', 'b', 0xff), 2)).isEqualTo(-1);
    }

    @Test
    void anOversizedLineIsNotAnsweredByAnIdACallInFlightHolds() {
        Gate gate = new Gate(StdioLimits.DEFAULT, Set.of("get_job"));
        byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":\"victim\",\"method\":\"tools/call\",\"params\":{\"name\":\"get_job\""
                .getBytes(StandardCharsets.UTF_8);
        String taken = new String(((Gate.Reply) gate.tooLong(head, 9L << 20, id -> true)).line(), StandardCharsets.UTF_8);
        assertThat(taken).contains("\"id\":null").contains("is taken by a call not answered yet").contains("9.0 MiB");
        String free = new String(((Gate.Reply) gate.tooLong(head, 9L << 20, id -> false)).line(), StandardCharsets.UTF_8);
        assertThat(free).contains("\"id\":\"victim\"").contains("was not run");
        // one byte over reads as bytes, not "8.0 MiB, over the 8.0 MiB"
        String edge = new String(((Gate.Reply) gate.tooLong(head, (8L << 20) + 1, id -> false)).line(),
                StandardCharsets.UTF_8);
        assertThat(edge).contains("8,388,609 bytes, over the 8,388,608 (8.0 MiB)");
    }

    @Test
    void aLoneSurrogateEscapeIsReadAsTheReplacementCharacterAndAnIdWithOneIsRefused() throws Exception {
        Gate gate = new Gate(StdioLimits.DEFAULT, Set.of("get_job"));
        byte[] call = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_job\","
                + "\"arguments\":{\"job_id\":[\"1001\\ud800\", \"\\ud83d\\ude00\", \"\\udc00\\ud800\"]}}}")
                .getBytes(StandardCharsets.UTF_8);
        Gate.Request r = (Gate.Request) gate.check(call, call.length);
        Object ids = ((java.util.Map<?, ?>) ((java.util.Map<?, ?>) r.request().params()).get("arguments")).get("job_id");
        assertThat(ids).isEqualTo(java.util.List.of("1001\ufffd", "\ud83d\ude00", "\ufffd\ufffd"));
        byte[] loneId = "{\"jsonrpc\":\"2.0\",\"id\":\"a\\ud800\",\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
        String answer = new String(((Gate.Reply) gate.check(loneId, loneId.length)).line(), StandardCharsets.UTF_8);
        assertThat(answer).contains("\"id\":null", "-32600", "lone surrogate (\\\\ud800)");
        // an escaped backslash before "ud800" is text, not an escape
        byte[] text = "\"\\\\ud800\"".getBytes(StandardCharsets.UTF_8);
        assertThat(Gate.surrogateEscape(text, text.length)).isFalse();
        byte[] escape = "\"\\\\\\ud800\"".getBytes(StandardCharsets.UTF_8);
        assertThat(Gate.surrogateEscape(escape, escape.length)).isTrue();
    }
}
