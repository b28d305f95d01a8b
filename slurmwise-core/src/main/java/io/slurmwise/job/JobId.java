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
            "(\\d{1,10})(?:_(\\d{1,10})|_\\[([0-9,%\\-]{1,64})])?(?:\\+(\\d{1,5}))?(?:\\.(batch|extern|interactive|\\d{1,10}))?");

    public JobId {
        if (jobId <= 0) {
            throw new IllegalArgumentException("job id must be positive: " + jobId);
        }
    }

    /**
     * Parses a job id.
     *
     * @throws InvalidJobIdException with a message saying which forms are accepted
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
        long id;
        try {
            id = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new InvalidJobIdException(trimmed);
        }
        if (id == 0) {
            throw new InvalidJobIdException(trimmed);
        }
        try {
            // task ids are SLURM's uint32 (4294967294 is its NO_VAL): a long, never an int that overflows
            Long task = m.group(2) == null ? null : Long.valueOf(Long.parseLong(m.group(2)));
            Integer het = m.group(4) == null ? null : Integer.valueOf(Integer.parseInt(m.group(4)));
            return new JobId(id, task, m.group(3), het, m.group(5));
        } catch (NumberFormatException e) { // a task or component number beyond what SLURM can hold
            throw new InvalidJobIdException(trimmed);
        }
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
