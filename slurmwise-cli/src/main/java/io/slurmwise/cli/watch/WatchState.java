package io.slurmwise.cli.watch;

import io.slurmwise.config.AtomicFile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code slurmwise watch} remembers between runs, in {@code SLURMWISE_HOME/watch-<backend>.json}: where the
 * last window ended, and the jobs already diagnosed (with when, so they are forgotten once no window can return
 * them). Written atomically: a crash or Ctrl-C leaves the old file or the new one, never half of one.
 *
 * @param windowEnd when the last poll's window ended, or null before the first poll
 * @param diagnosed job id -> when watch diagnosed it
 */
record WatchState(LocalDateTime windowEnd, Map<String, LocalDateTime> diagnosed) {

    static final String SCHEMA = "slurmwise.watch-state/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    WatchState {
        diagnosed = new LinkedHashMap<>(diagnosed);
    }

    static WatchState empty() {
        return new WatchState(null, Map.of());
    }

    static Path file(Path home, String backend) {
        return home.resolve("watch-" + backend + ".json");
    }

    /** A state file that exists but cannot be read back (cut short, overwritten, not ours): set aside by {@link #load}. */
    static final class DamagedException extends IOException {
        private static final long serialVersionUID = 1L;

        DamagedException(String message) {
            super(message);
        }
    }

    /**
     * The saved state; empty when there is none yet.
     *
     * @throws DamagedException when the file is not a readable state: it has been moved to {@code <file>.damaged}
     *                          (the message says so, in one line) and the caller starts afresh
     * @throws IOException      when the file cannot be read at all
     */
    static WatchState load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return empty();
        }
        String problem;
        try {
            return parse(MAPPER.readTree(file.toFile()));
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            problem = e.getOriginalMessage().lines().findFirst().orElse("not JSON");
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            problem = e.getMessage().lines().findFirst().orElse("");
        }
        Path aside = file.resolveSibling(file.getFileName() + ".damaged");
        Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
        throw new DamagedException(file + " was not a readable watch state (" + problem + "); moved it to " + aside
                + " and starting afresh: failures of the last window may be reported again");
    }

    private static WatchState parse(JsonNode n) {
        if (n == null || !SCHEMA.equals(n.path("schema").asText())) {
            throw new IllegalArgumentException("not a " + SCHEMA + " file");
        }
        Map<String, LocalDateTime> done = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : n.path("diagnosed").properties()) {
            done.put(e.getKey(), e.getValue().isNull() ? null : LocalDateTime.parse(e.getValue().asText()));
        }
        String end = n.path("window_end").asText(null);
        return new WatchState(end == null ? null : LocalDateTime.parse(end), done);
    }

    /** Replaces the file at once ({@link AtomicFile}): a kill leaves the old state or the new one. */
    void save(Path file) throws IOException {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("schema", SCHEMA);
        n.put("window_end", windowEnd == null ? null : windowEnd.toString());
        ObjectNode d = n.putObject("diagnosed");
        diagnosed.forEach((id, end) -> d.put(id, end == null ? null : end.toString()));
        byte[] text = (MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        AtomicFile.write(file, out -> out.write(text));
    }

    boolean seen(String id) {
        return diagnosed.containsKey(id);
    }

    Optional<LocalDateTime> optWindowEnd() {
        return Optional.ofNullable(windowEnd);
    }
}
