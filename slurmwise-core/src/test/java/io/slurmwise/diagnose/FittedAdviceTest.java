package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.TimeLimit;
import io.slurmwise.job.Tres;
import io.slurmwise.patch.Patch;
import io.slurmwise.patch.PatchSuggester;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.testing.Captures;
import io.slurmwise.testing.FixtureCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Advice fitted to the job: for every failed and pending job of the mock cluster, and for jobs of the real lab's
 * captures, no fix or patch shown contradicts the job's partition limits or its GPU model.
 */
class FittedAdviceTest {

    static final FixtureCluster CLUSTER = new FixtureCluster();
    static final Slurmwise SW = Slurmwise.builder().backend(CLUSTER).build();
    static final Taxonomy TAXONOMY = SW.taxonomy();
    private static final Pattern TIME = Pattern.compile("(?:--time[= ]|TimeLimit=)([0-9][0-9:-]*)");
    private static final Pattern CPUS = Pattern.compile("--cpus-per-task=(\\d+)");
    private static final Pattern TASKS_PER_GPU = Pattern.compile("--ntasks-per-node=(\\d+)`, `#SBATCH --gpus-per-task=1");
    private static final Pattern MEM = Pattern.compile("--mem(-per-cpu)?=(\\d+[KMGT])\\b");
    private static final Pattern GPU = Pattern.compile("(?:--gres=gpu:|--gpus(?:-per-[a-z]+)?=)([A-Za-z][\\w.-]*):\\d");

    @AfterAll
    static void close() {
        SW.close();
    }

    /** What in {@code text} asks for more time than the partition allows, or a GPU type the job did not run on. */
    static List<String> contradictions(String text, JobAdviceFacts facts) {
        return contradictions(text, facts, "");
    }

    /**
     * As above, and for the kinds whose advice is "more": a time_limit fix's {@code --time} no longer than the job
     * had, an oom or shm_bus_error fix's {@code --mem}/{@code --mem-per-cpu} no more than it had per node.
     */
    static List<String> contradictions(String text, JobAdviceFacts facts, String kind) {
        List<String> out = new ArrayList<>();
        Optional<Duration> max = facts.maxTime();
        Matcher t = TIME.matcher(text);
        while (t.find()) {
            Optional<Duration> asked = SlurmTime.parseDuration(t.group(1));
            if (max.isPresent() && asked.isPresent() && asked.get().compareTo(max.get()) > 0) {
                out.add(t.group() + " above the partition's MaxTime " + SlurmTime.format(max.get()));
            }
            if (kind.equals("time_limit") && asked.isPresent() && facts.timeLimit().isPresent()
                    && asked.get().compareTo(facts.timeLimit().get()) <= 0) {
                out.add(t.group() + " is no more than the " + SlurmTime.format(facts.timeLimit().get()) + " it had");
            }
        }
        int coresPerNode = facts.job().cpus() / facts.job().nodes();
        Matcher c = CPUS.matcher(text);
        while (kind.equals("time_limit") && coresPerNode > 0 && c.find()) {
            if (Integer.parseInt(c.group(1)) <= coresPerNode) {
                out.add(c.group() + " as more cores for a job that had " + coresPerNode + " per node");
            }
        }
        Matcher t2 = TASKS_PER_GPU.matcher(text);
        int gpusPerNode = facts.job().gpus() / facts.job().nodes();
        while (kind.equals("nccl") && gpusPerNode > 0 && t2.find()) {
            if (Integer.parseInt(t2.group(1)) != gpusPerNode) {
                out.add(t2.group() + " as one task per GPU for a job with " + gpusPerNode + " GPUs per node");
            }
        }
        Optional<DataSize> perNode = facts.job().memoryPerNode();
        if ((kind.equals("oom") || kind.equals("shm_bus_error")) && perNode.isPresent()) {
            Matcher m = MEM.matcher(text);
            int cpusPerNode = Math.max(1, facts.job().cpus() / facts.job().nodes());
            while (m.find()) {
                long asked = DataSize.tryParse(m.group(2)).map(DataSize::bytes).orElse(0L) * (m.group(1) == null ? 1 : cpusPerNode);
                if (asked > 0 && asked <= perNode.get().bytes()) {
                    out.add(m.group() + " is no more than the " + perNode.get() + " per node it had");
                }
            }
        }
        out.addAll(sizeContradictions(text, facts));
        Matcher g = GPU.matcher(text);
        while (g.find()) {
            if (facts.gpuModel().isPresent() && !g.group(1).toLowerCase(Locale.ROOT).equals(facts.gpuModel().get())) {
                out.add(g.group() + " on a job that ran on " + facts.gpuModel().get());
            }
        }
        return out;
    }

    private static final Pattern TIMEOUT = Pattern.compile("\\btimeout (\\d+)([smhd]?) ");
    private static final Pattern SHORT_TIME = Pattern.compile("short[^.]{0,20}--time[= ]([0-9][0-9:-]*)");
    private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([gGmM])");
    private static final Pattern NODES = Pattern.compile("--nodes=(\\d+)");
    private static final Pattern GPUS_PER_NODE = Pattern.compile("--gpus-per-node=(\\d+)");
    private static final Pattern MEM_PER_CPU = Pattern.compile("--mem-per-cpu=(\\d+[KMGT])\\b");
    private static final Pattern MEM_PER_NODE = Pattern.compile("--mem=(\\d+[KMGT])\\b");

    /**
     * The numbers any fix may ask for, checked against the job and its partition whatever the kind: a {@code timeout}
     * for the work inside the job ends before the job's limit; a "short" {@code --time} is shorter than the job's; a
     * Java heap fits the job's memory per node; "more nodes", "more GPUs" and "more memory" are more than the job had,
     * and no request is more than one node of its partition has.
     */
    static List<String> sizeContradictions(String text, JobAdviceFacts facts) {
        List<String> out = new ArrayList<>();
        JobRecord job = facts.job();
        String lower = text.toLowerCase(Locale.ROOT);
        Optional<Duration> limit = facts.timeLimit();
        Matcher t = TIMEOUT.matcher(text);
        while (t.find() && limit.isPresent()) {
            long n = Long.parseLong(t.group(1));
            Duration d = switch (t.group(2)) {
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofSeconds(n);
            };
            if (d.compareTo(limit.get()) >= 0) {
                out.add(t.group().strip() + " is no shorter than the job's " + SlurmTime.format(limit.get()) + " limit");
            }
        }
        Matcher st = SHORT_TIME.matcher(lower);
        while (st.find() && limit.isPresent()) {
            Optional<Duration> asked = SlurmTime.parseDuration(st.group(1));
            if (asked.isPresent() && asked.get().compareTo(limit.get()) >= 0) {
                out.add(st.group() + " as short, for a job that had " + SlurmTime.format(limit.get()));
            }
        }
        if (!FixFitter.timeMinBelowTime(text)) {
            out.add("a --time-min not below the --time beside it");
        }
        Optional<DataSize> perNode = job.memoryPerNode();
        Matcher x = XMX.matcher(text);
        while (x.find() && perNode.isPresent()) {
            long heap = Long.parseLong(x.group(1)) * (x.group(2).equalsIgnoreCase("g") ? DataSize.GIB : DataSize.MIB);
            if (heap >= perNode.get().bytes()) {
                out.add(x.group() + " is not below the job's " + perNode.get() + " per node");
            }
        }
        int total = facts.partition().map(Partition::nodes).orElse(0);
        Matcher n = NODES.matcher(text);
        while (n.find()) {
            int asked = Integer.parseInt(n.group(1));
            if (lower.contains("more nodes") && asked <= job.nodes()) {
                out.add(n.group() + " as more nodes, for a job that had " + job.nodes());
            }
            if (total > 0 && asked > total) {
                out.add(n.group() + " on a partition of " + total + " nodes");
            }
        }
        int nodeGpus = facts.nodeGpus();
        int hadGpus = job.gpus() / job.nodes();
        Matcher g = GPUS_PER_NODE.matcher(text);
        while (g.find()) {
            int asked = Integer.parseInt(g.group(1));
            if (nodeGpus > 0 && asked > nodeGpus) {
                out.add(g.group() + " on nodes of " + nodeGpus + " GPUs");
            }
            if (lower.contains("more gpus") && hadGpus > 0 && asked <= hadGpus) {
                out.add(g.group() + " as more GPUs, for a job that had " + hadGpus + " per node");
            }
        }
        int cpusPerNode = Math.max(1, job.cpus() / job.nodes());
        Matcher c = MEM_PER_CPU.matcher(text);
        while (c.find() && lower.contains("more memory") && perNode.isPresent()) {
            long asked = DataSize.tryParse(c.group(1)).map(DataSize::bytes).orElse(0L) * cpusPerNode;
            if (asked > 0 && asked <= perNode.get().bytes()) {
                out.add(c.group() + " as more memory, for a job that had " + perNode.get() + " per node");
            }
        }
        Optional<DataSize> nodeMem = facts.partition().map(Partition::memoryPerNode);
        Matcher mn = MEM_PER_NODE.matcher(text);
        while (mn.find() && nodeMem.isPresent()) {
            long asked = DataSize.tryParse(mn.group(1)).map(DataSize::bytes).orElse(0L);
            if (asked > nodeMem.get().bytes()) {
                out.add(mn.group() + " on nodes of " + nodeMem.get());
            }
        }
        Optional<Integer> nodeCpus = facts.partition().map(Partition::cpusPerNode).filter(v -> v > 0);
        Matcher cp = CPUS.matcher(text);
        while (cp.find() && nodeCpus.isPresent()) {
            if (Integer.parseInt(cp.group(1)) > nodeCpus.get()) {
                out.add(cp.group() + " on nodes of " + nodeCpus.get() + " CPUs");
            }
        }
        return out;
    }

    static void assertFits(String what, String text, JobAdviceFacts facts) {
        assertThat(contradictions(text, facts)).as(what + ":\n" + text).isEmpty();
        assertThat(text).as(what + " has an unfilled placeholder").doesNotContain("{{");
    }

    static void assertFits(String what, String text, JobAdviceFacts facts, String kind) {
        assertThat(contradictions(text, facts, kind)).as(what + ":\n" + text).isEmpty();
        assertThat(text).as(what + " has an unfilled placeholder").doesNotContain("{{");
    }

    /**
     * The job as a patch that moves it leaves it: on the partition the patch names, with the GPU type its --gres names
     * there (1016's time patch moves it from cpu to long, 22542799's to gpuH100x8 with gpu:h100:1).
     */
    static JobAdviceFacts afterPatch(JobAdviceFacts facts, Patch patch) {
        Map<String, String> options = patch == null ? Map.of() : FixFitter.patchOptions(patch);
        String partition = options.get("partition");
        String qos = options.get("qos");
        if (partition == null && qos == null) {
            return facts;
        }
        JobRecord job = facts.job();
        JobRecord.Builder moved = job.toBuilder().partition(partition == null ? job.partition() : partition);
        if (qos != null) {
            moved.qos(qos); // the patch's QOS goes with the move (1016: --qos=long)
        }
        Optional<String> type = Optional.ofNullable(options.get("gres")).map(Partition::gpus)
                .flatMap(g -> g.keySet().stream().filter(t -> !t.isEmpty()).findFirst());
        if (type.isPresent()) {
            Map<String, String> tres = new java.util.LinkedHashMap<>();
            job.allocTres().values().forEach((k, v) -> {
                if (!k.startsWith("gres/gpu:")) {
                    tres.put(k, v);
                }
            });
            tres.put("gres/gpu:" + type.get(), Integer.toString(Math.max(1, job.gpus())));
            moved.allocTres(new Tres(tres));
        }
        return new JobAdviceFacts(moved.build(), facts.partitions()).withQos(facts.qos());
    }

    private static List<String> concat(String text, List<String> items) {
        List<String> all = new ArrayList<>(List.of(text));
        all.addAll(items);
        return all;
    }

    static void assertFits(String what, List<FixNote> fixes, Patch patch, JobAdviceFacts facts) {
        // the fixes are about the job where it is; a patch that moves it is checked against where it moves
        JobAdviceFacts moved = afterPatch(facts, patch);
        // a fix that names the patch's own --gres speaks of the move, as the patch does (1055's "valid GPU requests:
        // --gres=gpu:h100:1" beside the patch to gpuH100x8)
        String movedGres = patch == null ? null : FixFitter.patchOptions(patch).get("gres");
        for (FixNote n : fixes) {
            for (String piece : concat(n.text(), n.items())) {
                List<String> found = new ArrayList<>(contradictions(piece, facts, n.kindId()));
                found.removeIf(c -> movedGres != null && c.startsWith("--gres=" + movedGres + " "));
                assertThat(found).as(what + " " + n.kindId() + " › " + n.section() + ":\n" + piece).isEmpty();
                assertThat(piece).as(what + " has an unfilled placeholder").doesNotContain("{{");
            }
        }
        if (patch != null) {
            // one answer: a fix that names an option the patch sets names the patch's value; a name (a QOS, a
            // partition) in a note is an example for a need ("--qos=long for longer jobs, --qos=gpu for GPU work"),
            // which the patch's one choice does not replace
            for (var o : FixFitter.patchOptions(patch).entrySet()) {
                if (FixFitter.NAME_OPTIONS.contains(o.getKey())) {
                    continue;
                }
                Pattern named = Pattern.compile("(?<![\\w-])--" + Pattern.quote(o.getKey()) + "[= ](?!<|0(?![\\w.]))([^\\s`)\\],;]+)");
                for (FixNote n : fixes) {
                    Matcher m = named.matcher(n.text() + "\n" + String.join("\n", n.items()));
                    while (m.find()) {
                        assertThat(m.group(1)).as(what + " " + n.kindId() + " › " + n.section() + " names --" + o.getKey()
                                + " as the patch sets it").isEqualTo(o.getValue());
                    }
                }
            }
            for (Patch.Change c : patch.changes()) {
                assertFits(what + " patch change", c.what(), moved);
                assertThat(c.what()).as(what + " a change is a change").doesNotContain("unchanged");
            }
            if (patch instanceof Patch.Suggested s) {
                for (String line : s.diff().split("\n")) {
                    if (line.startsWith("+") && !line.startsWith("+++")) {
                        assertFits(what + " diff", line, moved);
                        assertThat(s.original().lines().toList()).as(what + ": a '+' line is new").doesNotContain(line.substring(1));
                    }
                }
            }
        }
    }

    @Test
    void noShownFixOrPatchContradictsAMockJobsPartitionOrGpu() {
        List<Partition> partitions = CLUSTER.partitions();
        int failed = 0;
        int pending = 0;
        int fitted = 0;
        for (JobRecord j : CLUSTER.all()) {
            Diagnosis d = SW.diagnose(j.id().toString());
            // the QOS MaxWall caps the time as the partition's MaxTime does (1045-like jobs on largemem under QOS normal)
            JobAdviceFacts facts = new JobAdviceFacts(j, partitions).withQos(CLUSTER::qos);
            if (d instanceof Diagnosis.Failed f) {
                failed++;
                assertFits("job " + j.id(), f.fixes(), f.patch(), facts);
            } else if (d instanceof Diagnosis.StatusOnly so && so.pending() != null) {
                pending++;
                assertFits("pending job " + j.id(), so.pending().fixes(), so.pending().patch(), facts);
            } else {
                continue;
            }
            // whatever section a knowledge base retrieves for this job, fitted, fits it
            FixFitter fitter = new FixFitter(TAXONOMY);
            for (FailureKind k : TAXONOMY.kinds()) {
                for (NoteSection s : k.note().sections()) {
                    FixNote raw = new FixNote(k.id(), k.title(), s.heading(), s.text(), 1.0, k.note().source(), s.items());
                    for (FixNote n : fitter.fit(List.of(raw), facts)) {
                        fitted++;
                        assertFits("job " + j.id() + " with any note", List.of(n), null, facts);
                    }
                }
            }
        }
        assertThat(failed).isGreaterThanOrEqualTo(40);
        assertThat(pending).isGreaterThanOrEqualTo(10);
        assertThat(fitted).isGreaterThan(1000);
    }

    @Test
    void theTimeFixOfAJobAtItsPartitionsMaximumIsDroppedAndFilledWhereItFits() {
        // 22542799 asked its partition's 12 hours: the time fix ("within the partition's maximum") goes, and the patch
        // moves it to the partition that allows the 23 it needs
        Diagnosis.Failed f = (Diagnosis.Failed) SW.diagnose("22542799");
        FixNote fixes = f.fixes().stream().filter(n -> n.section().equals("Fixes")).findFirst().orElseThrow();
        assertThat(fixes.items()).noneMatch(i -> i.startsWith("Ask for more time"));
        assertThat(f.patch().changes()).anyMatch(c -> c.what().startsWith("--partition=gpuH100x8"));
        // the same job without a partition to move to: the time fix goes, the job already has the most there is
        JobAdviceFacts atMost = new JobAdviceFacts(CLUSTER.get("22542799"), CLUSTER.partitions());
        FixNote rawTime = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("22542799"), "time_limit"), null, 1).get(0);
        assertThat(new FixFitter(TAXONOMY).fit(List.of(rawTime), atMost).get(0).items())
                .noneMatch(i -> i.startsWith("Ask for more time"));
        // the same note for a job with room left on its partition: twice its 4 hours, as the time patch asks when
        // the logs show no progress, within the MaxTime; the facts are filled
        JobRecord shorter = CLUSTER.get("22542799").toBuilder().timeLimit(TimeLimit.of(Duration.ofHours(4))).build();
        JobAdviceFacts facts = new JobAdviceFacts(shorter, CLUSTER.partitions());
        FixNote raw = new NoteLookupRetriever().retrieve(finding(shorter, "time_limit"), shorter, 1).get(0);
        FixNote fit = new FixFitter(TAXONOMY).fit(List.of(raw), facts).get(0);
        assertThat(fit.items().get(0)).contains("`#SBATCH --time=08:00:00`").contains("(12:00:00)")
                .contains("gpuH100x8 (MaxTime 2-00:00:00, gpu:h100:8)").doesNotContain("{{");
        // without a job the time is a slot, not an example value that reads as advice (an outside audit)
        assertThat(raw.items().get(0)).contains("`sinfo -o \"%P %l\"` shows it").contains("`#SBATCH --time=<time>`");
    }

    @Test
    void anH100JobIsNeverToldToAskForAnA100() {
        Diagnosis.Failed f = (Diagnosis.Failed) SW.diagnose("1008");
        String shown = String.join("\n", f.fixes().stream().map(FixNote::text).toList());
        // nor told that the A100 partition has "more memory" (aGpuWithMoreMemoryIsOneWithMoreMemory)
        assertThat(shown).doesNotContain("--gres=gpu:a100").doesNotContain("gpuA100x4");
        // a site note that names a GPU type the job did not use is rewritten to the job's own
        JobAdviceFacts facts = new JobAdviceFacts(f.job(), CLUSTER.partitions());
        FixNote site = new FixNote("cuda_oom", "t", "Fixes", "1. Pin it: `#SBATCH --gres=gpu:a100:1`.", 1, "site.md",
                List.of("Pin it: `#SBATCH --gres=gpu:a100:1`."));
        assertThat(new FixFitter(TAXONOMY).fit(List.of(site), facts).get(0).items())
                .containsExactly("Pin it: `#SBATCH --gres=gpu:h100:1`.");
    }

    @Test
    void withoutAJobThePlaceholdersAreTheirFallbackWords() {
        FixNote raw = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("1001"), "oom"), null, 1).get(0);
        assertThat(raw.items().get(0)).contains("(its limit, measured peak in `sacct -j <jobid> -o JobID,ReqMem,MaxRSS`)")
                .contains("`#SBATCH --mem=<size>`").doesNotContain("{{").doesNotContain("48G");
        FixNote fit = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(CLUSTER.get("1001"),
                CLUSTER.partitions())).get(0);
        assertThat(fit.items().get(0)).contains("(32G, measured peak 31.8G)").contains("`#SBATCH --mem=48G`")
                .contains("`#SBATCH --mem-per-cpu=3G`");
        // the notes' commands about this job name its id (an outside audit read `scontrol release <jobid>` for 1005);
        // a command about another job (the next one of a chain) keeps its placeholder
        FixNote node = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("1005"), "node_fail"), null, 1).get(0);
        assertThat(String.join(" ", node.items())).contains("`scontrol release <jobid>`");
        JobRecord held = CLUSTER.get("1005").toBuilder().status(JobStatus.parse("PENDING")).build();
        assertThat(String.join(" ", new FixFitter(TAXONOMY).fit(List.of(node), new JobAdviceFacts(held,
                CLUSTER.partitions())).get(0).items())).contains("`scontrol release 1005`").doesNotContain("<jobid>");
        // only a job still queued can be released: 1005 ended (NODE_FAIL), as the real lab's node_fail job did
        assertThat(String.join(" ", new FixFitter(TAXONOMY).fit(List.of(node), new JobAdviceFacts(CLUSTER.get("1005"),
                CLUSTER.partitions())).get(0).items())).doesNotContain("scontrol release").contains("sacct -j 1005");
        assertThat(((io.slurmwise.diagnose.Diagnosis.StatusOnly) SW.diagnose("1021")).summary())
                .contains("scontrol update JobId=1021 Dependency=afterok:<new jobid>");
    }

    /** The number the oom fix names is the number the memory patch writes, for a big node and for a per-CPU request. */
    @Test
    void theOomFixAsksForWhatThePatchAsksFor() {
        // 1011: 500G, peak 499.9G: the fix once said "--mem=48G", a tenth of what the job already had
        Diagnosis.Failed big = (Diagnosis.Failed) SW.diagnose("1011");
        String fix = big.fixes().stream().filter(n -> n.kindId().equals("oom") && n.section().equals("Fixes"))
                .findFirst().orElseThrow().items().get(0);
        assertThat(fix).contains("(500G, measured peak 499.9G)").contains("`#SBATCH --mem=768G`")
                .contains("`#SBATCH --mem-per-cpu=12G`");
        assertThat(big.patch().changes()).extracting(Patch.Change::what).anyMatch(w -> w.startsWith("--mem=768G"));
        // 1024: --mem-per-cpu=1G on 4 nodes of 128 CPUs, peak 1023.6M per task
        Diagnosis.Failed perCpu = (Diagnosis.Failed) SW.diagnose("1024");
        String fix2 = perCpu.fixes().stream().filter(n -> n.kindId().equals("oom") && n.section().equals("Fixes"))
                .findFirst().orElseThrow().items().get(0);
        assertThat(fix2).contains("`#SBATCH --mem-per-cpu=1536M`").contains("128G per node, 512G in all");
        assertThat(perCpu.patch().changes()).extracting(Patch.Change::what)
                .anyMatch(w -> w.startsWith("--mem-per-cpu=1536M"));
    }

    /** "More cores" means more than the job had; "one task per GPU" means as many tasks as it has GPUs per node. */
    @Test
    void moreCoresAndOneTaskPerGpuAreCountedFromTheJob() {
        // 22542799: 16 CPUs on one gpuA100x4 node; the note's example was --cpus-per-task=16
        Diagnosis.Failed time = (Diagnosis.Failed) SW.diagnose("22542799");
        assertThat(time.fixes().stream().flatMap(n -> n.items().stream()).filter(i -> i.startsWith("Make it faster")))
                .singleElement().asString().contains("--cpus-per-task=32").doesNotContain("--cpus-per-task=16");
        // 1041: 16 H100s on 2 nodes; the note's example was --ntasks-per-node=4
        Diagnosis.Failed nccl = (Diagnosis.Failed) SW.diagnose("1041");
        assertThat(nccl.fixes().stream().flatMap(n -> n.items().stream()).filter(i -> i.startsWith("Launch one task")))
                .singleElement().asString().contains("--ntasks-per-node=8`").doesNotContain("--ntasks-per-node=4`");
    }

    /** Every number a fix asks for that depends on the job is counted from it, not a fixed example of the note's. */
    @Test
    void jobDependentNumbersInFixesAreCountedFromTheJob() {
        // 1029: a segfault on 4 CPUs with 16G (4G per CPU) whose peak stayed at 2.1G: "if the crash follows memory
        // pressure, more memory per rank" is not its advice; at its limit, it is counted from the job (the note's
        // example was --mem-per-cpu=4G, what it had)
        assertThat(shownItems("1029")).noneMatch(i -> i.contains("--mem-per-cpu="));
        JobRecord tight = CLUSTER.get("1029").toBuilder().maxRss(DataSize.ofGibibytes(15.8)).build();
        FixNote seg = new NoteLookupRetriever().retrieve(finding(tight, "segfault"), null, 1).get(0);
        assertThat(new FixFitter(TAXONOMY).fit(List.of(seg), new JobAdviceFacts(tight, CLUSTER.partitions())).get(0).items())
                .anyMatch(i -> i.contains("`#SBATCH --mem-per-cpu=6G`")).noneMatch(i -> i.contains("--mem-per-cpu=4G"));
        // 1001: 32G on one node: a Java heap below it (the note said -Xmx40g), and twice the nodes
        List<String> oom = allItems("1001", "oom");
        assertThat(oom).anyMatch(i -> i.contains("`java -Xmx24g`")).anyMatch(i -> i.contains("more nodes (`#SBATCH --nodes=2`)"))
                .noneMatch(i -> i.contains("-Xmx40g"));
        // 1018: an 8-hour limit; a timeout inside the job ends before it (the note said 23h)
        assertThat(allItems("1018", "time_limit")).anyMatch(i -> i.contains("`timeout 7h srun ./prog`"));
        // 1039: preempted with a day's limit; "keep jobs short" halves it (the note said 02:00:00)
        assertThat(allItems("1039", "preempted")).anyMatch(i -> i.contains("short (`#SBATCH --time=12:00:00`)"));
        // 1008: all 8 H100s of one node already; more GPUs means more nodes. 1004: one A100 of a 4-GPU node
        assertThat(allItems("1008", "cuda_oom")).anyMatch(i -> i.contains("more nodes (`#SBATCH --nodes=2`) with all 8 GPUs"));
        assertThat(allItems("1004", "cuda_oom")).anyMatch(i -> i.contains("`#SBATCH --gpus-per-node=4`"));
    }

    /** The patch and the fixes beside it give one answer: the fix names the value the patch writes. */
    @Test
    void theFixNamesWhatThePatchWrites() {
        // 1018: 3 of 5 members done 5:57 into a run cut at 8:00 (the log's timestamps); the fix once said 2-00:00:00
        Diagnosis.Failed f = (Diagnosis.Failed) SW.diagnose("1018");
        assertThat(f.patch().changes()).extracting(Patch.Change::what).contains("--time=12:00:00 (was 08:00:00)");
        assertThat(shownItems("1018")).anyMatch(i -> i.startsWith("Ask for more time") && i.contains("`#SBATCH --time=12:00:00`"))
                .noneMatch(i -> i.contains("--time=2-00:00:00"));
        // --mem=0 (all of a node) is other advice, and a <placeholder> stays one
        assertThat(FixFitter.agree("use `--mem=0` or `--mem=32G`, `--mem=<its share>`", java.util.Map.of("mem", "48G")))
                .isEqualTo("use `--mem=0` or `--mem=48G`, `--mem=<its share>`");
        // the node a fix leaves to the reader is the one the patch excludes (1015: gpua023 failed)
        assertThat(shownItems("1015")).anyMatch(i -> i.contains("`#SBATCH --exclude=gpua023`"))
                .noneMatch(i -> i.contains("--exclude=<node>"));
    }

    /** Memory above one node of the partition is what a node has, as the patch caps it, or the piece goes. */
    @Test
    void memoryAboveANodeIsCappedAsThePatchCapsIt() {
        // 1005: 240G per node on the cpu partition's 250G nodes, no peak: twice the limit cannot be had there
        JobAdviceFacts facts = new JobAdviceFacts(CLUSTER.get("1005"), CLUSTER.partitions());
        FixNote raw = new NoteLookupRetriever().retrieve(finding(facts.job(), "oom"), facts.job(), 1).get(0);
        FixNote fit = new FixFitter(TAXONOMY).fit(List.of(raw), facts).get(0);
        assertThat(facts.value("suggested_mem")).contains("512G");
        assertThat(fit.items()).noneMatch(i -> i.startsWith("Ask for more memory"))
                .anyMatch(i -> i.startsWith("If one node cannot hold it"));
        // a job with room left on the node: the request becomes what the node has, rounded down as the patch does
        JobRecord small = CLUSTER.get("1029");
        FixNote site = new FixNote("oom", "t", "Fixes", "1. More: `#SBATCH --mem=1T`.", 1, "site.md", List.of("More: `#SBATCH --mem=1T`."));
        assertThat(new FixFitter(TAXONOMY).fit(List.of(site), new JobAdviceFacts(small, CLUSTER.partitions())).get(0).items())
                .containsExactly("More: `#SBATCH --mem=240G`.");
    }

    /** The items of the fixes a diagnosis shows. */
    private static List<String> shownItems(String id) {
        Diagnosis.Failed f = (Diagnosis.Failed) SW.diagnose(id);
        return f.fixes().stream().flatMap(n -> n.items().stream()).toList();
    }

    /** Every item of a kind's Fixes section, fitted to the job (shown or not). */
    private static List<String> allItems(String id, String kind) {
        JobRecord j = CLUSTER.get(id);
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, kind), j, 1).get(0);
        assertThat(raw.section()).isEqualTo("Fixes");
        return new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions())).get(0).items();
    }

    /** A job that already had its partition's MaxTime is not told to ask for it. */
    @Test
    void aTimeLimitJobAtItsPartitionsMaximumIsNotToldToAskForIt() {
        Diagnosis.Failed f = (Diagnosis.Failed) SW.diagnose("1016"); // 2-00:00:00 on cpu, whose MaxTime is 2-00:00:00
        assertThat(f.fixes().stream().flatMap(n -> n.items().stream()))
                .noneMatch(i -> i.contains("--time=2-00:00:00"));
        // with room left: twice the limit, capped at the MaxTime (7-00:00:00 on long)
        for (int[] hoursAndShown : new int[][] {{60, 5}, {120, 7}}) {
            JobRecord j = CLUSTER.get("1016").toBuilder().timeLimit(TimeLimit.of(Duration.ofHours(hoursAndShown[0])))
                    .elapsed(Duration.ofHours(hoursAndShown[0])).partition("long").build();
            JobAdviceFacts facts = new JobAdviceFacts(j, CLUSTER.partitions());
            FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "time_limit"), j, 1).get(0);
            FixNote fit = new FixFitter(TAXONOMY).fit(List.of(raw), facts).get(0);
            assertThat(fit.items().get(0)).contains("`#SBATCH --time=" + hoursAndShown[1] + "-00:00:00`");
        }
    }

    /** A job its own limit did not end (a step's srun --time did, 2 minutes into 2 hours) is not told to ask for more. */
    @Test
    void aJobItsOwnLimitDidNotEndIsNotToldToAskForMoreTime() {
        JobRecord j = CLUSTER.get("1016").toBuilder().timeLimit(TimeLimit.of(Duration.ofHours(2)))
                .elapsed(Duration.ofSeconds(125)).build();
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "time_limit"), j, 1).get(0);
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions())).get(0).items())
                .noneMatch(i -> i.startsWith("Ask for more time")).anyMatch(i -> i.startsWith("Checkpoint"));
        JobRecord ran = j.toBuilder().elapsed(Duration.ofHours(2).plusSeconds(20)).build();
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(ran, CLUSTER.partitions())).get(0)
                .items().get(0)).startsWith("Ask for more time").contains("--time=04:00:00");
    }

    /** The real lab's job 11 asked for 1:00:00 on gpuA100x4, whose MaxTime is 00:30:00: PartitionTimeLimit. */
    @Test
    void theRealLabsPartitionTimeLimitJobGetsTheNearestValidRequest() {
        List<Partition> partitions = labPartitions();
        assertThat(partitions).extracting(Partition::name).containsExactly("cpu", "gpuA100x4");
        String block = Captures.read("cgroup/scontrol_pending.txt");
        block = block.substring(block.indexOf("JobId=11 "));
        JobRecord job = JobRecord.builder(JobId.parse("11")).name("over_part_limit")
                .status(JobStatus.of(JobState.PENDING))
                .timeLimit(TimeLimit.parse(field(block, "TimeLimit")))
                .partition(field(block, "Partition")).pendingReason(field(block, "Reason")).build();
        assertThat(job.pendingReason()).isEqualTo("PartitionTimeLimit");
        Finding f = SW.classifier().classify(JobFacts.of(job), List.of());
        assertThat(f.kindId()).isEqualTo("resources_unavailable");
        // sacct --batch-script captured the script of another job; this one's is not in the capture
        Patch p = new PatchSuggester(TAXONOMY).suggest(job, f, List.of(), Optional.empty(), partitions);
        assertThat(p.changes()).extracting(Patch.Change::what).containsExactly("--time=00:30:00 (was 01:00:00)");
        JobAdviceFacts facts = new JobAdviceFacts(job, partitions);
        List<FixNote> fixes = new FixFitter(TAXONOMY).fit(new NoteLookupRetriever().retrieve(f, job, 2), facts);
        assertFits("lab job 11", fixes, p, facts);
        assertThat(fixes.get(0).items().get(0)).contains("(00:30:00)").contains("cpu (MaxTime 02:00:00");
    }

    /** The lab's partitions as {@code scontrol show partition} printed them. */
    static List<Partition> labPartitions() {
        List<Partition> out = new ArrayList<>();
        for (String block : Captures.read("cgroup/scontrol_partition.txt").split("PartitionName=")) {
            if (!block.contains("MaxTime=")) {
                continue;
            }
            String name = block.substring(0, block.indexOf('\n')).strip();
            Matcher mem = Pattern.compile("mem=(\\d+)M").matcher(block);
            out.add(new Partition(name, field(block, "Default").equals("YES"), TimeLimit.parse(field(block, "MaxTime")),
                    Integer.parseInt(field(block, "TotalNodes")), Integer.parseInt(field(block, "TotalCPUs")),
                    mem.find() ? new DataSize(Long.parseLong(mem.group(1)) * DataSize.MIB) : null,
                    block.contains("gres/gpu") ? "gpu:a100:4" : "", field(block, "State").equals("UP")));
        }
        return out;
    }

    private static String field(String block, String name) {
        Matcher m = Pattern.compile("(?<![A-Za-z])" + name + "=(\\S+)").matcher(block);
        assertThat(m.find()).as(name + " in the capture").isTrue();
        return m.group(1);
    }

    /**
     * A QOS MaxWall below the partition's MaxTime is the job's cap: a largemem job (MaxTime UNLIMITED) under QOS normal
     * (MaxWall 2 days) that timed out at 2 days is not told to ask for 4 (its patch says the QOS allows no more).
     */
    @Test
    void theQosMaxWallCapsTimeAdviceWhereThePartitionAllowsMore() {
        JobRecord j = CLUSTER.get("1045").toBuilder().status(JobStatus.of(JobState.TIMEOUT))
                .elapsed(Duration.ofDays(2).plusSeconds(10)).timeLimit(TimeLimit.of(Duration.ofDays(2))).build();
        JobAdviceFacts facts = new JobAdviceFacts(j, CLUSTER.partitions()).withQos(CLUSTER::qos);
        assertThat(facts.maxTime()).contains(Duration.ofDays(2));
        assertThat(facts.value("max_time")).contains("2-00:00:00, the MaxWall of QOS normal");
        assertThat(facts.value("longer_partitions"))
                .contains("none under QOS normal, which allows at most 2-00:00:00 on every partition");
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "time_limit"), null, 1).get(0);
        List<String> items = new FixFitter(TAXONOMY).fit(List.of(raw), facts).get(0).items();
        assertThat(items).noneMatch(i -> i.startsWith("Ask for more time")).noneMatch(i -> i.contains("--time=4-00:00:00"));
        // without the QOS, the partition's UNLIMITED lets the advice ask for twice the limit
        List<String> blind = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions()))
                .get(0).items();
        assertThat(blind).anyMatch(i -> i.startsWith("Ask for more time") && i.contains("--time=4-00:00:00"));
        // a QOS that allows more than the partition changes nothing: the partition is the cap
        JobRecord onCpu = j.toBuilder().partition("cpu").qos("long").build();
        assertThat(new JobAdviceFacts(onCpu, CLUSTER.partitions()).withQos(CLUSTER::qos).bindingQos()).isEmpty();
        // largemem's own QOS, when it has one, comes before the job's: its MaxWall binds, and other partitions may
        // give more (long, whose own QOS sets no time)
        List<io.slurmwise.job.Partition> own = CLUSTER.partitions().stream()
                .map(p -> p.name().equals("largemem") ? p.withQos("lm") : p).toList();
        JobAdviceFacts partQos = new JobAdviceFacts(j, own).withQos(() -> io.slurmwise.job.Qos.parse(
                "normal|2-00:00:00|\nlm|1-00:00:00|\n"));
        assertThat(partQos.bindingQos().map(io.slurmwise.job.Qos::name)).hasValue("lm");
        assertThat(partQos.value("max_time")).contains("1-00:00:00, the MaxWall of partition largemem's own QOS lm");
        assertThat(partQos.value("longer_partitions")).hasValueSatisfying(v -> assertThat(v).contains("long (MaxTime")
                .doesNotContain("none under"));
    }

    /**
     * A QOS the notes name as an example (`--qos=long`) that the cluster does not have is said to be none of its QOSes,
     * and its QOSes are named (the lab cluster has only normal and short); a cluster that has it, or unknown QOSes,
     * leave the piece as it is.
     */
    @Test
    void aQosTheClusterDoesNotHaveIsNotAdvisedAsIfItDid() {
        JobRecord j = CLUSTER.get("1057");
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "qos_limit"), null, 1).get(0);
        JobAdviceFacts lab = new JobAdviceFacts(j, CLUSTER.partitions())
                .withQos(() -> io.slurmwise.job.Qos.parse("normal||\nshort|00:10:00|\n"));
        String item = new FixFitter(TAXONOMY).fit(List.of(raw), lab).get(0).items().stream()
                .filter(i -> i.contains("--qos=long")).findFirst().orElseThrow();
        assertThat(item).contains("`#SBATCH --qos=long` (not a QOS of this cluster)")
                .contains("`#SBATCH --qos=gpu` (not a QOS of this cluster)")
                .endsWith("This cluster's QOSes: normal (no MaxWall), short (MaxWall 00:10:00).");
        String mock = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions())
                .withQos(CLUSTER::qos)).get(0).items().stream().filter(i -> i.contains("--qos=long")).findFirst().orElseThrow();
        assertThat(mock).doesNotContain("not a QOS").doesNotContain("This cluster's QOSes");
        assertThat(FixFitter.unlisted("use `--qos=<qos>`", lab)).isEqualTo("use `--qos=<qos>`");
    }

    /**
     * A QOS the cluster has but the job's user may not use with its account (sacctmgr show assoc) is said to be so,
     * with theirs: slurmctld would refuse it ("Invalid qos specification"). The real lab's user may use normal and
     * short; the mock's erik (climate-model) long and normal.
     */
    @Test
    void aQosTheUsersAccountMayNotUseIsNotAdvisedAsIfItCould() {
        JobRecord j = CLUSTER.get("1057"); // chen, cfd-sim: gpu, long, normal
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "qos_limit"), null, 1).get(0);
        JobAdviceFacts notLong = new JobAdviceFacts(j, CLUSTER.partitions()).withQos(CLUSTER::qos)
                .withAllowedQos(() -> java.util.Optional.of(java.util.Set.of("gpu", "normal")));
        String item = new FixFitter(TAXONOMY).fit(List.of(raw), notLong).get(0).items().stream()
                .filter(i -> i.contains("--qos=long")).findFirst().orElseThrow();
        assertThat(item).contains("`#SBATCH --qos=long` (not one your account may use)")
                .doesNotContain("--qos=gpu` (not one").doesNotContain("This cluster's QOSes")
                .endsWith("Yours with account cfd-sim: gpu, normal.");
        // the fixture's own associations: chen may use long, so nothing is marked
        String own = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions())
                .withQos(CLUSTER::qos).withAllowedQos(() -> io.slurmwise.job.Association.allowedQos(
                        CLUSTER.associations(j.user()), j.user(), j.account(), j.partition())))
                .get(0).items().stream().filter(i -> i.contains("--qos=long")).findFirst().orElseThrow();
        assertThat(own).doesNotContain("not one your account").doesNotContain("Yours with");
        // but 1057's partition gpuH100x8 admits gpu, normal and scavenger (the fixture's scontrol): long would be
        // refused there ("Job's QOS not permitted to use this partition")
        assertThat(own).contains("`#SBATCH --qos=long` (not one partition gpuH100x8 admits)")
                .endsWith("Of yours, partition gpuH100x8 admits: gpu, normal.");
        // without the user's associations, what the partition admits
        String anyone = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions())
                .withQos(CLUSTER::qos)).get(0).items().stream().filter(i -> i.contains("--qos=long")).findFirst()
                .orElseThrow();
        assertThat(anyone).endsWith("Partition gpuH100x8 admits AllowQos=gpu,normal,scavenger (scontrol show partition).");
        String unread = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions().stream()
                .map(p -> p.withQosAccess(io.slurmwise.job.Partition.QosAccess.UNKNOWN)).toList()).withQos(CLUSTER::qos))
                .get(0).items().stream().filter(i -> i.contains("--qos=long")).findFirst().orElseThrow();
        assertThat(unread).doesNotContain("admits");
        // the same job under erik's climate-model (long and normal): gpu is not his
        JobRecord erik = j.toBuilder().user("erik").account("climate-model").build();
        String his = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(erik, CLUSTER.partitions())
                .withQos(CLUSTER::qos).withAllowedQos(() -> io.slurmwise.job.Association.allowedQos(
                        CLUSTER.associations("erik"), "erik", "climate-model", erik.partition())))
                .get(0).items().stream().filter(i -> i.contains("--qos=long")).findFirst().orElseThrow();
        assertThat(his).contains("`#SBATCH --qos=gpu` (not one your account may use)")
                .contains("Yours with account climate-model: long, normal.");
    }

    /**
     * A job that ended DEADLINE was ended by its --deadline, not its --time: it is the deadline kind (a refinement of
     * the time limit, so a case labelled time_limit still counts it right), its fixes are the deadline's, it is not
     * told to ask for more time (which makes it miss the deadline sooner) and its patch changes no --time; a TIMEOUT
     * job is never told of deadlines.
     */
    @Test
    void aDeadlineIsNoTimeLimit() {
        JobRecord timeout = CLUSTER.get("1018");
        JobRecord deadline = timeout.toBuilder().status(io.slurmwise.job.JobStatus.of(io.slurmwise.job.JobState.DEADLINE))
                .build();
        io.slurmwise.classify.Classifier classifier = new io.slurmwise.classify.Classifier(TAXONOMY);
        Finding found = classifier.classify(io.slurmwise.classify.JobFacts.of(deadline), List.of());
        assertThat(found.kindId()).isEqualTo("deadline");
        assertThat(found.kind().title()).isEqualTo("Job's --deadline passed before it could finish");
        assertThat(TAXONOMY.isA("deadline", "time_limit")).isTrue();
        assertThat(classifier.classify(io.slurmwise.classify.JobFacts.of(timeout), List.of()).kindId())
                .isEqualTo("time_limit");
        FixNote own = new NoteLookupRetriever().retrieve(found, deadline, 1).get(0);
        String forDeadline = String.join("\n", new FixFitter(TAXONOMY).fit(List.of(own), new JobAdviceFacts(deadline,
                CLUSTER.partitions())).get(0).items());
        assertThat(forDeadline).contains("later `--deadline`").contains("--time-min").doesNotContain("more time");
        // the time limit's note, should it be shown beside it, drops its "more time"
        FixNote raw = new NoteLookupRetriever().retrieve(finding(deadline, "time_limit"), deadline, 1).get(0);
        assertThat(String.join("\n", new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(deadline,
                CLUSTER.partitions())).get(0).items())).doesNotContain("Ask for more time");
        String forTimeout = String.join("\n", new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(timeout,
                CLUSTER.partitions())).get(0).items());
        assertThat(forTimeout).contains("Ask for more time").doesNotContain("DEADLINE").doesNotContain("deadline");
        io.slurmwise.patch.Patch p = new io.slurmwise.patch.PatchSuggester(TAXONOMY).suggest(deadline,
                found, List.of(), FixtureCluster.script("1018"), CLUSTER.partitions());
        assertThat(p.changes()).isEmpty();
        assertThat(String.join(" ", p.advice())).contains("Job 1018's --deadline came before it could finish")
                .contains("no --time is changed");
    }

    /**
     * A TIMEOUT whose script's --time slurmctld cut to end by its --deadline (the real lab's deadline_cut: 10 minutes
     * asked, 1 given) is not told to ask for more time either: a longer --time is cut the same way, as its patch says.
     */
    @Test
    void aTimeCutToTheDeadlineIsNotToldToAskForMoreTime() {
        java.time.LocalDateTime start = java.time.LocalDateTime.of(2026, 12, 7, 14, 54, 36);
        JobRecord cut = CLUSTER.get("1018").toBuilder().start(start).end(start.plusSeconds(87))
                .elapsed(java.time.Duration.ofSeconds(87)).timeLimit(io.slurmwise.job.TimeLimit.of(java.time.Duration.ofMinutes(1)))
                .deadline(start.plusSeconds(107)).timeMin(java.time.Duration.ofMinutes(1)).build();
        String script = "#!/bin/bash\n#SBATCH --time=00:10:00\n#SBATCH --time-min=00:01:00\n./steps 600\n";
        FixNote raw = new NoteLookupRetriever().retrieve(finding(cut, "time_limit"), cut, 1).get(0);
        assertThat(String.join("\n", new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(cut,
                CLUSTER.partitions(), script)).get(0).items())).doesNotContain("Ask for more time");
        // a script whose --time ends before the deadline was not cut: more time is still its advice
        assertThat(String.join("\n", new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(cut,
                CLUSTER.partitions(), script.replace("00:10:00", "00:01:00"))).get(0).items())).contains("Ask for more time");
    }

    /**
     * The time limits a fix quotes are those of the QOS the patch moves the job to (the real lab's 211 read "within the
     * partition/QOS maximum (00:10:00, the MaxWall of QOS short): --time=00:15:00" beside a patch to QOS normal).
     */
    @Test
    void theLimitsAFixQuotesAreThoseOfTheQosThePatchMovesTo() {
        JobRecord job = CLUSTER.get("1018");
        List<io.slurmwise.job.Qos> table = io.slurmwise.job.Qos.parse("Name|MaxWall|Preempt\nshort|00:10:00|\nnormal||\n");
        JobRecord underShort = job.toBuilder().qos("short").build();
        JobAdviceFacts facts = new JobAdviceFacts(underShort, CLUSTER.partitions()).withQos(() -> table);
        assertThat(facts.value("max_time")).hasValueSatisfying(v -> assertThat(v).contains("the MaxWall of QOS short"));
        assertThat(facts.withMovedQos("normal").value("max_time")).hasValueSatisfying(v -> assertThat(v)
                .doesNotContain("short"));
        // what the job already does is still its own QOS's
        assertThat(facts.withMovedQos("normal").jobQos()).map(io.slurmwise.job.Qos::name).contains("short");
    }

    /** An array task is told of job arrays as what it already is (the real lab's 185_4, told to split into an array). */
    @Test
    void anArrayTaskIsToldItIsOneAlready() {
        JobRecord task = CLUSTER.get("1018").toBuilder().id(io.slurmwise.job.JobId.parse("185_4")).build();
        FixNote raw = new NoteLookupRetriever().retrieve(finding(task, "time_limit"), task, 1).get(0);
        String items = String.join("\n", new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(task,
                CLUSTER.partitions())).get(0).items());
        assertThat(items).contains("(`#SBATCH --array=0-99` (the job is already a task of array 185))");
        String plain = String.join("\n", new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(CLUSTER.get("1018"),
                CLUSTER.partitions())).get(0).items());
        assertThat(plain).contains("`#SBATCH --array=0-99`").doesNotContain("already a task of array");
    }

    private static Finding finding(JobRecord job, String kind) {
        return new Finding(TAXONOMY.kind(kind), 0.9, List.of(), List.of());
    }

    @Test
    void aJobThatNeverStartedIsNotToldAboutItsRun() {
        // 1042: cancelled while pending (no node); "if it hung, put a timeout around its steps" is not its advice
        JobAdviceFacts pending = new JobAdviceFacts(CLUSTER.get("1042"), CLUSTER.partitions());
        assertThat(pending.started()).isFalse();
        FixNote raw = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("1042"), "cancelled"), null, 1).get(0);
        assertThat(raw.items()).anyMatch(i -> i.contains("timeout <time> srun"));
        List<String> shown = new FixFitter(TAXONOMY).fit(List.of(raw), pending).get(0).items();
        assertThat(shown).noneMatch(i -> i.contains("timeout")).anyMatch(i -> i.startsWith("If you cancelled it by mistake"));
        assertThat(shown).hasSize(raw.items().size() - 1);
        // a job that ran keeps it, with its own timeout
        assertThat(new JobAdviceFacts(CLUSTER.get("1001"), CLUSTER.partitions()).started()).isTrue();
    }

    /** 1042, cancelled by its own user (bob), was told "if an admin cancelled it": an outside audit. */
    @Test
    void aJobItsOwnUserCancelledIsNotToldAboutAnAdminsCancel() {
        Diagnosis.Failed own = (Diagnosis.Failed) SW.diagnose("1042");
        assertThat(own.job().status().detail()).startsWith("by ");
        List<String> shown = own.fixes().stream().filter(n -> n.kindId().equals("cancelled") && n.section().equals("Fixes"))
                .findFirst().orElseThrow().items();
        assertThat(shown).anyMatch(i -> i.startsWith("If you cancelled it by mistake"))
                .noneMatch(i -> i.contains("`CANCELLED by 0`"));
        // cancelled by root, or by a uid without a name here: the admin's item stays, and root's comes first
        FixNote raw = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("1042"), "cancelled"), null, 1).get(0);
        JobRecord byRoot = CLUSTER.get("1042").toBuilder().status(JobStatus.parse("CANCELLED by 0")).build();
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(byRoot, CLUSTER.partitions())
                .withCanceller("root")).get(0).items()).anyMatch(i -> i.contains("`CANCELLED by 0`"));
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(byRoot, CLUSTER.partitions()))
                .get(0).items()).anyMatch(i -> i.contains("`CANCELLED by 0`"));
        // the note marks the item with the canceller's uid (a condition in the note, not in Java): another uid's cancel
        // quotes that uid, as the record says it
        JobRecord byOther = CLUSTER.get("1042").toBuilder().status(JobStatus.parse("CANCELLED by 1500")).build();
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(byOther, CLUSTER.partitions())
                .withCanceller("operator")).get(0).items()).anyMatch(i -> i.contains("`CANCELLED by 1500`"));
        assertThat(raw.text()).contains("`CANCELLED by 0`"); // the note shown without a job: its words
    }

    /**
     * 1020, a snakemake job under QOS long whose rule's sbatch (QOS normal) was refused, was told `--qos=long` was "the
     * job's QOS already": the refused request is the workflow's job, not this one (an outside audit).
     */
    @Test
    void aRequestAWorkflowMadeIsNotReadAsTheJobsOwn() {
        Diagnosis.Failed wrapper = (Diagnosis.Failed) SW.diagnose("1020");
        assertThat(wrapper.job().qos()).isEqualTo("long");
        List<String> items = wrapper.fixes().stream().flatMap(n -> n.items().stream()).toList();
        assertThat(items).anyMatch(i -> i.contains("--qos=long")).noneMatch(i -> i.contains("already"));
        // the same advice to a job whose own submission was refused says what it already has
        FixNote raw = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("1020"), "qos_limit"), null, 1).get(0);
        JobAdviceFacts own = new JobAdviceFacts(CLUSTER.get("1020"), CLUSTER.partitions())
                .withLogLines(List.of("sbatch: error: QOSMaxWallDurationPerJobLimit"));
        assertThat(own.childRefused()).isFalse();
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), own).get(0).items())
                .anyMatch(i -> i.contains("`#SBATCH --qos=long` (the job's QOS already)"));
        assertThat(own.withLogLines(List.of("WorkflowError:", "SLURM job submission failed. The error message was "
                + "sbatch: error: Batch job submission failed")).childRefused()).isTrue();
        assertThat(own.withLogLines(List.of("ERROR ~ Error executing process > 'ALIGN (1)'", "Caused by:",
                "  Failed to submit process to grid scheduler for execution")).childRefused()).isTrue();
    }

    /**
     * 1016 was moved to partition long while its account genomics had used its billing minutes: the rerun would wait
     * whatever it asks (an outside audit). The diagnosis says so, from the account's allocation and use (sshare).
     */
    @Test
    void aRerunUnderASpentAccountIsSaidToWait() {
        Diagnosis.Failed spent = (Diagnosis.Failed) SW.diagnose("1016");
        assertThat(spent.job().account()).isEqualTo("genomics");
        // bob has genomics alone (associations.psv): no "another account of yours" (an outside audit)
        assertThat(spent.notices()).anyMatch(n -> n.startsWith("account genomics has used its allocation (billing")
                && n.contains("a rerun under it waits (AssocGrpBillingMinutes)")
                && n.endsWith("; bob has no other account (sacctmgr show assoc), so ask the account's PI or your"
                + " allocation office"));
        // a pending job under a spent account is told so, whatever it waits for now: 1056 (PartitionConfig) would
        // wait again once its request fits; 1050 waits for the allocation itself and is not told twice
        Diagnosis.StatusOnly cesm = (Diagnosis.StatusOnly) SW.diagnose("1056");
        assertThat(cesm.pending().notices()).singleElement().asString()
                .startsWith("account climate-model has used its allocation").contains("a job under it waits");
        assertThat(((Diagnosis.StatusOnly) SW.diagnose("1050")).pending().notices()).isEmpty();
        assertThat(((Diagnosis.StatusOnly) SW.diagnose("1061")).pending().notices()).isEmpty();
        // a job that asks no --time is told the partition's DefaultTime it gets (1060: cpu's 01:00:00)
        assertThat(((Diagnosis.StatusOnly) SW.diagnose("1060")).pending().notices()).singleElement().asString()
                .startsWith("it asks no --time, so partition cpu's DefaultTime, 01:00:00, is its limit");
        // llm-lab has minutes left: nothing said
        Diagnosis.Failed left = (Diagnosis.Failed) SW.diagnose("1001");
        assertThat(left.job().account()).isEqualTo("llm-lab");
        assertThat(left.notices()).noneMatch(n -> n.contains("allocation"));
    }

    /** Advice the job already follows is not given as a change: an outside audit's 1011 and 1057. */
    @Test
    void aJobIsNotToldToDoWhatItAlreadyDoes() {
        // 1011 on largemem (the most memory per node there is) was told to use a high-memory partition
        Diagnosis.Failed big = (Diagnosis.Failed) SW.diagnose("1011");
        List<String> oom = big.fixes().stream().filter(n -> n.kindId().equals("oom") && n.section().equals("Fixes"))
                .findFirst().orElseThrow().items();
        assertThat(oom).noneMatch(i -> i.contains("more memory per node") || i.contains("high-memory"));
        // 1001 needs 48G, which its 250G node holds: no move (it would also leave its a100 request on H100 nodes)
        Diagnosis.Failed fits = (Diagnosis.Failed) SW.diagnose("1001");
        assertThat(fits.fixes().stream().flatMap(n -> n.items().stream())).noneMatch(i -> i.contains("more memory per node"));
        // a job on a partition with smaller nodes than it needs is told which one has more
        JobRecord small = CLUSTER.get("1011").toBuilder().partition("cpu").build();
        FixNote raw = new NoteLookupRetriever().retrieve(finding(small, "oom"), null, 1).get(0);
        List<String> shown = new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(small, CLUSTER.partitions()))
                .get(0).items();
        assertThat(shown).anyMatch(i -> i.contains("`#SBATCH --partition=largemem` (1.97T per node, MaxTime UNLIMITED)"));
        // without a cluster the words say how to find one
        assertThat(raw.items()).anyMatch(i -> i.contains("a high-memory partition if your site has one"));
        // 1057 has QOS gpu: "--qos=gpu for GPU work" is its QOS already, not a change to make
        Diagnosis.StatusOnly d = (Diagnosis.StatusOnly) SW.diagnose("1057");
        String qos = d.pending().fixes().stream().filter(n -> n.kindId().equals("qos_limit") && n.section().equals("Fixes"))
                .findFirst().orElseThrow().items().stream().filter(i -> i.contains("--qos=gpu")).findFirst().orElseThrow();
        assertThat(qos).contains("`#SBATCH --qos=gpu` (the job's QOS already)")
                .contains("`#SBATCH --qos=long` (not one partition gpuH100x8 admits) for");
        assertThat(FixFitter.already("use `#SBATCH --qos=gpu2`", "qos", "gpu", "x")).isEqualTo("use `#SBATCH --qos=gpu2`");
    }

    /**
     * "A GPU with more memory" names only types whose every board has more memory than the job's: 1008 ran out on H100s
     * and was sent to the A100 partition (an outside audit); 1004 ran out on A100s of 40 GB (its CUDA error: "total
     * capacity of 39.39 GiB") and is told of the H100s, said as their sizes (80-94 GB, not "up to 94"); an A100 job of
     * unknown board is not sent to H100s that may be 80 GB too (an outside audit: H100 94 vs 80 GB).
     */
    @Test
    void aGpuWithMoreMemoryIsOneWithMoreMemory() {
        java.util.function.Function<String, List<String>> items = id -> ((Diagnosis.Failed) SW.diagnose(id)).fixes().stream()
                .filter(n -> n.kindId().equals("cuda_oom") && n.section().equals("Fixes")).findFirst().orElseThrow().items();
        assertThat(items.apply("1008")).noneMatch(i -> i.contains("GPU with more memory")).noneMatch(i -> i.contains("gpuA100x4"));
        assertThat(items.apply("1004")).anyMatch(i -> i.contains("GPU with more memory")
                && i.contains("gpuH100x8 (gpu:h100:8, 80-94 GB per GPU)"));
        FixNote raw = new NoteLookupRetriever().retrieve(finding(CLUSTER.get("1004"), "cuda_oom"), null, 1).get(0);
        // without the job's own capacity, an A100 is taken at its largest board (80 GB): the H100s are not surely larger
        JobAdviceFacts unknownBoard = new JobAdviceFacts(CLUSTER.get("1004"), CLUSTER.partitions());
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), unknownBoard).get(0).items())
                .noneMatch(i -> i.contains("gpuH100x8 (gpu:h100:8"));
        JobAdviceFacts reported = unknownBoard.withLogLines(List.of("torch.OutOfMemoryError: CUDA out of memory. Tried to"
                + " allocate 1.17 GiB. GPU 0 has a total capacity of 39.39 GiB of which 812.56 MiB is free."));
        assertThat(reported.gpuGiB()).isEqualTo(39.39);
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), reported).get(0).items())
                .anyMatch(i -> i.contains("gpuH100x8 (gpu:h100:8, 80-94 GB per GPU)"));
        io.slurmwise.job.GpuModels g = io.slurmwise.job.GpuModels.bundled();
        assertThat(g.of("a100_40gb").orElseThrow().memory()).isEqualTo("40 GB");
        assertThat(g.of("a100_40gb").orElseThrow().sm()).hasValue(80); // the size from the name, the rest from the type
        assertThat(g.of("A100-SXM4").orElseThrow().memory()).isEqualTo("40-80 GB");
        assertThat(g.of("h100").orElseThrow().memory()).isEqualTo("80-94 GB");
        assertThat(g.of("l40s").orElseThrow().memory()).isEqualTo("48 GB");
        assertThat(g.of("rtx6000").orElseThrow().sm()).isEmpty(); // two boards of two capabilities share the name
        assertThat(g.of("quantum9000")).isEmpty();
    }

    /**
     * A fix all of whose commands and settings the job's script already has says so and comes after the others: 1029
     * already enables core dumps, 1041 already launches one task per GPU (an outside audit). A fix the script has only
     * the trigger of (`--export=NONE`, `module load`) or a prefix of (`gcc/12` in `gcc/12.2.0`) is not one (a second
     * audit), and a fix that removes what the script has keeps its place.
     */
    @Test
    void aFixTheScriptAlreadyFollowsSaysSoAndComesLast() {
        List<String> seg = ((Diagnosis.Failed) SW.diagnose("1029")).fixes().stream()
                .filter(n -> n.kindId().equals("segfault") && n.section().equals("Fixes")).findFirst().orElseThrow().items();
        // spans joined by "or" are one choice: its `python -X faulthandler` follows "PYTHONFAULTHANDLER=1 (or ...)"
        assertThat(seg.subList(seg.size() - 2, seg.size())).anySatisfy(i -> assertThat(i).startsWith("Enable core dumps")
                .endsWith("(the job's script already has `ulimit -c unlimited`)"))
                .anySatisfy(i -> assertThat(i).contains("faulthandler")
                        .endsWith("(the job's script already has `python -X faulthandler`)"));
        assertThat(seg.subList(0, seg.size() - 2)).noneMatch(i -> i.contains("already has"));
        // 1041's script launches 8 tasks of one GPU each per node: the note's example program is no span to compare
        List<String> nccl = ((Diagnosis.Failed) SW.diagnose("1041")).fixes().stream()
                .filter(n -> n.kindId().equals("nccl") && n.section().equals("Fixes")).findFirst().orElseThrow().items();
        assertThat(nccl.get(nccl.size() - 1)).startsWith("Launch one task per GPU")
                .endsWith("(the job's script already has `#SBATCH --ntasks-per-node=8`)");
        String script = "#!/bin/sh\n#SBATCH --export=NONE\n#SBATCH --ntasks-per-node=8\n#SBATCH --nodelist=gpuh006\n"
                + "module load gcc/12.2.0\nsrun python train.py\n";
        FixFitter.Followed fitted = FixFitter.followedLast(List.of("Launch one task per GPU: `#SBATCH --ntasks-per-node=8`.",
                "Raise the timeout: `export NCCL_TIMEOUT=3600`.", "Remove the pin: `#SBATCH --nodelist=gpuh006`.",
                "If it inherited no modules (`--export=NONE`), use `#!/bin/bash -l`.",
                "Use your own tree: `module use $HOME/modulefiles`, then `module load`.",
                "Load the compiler: `module load gcc/12`."), script);
        List<String> mixed = fitted.items();
        assertThat(mixed).containsExactly("Raise the timeout: `export NCCL_TIMEOUT=3600`.",
                "Remove the pin: `#SBATCH --nodelist=gpuh006`.",
                "If it inherited no modules (`--export=NONE`), use `#!/bin/bash -l`.",
                "Use your own tree: `module use $HOME/modulefiles`, then `module load`.",
                "Load the compiler: `module load gcc/12`.",
                "Launch one task per GPU: `#SBATCH --ntasks-per-node=8`. (the job's script already has"
                        + " `#SBATCH --ntasks-per-node=8`)");
        assertThat(fitted.followed()).containsExactly(mixed.get(mixed.size() - 1));
        // a choice needs one of its spans; a span outside the choice still must be there
        assertThat(FixFitter.followedLast(List.of("Trace it: `export PYTHONFAULTHANDLER=1` (or `python -X faulthandler`)"),
                "srun python -X faulthandler run.py\n").followed()).hasSize(1);
        assertThat(FixFitter.followedLast(List.of("Trace it: `export PYTHONFAULTHANDLER=1` (or `python -X faulthandler`),"
                + " and `ulimit -c unlimited`"), "srun python -X faulthandler run.py\n").followed()).isEmpty();
        // a setting already marked as the job's own is not labelled twice (1020's and 1057's --qos, an outside audit)
        String qos = "Use a QOS for longer jobs: `#SBATCH --qos=long` (the job's QOS already)";
        FixFitter.Followed once = FixFitter.followedLast(List.of(qos), "#!/bin/bash\n#SBATCH --qos=long\n");
        assertThat(once.items()).containsExactly(qos);
        assertThat(once.followed()).containsExactly(qos);
        assertThat(FixFitter.followedLast(mixed, null).items()).isSameAs(mixed);
        assertThat(FixFitter.followedLast(mixed, null).followed()).isEmpty();
        // a warning signal's value in a note is an example: the real lab's job that trapped USR2 two minutes ahead and
        // checkpointed was told to get a warning signal (an outside audit); one without --signal still is
        String warn = "Checkpoint and continue: get a warning signal before the limit, `#SBATCH --signal=B:USR1@300`,"
                + " trap it in the script to save state, and resubmit.";
        FixFitter.Followed signalled = FixFitter.followedLast(List.of(warn, "Split the work: `#SBATCH --array=0-99`."),
                "#!/bin/bash\n#SBATCH --time=00:10:00\n#SBATCH --signal=B:USR2@120\ntrap 'save; exit' USR2\n"
                        + "python train.py &\nwait\n");
        assertThat(signalled.items()).containsExactly("Split the work: `#SBATCH --array=0-99`.",
                warn + " (the job's script already has `--signal=B:USR2@120`)");
        assertThat(FixFitter.followedLast(List.of(warn), "#!/bin/bash\n#SBATCH --time=00:10:00\npython train.py\n")
                .followed()).isEmpty();
        // "(older PyTorch: `...`)" is the other choice, and a check to run (`scontrol show config`) is no line a script
        // lacks: 2031 already set expandable segments and 2032 had --requeue, and both were told to (an outside audit)
        String frag = "Reduce fragmentation: `export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` (older PyTorch:"
                + " `export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128`).";
        String requeue = "Let SLURM requeue automatically on node failure: `#SBATCH --requeue` (the default on many sites;"
                + " check `scontrol show config | grep -i requeue`), and make the job restartable from a checkpoint.";
        String script2 = "#!/bin/bash\n#SBATCH --requeue\nexport PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n"
                + "python train.py --batch-size 8\n";
        assertThat(FixFitter.followedLast(List.of(frag, requeue, "Use mixed precision: `torch.autocast(\"cuda\")`."),
                script2).followed()).containsExactlyInAnyOrder(
                frag + " (the job's script already has `export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`)",
                requeue + " (the job's script already has `#SBATCH --requeue`)");
    }

    /**
     * A fix labeled for Python follows the others for a script that shows no Python: 1003's OpenFOAM solver crashed and
     * its third fix was faulthandler (an outside audit); for 1029's `python -X faulthandler` it keeps its place.
     */
    @Test
    void aPythonFixFollowsTheOthersForAScriptWithoutPython() {
        List<String> seg = ((Diagnosis.Failed) SW.diagnose("1003")).fixes().stream()
                .filter(n -> n.kindId().equals("segfault") && n.section().equals("Fixes")).findFirst().orElseThrow().items();
        assertThat(seg.get(seg.size() - 1)).startsWith("Python:");
        assertThat(seg.subList(0, 3)).noneMatch(i -> i.startsWith("Python:"));
        List<String> items = List.of("Get a backtrace: rebuild with `-g`.", "Python: `export PYTHONFAULTHANDLER=1`.",
                "MPI: load the MPI module.");
        assertThat(FixFitter.otherProgramsLast(items, "#!/bin/bash\nsrun pimpleFoam -parallel\n"))
                .containsExactly(items.get(0), items.get(2), items.get(1));
        for (String python : List.of("srun python3 train.py\n", "conda activate env\n./run\n", "torchrun x\n",
                "source venv/bin/activate\n./go\n")) {
            assertThat(FixFitter.otherProgramsLast(items, "#!/bin/bash\n" + python)).as(python).isEqualTo(items);
        }
        assertThat(FixFitter.otherProgramsLast(items, null)).isSameAs(items);
        // an MPI fix follows the others for a script that shows no MPI (1029's single-process pysam; an outside audit)
        List<String> mpiFirst = List.of("MPI: load the MPI module.", "Get a backtrace: rebuild with `-g`.",
                "Python: `export PYTHONFAULTHANDLER=1`.");
        assertThat(FixFitter.otherProgramsLast(mpiFirst, "#!/bin/bash\npython -X faulthandler count.py\n"))
                .containsExactly(mpiFirst.get(1), mpiFirst.get(2), mpiFirst.get(0));
        for (String mpi : List.of("mpirun -np 64 ./a.out\n", "module load openmpi/4.1\n./a.out\n",
                "#SBATCH --ntasks=128\nsrun python x.py\n", "srun --mpi=pmix python x.py\n")) {
            assertThat(FixFitter.otherProgramsLast(mpiFirst, "#!/bin/bash\n" + mpi)).as(mpi).isEqualTo(mpiFirst);
        }
    }

    /**
     * The GPU-memory fix's batch example is the script's own option halved (a script passing `--batch-size 8` read "e.g.
     * `--batch-size 16` becomes `--batch-size 8`"; an outside audit); a script that passes 1 is not told to halve it, and
     * without a script the note's generic example stays.
     */
    @Test
    void theBatchExampleIsTheScriptsOwnOption() {
        JobRecord j = CLUSTER.get("1008");
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "cuda_oom"), null, 1).get(0);
        FixFitter fitter = new FixFitter(TAXONOMY);
        String generic = fitter.fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions())).get(0).items().get(0);
        assertThat(generic).contains("e.g. `--batch-size 16` becomes `--batch-size 8 --grad-accum 2`");
        String eight = fitter.fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions(),
                "#!/bin/bash\nsrun python train.py --batch-size 8 --epochs 10\n")).get(0).items().get(0);
        assertThat(eight).contains("the script's `--batch-size 8` becomes `--batch-size 4` with 2 steps of gradient"
                + " accumulation").contains("the same per update").doesNotContain("16");
        String odd = fitter.fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions(),
                "#!/bin/bash\ntorchrun x.py --per_device_train_batch_size=7\n")).get(0).items().get(0);
        assertThat(odd).contains("`--per_device_train_batch_size 7` becomes `--per_device_train_batch_size 4`")
                .contains("about the same (8) per update");
        List<String> one = fitter.fit(List.of(raw), new JobAdviceFacts(j, CLUSTER.partitions(),
                "#!/bin/bash\npython x.py --batch_size 1\n")).get(0).items();
        assertThat(one).noneMatch(i -> i.startsWith("Reduce the per-GPU batch size"));
        assertThat(io.slurmwise.patch.ScriptReading.withBundledPatterns("python a.py --bs 12345678901\n").batchSize()).isEmpty();
    }

    /**
     * "Spread the work: fewer tasks per node over more nodes" is for a job of several tasks; a one-node job whose script
     * shows no MPI and no second task (a single-process Java or numpy program) has nothing to spread (an outside audit).
     */
    @Test
    void spreadingTheWorkIsNotAdvisedToOneProcess() {
        JobRecord j = CLUSTER.get("1001");
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "oom"), null, 1).get(0);
        FixFitter fitter = new FixFitter(TAXONOMY);
        java.util.function.Function<String, List<String>> items = script -> fitter.fit(List.of(raw),
                new JobAdviceFacts(j, CLUSTER.partitions(), script)).get(0).items();
        assertThat(items.apply("#!/bin/bash\n#SBATCH --mem=32G\njava -Xmx30g -jar assemble.jar\n"))
                .noneMatch(i -> i.contains("spread the work"));
        assertThat(items.apply("#!/bin/bash\n#SBATCH --ntasks=64\nsrun ./solver\n"))
                .anyMatch(i -> i.contains("spread the work"));
        assertThat(items.apply("#!/bin/bash\nmpirun -np 8 ./a.out\n")).anyMatch(i -> i.contains("spread the work"));
        // without the script nothing says it is one process
        assertThat(items.apply(null)).anyMatch(i -> i.contains("spread the work"));
        JobRecord twoNodes = j.toBuilder().allocTres(Tres.parse("cpu=32,mem=64G,node=2")).build();
        assertThat(fitter.fit(List.of(raw), new JobAdviceFacts(twoNodes, CLUSTER.partitions(), "#!/bin/bash\n./x\n"))
                .get(0).items()).anyMatch(i -> i.contains("spread the work"));
    }

    /**
     * A write that was denied is told first to write where the user may; making a file executable comes first only for a
     * program that could not be started (bash's `slurm_script: line N: ./x.sh: Permission denied`, srun's execve): a
     * Python `PermissionError` on an output file was told `chmod u+x run.sh` first (an outside audit).
     */
    @Test
    void aDeniedWriteIsNotToldToMakeAScriptExecutable() {
        Taxonomy t = TAXONOMY;
        io.slurmwise.taxonomy.NoteSection fixes = t.find("permission").orElseThrow().note().section("Fixes").orElseThrow();
        FixNote note = new FixNote("permission", "Permission denied", "Fixes", fixes.text(), 1.0, "permission.md",
                fixes.items());
        java.util.function.Function<String, String> first = line -> FixOrder.byEvidence(List.of(note),
                new Finding(t.kind("permission"), 0.8, List.of(new io.slurmwise.classify.Evidence(
                        io.slurmwise.classify.Evidence.Source.STDERR, 4, true, line, "permission", 1)), List.of()))
                .get(0).items().get(0);
        assertThat(first.apply("PermissionError: [Errno 13] Permission denied: '/projects/shared/out.csv'"))
                .startsWith("Write to directories you own");
        assertThat(first.apply("tee: /projects/shared/log.txt: Permission denied")).startsWith("Write to directories");
        assertThat(first.apply("/var/spool/slurmd/job01030/slurm_script: line 15: ./tools/decompose.sh: Permission denied"))
                .startsWith("Make scripts executable");
        assertThat(first.apply("slurmstepd: error: execve(): ./a.out: Permission denied"))
                .startsWith("Make scripts executable");
    }

    private static int indexOf(List<String> items, String word) {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).contains(word)) {
                return i;
            }
        }
        throw new AssertionError(word + " in none of " + items);
    }

    /** More memory "when memory was tight" is not advice for a job whose peak stayed far below its limit (1023). */
    @Test
    void memoryAdviceForTightMemoryNeedsAPeakNearTheLimit() {
        Diagnosis.Failed shm = (Diagnosis.Failed) SW.diagnose("1023"); // Bus error, peak 13.7G of 96G
        assertThat(shm.fixes().stream().flatMap(n -> n.items().stream())).noneMatch(i -> i.contains("--mem=144G"))
                .noneMatch(i -> i.startsWith("Request enough job memory"));
        // the same note for a job at its limit keeps it, with the memory patch's number
        JobRecord tight = CLUSTER.get("1023").toBuilder().maxRss(DataSize.ofGibibytes(95)).build();
        FixNote raw = new NoteLookupRetriever().retrieve(finding(tight, "shm_bus_error"), null, 1).get(0);
        assertThat(new FixFitter(TAXONOMY).fit(List.of(raw), new JobAdviceFacts(tight, CLUSTER.partitions())).get(0).items())
                .anyMatch(i -> i.startsWith("Request enough job memory") && i.contains("--mem=144G"));
    }

    /**
     * A log read without a job record ({@code classify}, {@code classify_log}, {@code eval}) gets the oom fixes its own
     * lines call for: no -Xmx fix without the JVM's heap error, no workflow-task fix without a workflow's report, no
     * single-allocation fix without a program's own allocation error; the record's gates (the partition's node) stay
     * open, so an allocation error keeps its fix in generic words.
     */
    @Test
    void aLogWithoutAJobGetsOnlyTheOomFixesItsLinesCallFor() {
        java.util.function.Function<String, List<String>> items = log -> {
            LogClassification c = LogClassification.ofText(new io.slurmwise.classify.Classifier(TAXONOMY),
                    new NoteLookupRetriever(), io.slurmwise.classify.JobFacts.NONE, log, 1);
            assertThat(c.finding().kindId()).isEqualTo("oom");
            return c.fixes().get(0).items();
        };
        int all = TAXONOMY.kind("oom").note().section("Fixes").orElseThrow().items().size();
        List<String> killed = items.apply("slurmstepd: error: Detected 1 oom_kill event in StepId=77.batch. Some of the"
                + " step tasks have been OOM Killed.\n");
        assertThat(killed).hasSize(all - 3)
                .noneMatch(i -> i.startsWith("Java's own heap limit"))
                .noneMatch(i -> i.startsWith("Fix the memory in the workflow"))
                .noneMatch(i -> i.startsWith("One allocation larger than a node"));
        assertThat(items.apply("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n"))
                .anyMatch(i -> i.startsWith("Java's own heap limit") && i.contains("-Xmx<size>"))
                .noneMatch(i -> i.startsWith("Fix the memory in the workflow"));
        assertThat(items.apply("numpy.core._exceptions._ArrayMemoryError: Unable to allocate 1.16 TiB for an array with"
                + " shape (400000, 400000) and data type float64\n"))
                .anyMatch(i -> i.startsWith("One allocation larger than a node") && i.contains("when the size its error"))
                .noneMatch(i -> i.startsWith("Java's own heap limit"));
    }

    /**
     * A limit the job's --mem is not (the JVM's heap, one allocation larger than a node, a workflow's task run as a job
     * of its own) is not answered with more --mem for this job (the auditor's 2020, 2021 and 2019 were told to ask for
     * 96G and 6G with peaks far below their limits), and nothing is said to have been killed.
     */
    @Test
    void aLimitTheJobsMemIsNotIsNotAnsweredWithMoreMem() {
        JobRecord j = CLUSTER.get("1029"); // 16G on cpu (250G nodes), peak 2.1G
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "oom"), j, 1).get(0);
        FixFitter fitter = new FixFitter(TAXONOMY);
        JobAdviceFacts facts = new JobAdviceFacts(j, CLUSTER.partitions());
        java.util.function.Function<String, List<String>> items = line -> fitter.fit(List.of(raw),
                facts.withLogLines(List.of(line))).get(0).items();
        assertThat(items.apply("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space"))
                .noneMatch(i -> i.startsWith("Ask for more memory"))
                .anyMatch(i -> i.startsWith("Java's own heap limit") && i.contains("`java -Xmx") && !i.contains("<size>"));
        assertThat(items.apply("numpy.core._exceptions._ArrayMemoryError: Unable to allocate 1.16 TiB for an array with"
                + " shape (400000, 400000) and data type float64"))
                .noneMatch(i -> i.startsWith("Ask for more memory"))
                .anyMatch(i -> i.contains("the program asked for 1.16 TiB at once and a node of partition cpu has 250G")
                        && i.contains("no `#SBATCH --mem=` can hold it"));
        // an allocation a node holds: more --mem is the answer, and "larger than a node" is not said
        assertThat(items.apply("numpy.core._exceptions._ArrayMemoryError: Unable to allocate 20.0 GiB for an array"))
                .anyMatch(i -> i.startsWith("Ask for more memory than the job had"))
                .noneMatch(i -> i.startsWith("One allocation larger than a node"));
        assertThat(items.apply("  Process `TRIM (S03)` terminated with an error exit status (137)"))
                .noneMatch(i -> i.startsWith("Ask for more memory"))
                .anyMatch(i -> i.startsWith("Fix the memory in the workflow") && i.contains("memory = { 4.GB * task.attempt }"));
        // nowhere "the limit the job was killed at": a program's own error kills nothing
        assertThat(raw.text()).doesNotContain("killed at");
        // at its limit, a workflow's head job or a JVM's is told more --mem as before
        JobRecord tight = j.toBuilder().maxRss(DataSize.ofGibibytes(15.8)).build();
        assertThat(fitter.fit(List.of(raw), new JobAdviceFacts(tight, CLUSTER.partitions()).withLogLines(List.of(
                "java.lang.OutOfMemoryError: Java heap space"))).get(0).items())
                .anyMatch(i -> i.startsWith("Ask for more memory than the job had"));
    }

    /**
     * The fixes for the JVM's heap, an allocation larger than a node and a workflow's task are shown only to a job whose
     * evidence quotes such an error: shown to every oom job they filled the explainer's budget for fixes, and 1001's
     * prompt lost its "What to check" section (the revert of ece2ea9). The workflow fix names the task.
     */
    @Test
    void programAndWorkflowMemoryFixesOnlyWithTheirEvidence() {
        JobRecord j = CLUSTER.get("1001");
        FixNote raw = new NoteLookupRetriever().retrieve(finding(j, "oom"), j, 1).get(0);
        FixFitter fitter = new FixFitter(TAXONOMY);
        JobAdviceFacts facts = new JobAdviceFacts(j, CLUSTER.partitions());
        java.util.function.Predicate<String> programOrWorkflow = i -> i.startsWith("Java's own heap limit")
                || i.startsWith("One allocation larger than a node") || i.startsWith("Fix the memory in the workflow");
        FixNote plain = fitter.fit(List.of(raw), facts.withLogLines(List.of(
                "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1001.batch."))).get(0);
        assertThat(plain.items()).noneMatch(programOrWorkflow);
        assertThat(plain.text()).doesNotContain("Java's own heap limit", "workflow", "One allocation");
        assertThat(fitter.fit(List.of(raw), facts.withLogLines(List.of(
                "Exception in thread \"main\" java.lang.OutOfMemoryError: GC overhead limit exceeded"))).get(0).items())
                .filteredOn(programOrWorkflow).singleElement().asString().startsWith("Java's own heap limit")
                .contains("`java -Xmx");
        assertThat(fitter.fit(List.of(raw), facts.withLogLines(List.of(
                "ERROR ~ Error executing process > 'TRIM (S03)'", "Caused by:",
                "  Process `TRIM (S03)` terminated with an error exit status (137)"))).get(0).items())
                .filteredOn(programOrWorkflow).singleElement().asString().startsWith("Fix the memory in the workflow")
                .contains("the killed task (`TRIM (S03)`)");
        assertThat(fitter.fit(List.of(raw), facts.withLogLines(List.of("[2026-11-02 10:14:55,12] [info] stderr for job"
                + " `wf.align:NA:1` contained one of the `memory-retry-error-keys: [OutOfMemory,Killed]` specified in the"
                + " Cromwell config. Job might have run out of memory."))).get(0).items())
                .filteredOn(programOrWorkflow).singleElement().asString().contains("the killed task (`wf.align:NA:1`)");
    }
}
