package io.slurmwise.kb;

import io.slurmwise.kb.spi.Chunk;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.job.JobRecord;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Finds fix notes for a finding in the knowledge base: the query is the kind's title and the evidence, and sections
 * of the finding's own note are boosted, so the rules decide the note and the evidence decides which sections (and
 * which related notes) come first. Its name in the diagnosis footer is {@code kb} ({@code rules + kb}).
 *
 * <pre>{@code
 * KnowledgeBase kb = KnowledgeBase.open(taxonomy, KbConfig.from(settings), System.err::println);
 * Slurmwise sw = Slurmwise.builder(settings).backendFromSettings().retriever(new KbRetriever(kb, System.err::println)).build();
 * }</pre>
 *
 * When the knowledge base cannot answer (the model cannot load, the index cannot be written) it says so once and
 * falls back to the kind's own note ({@link NoteLookupRetriever}); its name is then {@code notes}.
 */
public final class KbRetriever implements Retriever, AutoCloseable {

    /**
     * A diagnosis asks what to change: among sections that match about as well, Fixes come first, then What to
     * check, then the explanations.
     */
    public static final Map<String, Double> ACTIONABLE = Map.of("fixes", 0.15, "what to check", 0.10);

    /**
     * A note's list of the messages it is known by: it finds the note for a pasted line ({@code kb search}), but tells a
     * diagnosed job nothing to do or check, so a diagnosis's fix notes leave it out (1008's ranked it above its Fixes).
     */
    static final String RECOGNITION = "Messages matched";

    private final Supplier<KnowledgeBase> kbSupplier;
    private KnowledgeBase kb;
    private final Consumer<String> notices;
    private final NoteLookupRetriever fallback = new NoteLookupRetriever();
    private boolean failed;
    /** True when this retriever opened the knowledge base and so closes it. */
    private final boolean owns;

    /** @param notices told once when the knowledge base fails and the kind's own note is used instead */
    public KbRetriever(KnowledgeBase kb, Consumer<String> notices) {
        this(() -> kb, notices, false);
    }

    /** Opens the knowledge base on the first retrieval (so building a facade never touches it), and closes it. */
    public KbRetriever(Supplier<KnowledgeBase> kb, Consumer<String> notices) {
        this(kb, notices, true);
    }

    private KbRetriever(Supplier<KnowledgeBase> kb, Consumer<String> notices, boolean owns) {
        this.kbSupplier = kb;
        this.notices = notices == null ? m -> { } : notices;
        this.owns = owns;
    }

    public KnowledgeBase knowledgeBase() {
        if (kb == null) {
            kb = kbSupplier.get();
        }
        return kb;
    }

    @Override
    public List<FixNote> retrieve(Finding finding, JobRecord job, int k) {
        if (!failed) {
            try {
                List<Hit> ranked = knowledgeBase().search(QueryText.of(finding, job), k + EXTRA, Set.of(finding.kindId()),
                        ACTIONABLE).stream().filter(h -> !RECOGNITION.equalsIgnoreCase(h.chunk().section())).toList();
                return withOwnFixes(ranked, finding.kindId(), k).stream().map(this::withItems).toList();
            } catch (KbException e) {
                failed = true;
                notices.accept("the knowledge base cannot answer (" + e.getMessage() + "); showing the "
                        + finding.kindId() + " note's own fixes");
            }
        }
        return fallback.retrieve(finding, job, k);
    }

    /** Similarity search over every note, the rules' kind (if any) first, as {@code kb search} ranks. */
    @Override
    public List<FixNote> search(String text, Finding rulesReading, int k) {
        if (!failed) {
            try {
                return knowledgeBase().search(text, k, rulesReading == null ? Set.of() : Set.of(rulesReading.kindId()))
                        .stream().map(KbRetriever::fixNote).toList();
            } catch (KbException e) {
                failed = true;
                notices.accept("the knowledge base cannot answer (" + e.getMessage() + "); showing notes by kind");
            }
        }
        return fallback.search(text, rulesReading, k);
    }

    /**
     * What {@code kb search} boosts for a pasted text: the kind the rules find in the text alone (as a log with no
     * accounting record), so that a pasted error message ranks its own note first as a diagnosis does; nothing
     * when the rules recognise nothing.
     */
    public static Optional<Finding> rulesOnText(Classifier rules, String text) {
        Finding f = rules.classifyText(JobFacts.NONE, text);
        return f.isUnknown() ? Optional.empty() : Optional.of(f);
    }

    /** Sections ranked beyond k, so that the finding's own Fixes can be found when it is not in the top k. */
    private static final int EXTRA = 20;

    /**
     * The best {@code k} sections, with the Fixes section of the finding's own note always among them (in place of
     * the k-th when it ranked lower): a diagnosis must say what to change.
     */
    static List<Hit> withOwnFixes(List<Hit> ranked, String kindId, int k) {
        List<Hit> top = new java.util.ArrayList<>(ranked.subList(0, Math.min(k, ranked.size())));
        boolean has = top.stream().anyMatch(h -> isOwnFixes(h, kindId));
        if (!has && !top.isEmpty()) {
            ranked.stream().filter(h -> isOwnFixes(h, kindId)).findFirst().ifPresent(f -> top.set(top.size() - 1, f));
        }
        return top;
    }

    private static boolean isOwnFixes(Hit h, String kindId) {
        return h.chunk().kindId().equals(kindId) && "fixes".equalsIgnoreCase(h.chunk().section());
    }

    /** The hit as a fix note, with its section's items as the note was parsed at load (never parsed again). */
    private FixNote withItems(Hit h) {
        Chunk c = h.chunk();
        List<String> items = knowledgeBase().taxonomy().find(c.kindId())
                .flatMap(kind -> kind.note().section(c.section()))
                .filter(s -> s.text().equals(c.text()))
                .map(io.slurmwise.taxonomy.NoteSection::items).orElse(List.of());
        return fixNote(h).withContent(c.text(), items);
    }

    public static FixNote fixNote(Hit h) {
        Chunk c = h.chunk();
        return new FixNote(c.kindId(), c.noteTitle(), c.section(), c.text(), h.score(), c.source());
    }

    @Override
    public String name() {
        return failed ? fallback.name() : "kb";
    }

    /** Closes the knowledge base if this retriever opened it. */
    @Override
    public void close() {
        if (owns && kb != null) {
            kb.close();
        }
    }

    /** Loads the embedding model in the background (see {@link KnowledgeBase#prewarm()}). */
    @Override
    public void prewarm() {
        knowledgeBase().prewarm();
    }
}
