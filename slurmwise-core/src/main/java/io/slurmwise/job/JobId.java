package io.slurmwise.job;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SLURM job id in any of the forms SLURM prints: plain {@code 123}, array task {@code 123_4},
 * pending array {@code 123_[1-5]}, heterogeneous component {@code 123+1}, and steps such as
 * {@code 123.batch} or {@code 123_4.0}.
 *
 * <p>A {@code JobId} that exists is valid: it is safe to put on a command line.
 * <pre>{@code
 * JobId id = JobId.parse("4242_3");
 * id.arrayJobId();   // 4242
 * id.arrayTaskId(); // Optional[3]
 * }</pre>
 */
public record JobId(long jobId, Long arrayTask, String arraySpec, Integer hetOffset, String step) {

    private static final Pattern FORM = Pattern.compile(
            "(\\d+)(?:_(\\d+)|_\\[([0-9,%\\-]{1,64})])?(?:\\+(\\d+))?(?:\\.(batch|extern|interactive|\\d+))?");

    /**
     * The largest job id SLURM gives: its ids are 32-bit, and it refuses 4294967293 ({@code MAX_FED_JOB_ID}) and above,
     * 4294967294 and 4294967295 being its "no value" and "infinite" markers.
     */
    public static final long MAX_JOB_ID = 4_294_967_292L;
    /** The largest array task id: {@code MaxArraySize} cannot exceed 4000001, and task ids are below it. */
    public static final long MAX_ARRAY_TASK_ID = 4_000_000L;
    /** The largest het job component offset: SLURM allows 128 components ({@code MAX_HET_JOB_COMPONENTS}), 0 to 127. */
    public static final int MAX_HET_OFFSET = 127;
    /** The largest numbered step: SLURM refuses {@code SLURM_MAX_NORMAL_STEP_ID} (4294967280) and above. */
    public static final long MAX_STEP_ID = 4_294_967_279L;

    public JobId {
        if (jobId <= 0) {
            throw new IllegalArgumentException("job id must be positive: " + jobId);
        }
    }

    /**
     * Parses a job id: the one place an id a person or a client typed is checked, for the CLI, the MCP server and the
     * API alike. Its numbers must be ones SLURM can have: a job id from 1 to {@link #MAX_JOB_ID}, an array task to
     * {@link #MAX_ARRAY_TASK_ID}, a het component to {@link #MAX_HET_OFFSET}, a numbered step to {@link #MAX_STEP_ID},
     * and never both a task and a component (SLURM refuses each of these).
     *
     * @throws InvalidJobIdException with a message saying what is wrong and which forms are accepted
     */
    public static JobId parse(String text) {
        if (text == null) {
            throw new InvalidJobIdException("(null)");
        }
        String trimmed = text.strip();
        if (trimmed.length() > 100) {
            throw new InvalidJobIdException(trimmed.substring(0, 40) + "...");
        }
        Matcher m = FORM.matcher(trimmed);
        if (!m.matches()) {
            throw new InvalidJobIdException(trimmed);
        }
        long id = number(trimmed, m.group(1), MAX_JOB_ID, "the job number", ": SLURM's job ids are 32-bit");
        if (id == 0) {
            throw new InvalidJobIdException(trimmed, "job ids start at 1");
        }
        Long task = m.group(2) == null ? null
                : number(trimmed, m.group(2), MAX_ARRAY_TASK_ID, "the array task id", TASK_WHY);
        if (m.group(3) != null) {
            for (String n : m.group(3).split("[,%\\-]")) {
                if (!n.isEmpty()) {
                    number(trimmed, n, MAX_ARRAY_TASK_ID, "the array task id", TASK_WHY);
                }
            }
        }
        Integer het = m.group(4) == null ? null
                : Math.toIntExact(number(trimmed, m.group(4), MAX_HET_OFFSET, "the het component offset",
                ": a het job has at most 128 components, numbered from 0"));
        if (het != null && (task != null || m.group(3) != null)) {
            throw new InvalidJobIdException(trimmed, "a job is an array task (4242_3) or a het job's component (123+1),"
                    + " never both");
        }
        String step = m.group(5);
        if (step != null && Character.isDigit(step.charAt(0))) {
            number(trimmed, step, MAX_STEP_ID, "the step number", "");
        }
        return new JobId(id, task, m.group(3), het, step);
    }

    private static final String TASK_WHY = ": SLURM's MaxArraySize is at most 4000001, and task ids are below it";

    /** The digits as a number, or the exception that says {@code what} is larger than SLURM allows. */
    private static long number(String id, String digits, long max, String what, String why) {
        String d = digits.replaceFirst("^0+(?=\\d)", "");
        if (d.length() > 18 || Long.parseLong(d) > max) { // every limit has 10 digits or fewer
            String shown = d.length() > 24 ? d.substring(0, 12) + "..." + d.substring(d.length() - 6) + " (" + d.length()
                    + " digits)" : d;
            throw new InvalidJobIdException(id, what + " " + shown + " is larger than SLURM allows (at most " + max
                    + why + ")");
        }
        return Long.parseLong(d);
    }

    /** Like {@link #parse} but empty instead of an exception. */
    public static Optional<JobId> tryParse(String text) {
        try {
            return Optional.of(parse(text));
        } catch (InvalidJobIdException e) {
            return Optional.empty();
        }
    }

    public Optional<Long> arrayTaskId() {
        return Optional.ofNullable(arrayTask);
    }

    public Optional<String> stepName() {
        return Optional.ofNullable(step);
    }

    public boolean isStep() {
        return step != null;
    }

    public boolean isArrayTask() {
        return arrayTask != null;
    }

    /**
     * How many jobs this row stands for: the tasks of a pending array's row ({@code 700_[3-500%10]} is 498, the
     * throttle aside), else 1. A spec that does not read as tasks counts 1.
     */
    public long taskCount() {
        if (arraySpec == null) {
            return 1;
        }
        String spec = arraySpec.contains("%") ? arraySpec.substring(0, arraySpec.indexOf('%')) : arraySpec;
        long n = 0;
        for (String part : spec.split(",")) {
            String[] ab = part.split("-", -1);
            try {
                if (ab.length == 1 && !ab[0].isEmpty()) {
                    n++;
                } else if (ab.length == 2) {
                    long a = Long.parseLong(ab[0]);
                    long b = Long.parseLong(ab[1]);
                    n += b >= a ? b - a + 1 : 0;
                } else {
                    return 1;
                }
            } catch (NumberFormatException e) {
                return 1;
            }
        }
        return Math.max(1, n);
    }

    /**
     * Whether this is a pending array's row ({@code 700_[3-500%10]}) whose tasks include {@code task}: SLURM keeps one
     * record for an array's tasks that have not started, and a task id among them names that record.
     */
    public boolean coversTask(long task) {
        if (arraySpec == null) {
            return false;
        }
        String spec = arraySpec.contains("%") ? arraySpec.substring(0, arraySpec.indexOf('%')) : arraySpec;
        for (String part : spec.split(",")) {
            String[] ab = part.split("-", -1);
            try {
                if (ab.length == 1 && !ab[0].isEmpty() && Long.parseLong(ab[0]) == task) {
                    return true;
                }
                if (ab.length == 2 && Long.parseLong(ab[0]) <= task && task <= Long.parseLong(ab[1])) {
                    return true;
                }
            } catch (NumberFormatException e) {
                // a part that does not read as tasks covers none
            }
        }
        return false;
    }

    /** The id of the whole job this step belongs to ({@code 123_4.batch} -> {@code 123_4}). */
    public JobId withoutStep() {
        return step == null ? this : new JobId(jobId, arrayTask, arraySpec, hetOffset, null);
    }

    /** The array (or plain) job id, without task, component or step: {@code 123_4.batch} -> 123. */
    public long arrayJobId() {
        return jobId;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(jobId);
        if (arrayTask != null) {
            sb.append('_').append(arrayTask);
        } else if (arraySpec != null) {
            sb.append("_[").append(arraySpec).append(']');
        }
        if (hetOffset != null) {
            sb.append('+').append(hetOffset);
        }
        if (step != null) {
            sb.append('.').append(step);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobId other && other.toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return Objects.hash(toString());
    }
}
