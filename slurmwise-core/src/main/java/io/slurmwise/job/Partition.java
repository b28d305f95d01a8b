package io.slurmwise.job;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A partition and its limits, as sinfo reports them.
 *
 * @param maxTime    the partition's MaxTime ({@code UNLIMITED} when none)
 * @param cpusPerNode CPUs of its nodes (0 when unknown)
 * @param memoryPerNode memory of its nodes (null when unknown)
 * @param gres       generic resources of its nodes, e.g. {@code gpu:a100:4} ("" when none)
 * @param qos        its own QOS ({@code scontrol show partition}'s {@code QoS=}), whose limits slurmctld takes before
 *                   the job's QOS's; "" when it has none or it is not known
 * @param qosAccess  the job QOSes it admits ({@code AllowQos=} or {@code DenyQos=}); {@link QosAccess#UNKNOWN} when not read
 * @param defaultTime the time a job that asks none gets ({@code DefaultTime=}); {@link TimeLimit#UNKNOWN} when not read
 *                   or none is set
 */
public record Partition(String name, boolean isDefault, TimeLimit maxTime, int nodes, int cpusPerNode,
                        DataSize memoryPerNode, String gres, boolean up, String qos, QosAccess qosAccess,
                        TimeLimit defaultTime) {

    /** {@code scontrol show partition}'s partition name and QOS fields. */
    private static final Pattern SCONTROL_FIELD = Pattern.compile("(?:^|\\s)(PartitionName|QoS|AllowQos|DenyQos|DefaultTime)=(\\S*)");

    /**
     * Which job QOSes a partition admits, as {@code scontrol show partition} prints it: {@code AllowQos=ALL},
     * {@code AllowQos=long,normal} (only those), or {@code DenyQos=scavenger} (all but those; SLURM prints one of the
     * two). slurmctld refuses a job whose QOS its partition does not admit ("Job's QOS not permitted to use this
     * partition"), so a patch that moves a job to a partition or a QOS checks it.
     *
     * @param known whether scontrol said (false: nothing is known, every QOS is to be checked)
     * @param allow the QOSes {@code AllowQos} lists, lower case; empty for ALL
     * @param deny  the QOSes {@code DenyQos} lists, lower case
     */
    public record QosAccess(boolean known, java.util.Set<String> allow, java.util.Set<String> deny) {

        public static final QosAccess UNKNOWN = new QosAccess(false, java.util.Set.of(), java.util.Set.of());
        public static final QosAccess ALL = new QosAccess(true, java.util.Set.of(), java.util.Set.of());

        public QosAccess {
            allow = lower(allow);
            deny = lower(deny);
        }

        private static java.util.Set<String> lower(java.util.Set<String> names) {
            java.util.Set<String> out = new java.util.TreeSet<>();
            for (String n : names) {
                String v = n.strip().toLowerCase(Locale.ROOT);
                if (!v.isEmpty()) {
                    out.add(v);
                }
            }
            return java.util.Collections.unmodifiableSet(out);
        }

        /** Whether a job of QOS {@code qos} may run there; empty when scontrol did not say. */
        public Optional<Boolean> admits(String qos) {
            if (!known || qos == null || qos.isBlank()) {
                return Optional.empty();
            }
            String q = qos.strip().toLowerCase(Locale.ROOT);
            return Optional.of(allow.isEmpty() ? !deny.contains(q) : allow.contains(q));
        }

        /** Whether it is known to refuse QOS {@code qos}. */
        public boolean refuses(String qos) {
            return admits(qos).map(a -> !a).orElse(false);
        }

        /** How advice names it: {@code AllowQos=long,normal}, {@code DenyQos=scavenger}, {@code AllowQos=ALL}. */
        public String describe() {
            return !known ? "AllowQos not known" : !allow.isEmpty() ? "AllowQos=" + String.join(",", allow)
                    : !deny.isEmpty() ? "DenyQos=" + String.join(",", deny) : "AllowQos=ALL";
        }
    }

    /** A GPU entry of a GRES column: {@code gpu:a100:4(S:0-1)}, {@code gpu:4}, {@code gpu} (one). */
    private static final Pattern GRES_GPU = Pattern.compile("(?:^|,)gpu(?::([A-Za-z][\\w.-]*))?(?::(\\d+))?(?=$|,|\\()");

    public Partition {
        gres = gres == null ? "" : gres;
        qos = qos == null ? "" : qos.strip();
        qosAccess = qosAccess == null ? QosAccess.UNKNOWN : qosAccess;
        defaultTime = defaultTime == null ? TimeLimit.UNKNOWN : defaultTime;
    }

    /** A partition as sinfo reports it, its own QOS and the QOSes it admits not known. */
    public Partition(String name, boolean isDefault, TimeLimit maxTime, int nodes, int cpusPerNode,
                     DataSize memoryPerNode, String gres, boolean up) {
        this(name, isDefault, maxTime, nodes, cpusPerNode, memoryPerNode, gres, up, "", QosAccess.UNKNOWN,
                TimeLimit.UNKNOWN);
    }

    /** The same partition with its own QOS ("" for none). */
    public Partition withQos(String partitionQos) {
        return new Partition(name, isDefault, maxTime, nodes, cpusPerNode, memoryPerNode, gres, up, partitionQos,
                qosAccess, defaultTime);
    }

    /** The same partition admitting the QOSes {@code access} says. */
    public Partition withQosAccess(QosAccess access) {
        return new Partition(name, isDefault, maxTime, nodes, cpusPerNode, memoryPerNode, gres, up, qos, access,
                defaultTime);
    }

    /** The same partition with the time a job that asks none gets. */
    public Partition withDefaultTime(TimeLimit time) {
        return new Partition(name, isDefault, maxTime, nodes, cpusPerNode, memoryPerNode, gres, up, qos, qosAccess, time);
    }

    /**
     * sinfo's partitions with what only {@code scontrol show partition} says of them: each one's own QOS, the QOSes
     * it admits and its DefaultTime (a partition scontrol does not list, or a field it does not print, is left as it
     * was). The answer is read once.
     */
    public static java.util.List<Partition> withScontrol(java.util.List<Partition> partitions, String scontrolShowPartition) {
        Map<String, Scontrol> said = scontrol(scontrolShowPartition);
        return partitions.stream().map(p -> {
            Scontrol s = said.get(p.name());
            if (s == null) {
                return p;
            }
            Partition out = s.qos() != null ? p.withQos(s.qos()) : p;
            out = s.defaultTime() != null ? out.withDefaultTime(s.defaultTime()) : out;
            return s.access() != null ? out.withQosAccess(s.access()) : out;
        }).toList();
    }

    /**
     * What {@code scontrol show partition} says of one partition that sinfo does not; a field it did not print (or
     * printed as none) is null.
     *
     * @param qos         its own QOS ({@code QoS=long}; {@code N/A} is none)
     * @param access      the QOSes it admits ({@code AllowQos=}, {@code DenyQos=})
     * @param defaultTime the limit of a job that asks no --time ({@code DefaultTime=NONE} is none: its MaxTime applies)
     */
    record Scontrol(String qos, QosAccess access, TimeLimit defaultTime) {
        static final Scontrol NOTHING = new Scontrol(null, null, null);
    }

    /** {@code scontrol show partition}'s answer, by partition, in one pass over its fields. */
    static Map<String, Scontrol> scontrol(String scontrolShowPartition) {
        Map<String, Scontrol> out = new LinkedHashMap<>();
        String partition = null;
        Matcher m = SCONTROL_FIELD.matcher(scontrolShowPartition == null ? "" : scontrolShowPartition);
        while (m.find()) {
            String field = m.group(1);
            String value = m.group(2);
            if (field.equals("PartitionName")) {
                partition = value.isEmpty() ? null : value;
                continue;
            }
            if (partition == null) {
                continue;
            }
            Scontrol was = out.getOrDefault(partition, Scontrol.NOTHING);
            switch (field) {
                case "QoS" -> {
                    if (!value.isEmpty() && !value.equalsIgnoreCase("N/A")) {
                        out.put(partition, new Scontrol(value, was.access(), was.defaultTime()));
                    }
                }
                case "AllowQos" -> {
                    java.util.Set<String> names = new java.util.HashSet<>(java.util.Arrays.asList(value.split(",")));
                    boolean all = value.isEmpty() || names.stream().anyMatch(n -> n.equalsIgnoreCase("ALL"));
                    QosAccess a = was.access() == null ? QosAccess.ALL : was.access();
                    out.put(partition, new Scontrol(was.qos(), new QosAccess(true, all ? java.util.Set.of() : names,
                            a.deny()), was.defaultTime()));
                }
                case "DenyQos" -> {
                    boolean none = value.isEmpty() || value.equalsIgnoreCase("(null)") || value.equalsIgnoreCase("NONE");
                    QosAccess a = was.access() == null ? QosAccess.ALL : was.access();
                    out.put(partition, new Scontrol(was.qos(), new QosAccess(true, a.allow(), none ? java.util.Set.of()
                            : new java.util.HashSet<>(java.util.Arrays.asList(value.split(",")))), was.defaultTime()));
                }
                case "DefaultTime" -> {
                    TimeLimit t = TimeLimit.parse(value);
                    if (t.kind() == TimeLimit.Kind.LIMITED || t.kind() == TimeLimit.Kind.UNLIMITED) {
                        out.put(partition, new Scontrol(was.qos(), was.access(), t));
                    }
                }
                default -> {
                    // a field sinfo already gives, or one advice does not read
                }
            }
        }
        return out;
    }

    /** One field of each partition that printed it, from {@link #scontrol}. */
    private static <T> Map<String, T> each(String scontrolShowPartition, java.util.function.Function<Scontrol, T> field) {
        Map<String, T> out = new LinkedHashMap<>();
        scontrol(scontrolShowPartition).forEach((p, s) -> {
            T v = field.apply(s);
            if (v != null) {
                out.put(p, v);
            }
        });
        return out;
    }

    /**
     * Each partition's {@code DefaultTime=} from {@code scontrol show partition}, the limit of a job that asks no
     * {@code --time}; a partition without one ({@code DefaultTime=NONE}: its MaxTime applies) is left out.
     */
    public static Map<String, TimeLimit> defaultTimesOf(String scontrolShowPartition) {
        return each(scontrolShowPartition, Scontrol::defaultTime);
    }

    /**
     * Each partition's QOS access from {@code scontrol show partition}: {@code AllowQos=ALL}, a list, or
     * {@code DenyQos=}; a partition whose block has neither is left out (not known).
     */
    public static Map<String, QosAccess> qosAccessOf(String scontrolShowPartition) {
        return each(scontrolShowPartition, Scontrol::access);
    }

    /**
     * Each partition's own QOS, from {@code scontrol show partition} ({@code PartitionName=long} ... {@code QoS=long});
     * a partition without one ({@code QoS=N/A}) is left out.
     */
    public static Map<String, String> qosOf(String scontrolShowPartition) {
        return each(scontrolShowPartition, Scontrol::qos);
    }

    /** Its MaxTime when it has one (empty for UNLIMITED or unknown). */
    public Optional<Duration> maxTimeLimit() {
        return maxTime.kind() == TimeLimit.Kind.LIMITED ? maxTime.limit() : Optional.empty();
    }

    /** Whether its MaxTime allows a run of {@code need}. */
    public boolean allows(Duration need) {
        return maxTime.kind() == TimeLimit.Kind.UNLIMITED || maxTime.limit().map(m -> m.compareTo(need) >= 0).orElse(false);
    }

    /** Whether its nodes have GPUs. */
    public boolean hasGpus() {
        return gres.contains("gpu");
    }

    /** Whether its nodes have GPUs of {@code model} ({@code a100}, any case). */
    public boolean hasGpuModel(String model) {
        return gpusByType().containsKey(model.toLowerCase(Locale.ROOT));
    }

    /** The GPUs of one node by type, lower case ("" for untyped): {@code gpu:a100:4} is {a100=4}. */
    public Map<String, Integer> gpusByType() {
        return gpus(gres);
    }

    /**
     * The GPUs of a GRES string (sinfo's column, or a job's {@code --gres}) by type, lower case, in its order ("" for
     * untyped; a bare {@code gpu} is one): {@code gpu:a100:2,gpu:v100:2,shard:8} is {a100=2, v100=2}.
     */
    public static Map<String, Integer> gpus(String gres) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (gres == null) {
            return out;
        }
        Matcher m = GRES_GPU.matcher(gres.strip());
        while (m.find()) {
            String type = m.group(1) == null ? "" : m.group(1).toLowerCase(Locale.ROOT);
            out.merge(type, m.group(2) == null ? 1 : Integer.parseInt(m.group(2)), Integer::sum);
        }
        return out;
    }

    /** The GPUs of one node, of any type; 0 without GPUs. */
    public int gpusPerNode() {
        return gpusByType().values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * What of a job's request this partition cannot give, as people read it, each with what the partition has:
     * {@code 16 CPUs per node (a cpu node has 2)}, {@code 100G per node (a cpu node has 3.9G)}, {@code 2 GPUs per node
     * (cpu has none)}, {@code 12 nodes (cpu has 8)}, {@code time 2-00:00:00 (MaxTime 12:00:00)}. Per node is the job's
     * total shared by its nodes, as slurmctld places it. Empty when it fits or neither side says.
     */
    public java.util.List<String> exceededBy(JobRecord job) {
        return java.util.List.copyOf(exceeded(job).values());
    }

    /**
     * What of a job's request a partition can refuse, under the sbatch option that asks for it, with the sbatch options
     * that change it: the one list {@link #exceeded} and the advice that says an excess both read.
     */
    public enum Ask {
        /** CPUs per node: {@code --cpus-per-task}, changed by any {@code --cpus-*} or {@code --ntasks*}. */
        CPUS("cpus-per-task", java.util.Set.of(), java.util.List.of("cpus", "ntasks")),
        /** Memory per node: {@code --mem}, changed by any {@code --mem*} (a {@code --mem-per-cpu} is memory too). */
        MEMORY("mem", java.util.Set.of(), java.util.List.of("mem")),
        /** GPUs per node: {@code --gres}, changed by {@code --gres} or any {@code --gpus*}. */
        GPUS("gres", java.util.Set.of("gres"), java.util.List.of("gpus")),
        /** Nodes: {@code --nodes}. */
        NODES("nodes", java.util.Set.of("nodes"), java.util.List.of()),
        /** The time limit: {@code --time}. */
        TIME("time", java.util.Set.of("time"), java.util.List.of());

        private final String option;
        private final java.util.Set<String> options;
        private final java.util.List<String> prefixes;

        Ask(String option, java.util.Set<String> options, java.util.List<String> prefixes) {
            this.option = option;
            this.options = options;
            this.prefixes = prefixes;
        }

        /** The sbatch option (without dashes) that asks for it. */
        public String option() {
            return option;
        }

        /** Whether setting sbatch option {@code name} (without dashes) changes what this asks for. */
        public boolean changedBy(String name) {
            return options.contains(name) || prefixes.stream().anyMatch(name::startsWith);
        }
    }

    /**
     * As {@link #exceededBy}, each under what it asks for ({@link Ask}: its sbatch option, {@code cpus-per-task},
     * {@code mem}, {@code gres}, {@code nodes}, {@code time}): advice that already changes an option has said its part.
     */
    public java.util.Map<Ask, String> exceeded(JobRecord job) {
        java.util.Map<Ask, String> out = new java.util.LinkedHashMap<>();
        int nodesAsked = job.nodes();
        tooManyCpus(job).ifPresent(t -> out.put(Ask.CPUS, t));
        if (memoryPerNode != null && memoryPerNode.bytes() > 0) {
            job.memoryPerNode().filter(m -> m.bytes() > memoryPerNode.bytes())
                    .ifPresent(m -> out.put(Ask.MEMORY, m + " per node (a " + name + " node has " + memoryPerNode + ")"));
        }
        if (job.gpus() > 0) {
            int per = job.gpusPerNode();
            if (!hasGpus()) {
                out.put(Ask.GPUS, per + " GPU" + (per == 1 ? "" : "s") + " per node (" + name + " has none)");
            } else if (per > gpusPerNode()) {
                out.put(Ask.GPUS, per + " GPUs per node (a " + name + " node has " + gpusPerNode() + ")");
            }
        }
        if (nodes > 0 && nodesAsked > nodes) {
            out.put(Ask.NODES, nodesAsked + " nodes (" + name + " has " + nodes + ")");
        }
        job.timeLimit().limit().ifPresent(t -> maxTimeLimit().filter(m -> t.compareTo(m) > 0)
                .ifPresent(m -> out.put(Ask.TIME, "time " + SlurmTime.format(t) + " (MaxTime " + maxTime + ")")));
        return out;
    }

    /** {@code 16 CPUs per node (a cpu node has 2)} when a node of this partition has fewer CPUs than the job asks of one. */
    public Optional<String> tooManyCpus(JobRecord job) {
        int per = job.cpusPerNode();
        return cpusPerNode > 0 && job.cpus() > 0 && per > cpusPerNode
                ? Optional.of(per + " CPUs per node (a " + name + " node has " + cpusPerNode + ")") : Optional.empty();
    }

    /** How advice names it: {@code gpuH100x8 (MaxTime 2-00:00:00, gpu:h100:8)}. */
    public String describe() {
        return name + " (MaxTime " + maxTime + (gres.isBlank() ? "" : ", " + gres) + ")";
    }
}
