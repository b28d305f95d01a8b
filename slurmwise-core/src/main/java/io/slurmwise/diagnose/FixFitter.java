package io.slurmwise.diagnose;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.patch.MemoryAdvice;
import io.slurmwise.patch.Patch;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.taxonomy.Placeholders;
import io.slurmwise.taxonomy.Taxonomy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fits retrieved fix notes to the job: placeholders are filled from its facts ({@link JobAdviceFacts}), and a piece
 * of advice that contradicts them is rewritten or dropped, never shown as is. A {@code --time} above the partition's
 * MaxTime becomes the MaxTime when that is still more than the job had, else the item goes (the patch's advice names
 * the longer partitions); so does the {@code --time} of a note that asks for more time (its {@code fixers:} list the
 * {@code time} fixer: time_limit) when it is no more than the job already had, and its "more cores"
 * ({@code --cpus-per-task}) is twice what the job had within a node, or it goes; a {@code --mem} (or
 * {@code --mem-per-cpu}) above one node of the partition becomes what a node has, as the memory patch caps it, when that
 * is still more than the job had, else the item goes; a typed GPU request for a model the job did not run on names the
 * job's model; an option the patch sets is named with the patch's value; an item that names a fact the job lacks
 * ({@link JobAdviceFacts#lacking()}: a step's timeout for a job that never started, a queued job's id for one that
 * left the queue, another's cancel for a job its own user cancelled) is not shown, nor one whose advice the job
 * already follows ({@link JobAdviceFacts#followed()}); an option a piece names with the value the job already has
 * ({@code --qos=gpu} to a job with QOS gpu) says so, unless the refused request was a job a workflow submitted
 * ({@link JobAdviceFacts#childRefused()}).
 *
 * <pre>{@code
 * List<FixNote> fitted = new FixFitter(taxonomy).fit(fixes, new JobAdviceFacts(job, backend.partitions()));
 * }</pre>
 */
public final class FixFitter {

    /** {@code --time=2-00:00:00}, {@code --time 04:00:00}, {@code TimeLimit=04:00:00}: a time a piece asks for. */
    static final Pattern TIME = Pattern.compile("(--time[= ]|TimeLimit=)(\\d+(?:-\\d{1,2})?(?::\\d{1,2}){0,2})(?![\\d:])");
    /** {@code --gres=gpu:a100:1}, {@code --gpus=h100:2}, {@code --gpus-per-node=a100:4}: a typed GPU request. */
    static final Pattern GPU_TYPE = Pattern.compile("(--gres=gpu:|--gpus(?:-per-(?:node|task|socket))?=)([A-Za-z][\\w.-]*)(?=:\\d)");
    private static final Pattern ITEM = Pattern.compile("^\\d{1,2}\\.\\s");
    /** {@code --time-min=12:00:00}: the shortest time a piece lets the scheduler start the job with. */
    static final Pattern TIME_MIN = Pattern.compile("--time-min[= ](\\d+(?:-\\d{1,2})?(?::\\d{1,2}){0,2})(?![\\d:])");
    /** {@code --mem=48G}, {@code --mem-per-cpu=4G}: the memory a piece asks for (sbatch's default unit is M). */
    static final Pattern MEM = Pattern.compile("(--mem(-per-cpu)?[= ])(\\d+[KMGT]?)(?![\\w.])");
    /** {@code --cpus-per-task=16}: the cores a piece asks for. */
    static final Pattern CPUS = Pattern.compile("(--cpus-per-task[= ])(\\d+)(?!\\d)");
    /** The fixer that asks for more time: a note listing it in {@code fixers:} advises more time than the job had. */
    private static final String MORE_TIME_FIXER = "time";

    private final Taxonomy taxonomy;

    public FixFitter(Taxonomy taxonomy) {
        this.taxonomy = taxonomy;
    }

    /** The notes fitted to the job, in the same order; a note whose every piece contradicts the job is left out. */
    public List<FixNote> fit(List<FixNote> fixes, JobAdviceFacts facts) {
        List<FixNote> out = new ArrayList<>();
        for (FixNote n : fixes) {
            fit(n, facts).ifPresent(out::add);
        }
        return out;
    }

    /**
     * The notes fitted to a log read without a job record ({@code classify}, {@code classify_log}, {@code eval}): the
     * items that need an error the deciding log lines do not quote ({@link JobAdviceFacts#lackingInLog}) are left out,
     * as for a job; the gates that need the record (its partition, its peak) stay open, and every placeholder keeps its
     * generic words. A note whose every item goes is left out.
     */
    public List<FixNote> fitToLog(List<FixNote> fixes, List<String> logLines) {
        java.util.Set<String> lacking = JobAdviceFacts.lackingInLog(logLines);
        List<FixNote> out = new ArrayList<>();
        for (FixNote n : fixes) {
            List<String> all = template(n).map(NoteSection::templateItems).orElse(List.of());
            List<String> kept = all.stream().filter(i -> !Placeholders.names(i, lacking)).map(Placeholders::generic)
                    .toList();
            if (kept.size() == all.size()) {
                out.add(n);
            } else if (!kept.isEmpty()) {
                out.add(n.withContent(numbered(n.text(), kept), kept));
            }
        }
        return out;
    }

    /**
     * As {@link #fit(List, JobAdviceFacts)}, and an option the patch sets is named with the patch's value wherever a
     * fix names it: the patch that doubles an 8-hour job's time to 17:00:00 and the fix beside it that says
     * {@code --time=2-00:00:00} would be two answers to one question.
     */
    public List<FixNote> fit(List<FixNote> fixes, JobAdviceFacts facts, Patch patch) {
        Map<String, String> options = patchOptions(patch);
        // the time limits a fix quotes are those of the QOS the patch moves the job to
        List<FixNote> fitted = fit(fixes, options.containsKey("qos") ? facts.withMovedQos(options.get("qos")) : facts);
        if (options.isEmpty()) {
            return fitted;
        }
        List<FixNote> out = new ArrayList<>();
        for (FixNote n : fitted) {
            List<String> items = n.items().stream().map(i -> agree(i, options)).toList();
            String text = agree(n.text(), options);
            out.add(text.equals(n.text()) && items.equals(n.items()) ? n : n.withContent(text, items));
        }
        return out;
    }

    /**
     * Options whose values are names: a note's examples name different ones for different needs ({@code --qos=long}
     * for longer jobs, {@code --qos=gpu} for GPU work), so the patch's one value is not written into each (1057's note
     * read "--qos=normal for longer jobs, --qos=normal for GPU work").
     */
    static final java.util.Set<String> NAME_OPTIONS = java.util.Set.of("qos", "partition", "account", "constraint");

    /** Options whose {@code <slot>} in a fix is the value the patch writes: the node to leave out is that node. */
    private static final java.util.Set<String> SLOTS_THE_PATCH_FILLS = java.util.Set.of("exclude");

    /** The options a patch sets (or would set), by name: {@code time -> 17:00:00}; empty without a patch. */
    static Map<String, String> patchOptions(Patch patch) {
        Map<String, String> out = new LinkedHashMap<>();
        if (patch == null) {
            return out;
        }
        for (Patch.Change c : patch.changes()) {
            out.putAll(c.sets()); // a later change of the same option (a time capped again) is the script's value
        }
        return out;
    }

    /**
     * {@code piece} with each of {@code options} it names given the patch's value; a {@code <placeholder>} and a
     * {@code 0} ({@code --mem=0}: all of a node's memory) are other advice and stay, except the node that
     * {@code --exclude=<node>} leaves to the reader when the patch names it.
     */
    static String agree(String piece, Map<String, String> options) {
        String out = piece;
        for (Map.Entry<String, String> o : options.entrySet()) {
            if (!out.contains("--" + o.getKey()) || NAME_OPTIONS.contains(o.getKey())) {
                continue;
            }
            String slot = SLOTS_THE_PATCH_FILLS.contains(o.getKey()) ? "" : "<|";
            Matcher m = Pattern.compile("(?<![\\w-])(--" + Pattern.quote(o.getKey()) + "[= ])(?!" + slot + "0(?![\\w.]))([^\\s`)\\],;]+)").matcher(out);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + o.getValue()));
            }
            m.appendTail(sb);
            out = sb.toString();
        }
        return out;
    }

    Optional<FixNote> fit(FixNote n, JobAdviceFacts facts) {
        boolean moreTime = taxonomy.find(n.kindId()).map(k -> k.fixers().contains(MORE_TIME_FIXER)).orElse(false);
        Optional<NoteSection> section = template(n);
        String text = section.map(s -> Placeholders.fill(s.template(), facts::value)).orElse(n.text());
        // a piece about a fact the job lacks (a step that hung, for a job that never started) is not its advice, and a
        // piece whose advice the job already follows (a partition with bigger nodes, on the biggest) tells it nothing
        java.util.Set<String> notFor = new java.util.HashSet<>(facts.lacking());
        notFor.addAll(facts.followed());
        List<String> items = section.map(s -> s.templateItems().stream()
                .map(i -> !Placeholders.names(i, notFor) ? Placeholders.fill(i, facts::value) : null)
                .toList()).orElse(n.items());
        if (!items.isEmpty()) {
            List<String> kept = new ArrayList<>();
            for (String item : items) {
                if (item != null) {
                    fitPiece(item, facts, moreTime).ifPresent(kept::add);
                }
            }
            if (kept.isEmpty()) {
                return Optional.empty();
            }
            Followed f = followedLast(otherProgramsLast(kept, facts.script()), facts.script());
            return Optional.of(n.withContent(f.items().equals(items) ? text : numbered(text, f.items()), f.items(),
                    f.followed()));
        }
        List<String> original = blocks(text);
        List<String> kept = new ArrayList<>();
        for (String block : original) {
            fitPiece(block, facts, moreTime).ifPresent(kept::add);
        }
        if (kept.isEmpty()) {
            return Optional.empty();
        }
        if (kept.equals(original)) {
            return Optional.of(n.withContent(text, List.of()));
        }
        StringBuilder sb = new StringBuilder();
        for (String b : kept) {
            sb.append(sb.length() == 0 ? "" : b.startsWith("- ") ? "\n" : "\n\n").append(b);
        }
        return Optional.of(n.withContent(sb.toString(), List.of()));
    }

    /** The note section a fix note shows, when it is that whole section (a knowledge base may show a stale copy). */
    private Optional<NoteSection> template(FixNote n) {
        return taxonomy.find(n.kindId()).flatMap(k -> k.note().section(n.section()))
                .filter(s -> s.text().equals(n.text()) || s.template().equals(n.text()));
    }

    /** One item or paragraph, rewritten to fit the job, or empty when it cannot be made to fit. */
    Optional<String> fitPiece(String piece, JobAdviceFacts facts) {
        return fitPiece(piece, facts, false);
    }

    /**
     * One item or paragraph, rewritten to fit the job, or empty when it cannot be made to fit. With
     * {@code moreTime} (a note whose advice is to ask for more time) a {@code --time} no longer than the job already
     * had is a contradiction too: it becomes the partition's MaxTime when that is longer, else the piece goes.
     */
    Optional<String> fitPiece(String piece, JobAdviceFacts facts, boolean moreTime) {
        String fitted = piece;
        // the cap (the partition's MaxTime, or the QOS's MaxWall, which asks slurmdbd) only for a piece that names a time
        boolean namesTime = TIME.matcher(fitted).find();
        Optional<Duration> max = namesTime ? facts.maxTime() : Optional.empty();
        Optional<Duration> had = facts.timeLimit();
        if (namesTime && (max.isPresent() || (moreTime && had.isPresent()))) {
            Matcher m = TIME.matcher(fitted);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                Optional<Duration> asked = SlurmTime.parseDuration(m.group(2));
                String value = m.group(2);
                boolean aboveMax = asked.isPresent() && max.isPresent() && asked.get().compareTo(max.get()) > 0;
                boolean noMore = moreTime && asked.isPresent() && had.isPresent() && asked.get().compareTo(had.get()) <= 0;
                if (aboveMax || noMore) {
                    boolean roomLeft = max.isPresent() && had.map(l -> max.get().compareTo(l) > 0).orElse(true);
                    if (!roomLeft) {
                        return Optional.empty(); // the job already has the most its partition allows, or no maximum is known
                    }
                    value = SlurmTime.format(max.get());
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + value));
            }
            m.appendTail(sb);
            fitted = sb.toString();
            if (!timeMinBelowTime(fitted)) {
                return Optional.empty(); // a --time-min the fitted --time came down to says nothing
            }
        }
        if (moreTime && facts.job().cpus() > 0) {
            // "more cores": a --cpus-per-task no more than the job already had on a node (or more than a node has) becomes
            // twice what it had, within a node of its partition; the piece goes when the job had every core of a node
            int cpus = facts.job().cpus() / facts.job().nodes();
            int node = facts.partition().map(Partition::cpusPerNode).orElse(0);
            Matcher m = CPUS.matcher(fitted);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                int asked = Integer.parseInt(m.group(2));
                int value = asked;
                if (asked <= cpus || (node > 0 && asked > node)) {
                    if (node > 0 && node <= cpus) {
                        return Optional.empty();
                    }
                    value = node > 0 ? Math.min(node, 2 * cpus) : 2 * cpus;
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + value));
            }
            m.appendTail(sb);
            fitted = sb.toString();
        }
        Optional<DataSize> node = facts.partition().map(Partition::memoryPerNode);
        if (node.isPresent()) {
            // memory above one node of the partition: what a node has, as the memory patch caps it, when that is still
            // more than the job had; else the piece goes (the high-memory partitions are another fix)
            int perNode = Math.max(1, facts.job().cpus() / facts.job().nodes());
            Matcher m = MEM.matcher(fitted);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                long asked = DataSize.tryParse(m.group(3)).map(DataSize::bytes).orElse(0L);
                int multiplier = m.group(2) == null ? 1 : perNode;
                String value = m.group(3);
                if (asked > 0 && asked * multiplier > node.get().bytes()) {
                    long capped = MemoryAdvice.roundDown(node.get().bytes() / multiplier);
                    Optional<DataSize> jobMem = facts.job().memoryPerNode();
                    if (jobMem.isPresent() && capped * multiplier <= jobMem.get().bytes()) {
                        return Optional.empty();
                    }
                    value = MemoryAdvice.sbatchSize(new DataSize(capped));
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + value));
            }
            m.appendTail(sb);
            fitted = sb.toString();
        }
        Optional<String> model = facts.gpuModel();
        if (model.isPresent()) {
            Matcher m = GPU_TYPE.matcher(fitted);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String type = m.group(2).toLowerCase(Locale.ROOT).equals(model.get()) ? m.group(2) : model.get();
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + type));
            }
            m.appendTail(sb);
            fitted = sb.toString();
        }
        // the job's own QOS and partition say nothing of a request a workflow made for another job (1020's snakemake
        // job under QOS long was told `--qos=long` was its QOS already, while the refused job asked QOS normal)
        if (!facts.childRefused()) {
            fitted = already(fitted, "qos", facts.job().qos(), "the job's QOS already");
        }
        fitted = unlisted(fitted, facts);
        if (!facts.childRefused()) {
            fitted = already(fitted, "partition", facts.value("partition").orElse(null), "the job's partition already");
        }
        // an array task is told of job arrays as what it already is (the real lab's 185_4, a task of array 185, was
        // told to split the work into a job array)
        if (facts.job().id().isArrayTask()) {
            Matcher a = ARRAY_OPTION.matcher(fitted);
            if (a.find()) {
                fitted = fitted.substring(0, a.end()) + " (the job is already a task of array "
                        + facts.job().id().arrayJobId() + ")" + fitted.substring(a.end());
            }
        }
        return Optional.of(fitted);
    }

    /** {@code --array=0-99}, in a code span or not. */
    private static final Pattern ARRAY_OPTION = Pattern.compile("`[^`\\n]*--array[= ][^`\\n]*`|--array[= ]\\S+");

    /** {@code --qos=long}, in a code span or not; a placeholder ({@code --qos=<qos>}) is no name. */
    private static final Pattern QOS_OPTION = Pattern.compile("`[^`\n]*--qos[= ]([A-Za-z0-9_][\\w.-]*)[^`\n]*`|--qos[= ]([A-Za-z0-9_][\\w.-]*)");

    /**
     * {@code piece} with each QOS it names that the cluster's QOS table does not list marked so, and the cluster's
     * QOSes named once after it (a note's {@code --qos=long} on a cluster with no QOS long would be refused); a QOS the
     * cluster has but the job's user may not use with its account ({@code sacctmgr show assoc}) is marked so, with
     * theirs (the real lab's user, allowed normal and short, would be refused {@code --qos=long}); and one the job's
     * partition does not admit (AllowQos/DenyQos) is marked so, with what it admits. The piece as it is
     * when it names no QOS or the QOSes are unknown (only then are the tables asked for).
     */
    static String unlisted(String piece, JobAdviceFacts facts) {
        if (!piece.contains("--qos")) {
            return piece;
        }
        List<io.slurmwise.job.Qos> table = facts.qos().get();
        if (table.isEmpty()) {
            return piece;
        }
        Optional<java.util.Set<String>> allowed = facts.allowedQos().get();
        // the job's partition, when scontrol said which QOSes it admits (AllowQos/DenyQos)
        Optional<io.slurmwise.job.Partition> on = facts.partition().filter(p -> p.qosAccess().known());
        Matcher m = QOS_OPTION.matcher(piece);
        StringBuilder sb = new StringBuilder();
        boolean unknown = false;
        boolean refused = false;
        boolean barred = false;
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            boolean listed = io.slurmwise.job.Qos.named(table, name).isPresent();
            boolean yours = allowed.map(a -> a.contains(name.toLowerCase(java.util.Locale.ROOT))).orElse(true);
            boolean admitted = on.map(p -> !p.qosAccess().refuses(name)).orElse(true);
            unknown |= !listed;
            refused |= listed && !yours;
            barred |= listed && yours && !admitted;
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group() + (!listed ? " (not a QOS of this cluster)"
                    : !yours ? " (not one your account may use)"
                    : !admitted ? " (not one partition " + on.get().name() + " admits)" : "")));
        }
        m.appendTail(sb);
        if (!unknown && !refused && !barred) {
            return piece;
        }
        String out = sb.toString().stripTrailing();
        out += out.endsWith(".") ? "" : ".";
        if (unknown) {
            out += " This cluster's QOSes: " + String.join(", ", table.stream().map(io.slurmwise.job.Qos::describe)
                    .toList()) + ".";
        }
        if (allowed.isPresent() && (refused || unknown)) {
            out += " Yours with account " + facts.job().account() + ": " + String.join(", ", new java.util.TreeSet<>(allowed.get())) + ".";
        }
        if (barred) {
            // the ones to use instead: the user's that the partition admits, when both are known (1057's list named
            // long, which gpuH100x8 refuses, and never normal, which the patch uses; an outside audit)
            io.slurmwise.job.Partition.QosAccess access = on.get().qosAccess();
            List<String> usable = allowed.map(a -> a.stream().filter(q -> !access.refuses(q)).sorted().toList())
                    .orElse(List.of());
            out += usable.isEmpty() ? " Partition " + on.get().name() + " admits " + access.describe()
                    + " (scontrol show partition)." : " Of yours, partition " + on.get().name() + " admits: "
                    + String.join(", ", usable) + ".";
        }
        return out;
    }

    /**
     * {@code piece} with each {@code --option=value} (or the code span holding it) that names the value the job
     * already has followed by {@code (note)}: advice to use {@code --qos=gpu} is no change to a job with QOS gpu.
     */
    static String already(String piece, String option, String value, String note) {
        if (value == null || value.isBlank() || !piece.contains("--" + option)) {
            return piece;
        }
        String opt = "--" + Pattern.quote(option) + "[= ]" + Pattern.quote(value.strip()) + "(?![\\w.-])";
        Matcher m = Pattern.compile("`[^`\n]*" + opt + "[^`\n]*`|" + opt).matcher(piece);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group() + " (" + note + ")"));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** Words of a fix that takes something away or replaces it: the script having it is the reason for the fix. */
    private static final Pattern UNDO = Pattern.compile("(?i)\\b(?:remove|drop|delete|do not|don't|avoid|instead of|rather"
            + " than|replace|unset|not combine)\\b");
    /**
     * A section's items in the order to show them, and those the job's script already follows (which say so, and
     * follow the others).
     */
    record Followed(List<String> items, java.util.Set<String> followed) {
    }
    /** What stands between two spans of one choice: "` or `", "` (or `". */
    private static final Pattern OR_BETWEEN = Pattern.compile("\\s*\\(?(?:or|older [\\w .]{1,30}:)\\s*");
    /**
     * A command that reads the cluster's state: a check to run, never a line the script lacks (2032's script had
     * {@code --requeue} and was told to add it, because the fix also says to check {@code scontrol show config}).
     */
    private static final Pattern QUERY = Pattern.compile("^(?:sinfo|squeue|sacct|sstat|sshare|sprio|seff|scontrol\\s+show"
            + "|sacctmgr\\s+(?:-\\w+\\s+)*(?:show|list))\\b");
    /**
     * Inline code in a fix: a command or setting it asks for. Every span is matched, short ones too, so that the
     * backticks pair up: a short span skipped by the pattern left its closing backtick to open the next "span" (1041's
     * "`srun` (each task one rank), taking `" read as a command its script lacks).
     */
    private static final Pattern CODE = Pattern.compile("`([^`\\n]+)`");
    /**
     * An sbatch option whose value in a fix is only an example: {@code --signal=B:USR1@300} asks for a warning before the
     * limit, and a script with {@code --signal=B:USR2@120} already has one (the real lab's job that trapped its own
     * warning signal and checkpointed was told to; an outside audit).
     */
    private static final Pattern EXAMPLE_VALUED = Pattern.compile("(?:#SBATCH\\s+)?--(signal)[= ]\\S+");
    /** A span shorter than this is a word, not a command or setting to compare. */
    private static final int MIN_CODE = 10;

    /**
     * {@code items} with each one whose commands and settings the job's script all already has saying so, after the others:
     * 1029 already ran {@code python -X faulthandler} with {@code ulimit -c unlimited}, 1041 launched one task per
     * GPU, and the fixes told them to (an outside audit). Code that names a slot ({@code <size>}) or is a bare word
     * is not compared; without a script the items are as they were.
     */
    static Followed followedLast(List<String> items, String script) {
        if (script == null || script.isBlank()) {
            return new Followed(items, java.util.Set.of());
        }
        String have = " " + script.replaceAll("\\s+", " ") + " ";
        List<String> open = new ArrayList<>();
        List<String> done = new ArrayList<>();
        for (String item : items) {
            if (UNDO.matcher(item).find()) {
                open.add(item); // "remove the --nodelist", "instead of ...": having it is the point
                continue;
            }
            // every command or setting the fix names (with its value, no slot) is in the script: one it lacks is the
            // fix's action, and one it has may be only the fix's trigger ("--export=NONE", "module load")
            // spans joined by "or" are one choice (1029's `export PYTHONFAULTHANDLER=1` (or `python -X faulthandler`):
            // the script's -X faulthandler follows it; an outside audit): each choice needs one of its spans
            Matcher m = CODE.matcher(item);
            String found = null;
            boolean all = true;
            boolean choiceMet = false;
            boolean choiceOpen = false; // the choice being read has a span to compare
            int lastEnd = -1;
            while (m.find()) {
                if (m.group(1).length() < MIN_CODE) {
                    continue;
                }
                boolean sameChoice = lastEnd >= 0 && OR_BETWEEN.matcher(item.substring(lastEnd, m.start())).matches();
                if (!sameChoice) {
                    all &= !choiceOpen || choiceMet;
                    choiceMet = false;
                    choiceOpen = false;
                }
                lastEnd = m.end();
                String code = m.group(1).replaceAll("\\s+", " ").strip();
                if (code.contains("<") || code.endsWith("=") || !(code.contains(" ") || code.contains("="))
                        || QUERY.matcher(code).find()) {
                    continue; // a slot, an option waiting for its value, a bare word, a check: not an action to compare
                }
                choiceOpen = true;
                Matcher example = EXAMPLE_VALUED.matcher(code);
                if (example.matches()) {
                    // the value is the note's example: the script's own option of any value follows the advice
                    Matcher own = Pattern.compile("(?<![\\w-])--" + example.group(1) + "[= ][^\\s`'\"]+").matcher(have);
                    if (own.find()) {
                        found = found == null ? own.group() : found;
                        choiceMet = true;
                    }
                    continue;
                }
                if (Pattern.compile("(?<![\\w=./-])" + Pattern.quote(code) + "(?![\\w./-])").matcher(have).find()) {
                    found = found == null ? code : found;
                    choiceMet = true;
                }
            }
            all &= !choiceOpen || choiceMet;
            if (found == null || !all) {
                open.add(item);
            } else {
                // a setting already marked as the job's own ("`--qos=long` (the job's QOS already)") says it once
                boolean said = Pattern.compile(Pattern.quote(found) + "`? \\(the job's [\\w ]+ already\\)")
                        .matcher(item).find();
                done.add(said ? item : item + " (the job's script already has `" + found + "`)");
            }
        }
        if (done.isEmpty()) {
            return new Followed(items, java.util.Set.of());
        }
        open.addAll(done);
        return new Followed(open, java.util.Set.copyOf(done));
    }

    /** An item for Python programs only, as a note labels it ({@code Python: `export PYTHONFAULTHANDLER=1` ...}). */
    private static final Pattern PYTHON_ITEM = Pattern.compile("^(?:\\d{1,2}\\.\\s+)?Python:");
    /** The words of a batch script that runs Python: the interpreter, a .py file, its environments and launchers. */
    private static final Pattern RUNS_PYTHON = Pattern.compile("(?i)\\bpython[0-9.]*\\b|\\.py\\b|\\b(?:conda|mamba|micromamba"
            + "|pip|uv|venv|virtualenv|torchrun|accelerate|deepspeed|jupyter|snakemake|ipython)\\b|/bin/activate\\b");

    /**
     * {@code items} with those labeled for Python after the others when the batch script shows no sign of Python:
     * 1003's OpenFOAM solver crashed and its third fix was Python's faulthandler (an outside audit). Demoted, not
     * dropped: a script may run Python through a wrapper it does not show. Without a script the items are as they were.
     */
    static List<String> otherProgramsLast(List<String> items, String script) {
        if (script == null || script.isBlank()) {
            return items;
        }
        boolean python = RUNS_PYTHON.matcher(script).find();
        boolean mpi = runsMpi(script);
        if (python && mpi) {
            return items;
        }
        List<String> out = new ArrayList<>();
        List<String> other = new ArrayList<>();
        for (String item : items) {
            boolean notHere = !python && PYTHON_ITEM.matcher(item).find() || !mpi && MPI_ITEM.matcher(item).find();
            (notHere ? other : out).add(item);
        }
        if (other.isEmpty()) {
            return items;
        }
        out.addAll(other);
        return out;
    }

    /** An item for MPI programs only, as a note labels it ({@code MPI: load the MPI module ...}). */
    private static final Pattern MPI_ITEM = Pattern.compile("^(?:\\d{1,2}\\.\\s+)?MPI:");
    /**
     * The signs of an MPI program in a batch script: its launchers, an MPI module or library, srun's --mpi, or more than
     * one task (1029's single-process pysam crash was told to match its MPI's PMI; an outside audit).
     */
    private static final Pattern RUNS_MPI = Pattern.compile("(?i)\\b(?:mpirun|mpiexec|mpiexec\\.hydra|openmpi|mpich"
            + "|mvapich2?|impi|intel-mpi|intel-oneapi-mpi|hpcx|cray-mpich|pmix|pmi2)\\b|--mpi[= ]|-parallel\\b"
            + "|(?:--ntasks(?:-per-node)?|-n)[= ]?(?:[2-9]|\\d{2,})\\b");

    /** Whether the batch script shows an MPI program or more than one task (false for null). */
    static boolean runsMpi(String script) {
        return script != null && RUNS_MPI.matcher(script).find();
    }

    /** Whether each {@code --time-min} of a piece is below the longest {@code --time} it names (true without one). */
    static boolean timeMinBelowTime(String piece) {
        Matcher min = TIME_MIN.matcher(piece);
        if (!min.find()) {
            return true;
        }
        Duration longest = Duration.ZERO;
        Matcher t = TIME.matcher(piece);
        while (t.find()) {
            Duration d = SlurmTime.parseDuration(t.group(2)).orElse(Duration.ZERO);
            longest = d.compareTo(longest) > 0 ? d : longest;
        }
        if (longest.isZero()) {
            return true; // no --time to compare with: nothing contradicts
        }
        do {
            Optional<Duration> d = SlurmTime.parseDuration(min.group(1));
            if (d.isPresent() && d.get().compareTo(longest) >= 0) {
                return false;
            }
        } while (min.find());
        return true;
    }

    /** The section's text with its numbered list replaced by {@code items}, renumbered. */
    static String numbered(String text, List<String> items) {
        StringBuilder intro = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (ITEM.matcher(line).find()) {
                break;
            }
            intro.append(line).append('\n');
        }
        StringBuilder sb = new StringBuilder(intro.toString().strip());
        if (sb.length() > 0) {
            sb.append("\n\n");
        }
        for (int i = 0; i < items.size(); i++) {
            sb.append(i + 1).append(". ").append(items.get(i).replace("\n", "\n   ")).append('\n');
        }
        return sb.toString().strip();
    }

    /** Paragraphs and list entries (split at blank lines and at "- " items, code blocks kept whole). */
    static List<String> blocks(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean fence = false;
        for (String line : text.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fence = !fence;
            }
            boolean boundary = !fence && (line.isBlank() || line.startsWith("- "));
            if (boundary && cur.length() > 0) {
                out.add(cur.toString().stripTrailing());
                cur.setLength(0);
            }
            if (!line.isBlank() || fence) {
                cur.append(line).append('\n');
            }
        }
        if (cur.length() > 0) {
            out.add(cur.toString().stripTrailing());
        }
        return out;
    }
}
