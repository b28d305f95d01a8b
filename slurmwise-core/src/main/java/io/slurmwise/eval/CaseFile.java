package io.slurmwise.eval;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.job.MemoryRequest;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Reads and validates a benchmark file: JSON Lines, one case per line, with the keys of
 * {@code benchmark/README.md} ({@code id, label, sacct_state, exit_code, log, source, notes}, optional
 * {@code split, elapsed, timelimit, req_mem, max_rss, pending_reason, clear}; other keys are ignored). Every problem is
 * reported with its line number, not just the first.
 *
 * <pre>{@code
 * List<BenchmarkCase> cases = CaseFile.bundled(taxonomy);            // the benchmark shipped in the jar
 * List<BenchmarkCase> mine = CaseFile.read(Path.of("mine.jsonl"), taxonomy);
 * }</pre>
 */
public final class CaseFile {

    /** Classpath location of the bundled benchmark. */
    public static final String BUNDLED = "io/slurmwise/benchmark/cases.jsonl";
    static final List<String> REQUIRED = List.of("id", "label", "sacct_state", "exit_code", "log", "source", "notes");
    private static final int MAX_PROBLEMS = 25;
    private static final JsonFactory JSON = new JsonFactory();

    private CaseFile() {
    }

    /** The labeled benchmark bundled with slurmwise, its split taken from the frozen list of test cases. */
    public static List<BenchmarkCase> bundled(Taxonomy taxonomy) {
        InputStream in = CaseFile.class.getClassLoader().getResourceAsStream(BUNDLED);
        if (in == null) {
            throw new IllegalStateException("the bundled benchmark (" + BUNDLED + ") is missing from slurmwise-core;"
                    + " rebuild the jar");
        }
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return FrozenSplit.bundled().apply(read("cases.jsonl (bundled)", r, taxonomy));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws NoSuchFileException when the file does not exist */
    public static List<BenchmarkCase> read(Path file, Taxonomy taxonomy) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(file.toString(), r, taxonomy);
        }
    }

    /**
     * @param name shown in problems ({@code <name>:<line>: ...})
     * @throws CaseFileException listing every problem, when any case is invalid or there is none
     */
    public static List<BenchmarkCase> read(String name, Reader reader, Taxonomy taxonomy) throws IOException {
        List<BenchmarkCase> cases = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        BufferedReader r = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        int n = 0;
        for (String line; (line = r.readLine()) != null && problems.size() < MAX_PROBLEMS; ) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            List<String> mine = new ArrayList<>();
            Optional<BenchmarkCase> c = parseCase(n, line, taxonomy, mine);
            mine.forEach(p -> problems.add(name + ":" + p));
            if (c.isPresent()) {
                Integer before = seen.putIfAbsent(c.get().id(), n);
                if (before != null) {
                    problems.add(name + ":" + n + ": duplicate id '" + c.get().id() + "' (first on line " + before + ")");
                } else {
                    cases.add(c.get());
                }
            }
        }
        if (problems.isEmpty() && cases.isEmpty()) {
            problems.add(name + ": no cases (expected one JSON object per line)");
        }
        if (!problems.isEmpty()) {
            throw new CaseFileException(name, problems);
        }
        return List.copyOf(cases);
    }

    private static Optional<BenchmarkCase> parseCase(int n, String line, Taxonomy taxonomy, List<String> problems) {
        Map<String, Object> o;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                problems.add(n + ": expected a JSON object ({\"id\": ..., \"label\": ...}), found " + describe(p.currentToken()));
                return Optional.empty();
            }
            o = readObject(p);
            if (p.nextToken() != null) {
                problems.add(n + ":" + p.currentLocation().getColumnNr() + ": text after the JSON object (one case per line)");
                return Optional.empty();
            }
        } catch (JsonParseException e) {
            // Jackson appends where the object started, with an internal source note: the line number says it
            problems.add(n + ":" + e.getLocation().getColumnNr() + ": invalid JSON: " + e.getOriginalMessage()
                    .replaceAll("\\s+", " ").replaceAll(" ?\\(start marker at .*$", ""));
            return Optional.empty();
        } catch (IOException e) {
            problems.add(n + ": cannot read the line as JSON: " + e.getMessage());
            return Optional.empty();
        }
        for (String key : REQUIRED) {
            if (!o.containsKey(key)) {
                problems.add(n + ": missing key '" + key + "'");
            }
        }
        String id = string(o, "id", false, n, problems);
        String label = string(o, "label", false, n, problems);
        String state = string(o, "sacct_state", true, n, problems);
        // a bare number is a shell's exit status (137, not "137:0"); read it as sacct would print it
        if (o.get("exit_code") instanceof Number num && (num instanceof Integer || num instanceof Long)) {
            o.put("exit_code", num.longValue() + ":0");
        }
        String exit = string(o, "exit_code", true, n, problems);
        String log = string(o, "log", false, n, problems);
        String source = string(o, "source", false, n, problems);
        String notes = string(o, "notes", false, n, problems);
        String split = string(o, "split", true, n, problems);
        if (id != null && id.isBlank()) {
            problems.add(n + ": 'id' is empty");
        }
        if (label != null && !BenchmarkCase.NONE.equals(label)
                && (taxonomy.find(label).isEmpty() || taxonomy.kind(label).isUnknown())) {
            problems.add(n + ": unknown label '" + label + "'; use a kind of the taxonomy or 'none' (no failure cause): "
                    + String.join(", ", knownLabels(taxonomy)));
        }
        if (split != null && !split.equals("dev") && !split.equals("test")) {
            problems.add(n + ": 'split' must be \"dev\" or \"test\", not \"" + split + "\"");
        }
        JobState js = null;
        if (state != null) {
            js = JobState.parse(state);
            if (js == JobState.UNKNOWN) {
                problems.add(n + ": 'sacct_state' \"" + state + "\" is not a SLURM job state (e.g. FAILED, TIMEOUT,"
                        + " OUT_OF_MEMORY, CANCELLED by 1001)");
            }
        }
        ExitCode ec = null;
        if (exit != null) {
            ec = ExitCode.tryParse(exit).orElse(null);
            if (ec == null) {
                problems.add(n + ": 'exit_code' \"" + exit + "\" is not SLURM's code:signal (e.g. 0:125, 1:0)");
            }
        }
        Duration elapsed = duration(o, "elapsed", n, problems, false);
        Duration limit = duration(o, "timelimit", n, problems, true);
        DataSize reqMem = size(o, "req_mem", n, problems);
        DataSize maxRss = size(o, "max_rss", n, problems);
        String reason = string(o, "pending_reason", true, n, problems);
        boolean clear = true;
        if (o.containsKey("clear")) {
            if (o.get("clear") instanceof Boolean b) {
                clear = b;
            } else {
                problems.add(n + ": 'clear' must be true or false (false: the text alone does not show the label's cause)");
            }
        }
        if (!problems.isEmpty()) {
            return Optional.empty();
        }
        JobFacts facts = new JobFacts(js, ec, maxRss, reqMem, elapsed, limit, reason, null);
        return Optional.of(new BenchmarkCase(n, id, split == null ? "test" : split, label, facts, log, source, notes,
                notes.startsWith("hard:"), clear));
    }

    private static List<String> knownLabels(Taxonomy t) {
        TreeSet<String> s = new TreeSet<>();
        t.kinds().forEach(k -> {
            if (!k.isUnknown()) {
                s.add(k.id());
            }
        });
        s.add(BenchmarkCase.NONE);
        return List.copyOf(s);
    }

    private static String string(Map<String, Object> o, String key, boolean nullable, int n, List<String> problems) {
        if (!o.containsKey(key)) {
            return null;
        }
        Object v = o.get(key);
        if (v == null) {
            if (!nullable) {
                problems.add(n + ": '" + key + "' must be a string, not null");
            }
            return null;
        }
        if (!(v instanceof String s)) {
            problems.add(n + ": '" + key + "' must be a string" + (nullable ? " or null" : ""));
            return null;
        }
        return s;
    }

    private static Duration duration(Map<String, Object> o, String key, int n, List<String> problems, boolean limit) {
        String v = string(o, key, true, n, problems);
        if (v == null) {
            return null;
        }
        if (limit && (v.equalsIgnoreCase("Partition_Limit") || v.equalsIgnoreCase("UNLIMITED"))) {
            return null;
        }
        Optional<Duration> d = SlurmTime.parseDuration(v);
        if (d.isEmpty()) {
            problems.add(n + ": '" + key + "' \"" + v + "\" is not a SLURM duration (00:01:19, 1-02:03:04"
                    + (limit ? ", Partition_Limit, UNLIMITED" : "") + ")");
        }
        return d.orElse(null);
    }

    private static DataSize size(Map<String, Object> o, String key, int n, List<String> problems) {
        String v = string(o, key, true, n, problems);
        if (v == null) {
            return null;
        }
        Optional<DataSize> d = MemoryRequest.tryParse(v).map(MemoryRequest::size);
        if (d.isEmpty()) {
            problems.add(n + ": '" + key + "' \"" + v + "\" is not a SLURM memory size (300M, 32G, 292936K)");
        }
        return d.orElse(null);
    }

    /** A JSON object as a map; nested arrays and objects are read (and kept) but never needed. */
    private static Map<String, Object> readObject(JsonParser p) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            String key = p.currentName();
            p.nextToken();
            m.put(key, readValue(p));
        }
        return m;
    }

    private static Object readValue(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> readObject(p);
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(readValue(p));
                }
                yield l;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            default -> null;
        };
    }

    private static String describe(JsonToken t) {
        return t == null ? "nothing" : switch (t) {
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            default -> t.asString() == null ? t.name() : t.asString();
        };
    }
}
