package io.slurmwise.classify;

import com.google.re2j.Pattern;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmdLaunchError;
import io.slurmwise.taxonomy.Category;
import io.slurmwise.taxonomy.Check;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Signature;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.taxonomy.WrapperStatus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides why a job failed from its log tails and accounting facts, with rules only (reproducible, never
 * invented). Each kind's score is the noisy-OR of its evidence weights: matched log signatures (each counted
 * once), the sacct state, the exit signal, the pending reason and sanity checks. Root causes win over their
 * consequences: when kind A directly {@code explains} B (or B is A's parent), and A is well supported, B is
 * demoted. The relation is not transitive: each note says which consequences it causes itself.
 * Thread-safe; build one per taxonomy and reuse it.
 *
 * <pre>{@code
 * Classifier c = new Classifier(Taxonomy.load(null));
 * Finding f = c.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, null, log)));
 * f.kindId();   // e.g. "cuda_oom"
 * }</pre>
 */
public final class Classifier {

    /** A kind needs at least this score to be the finding; below it the finding is {@code unknown}. */
    public static final double THRESHOLD = 0.5;
    static final double STATE_WEIGHT = 0.95;
    static final double PENDING_WEIGHT = 0.95;
    static final double SIGNAL_WEIGHT = 0.5;
    static final double WRAPPED_SIGNAL_WEIGHT = 0.25;
    static final double CHECK_WEIGHT = 0.6;
    /** What a consequence keeps of its score when its root cause is seen. */
    static final double DEMOTION = 0.3;
    /**
     * A job that completed successfully weighs against every failure kind: only strong log evidence (a crash
     * the exit code hid) still reaches the threshold.
     */
    static final double COMPLETED_FACTOR = 0.7;
    /** What a memory kind keeps of its score when the measured peak was far below the limit. */
    static final double CONTRADICTED_FACTOR = 0.5;
    /**
     * A line of a terminal kind (time limit, preemption, cancel, node failure) with at least this weight is an
     * event that ends the job: weaker lines of other kinds after it (a {@code Killed}, a task's exit status) are
     * its doing, and so is the exit signal.
     */
    static final double ENDING_EVENT_WEIGHT = 0.75;

    private final Taxonomy taxonomy;
    /** The signatures tested on every line, as given to the scanner. */
    private final List<Signature> anyLine;
    /**
     * Built on the first log to scan (a few hundred ms of automaton building): a caller that classifies records
     * only, as {@code stats} does for a million jobs, never pays for it.
     */
    private volatile SignatureScanner scanner;
    /** Signatures tested only on the last non-blank line of each log. */
    private final List<Signature> lastLineSignatures = new ArrayList<>();
    /** Per last-line signature, the literals one of which its match needs (lowercase), built on first use. */
    private volatile List<List<String>> lastLineLiterals;
    private final Map<String, Set<String>> consequences = new HashMap<>();
    private final Map<RecordSignature, Verdict> recordKinds = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * The {@code unless_after} regex of a signature, scanned as a signature of its own (same literal prefilter):
     * marker -> the signature it guards. Identity: two signatures may share one regex.
     */
    private final Map<Signature, Signature> guardOf = new IdentityHashMap<>();
    /** The {@code unless_before} regex of a signature, scanned the same way: marker -> the signature it refutes. */
    private final Map<Signature, Signature> refuterOf = new IdentityHashMap<>();
    /** The {@code only_with} regex of a signature, scanned the same way: marker -> the signature it vouches for. */
    private final Map<Signature, Signature> companionOf = new IdentityHashMap<>();
    /**
     * Each kind's ignore list, compiled as signatures are tested ({@link SignatureRegex}: the lowered program), each
     * pattern with the lowercase literals one of which a line it matches has (empty: none to require).
     */
    private final Map<String, List<IgnorePattern>> ignoreOf = new HashMap<>();
    /** A signature's regex as {@link LineText.Reading} tests it, made when a line of several first needs it. */
    private final Map<Signature, SignatureRegex> regexOf = java.util.Collections.synchronizedMap(new IdentityHashMap<>());

    private record IgnorePattern(SignatureRegex regex, List<String> literals) {
    }

    /** Marks the lines that label a status given on the line below ({@link StatusField}); no evidence of a kind. */
    private final Signature statusLabel = new Signature(FailureKind.UNKNOWN, StatusField.LABEL_PATTERN,
            Pattern.compile(StatusField.LABEL_PATTERN), 0.0, null);

    /**
     * A signature's companion regex ({@code unless_after}, {@code unless_before}, {@code only_with}), scanned with the
     * other any-line signatures as a marker of its own: marker -> the signature it speaks for.
     */
    private static void addMarker(Signature sig, String regex, Map<Signature, Signature> markerOf,
                                  List<Signature> anyLine) {
        if (regex == null) {
            return;
        }
        Signature marker = new Signature(sig.kindId(), regex, Pattern.compile(regex), sig.weight(), null);
        markerOf.put(marker, sig);
        anyLine.add(marker);
    }

    public Classifier(Taxonomy taxonomy) {
        this.taxonomy = taxonomy;
        List<Signature> anyLine = new ArrayList<>();
        for (FailureKind k : taxonomy.kinds()) {
            for (Signature sig : k.signatures()) {
                (sig.lastLine() ? lastLineSignatures : anyLine).add(sig);
                addMarker(sig, sig.unlessAfter(), guardOf, anyLine);
                addMarker(sig, sig.unlessBefore(), refuterOf, anyLine);
                addMarker(sig, sig.onlyWith(), companionOf, anyLine);
            }
        }
        anyLine.add(statusLabel);
        this.anyLine = List.copyOf(anyLine);
        for (FailureKind k : taxonomy.kinds()) {
            consequences.put(k.id(), k.explains());
            ignoreOf.put(k.id(), k.ignore().stream()
                    .map(p -> new IgnorePattern(SignatureRegex.of(p.pattern(), p), loweredLiterals(p.pattern()))).toList());
        }
    }

    public Taxonomy taxonomy() {
        return taxonomy;
    }

    private SignatureScanner scanner() {
        SignatureScanner s = scanner;
        if (s == null) {
            synchronized (this) {
                s = scanner;
                if (s == null) {
                    s = new SignatureScanner(anyLine);
                    scanner = s;
                }
            }
        }
        return s;
    }

    /** Per-kind accumulation while scanning. */
    private static final class Score {
        final FailureKind kind;
        final Set<Signature> signaturesSeen = new HashSet<>();
        final List<Evidence> evidence = new ArrayList<>();
        double miss = 1.0; // product of (1 - w)
        long firstLine = Long.MAX_VALUE;
        private final Set<Place> places = new HashSet<>();

        private record Place(Evidence.Source source, long order) {
        }

        Score(FailureKind kind) {
            this.kind = kind;
        }

        void add(Evidence e) {
            add(e, e.line());
        }

        /**
         * @param order where the evidence is in the log as read: its line, or for a line carried in a JSON record
         *              (several on the one line of the file, see {@link CarriedLog}) the carried line's place
         */
        void add(Evidence e, long order) {
            miss *= 1.0 - e.weight();
            if (e.isLogLine() && !places.add(new Place(e.source(), order))) {
                return; // a line already read
            }
            if (evidence.size() < Finding.MAX_EVIDENCE_PER_KIND) {
                evidence.add(e);
            }
            if (e.isLogLine()) {
                firstLine = Math.min(firstLine, order);
            }
        }

        double score() {
            return 1.0 - miss;
        }
    }

    public Finding classify(JobFacts facts, List<LogTail> logs) {
        Map<String, Score> scores = new LinkedHashMap<>();
        boolean ended = false;
        for (LogTail tail : logs) {
            ended |= scanLog(tail, scores);
        }
        JobFacts known = facts == null ? JobFacts.NONE : facts;
        accountingEvidence(known, scores, ended, null);
        if (known.exitCode() == null) {
            // no record's exit code: a record pasted into the log (sacct's table, scontrol's block) is read as one,
            // its line the evidence
            for (LogTail tail : logs) {
                Optional<PastedRecord> p = PastedRecord.find(tail.content());
                if (p.isPresent()) {
                    boolean inFile = tail.firstLine() > 0;
                    Evidence where = new Evidence(tail.stream() == LogStream.STDOUT ? Evidence.Source.STDOUT
                            : Evidence.Source.STDERR, (inFile ? tail.firstLine() : 1) + p.get().line(), inFile,
                            p.get().text(), null, 1.0);
                    accountingEvidence(JobFacts.NONE.withExitCode(p.get().exitCode()), scores, ended, where);
                    break;
                }
            }
        }
        Finding f = decide(known, scores);
        if (f.isUnknown() && !logs.isEmpty()) {
            // no rule decided: say where a reader should look first (never a cause)
            return new Finding(f.kind(), f.confidence(), f.evidence(), f.others(), Leads.of(logs));
        }
        return f;
    }

    /** Classifies a single text as one log (stdout and stderr together). */
    public Finding classifyText(JobFacts facts, String log) {
        return classify(facts, List.of(LogTail.of(LogStream.STDERR, null, log)));
    }

    private record Match(Signature sig, long lineIndex, String line) {
    }

    /** A traceback's quoted source line that raises: {@code     raise FileNotFoundError(f'...')}. */
    private static final java.util.regex.Pattern RAISE_LINE = java.util.regex.Pattern.compile("^\\s+raise [A-Za-z_][\\w.]*\\(");

    private static boolean isRaiseLine(String line) {
        return !line.isEmpty() && Character.isWhitespace(line.charAt(0)) && RAISE_LINE.matcher(line).find();
    }

    /** At most this many matched lines that end in a colon get the line after them (a log of one message per rank). */
    private static final int MAX_OBJECT_LINES = 16;
    /** The longest line after a colon taken as its object; a longer one is the next message, not a name. */
    private static final int MAX_OBJECT_LENGTH = 160;

    /**
     * For the matched lines that end in a colon, the line after each, by its index, when it is short and not blank:
     * a message that names its object on the next line ({@code The following module(s) are unknown:} /
     * {@code "pytorch/2.3.0"}), whose evidence without it would stop before the deciding word. One pass over the log.
     */
    private static Map<Long, String> objectLines(List<Match> kept, byte[] log) {
        java.util.Set<Long> wanted = new java.util.HashSet<>();
        for (Match m : kept) {
            if (wanted.size() < MAX_OBJECT_LINES && m.line().strip().endsWith(":")) {
                wanted.add(m.lineIndex() + 1);
            }
        }
        Map<Long, String> out = new HashMap<>();
        linesAt(wanted, log).forEach((index, text) -> {
            String line = LineText.readable(text).strip();
            if (!line.isEmpty() && line.length() <= MAX_OBJECT_LENGTH) {
                out.put(index, line);
            }
        });
        return out;
    }

    /** The lines of {@code log} at these indexes (0-based), as written (UTF-8); one pass, none when none is wanted. */
    private static Map<Long, String> linesAt(java.util.Set<Long> wanted, byte[] log) {
        if (wanted.isEmpty()) {
            return Map.of();
        }
        Map<Long, String> out = new HashMap<>();
        long index = 0;
        int start = 0;
        for (int i = 0; i <= log.length && out.size() < wanted.size(); i++) {
            if (i == log.length || log[i] == '\n') {
                if (wanted.contains(index)) {
                    out.put(index, new String(log, start, i - start, java.nio.charset.StandardCharsets.UTF_8));
                }
                index++;
                start = i + 1;
            }
        }
        return out;
    }

    /**
     * Reads each report field whose label the scan found ({@link StatusField}): the label and the value under it as
     * the one line they mean, scanned like a line of the log at the value's line (the label's, when its line carries
     * the value), so that the wrapper signatures, ignore lists and the order of events treat it as any line.
     */
    private void readStatusFields(Map<Long, String> labels, byte[] log, SignatureScanner.MatchSink sink) {
        java.util.Set<Long> next = new java.util.HashSet<>();
        labels.keySet().forEach(i -> next.add(i + 1));
        Map<Long, String> after = linesAt(next, log);
        for (Map.Entry<Long, String> label : labels.entrySet()) {
            String nextLine = after.get(label.getKey() + 1);
            Optional<StatusField.Value> value = StatusField.read(label.getValue(), nextLine);
            if (value.isEmpty()) {
                continue;
            }
            long at = value.get().onNextLine() ? label.getKey() + 1 : label.getKey();
            byte[] joined = StatusField.joined(value.get().status()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            scanner().scan(joined, new SignatureScanner.MatchSink() {
                @Override
                public void match(Signature sig, long lineIndex, String line, String message) {
                    if (sig != statusLabel) {
                        sink.match(sig, at, line, message);
                    }
                }

                @Override
                public boolean wants(Signature sig, String message) {
                    return sig != statusLabel && sink.wants(sig, message);
                }
            });
        }
    }

    /** Scores one log; true when it shows an event that ended the job (see {@link #ENDING_EVENT_WEIGHT}). */
    private boolean scanLog(LogTail pasted, Map<String, Score> scores) {
        // a log carried in JSON records' strings read as the lines it carries (line indexes below count those lines;
        // evidence names the line of the file that carried each, see CarriedLog), then typographic spaces, quotes and
        // HTML entities as the ASCII the messages are written in (after: a typographic quote inside a JSON string
        // made ASCII would end the string)
        CarriedLog carried = CarriedLog.of(pasted.content());
        byte[] plain = PastedText.plain(carried.text());
        LogTail tail = plain == pasted.content() ? pasted : new LogTail(pasted.stream(), pasted.path(), plain,
                pasted.firstLine(), pasted.fileSize(), pasted.problem());
        Evidence.Source source = tail.stream() == LogStream.STDOUT ? Evidence.Source.STDOUT : Evidence.Source.STDERR;
        boolean inFile = tail.firstLine() > 0;
        long base = inFile ? tail.firstLine() : 1;
        List<Match> matches = new ArrayList<>();
        // guarded signature -> the first line that matched its unless_after regex
        Map<Signature, Long> guardLine = guardOf.isEmpty() ? Map.of() : new IdentityHashMap<>();
        // refuted signature -> the last line that matched its unless_before regex
        Map<Signature, Long> refuterLine = refuterOf.isEmpty() ? Map.of() : new IdentityHashMap<>();
        // signatures whose only_with regex matched a line of this log
        Set<Signature> accompanied = companionOf.isEmpty() ? Set.of() : java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        // a line that matches several signatures is read once for the ignore lists, and once per kind
        Map<String, Benign> benign = new HashMap<>();
        // lines that label a status given below them: index -> line
        Map<Long, String> statusLabels = new LinkedHashMap<>(2);
        SignatureScanner.MatchSink sink = new SignatureScanner.MatchSink() {
            @Override
            public void match(Signature sig, long lineIndex, String line, String message) {
                if (sig == statusLabel) {
                    if (statusLabels.size() < MAX_OBJECT_LINES) {
                        statusLabels.putIfAbsent(lineIndex, line);
                    }
                    return;
                }
                Signature guarded = guardOf.get(sig);
                if (guarded != null) {
                    guardLine.merge(guarded, lineIndex, Math::min);
                    return;
                }
                Signature refuted = refuterOf.get(sig);
                if (refuted != null) {
                    refuterLine.merge(refuted, lineIndex, Math::max);
                    return;
                }
                Signature vouched = companionOf.get(sig);
                if (vouched != null) {
                    accompanied.add(vouched);
                    return;
                }
                if (wants(sig, message)) {
                    matches.add(new Match(sig, lineIndex, line));
                }
            }

            /**
             * The one place where a kind's ignore list (benign noise) is applied, for every rule; it reads the whole
             * message, when a terminal wrapped the benign words onto another line than the matching ones. Markers
             * of {@code unless_after}/{@code unless_before}/{@code only_with} are always wanted: they are no evidence
             * of their kind.
             */
            @Override
            public boolean wants(Signature sig, String message) {
                if (sig == statusLabel || guardOf.containsKey(sig) || refuterOf.containsKey(sig) || companionOf.containsKey(sig)) {
                    return true;
                }
                return sig.appliesTo(tail.stream())
                        && !benign.computeIfAbsent(message, Benign::new).to(taxonomy.kind(sig.kindId()), sig);
            }
        };
        scanner().scan(tail.content(), sink);
        if (!statusLabels.isEmpty()) {
            readStatusFields(statusLabels, tail.content(), sink);
        }
        if (!lastLineSignatures.isEmpty()) {
            tail.lastLine().ifPresent(last -> scanLastLine(tail, last, sink));
        }
        if (!guardLine.isEmpty()) {
            // a line after its signature's unless_after event is that event's consequence, not evidence
            matches.removeIf(m -> {
                Long guard = guardLine.get(m.sig());
                return guard != null && guard < m.lineIndex();
            });
        }
        if (!refuterLine.isEmpty()) {
            // a line that a later line of the same log refutes (the event did not happen) is no evidence; the same
            // line counts as later: one that carries several by escaped line breaks (a JSON record of stderr)
            matches.removeIf(m -> {
                Long refuter = refuterLine.get(m.sig());
                return refuter != null && refuter >= m.lineIndex();
            });
        }
        // a line that means its kind only beside another is no evidence alone
        matches.removeIf(m -> m.sig().onlyWith() != null && !accompanied.contains(m.sig()));
        // the scanner reports per signature: the first ending event is known only once all lines are in
        long ending = Long.MAX_VALUE;
        for (Match m : matches) {
            if (endsTheJob(m.sig())) {
                ending = Math.min(ending, m.lineIndex());
            }
        }
        List<Match> kept = new ArrayList<>(matches.size());
        for (Match m : matches) {
            FailureKind kind = taxonomy.kind(m.sig().kindId());
            if (m.lineIndex() > ending && kind.category() != Category.TERMINAL && m.sig().weight() < ENDING_EVENT_WEIGHT) {
                continue; // a consequence of the event that ended the job (Killed, an exit status), not a cause
            }
            kept.add(m);
        }
        if (!kept.isEmpty()) {
            survivedBeforeFinalTraceback(tail, kept);
        }
        // each signature adds its weight once, on its first line; a traceback quotes the code that raised (`raise
        // FileNotFoundError(f'File ({filename}) not found')`) before the message it raised, so the message, not the
        // code, carries the weight and is the deciding line (the score is the same either way)
        Map<Signature, Match> carrier = new IdentityHashMap<>();
        for (Match m : kept) {
            Match held = carrier.get(m.sig());
            if (held == null || isRaiseLine(held.line()) && !isRaiseLine(m.line())) {
                carrier.put(m.sig(), m);
            }
        }
        Map<Long, String> objects = objectLines(kept, plain);
        for (Match m : kept) {
            FailureKind kind = taxonomy.kind(m.sig().kindId());
            Score s = scores.computeIfAbsent(kind.id(), k -> new Score(kind));
            // further matching lines only add evidence to show
            double weight = carrier.get(m.sig()) == m && s.signaturesSeen.add(m.sig()) ? m.sig().weight() : 0;
            String object = objects.get(m.lineIndex() + 1);
            s.add(new Evidence(source, base + carried.physicalLine(m.lineIndex()), inFile,
                    m.line().strip() + (object == null ? "" : " " + object),
                    kind.id(), weight, LineText.matched(m.sig().regex(), m.line(), LineText.anchored(m.sig().pattern()))),
                    base + m.lineIndex());
        }
        return ending != Long.MAX_VALUE;
    }

    /**
     * One matched message as the kinds' ignore lists read it: lowered once for their literals, read once as a
     * signature reads a line ({@link LineText.Reading}, only when a pattern's literal is there), one verdict per kind.
     */
    private final class Benign {
        private final String message;
        private String lowered;
        private LineText.Reading reading;
        private final Map<String, Boolean> verdicts = new HashMap<>(4);

        Benign(String message) {
            this.message = message;
        }

        /**
         * Whether the kind's ignore list calls the message benign noise for that kind, where {@code sig} matched it.
         * A line that carries several (a JSON record of stderr with its escaped line breaks, a progress bar that
         * {@code \r} overwrote) is noise only where the noise is: the signature's match must be on a carried line
         * that an ignore pattern also matches (LSF's job report "Exited with exit code 137." carried beside its
         * "TERM_MEMLIMIT" line leaves that line evidence).
         */
        boolean to(FailureKind kind, Signature sig) {
            boolean anywhere = verdicts.computeIfAbsent(kind.id(), id -> {
                List<IgnorePattern> ignore = ignoreOf.get(id);
                if (!ignore.isEmpty() && lowered == null) {
                    lowered = LineText.lowerAscii(LineText.readable(message));
                }
                for (IgnorePattern p : ignore) {
                    if (!containsAny(lowered, p.literals())) {
                        continue; // the scan's prefilter, for this one line
                    }
                    if (reading == null) {
                        reading = new LineText.Reading(message);
                    }
                    if (reading.find(p.regex())) {
                        return true;
                    }
                }
                return false;
            });
            if (!anywhere || reading == null || reading.segmentCount() < 2) {
                return anywhere;
            }
            SignatureRegex regex = regexOf.computeIfAbsent(sig, s -> SignatureRegex.of(s.pattern(), s.regex()));
            List<IgnorePattern> ignore = ignoreOf.get(kind.id());
            for (int i = 0; i < reading.segmentCount(); i++) {
                int segment = i;
                if (reading.findIn(segment, regex) && ignore.stream().noneMatch(p -> reading.findIn(segment, p.regex()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * A line that marks itself a warning: a logger's or a program's level word ({@code warning:}, {@code [WARNING]},
     * {@code WARN |}), Python's warning categories ({@code UserWarning:}), a short {@code [W]} tag.
     */
    private static final java.util.regex.Pattern WARNING_TAG = java.util.regex.Pattern.compile(
            "(?i)(?:\\b[a-z]*warn(?:ing)?\\b\\s*[:\\]|)]|\\[w\\])");

    static boolean isWarningLine(String line) {
        return WARNING_TAG.matcher(line).find();
    }

    /**
     * An uncaught exception that ends the log ({@link FinalTraceback}) ended the program: evidence of a runtime kind
     * on an earlier line that the program marked a warning and carried on after (other output of its own follows it
     * before the traceback) is not why the job ended, the program survived it. Such lines are dropped, whether the
     * exception has a kind's words ({@code ModuleNotFoundError}) or is the program's own ({@code ZeroDivisionError},
     * then the finding is unknown); a warning that the traceback follows directly, or any line without a warning's
     * mark, stays evidence. Read only when a
     * log has evidence and ends with an exception's line; walks back from the traceback to the nearest line of the
     * program's own output, no further than the earliest such warning.
     */
    private void survivedBeforeFinalTraceback(LogTail tail, List<Match> kept) {
        Optional<FinalTraceback> fin = FinalTraceback.of(tail);
        if (fin.isEmpty()) {
            return;
        }
        long start = fin.get().startLine();
        long earliest = Long.MAX_VALUE;
        for (Match m : kept) {
            if (m.lineIndex() < start && taxonomy.kind(m.sig().kindId()).category() != Category.TERMINAL
                    && isWarningLine(m.line())) {
                earliest = Math.min(earliest, m.lineIndex());
            }
        }
        if (earliest == Long.MAX_VALUE) {
            return;
        }
        // the nearest line before the traceback that is the program's own output (not blank, not a warning)
        byte[] log = tail.content();
        long index = start;
        int lineStart = fin.get().startOffset();
        long output = -1;
        while (lineStart > 0 && index > earliest) {
            int end = lineStart - 1;
            lineStart = FinalTraceback.lineStart(log, end);
            index--;
            String line = FinalTraceback.decode(log, lineStart, end);
            if (!line.isBlank() && !isWarningLine(line)) {
                output = index;
                break;
            }
        }
        long survivedBefore = output;
        kept.removeIf(m -> m.lineIndex() < survivedBefore && isWarningLine(m.line())
                && taxonomy.kind(m.sig().kindId()).category() != Category.TERMINAL);
    }

    private boolean endsTheJob(Signature sig) {
        return sig.weight() >= ENDING_EVENT_WEIGHT && taxonomy.kind(sig.kindId()).category() == Category.TERMINAL;
    }

    /**
     * Tests the last-line signatures on the last non-blank line of one log, as the tail decoded it (at most its
     * last {@link LogTail#LAST_LINE_WINDOW} bytes); the line is numbered only when a signature matches.
     */
    private void scanLastLine(LogTail tail, LogTail.LastLine last, SignatureScanner.MatchSink sink) {
        // what the terminal showed last: a progress bar that \r overwrote is gone, colour codes are invisible
        String shown = LineText.shown(last.text());
        String lowered = LineText.lowerAscii(shown);
        List<List<String>> literals = lastLineLiterals();
        long lineIndex = -1;
        for (int i = 0; i < lastLineSignatures.size(); i++) {
            Signature sig = lastLineSignatures.get(i);
            if (!containsAny(lowered, literals.get(i))) {
                continue; // the literal prefilter of the log scan, for the one line
            }
            if (LineText.find(sig.regex(), shown, LineText.anchored(sig.pattern()))) {
                if (lineIndex < 0) {
                    lineIndex = tail.lineIndexAt(last.offset());
                }
                sink.match(sig, lineIndex, last.text(), last.text());
            }
        }
    }

    private List<List<String>> lastLineLiterals() {
        List<List<String>> l = lastLineLiterals;
        if (l == null) {
            l = lastLineSignatures.stream()
                    .map(sig -> loweredLiterals(sig.pattern()))
                    .toList();
            lastLineLiterals = l;
        }
        return l;
    }

    /** The literals one of which a match of {@code pattern} has ({@link Literals#required}), ASCII-lowered. */
    private static List<String> loweredLiterals(String pattern) {
        return Literals.required(pattern).stream().map(LineText::lowerAscii).toList();
    }

    /** Whether {@code line} has one of {@code literals}; an empty list (no literal to require) lets every line by. */
    private static boolean containsAny(String line, List<String> literals) {
        if (literals.isEmpty()) {
            return true;
        }
        for (String lit : literals) {
            if (line.contains(lit)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param ended a log showed an event that ended the job: the exit signal is that event's doing, so it is no
     *              evidence for a runtime kind
     * @param pasted the log line that holds a pasted record's exit code (its evidence), or null for the record's own
     */
    private void accountingEvidence(JobFacts f, Map<String, Score> scores, boolean ended, Evidence pasted) {
        Optional<SlurmdLaunchError> launch = SlurmdLaunchError.of(f.exitCode());
        for (FailureKind kind : taxonomy.kinds()) {
            List<Evidence> found = new ArrayList<>();
            if (f.state() != null && kind.sacctStates().contains(f.state())) {
                found.add(new Evidence(Evidence.Source.ACCOUNTING, 0, false, "State=" + f.state(), kind.id(), STATE_WEIGHT));
            }
            if (launch.isPresent() && !ended) {
                // the errno's own text, read by the kind's signatures as if slurmd's log line were in the job's log
                double w = 0;
                for (Signature sig : kind.signatures()) {
                    if (sig.regex().matcher(launch.get().message()).find()) {
                        w = Math.max(w, sig.weight());
                    }
                }
                if (w > 0) {
                    found.add(at(pasted, launch.get().describe(f.exitCode()), kind.id(), w));
                }
            } else if (f.exitCode() != null && !kind.exitSignals().isEmpty() && !(ended && kind.category() != Category.TERMINAL)) {
                ExitCode e = f.exitCode();
                Optional<Integer> sig = e.killSignal();
                if (sig.isPresent() && kind.exitSignals().contains(sig.get())) {
                    found.add(at(pasted, "ExitCode=" + e + " (signal " + sig.get() + ")", kind.id(), SIGNAL_WEIGHT));
                } else {
                    Optional<Integer> wrapped = e.sacctWrappedSignal();
                    if (wrapped.isPresent() && kind.exitSignals().contains(wrapped.get())) {
                        found.add(at(pasted, "ExitCode=" + e + " (sacct prints exit " + (128 + wrapped.get()) + " as "
                                + e.code() + ": signal " + wrapped.get() + ")", kind.id(), WRAPPED_SIGNAL_WEIGHT));
                    }
                }
            }
            // a batch script's own exit status, e.g. 127:0: the shell did not find a command (POSIX); weighed as the
            // note weighs a wrapper's report of it, and no evidence after an event that ended the job
            if (f.exitCode() != null && f.exitCode().signal() == 0 && !ended
                    && kind.exitStatuses().statuses().contains(f.exitCode().code())) {
                found.add(at(pasted, "ExitCode=" + f.exitCode() + " (" + WrapperStatus.meaning(f.exitCode().code()) + ")",
                        kind.id(), kind.exitStatuses().weight()));
            }
            if (f.pendingReason() != null) {
                for (Pattern p : kind.pendingReasons()) {
                    if (p.matcher(f.pendingReason()).find()) {
                        found.add(new Evidence(Evidence.Source.ACCOUNTING, 0, false, "Reason=" + f.pendingReason(),
                                kind.id(), PENDING_WEIGHT));
                        break;
                    }
                }
            }
            for (Check c : pasted == null ? kind.checks() : java.util.Set.<Check>of()) { // the record's own facts only
                checkEvidence(c, f, kind).ifPresent(found::add);
            }
            if (!found.isEmpty()) {
                Score s = scores.computeIfAbsent(kind.id(), k -> new Score(kind));
                found.forEach(s::add);
            }
        }
    }

    /** Exit-code evidence: the record's field, or the log line that pasted it (the line, with what it means). */
    private static Evidence at(Evidence pasted, String meaning, String kind, double weight) {
        return pasted == null ? new Evidence(Evidence.Source.ACCOUNTING, 0, false, meaning, kind, weight)
                : new Evidence(pasted.source(), pasted.line(), pasted.lineInFile(), pasted.text() + "  [pasted record: "
                + meaning + "]", kind, weight);
    }

    private static Optional<Evidence> checkEvidence(Check c, JobFacts f, FailureKind kind) {
        return switch (c) {
            case RSS_AT_MEM_LIMIT -> f.maxRss() != null && f.memoryLimit() != null && f.memoryLimit().bytes() > 0
                    && f.maxRss().bytes() >= 0.9 * f.memoryLimit().bytes()
                    ? Optional.of(new Evidence(Evidence.Source.CHECK, 0, false, String.format(java.util.Locale.ROOT,
                    "MaxRSS %s is %.0f%% of the %s memory limit", f.maxRss(),
                    100.0 * f.maxRss().bytes() / f.memoryLimit().bytes(), f.memoryLimit()), kind.id(), CHECK_WEIGHT))
                    : Optional.empty();
            case ELAPSED_AT_TIME_LIMIT -> f.elapsed() != null && f.timeLimit() != null && !f.timeLimit().isZero()
                    && f.elapsed().compareTo(f.timeLimit()) >= 0
                    ? Optional.of(new Evidence(Evidence.Source.CHECK, 0, false, "Elapsed "
                    + io.slurmwise.job.SlurmTime.format(f.elapsed()) + " reached the time limit "
                    + io.slurmwise.job.SlurmTime.format(f.timeLimit()), kind.id(), CHECK_WEIGHT))
                    : Optional.empty();
            // a pending job has no nodes yet by definition, and one cancelled while pending never got any: only
            // a job that ended otherwise (a rejected submission, FAILED 1:0) without nodes is telling
            case NO_NODES_ASSIGNED -> f.state() != JobState.PENDING && f.state() != JobState.CANCELLED
                    && JobRecord.noNodeAssigned(f.nodeList())
                    ? Optional.of(new Evidence(Evidence.Source.CHECK, 0, false,
                    "NodeList is 'None assigned': the job never got a node", kind.id(), CHECK_WEIGHT))
                    : Optional.empty();
            // a user's or an admin's scancel names them ("CANCELLED by 1001", "by 0"); slurmctld's own cancel of a job
            // whose dependency can never be satisfied names no one (the real lab's --kill-on-invalid-dep=yes job, read
            // "scancel by user or admin"): the scheduler's own decision, weighed as a pending reason is
            case CANCELLED_ON_DEPENDENCY -> f.state() == JobState.CANCELLED && "".equals(f.stateDetail())
                    && f.pendingReason() != null && f.pendingReason().startsWith("Dependency")
                    && (f.nodeList() == null || JobRecord.noNodeAssigned(f.nodeList()))
                    ? Optional.of(new Evidence(Evidence.Source.CHECK, 0, false, "State=CANCELLED by no one while it"
                    + " waited on Reason=" + f.pendingReason() + ": slurmctld cancelled it, as it does a job whose"
                    + " dependency can never be satisfied (kill_invalid_depend, --kill-on-invalid-dep=yes)", kind.id(),
                    PENDING_WEIGHT))
                    : Optional.empty();
        };
    }

    private Finding decide(JobFacts facts, Map<String, Score> scores) {
        Map<String, Double> raw = new HashMap<>();
        for (Score s : scores.values()) {
            double v = s.score();
            if (facts.state() == JobState.COMPLETED && (facts.exitCode() == null || facts.exitCode().isSuccess())) {
                v *= COMPLETED_FACTOR;
            }
            if (contradictsMemoryLimit(s.kind, facts) && !outsideTheRecord(s)) {
                v *= CONTRADICTED_FACTOR;
            }
            raw.put(s.kind.id(), v);
        }
        Map<String, Double> adjusted = new HashMap<>(raw);
        for (Map.Entry<String, Double> e : raw.entrySet()) {
            if (e.getValue() < THRESHOLD) {
                continue;
            }
            String cause = e.getKey();
            for (String consequence : consequences.get(cause)) {
                adjusted.computeIfPresent(consequence, (k, v) -> v * DEMOTION);
            }
            // a refinement is the more specific explanation of what its parent kind also matched
            for (String p = taxonomy.kind(cause).parent(); p != null; p = taxonomy.kind(p).parent()) {
                adjusted.computeIfPresent(p, (k, v) -> v * DEMOTION);
            }
        }
        List<Score> ranked = new ArrayList<>(scores.values());
        ranked.sort(Comparator.<Score>comparingDouble(s -> -round(adjusted.get(s.kind.id())))
                .thenComparingLong(s -> s.firstLine));
        Score best = ranked.isEmpty() ? null : ranked.get(0);
        List<Finding.KindScore> others = new ArrayList<>();
        for (Score s : ranked) {
            if (s != best || adjusted.get(s.kind.id()) < THRESHOLD) {
                double v = adjusted.get(s.kind.id());
                if (v >= 0.2) {
                    others.add(new Finding.KindScore(s.kind.id(), round(v)));
                }
            }
        }
        if (best == null || adjusted.get(best.kind.id()) < THRESHOLD) {
            double top = best == null ? 0 : adjusted.get(best.kind.id());
            return new Finding(taxonomy.unknown(), round(1 - top), List.of(), others);
        }
        List<Evidence> evidence = new ArrayList<>(best.evidence);
        evidence.sort(Comparator.comparing((Evidence e) -> e.isLogLine() ? 1 : 0).thenComparingLong(Evidence::line));
        return new Finding(best.kind, round(adjusted.get(best.kind.id())), evidence, others);
    }

    /**
     * A kind that checks MaxRSS against the limit is less likely when the peak stayed under half the limit.
     * Only a hint: MaxRSS is sampled and misses fast spikes, so SLURM's own OUT_OF_MEMORY state overrides it.
     */
    private static boolean contradictsMemoryLimit(FailureKind kind, JobFacts f) {
        return kind.checks().contains(Check.RSS_AT_MEM_LIMIT) && f.state() != JobState.OUT_OF_MEMORY
                && f.maxRss() != null && f.memoryLimit() != null && f.memoryLimit().bytes() > 0
                && f.maxRss().bytes() < 0.5 * f.memoryLimit().bytes();
    }

    /**
     * Whether the kind's log evidence is a memory limit the job's record cannot speak to, so a peak far below the
     * record's limit is no contradiction: a program's own failed allocation ({@link OwnMemoryError}: a JVM heap of
     * {@code -Xmx}, an array larger than any node gives; raised inside the program, nothing killed), or a workflow
     * manager's report of its task ({@link WorkflowTask}: with a grid executor another job, whose record is not this one).
     */
    private static boolean outsideTheRecord(Score s) {
        List<String> lines = s.evidence.stream().filter(Evidence::isLogLine).map(Evidence::text).toList();
        return OwnMemoryError.in(lines) || WorkflowTask.in(lines);
    }

    /**
     * The failure kind of a job from its accounting record alone (no logs): {@link #recordVerdict}'s kind.
     * Thread-safe.
     */
    public String recordKind(JobFacts facts) {
        return recordVerdict(facts).kind();
    }

    /**
     * What the record alone says (no logs): {@code classify(facts, List.of())}'s kind and confidence, remembered
     * per {@link RecordSignature}, so a fleet of thousands of failed jobs costs a map lookup per job once its few
     * state/exit/limit combinations are seen. Thread-safe.
     */
    public Verdict recordVerdict(JobFacts facts) {
        JobFacts f = facts == null ? JobFacts.NONE : facts;
        RecordSignature key = RecordSignature.of(f);
        Verdict v = recordKinds.get(key);
        if (v == null) {
            v = Verdict.of(classify(f, List.of()));
            if (recordKinds.size() < 10_000) { // a bound against endless pending reasons
                recordKinds.put(key, v);
            }
        }
        return v;
    }

    /**
     * A failure kind and how sure the rules are of it ({@link Finding#confidence()}): read from a record alone, an
     * exit status 127 is a missing file at under 0.7, a lead its log may overrule (a missing module or library).
     */
    public record Verdict(String kind, double confidence) {
        public static Verdict of(Finding f) {
            return new Verdict(f.kindId(), f.confidence());
        }
    }

    /**
     * Everything the rules read of a record when there are no logs: the kind is a function of it (state, exit
     * code, pending reason, where MaxRSS and Elapsed stand against their limits, and whether the state names no
     * canceller: slurmctld's own cancel of a job on its dependency is no user's).
     */
    record RecordSignature(JobState state, ExitCode exitCode, String pendingReason, boolean noNodes, boolean rssAtLimit,
                           boolean rssUnderHalf, boolean atTimeLimit, boolean namesNoOne) {
        static RecordSignature of(JobFacts f) {
            boolean limits = f.maxRss() != null && f.memoryLimit() != null && f.memoryLimit().bytes() > 0;
            return new RecordSignature(f.state(), f.exitCode(), f.pendingReason(),
                    JobRecord.noNodeAssigned(f.nodeList()),
                    limits && f.maxRss().bytes() >= 0.9 * f.memoryLimit().bytes(),
                    limits && f.maxRss().bytes() < 0.5 * f.memoryLimit().bytes(),
                    f.elapsed() != null && f.timeLimit() != null && !f.timeLimit().isZero()
                            && f.elapsed().compareTo(f.timeLimit()) >= 0,
                    "".equals(f.stateDetail()));
        }
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
