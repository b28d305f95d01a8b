package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The budget bounds the whole answer a client receives, the JSON and the text form together (an outside audit: the
 * text form added about 4 KB to a JSON cut to 16 KB), and a cut is said in both parts.
 */
class BoundedTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Map<String, Object> listOf(int entries, int entryChars) {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            jobs.add(Map.of("id", String.valueOf(1000 + i), "name", "x".repeat(entryChars)));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "test/v1");
        m.put("count", jobs.size());
        m.put("jobs", jobs);
        return m;
    }

    @Test
    void aListCutToTheBudgetLeavesRoomForTheTextAndTheTextSaysSo() throws Exception {
        Map<String, Object> m = Bounded.fit(listOf(200, 300), "jobs", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        Bounded.Parts parts = Bounded.parts(new ToolAnswer(m, "200 jobs:\n" + "1000 FAILED train\n".repeat(10)));
        assertThat(parts.bytes()).isLessThanOrEqualTo(Bounded.DEFAULT_BYTES);
        JsonNode json = JSON.readTree(parts.json());
        assertThat(json.get("truncated").asBoolean()).isTrue();
        assertThat(json.get("omitted").asInt()).isPositive();
        assertThat(json.has("text_truncated")).as("the text fitted whole").isFalse();
        assertThat(parts.text()).startsWith("200 jobs:");
        assertThat(flat(parts.text())).endsWith("(the structured answer leaves out " + json.get("omitted").asInt()
                + " entries to stay under 16 KiB: truncated, omitted)");
        assertThat(parts.text().lines()).allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(80));
    }

    /** The text form's lines, notes included, fit 80 columns; what a note says is read across its lines. */
    private static String flat(String text) {
        return text.replaceAll("\\s+", " ");
    }

    @Test
    void aNoteIsWrappedAtEightyColumns() {
        String note = Bounded.note("(the structured answer cuts every field longer than 1472 characters there, marked"
                + " '[... more characters cut]', to stay under 16 KiB: fields_cut_to)");
        assertThat(note).isEqualTo("(the structured answer cuts every field longer than 1472 characters there,\n"
                + " marked '[... more characters cut]', to stay under 16 KiB: fields_cut_to)");
        // a word longer than a line stands on its own line, whole
        String path = "/" + "p".repeat(100);
        assertThat(Bounded.note("see " + path + " now")).isEqualTo("see\n " + path + "\n now");
        assertThat(Bounded.note("short")).isEqualTo("short");
    }

    @Test
    void aLongTextFormIsCutToTheBudgetAndBothPartsSaySo() throws Exception {
        Map<String, Object> m = Bounded.fit(listOf(200, 300), "jobs", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        String text = "job 1001 é is PENDING (Resources): waiting. ".repeat(200); // ~9 KB, with 2-byte characters
        Bounded.Parts parts = Bounded.parts(new ToolAnswer(m, text));
        assertThat(parts.bytes()).isLessThanOrEqualTo(Bounded.DEFAULT_BYTES);
        JsonNode json = JSON.readTree(parts.json());
        assertThat(json.get("text_truncated").asBoolean()).isTrue();
        assertThat(parts.text()).startsWith("job 1001 é is PENDING")
                .contains("\n[... the text form is cut here to keep the whole answer under 16 KiB\n"
                        + " (text_truncated in the structured answer)]");
        assertThat(flat(parts.text())).endsWith("entries to stay under 16 KiB: truncated, omitted)");
        // an answer asked bigger has that budget, and room for a text form of 2 KiB
        String small = text.substring(0, 2000);
        Bounded.Parts big = Bounded.parts(new ToolAnswer(Bounded.fit(listOf(200, 300), "jobs", Bounded.jsonBytes(65536)),
                small, 65536));
        assertThat(big.bytes()).isLessThanOrEqualTo(65536);
        assertThat(big.text()).startsWith(small + "\n(the structured answer leaves out ");
        assertThat(flat(big.text())).isEqualTo(flat(small) + " (the structured answer leaves out "
                + JSON.readTree(big.json()).get("omitted").asInt() + " entries to stay under 64 KiB: truncated, omitted)");
    }

    @Test
    void aListNoToolCutIsLeftOutAndTheRestStaysValidJson() throws Exception {
        // 2,000 entries of short fields: no field cut makes them fit, so only the top level's own values are kept
        Bounded.Parts parts = Bounded.parts(new ToolAnswer(listOf(2000, 40), "2000 jobs"));
        assertThat(parts.bytes()).isLessThanOrEqualTo(Bounded.DEFAULT_BYTES);
        JsonNode json = JSON.readTree(parts.json());
        assertThat(json.get("schema").asText()).isEqualTo("test/v1");
        assertThat(json.get("count").asInt()).isEqualTo(2000);
        assertThat(json.get("truncated").asBoolean()).isTrue();
        assertThat(json.get("left_out_fields")).hasSize(1);
        assertThat(json.get("left_out_fields").get(0).asText()).isEqualTo("jobs");
        assertThat(parts.text()).startsWith("2000 jobs");
        assertThat(flat(parts.text())).contains("leaves out jobs: too large to stay under 16 KiB");
        assertThat(parts.text().lines()).allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(80));
    }

    @Test
    void anAnswerThatFitsIsUntouched() throws Exception {
        Bounded.Parts parts = Bounded.parts(new ToolAnswer(listOf(3, 10), "3 jobs"));
        assertThat(parts.text()).isEqualTo("3 jobs");
        assertThat(JSON.readTree(parts.json()).has("text_truncated")).isFalse();
        assertThat(Bounded.headBytes("aé😀b", 4)).isEqualTo("aé");
        assertThat(Bounded.headBytes("aé😀b", 7)).isEqualTo("aé😀");
    }
}
