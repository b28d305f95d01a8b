package io.slurmwise.taxonomy;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.slurmwise.backend.LogStream;
import io.slurmwise.job.JobState;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses one knowledge note: YAML front matter (the kind's definition, schema in knowledge/README.md) and a
 * markdown body split into {@code ##} sections. Unknown fields, bad values and bad regexes are rejected with the
 * file name and line.
 */
public final class NoteParser {

    private static final Set<String> FIELDS = Set.of("id", "title", "category", "parent", "sacct_states",
            "exit_signals", "wrapper_status", "pending_reasons", "explains", "signatures", "ignore", "checks", "fixers");
    private static final Set<String> SIGNATURE_FIELDS = Set.of("pattern", "weight", "stream", "last_line", "unless_after", "unless_before",
            "only_with");
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[a-z][a-z0-9_]{0,63}");

    private final String source;
    private final String text;

    private NoteParser(String source, String text) {
        this.source = source;
        this.text = text.replace("\r\n", "\n");
    }

    /** @param source a file name or classpath location, used in error messages */
    public static FailureKind parse(String source, String text) {
        return new NoteParser(source, text).parse();
    }

    private FailureKind parse() {
        if (!text.startsWith("---\n")) {
            throw error(1, "a note must start with a '---' line opening its YAML front matter");
        }
        int close = text.indexOf("\n---\n", 3);
        if (close < 0) {
            close = text.endsWith("\n---") ? text.length() - 4 : -1;
        }
        if (close < 0) {
            throw error(1, "the front matter opened on line 1 is never closed with a '---' line");
        }
        String yaml = text.substring(4, close + 1);
        String body = close + 5 <= text.length() ? text.substring(close + 5) : "";

        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(10);
            options.setCodePointLimit(1 << 20);
            root = new Yaml(options).compose(new StringReader(yaml));
        } catch (YAMLException e) {
            throw new TaxonomyException(source + ": the front matter is not valid YAML: " + e.getMessage(), e);
        }
        if (!(root instanceof MappingNode map)) {
            throw error(2, "the front matter must be a mapping of fields (id:, title:, ...)");
        }
        String id = null;
        String title = null;
        Category category = null;
        String parent = null;
        Set<JobState> states = new LinkedHashSet<>();
        Set<Integer> signals = new LinkedHashSet<>();
        Set<Integer> wrapperStatuses = new LinkedHashSet<>();
        Double wrapperWeight = null;
        int wrapperLine = 0;
        List<Pattern> pending = new ArrayList<>();
        Set<String> explains = new LinkedHashSet<>();
        List<RawSignature> signatures = new ArrayList<>();
        List<Pattern> ignore = new ArrayList<>();
        Set<Check> checks = new LinkedHashSet<>();
        Set<String> fixers = new LinkedHashSet<>();
        Set<String> seen = new java.util.HashSet<>();

        for (NodeTuple t : map.getValue()) {
            String key = scalar(t.getKeyNode(), "field name");
            Node v = t.getValueNode();
            if (!FIELDS.contains(key)) {
                throw error(line(t.getKeyNode()), "unknown field '" + key + "'; allowed: " + String.join(", ", sorted(FIELDS))
                        + " (see knowledge/README.md)");
            }
            if (!seen.add(key)) {
                throw error(line(t.getKeyNode()), "field '" + key + "' appears twice");
            }
            switch (key) {
                case "id" -> {
                    id = scalar(v, "id");
                    if (!ID.matcher(id).matches()) {
                        throw error(line(v), "id '" + id + "' must be lower case letters, digits and _");
                    }
                }
                case "title" -> title = scalar(v, "title");
                case "category" -> {
                    String c = scalar(v, "category");
                    try {
                        category = Category.valueOf(c.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw error(line(v), "category '" + c + "' must be runtime, scheduling or terminal");
                    }
                }
                case "parent" -> parent = scalar(v, "parent");
                case "sacct_states" -> {
                    for (Node n : list(v, key)) {
                        String s = scalar(n, "state");
                        JobState st = JobState.parse(s);
                        if (st == JobState.UNKNOWN) {
                            throw error(line(n), "'" + s + "' is not a SLURM job state (e.g. OUT_OF_MEMORY, TIMEOUT)");
                        }
                        states.add(st);
                    }
                }
                case "exit_signals" -> {
                    for (Node n : list(v, key)) {
                        String s = scalar(n, "signal");
                        try {
                            int sig = Integer.parseInt(s);
                            if (sig < 1 || sig > 64) {
                                throw new NumberFormatException();
                            }
                            signals.add(sig);
                        } catch (NumberFormatException e) {
                            throw error(line(n), "exit signal '" + s + "' must be a signal number 1..64");
                        }
                    }
                }
                case "wrapper_status" -> {
                    wrapperLine = line(t.getKeyNode());
                    wrapperWeight = wrapperStatus(v, wrapperStatuses);
                }
                case "pending_reasons" -> {
                    for (Node n : list(v, key)) {
                        pending.add(regex(n));
                    }
                }
                case "explains" -> {
                    for (Node n : list(v, key)) {
                        explains.add(scalar(n, "kind id"));
                    }
                }
                case "ignore" -> {
                    for (Node n : list(v, key)) {
                        ignore.add(regex(n));
                    }
                }
                case "checks" -> {
                    for (Node n : list(v, key)) {
                        String c = scalar(n, "check");
                        checks.add(Check.of(c).orElseThrow(() -> error(line(n), "unknown check '" + c
                                + "'; allowed: rss_at_mem_limit, elapsed_at_time_limit, no_nodes_assigned")));
                    }
                }
                case "fixers" -> {
                    for (Node n : list(v, key)) {
                        String f = scalar(n, "fixer name");
                        if (!ID.matcher(f).matches()) {
                            throw error(line(n), "fixer '" + f + "' must be lower case letters, digits and _"
                                    + " (a name from knowledge/README.md, e.g. memory, time, requeue)");
                        }
                        fixers.add(f);
                    }
                }
                case "signatures" -> {
                    for (Node n : list(v, key)) {
                        signatures.add(signature(n));
                    }
                }
                default -> throw new IllegalStateException(key);
            }
        }
        if (id == null) {
            throw error(2, "the front matter has no 'id'");
        }
        if (title == null) {
            throw error(2, "the front matter has no 'title'");
        }
        if (category == null) {
            throw error(2, "the front matter has no 'category' (runtime, scheduling or terminal)");
        }
        List<Signature> sigs = new ArrayList<>();
        for (RawSignature r : signatures) {
            sigs.add(new Signature(id, r.pattern, r.regex, r.weight, r.stream, r.lastLine, r.unlessAfter, r.unlessBefore,
                    r.onlyWith));
        }
        if (wrapperWeight != null) {
            Set<Integer> statuses = WrapperStatus.statuses(wrapperStatuses, signals);
            if (statuses.isEmpty()) {
                throw error(wrapperLine, "wrapper_status has no status: give 'statuses' or the kind's exit_signals");
            }
            sigs.add(WrapperStatus.signature(id, statuses, wrapperWeight));
        }
        Note note = new Note(id, title, sections(body), source);
        for (NoteSection s : note.sections()) {
            List<String> unknown = Placeholders.unknownNames(s.template());
            if (!unknown.isEmpty()) {
                throw new TaxonomyException(source + ": section '" + s.heading() + "' uses unknown placeholder {{"
                        + unknown.get(0) + "}}; known: " + String.join(", ", sorted(Placeholders.NAMES))
                        + " (see knowledge/README.md)");
            }
        }
        FailureKind.ExitStatuses own = wrapperWeight == null || wrapperStatuses.isEmpty() ? FailureKind.ExitStatuses.NONE
                : new FailureKind.ExitStatuses(wrapperStatuses, wrapperWeight);
        return new FailureKind(id, title, category, parent, states, signals, pending, explains, sigs, ignore, checks,
                List.copyOf(fixers), own, note);
    }

    private record RawSignature(String pattern, Pattern regex, double weight, LogStream stream, boolean lastLine,
                                String unlessAfter, String unlessBefore, String onlyWith) {
    }

    private RawSignature signature(Node n) {
        if (!(n instanceof MappingNode m)) {
            throw error(line(n), "a signature must be a mapping with 'pattern' and 'weight'");
        }
        String pattern = null;
        Pattern regex = null;
        Double weight = null;
        LogStream stream = null;
        boolean lastLine = false;
        String unlessAfter = null;
        String unlessBefore = null;
        String onlyWith = null;
        for (NodeTuple t : m.getValue()) {
            String key = scalar(t.getKeyNode(), "field name");
            Node v = t.getValueNode();
            if (!SIGNATURE_FIELDS.contains(key)) {
                throw error(line(t.getKeyNode()), "unknown signature field '" + key + "'; allowed: pattern, weight, stream, last_line, unless_after, unless_before, only_with");
            }
            switch (key) {
                case "pattern" -> {
                    pattern = scalar(v, "pattern");
                    regex = regex(v);
                }
                case "weight" -> weight = weight(v);
                case "stream" -> {
                    String s = scalar(v, "stream");
                    stream = switch (s) {
                        case "stdout" -> LogStream.STDOUT;
                        case "stderr" -> LogStream.STDERR;
                        case "any" -> null;
                        default -> throw error(line(v), "stream '" + s + "' must be stdout, stderr or any");
                    };
                }
                case "last_line" -> {
                    String b = scalar(v, "last_line");
                    if (!b.equals("true") && !b.equals("false")) {
                        throw error(line(v), "last_line '" + b + "' must be true or false");
                    }
                    lastLine = b.equals("true");
                }
                case "unless_after" -> {
                    regex(v); // checked here, compiled by the classifier
                    unlessAfter = scalar(v, "unless_after");
                }
                case "unless_before" -> {
                    regex(v); // checked here, compiled by the classifier
                    unlessBefore = scalar(v, "unless_before");
                }
                case "only_with" -> {
                    regex(v); // checked here, compiled by the classifier
                    onlyWith = scalar(v, "only_with");
                }
                default -> throw new IllegalStateException(key);
            }
        }
        if (pattern == null || weight == null) {
            throw error(line(n), "a signature needs both 'pattern' and 'weight'");
        }
        return new RawSignature(pattern, regex, weight, stream, lastLine, unlessAfter, unlessBefore, onlyWith);
    }

    /** Reads {@code wrapper_status: {statuses: [..], weight: w}} into {@code statuses}; returns the weight. */
    private double wrapperStatus(Node n, Set<Integer> statuses) {
        if (!(n instanceof MappingNode m)) {
            throw error(line(n), "wrapper_status must be a mapping with 'weight' and, optionally, 'statuses'");
        }
        Double weight = null;
        for (NodeTuple t : m.getValue()) {
            String key = scalar(t.getKeyNode(), "field name");
            Node v = t.getValueNode();
            switch (key) {
                case "weight" -> weight = weight(v);
                case "statuses" -> {
                    for (Node s : list(v, key)) {
                        String x = scalar(s, "status");
                        int status;
                        try {
                            status = Integer.parseInt(x);
                        } catch (NumberFormatException e) {
                            status = -1;
                        }
                        if (status < WrapperStatus.MIN || status > WrapperStatus.MAX) {
                            throw error(line(s), "exit status '" + x + "' must be a number " + WrapperStatus.MIN + ".."
                                    + WrapperStatus.MAX);
                        }
                        statuses.add(status);
                    }
                }
                default -> throw error(line(t.getKeyNode()), "unknown wrapper_status field '" + key
                        + "'; allowed: statuses, weight");
            }
        }
        if (weight == null) {
            throw error(line(n), "wrapper_status needs a 'weight'");
        }
        return weight;
    }

    private double weight(Node v) {
        String w = scalar(v, "weight");
        double weight;
        try {
            weight = Double.parseDouble(w);
        } catch (NumberFormatException e) {
            weight = Double.NaN;
        }
        if (!(weight > 0 && weight <= 1)) {
            throw error(line(v), "weight '" + w + "' must be a number in (0, 1]");
        }
        return weight;
    }

    private Pattern regex(Node n) {
        String p = scalar(n, "regex");
        try {
            return Pattern.compile(p);
        } catch (PatternSyntaxException e) {
            throw error(line(n), "bad regex '" + p + "': " + e.getMessage() + " (RE2 syntax: no backreferences or lookaround)");
        }
    }

    private String scalar(Node n, String what) {
        if (!(n instanceof ScalarNode s)) {
            throw error(line(n), what + " must be a plain value");
        }
        return s.getValue();
    }

    private List<Node> list(Node n, String key) {
        if (n instanceof SequenceNode s) {
            return s.getValue();
        }
        if (n instanceof ScalarNode s && s.getValue().isEmpty()) {
            return List.of();
        }
        throw error(line(n), "'" + key + "' must be a list, e.g. " + key + ": [a, b]");
    }

    private static int line(Node n) {
        return n.getStartMark().getLine() + 2; // the front matter starts on the file's second line
    }

    private TaxonomyException error(int line, String message) {
        return new TaxonomyException(source + ":" + line + ": " + message);
    }

    private static List<String> sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        java.util.Collections.sort(l);
        return l;
    }

    /** Splits a markdown body into its {@code ##} sections; text before the first one is ignored. */
    static List<NoteSection> sections(String body) {
        List<NoteSection> out = new ArrayList<>();
        String heading = null;
        StringBuilder sb = new StringBuilder();
        boolean fence = false;
        for (String line : body.split("\n", -1)) {
            if (line.startsWith("```")) {
                fence = !fence;
            }
            if (!fence && line.startsWith("## ")) {
                if (heading != null) {
                    out.add(new NoteSection(heading, sb.toString().strip()));
                }
                heading = line.substring(3).strip();
                sb.setLength(0);
            } else if (heading != null) {
                sb.append(line).append('\n');
            }
        }
        if (heading != null) {
            out.add(new NoteSection(heading, sb.toString().strip()));
        }
        return out;
    }

    /** The items of a numbered markdown list ({@code 1. ...}), each with its indented continuation lines. */
    static List<String> numberedItems(String text) {
        List<String> items = new ArrayList<>();
        StringBuilder cur = null;
        boolean fence = false;
        for (String line : text.split("\n", -1)) {
            boolean startsItem = !fence && line.matches("\\d{1,2}\\.\\s.*");
            if (line.strip().startsWith("```")) {
                fence = !fence;
            }
            if (startsItem) {
                if (cur != null) {
                    items.add(cur.toString().strip());
                }
                cur = new StringBuilder(line.replaceFirst("^\\d{1,2}\\.\\s+", ""));
            } else if (cur != null) {
                // continuation lines are indented under the item's text; keep only the indentation beyond that
                cur.append('\n').append(line.replaceFirst("^ {1,3}", ""));
            }
        }
        if (cur != null) {
            items.add(cur.toString().strip());
        }
        return items;
    }
}
