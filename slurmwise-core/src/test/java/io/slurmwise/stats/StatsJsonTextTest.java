package io.slurmwise.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.view.JsonText;
import io.slurmwise.view.StatsContext;
import io.slurmwise.view.StatsViews;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The stats document's writer gives the bytes data binding gives (what the CLI printed before it used it). */
class StatsJsonTextTest {

    @Test
    void aStatsDocumentIsWrittenAsAnIndentingObjectMapperWritesIt() throws Exception {
        FleetStats s = FleetStatsTest.aggregate(FleetStatsTest.mix(3_000, 11), 10);
        s.coverWindow(LocalDateTime.of(2026, 10, 1, 0, 0), null);
        StatsContext ctx = new StatsContext(s.report(), JobQuery.window(null, null), Duration.ofDays(7), 1, false,
                "sacct export x.psv (3000 records read)", Taxonomy.load(null));
        Map<String, Object> view = StatsViews.json(ctx);
        String expected = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(view);
        assertThat(JsonText.of(view)).isEqualTo(expected);
        assertThat(expected).contains("\"top_jobs\" : [ {", "\"by_cluster\" : [ ]", "\"partition\" : null");
    }
}
