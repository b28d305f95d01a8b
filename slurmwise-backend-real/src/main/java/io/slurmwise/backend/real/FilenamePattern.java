package io.slurmwise.backend.real;

/**
 * Expands SLURM's output filename patterns the way slurmstepd does for a batch job's stdout/stderr:
 *
 * <table>
 * <tr><td>{@code %%}</td><td>a literal %</td></tr>
 * <tr><td>{@code %j}, {@code %J}</td><td>the job's own id (an array task's raw id, e.g. 61 for 53_2; the batch
 * step adds no step number)</td></tr>
 * <tr><td>{@code %A}</td><td>the array's id, or the job id for a plain job</td></tr>
 * <tr><td>{@code %a}</td><td>the array task id; 4294967294 (NO_VAL) for a plain job, as SLURM really writes</td></tr>
 * <tr><td>{@code %x}, {@code %u}</td><td>job name, user name</td></tr>
 * <tr><td>{@code %N}</td><td>the first (batch) node's short name</td></tr>
 * <tr><td>{@code %n}, {@code %t}</td><td>0 (node and task rank of the batch step)</td></tr>
 * <tr><td>{@code %s}</td><td>{@code batch}</td></tr>
 * <tr><td>{@code %b}</td><td>array task id modulo 10, from 23.02 (22.05 writes {@code %b} literally)</td></tr>
 * </table>
 *
 * A number between {@code %} and the letter zero-pads numbers ({@code %4j} gives {@code 0042}; at most 10). Any
 * other {@code %X} stays as it is. A pattern with a backslash is not expanded at all (the backslashes are dropped).
 * A relative result is resolved against the job's working directory. Every rule above was checked against the file
 * names SLURM 22.05 really created (test resource {@code filename-patterns-22.05.txt}).
 *
 * <pre>{@code
 * FilenamePattern.expand("%x-%A_%3a.out", ctx)   // "/work/dir/array-53_002.out" for task 53_2 of job "array"
 * }</pre>
 */
public final class FilenamePattern {

    /** SLURM's NO_VAL, which %a prints for a job that is not an array task. */
    public static final long NO_VAL = 4294967294L;
    private static final int MAX_PADDING = 10;

    private FilenamePattern() {
    }

    /** Everything a pattern may refer to; null fields are unknown and leave their {@code %X} unexpanded. */
    public record Context(long jobId, Long arrayJobId, Long arrayTaskId, String jobName, String user,
                          String firstNode, String workDir, boolean arrayModulo) {
    }

    public static String expand(String pattern, Context c) {
        String expanded = pattern.indexOf('\\') >= 0 ? unescape(pattern) : substitute(pattern, c);
        if (!expanded.startsWith("/") && c.workDir() != null && !c.workDir().isBlank()) {
            String dir = c.workDir().endsWith("/") ? c.workDir() : c.workDir() + "/";
            return dir + expanded;
        }
        return expanded;
    }

    // slurmstepd: a path with a backslash is taken literally, minus the escaping backslashes
    private static String unescape(String p) {
        StringBuilder sb = new StringBuilder(p.length());
        for (int i = 0; i < p.length(); i++) {
            char ch = p.charAt(i);
            if (ch == '\\') {
                if (i + 1 < p.length() && p.charAt(i + 1) == '\\') {
                    sb.append('\\');
                    i++;
                }
                continue;
            }
            sb.append(ch);
        }
        return sb.toString();
    }

    private static String substitute(String p, Context c) {
        StringBuilder sb = new StringBuilder(p.length() + 32);
        int i = 0;
        while (i < p.length()) {
            char ch = p.charAt(i);
            if (ch != '%' || i + 1 >= p.length()) {
                sb.append(ch);
                i++;
                continue;
            }
            if (p.charAt(i + 1) == '%') {
                sb.append('%');
                i += 2;
                continue;
            }
            int j = i + 1;
            while (j < p.length() && Character.isDigit(p.charAt(j)) && j - i <= 4) {
                j++;
            }
            if (j >= p.length()) {
                sb.append(p, i, p.length());
                break;
            }
            int width = j > i + 1 ? Math.min(MAX_PADDING, Integer.parseInt(p.substring(i + 1, j))) : 0;
            String value = value(p.charAt(j), width, c);
            sb.append(value != null ? value : p.substring(i, j + 1));
            i = j + 1;
        }
        return sb.toString();
    }

    private static String value(char letter, int width, Context c) {
        return switch (letter) {
            case 'j', 'J' -> pad(c.jobId(), width);
            case 'A' -> pad(c.arrayJobId() != null ? c.arrayJobId() : c.jobId(), width);
            case 'a' -> pad(c.arrayTaskId() != null ? c.arrayTaskId() : NO_VAL, width);
            case 'b' -> c.arrayModulo() ? pad(c.arrayTaskId() != null ? c.arrayTaskId() % 10 : NO_VAL % 10, width) : null;
            case 'n', 't' -> pad(0, width);
            case 's' -> "batch";
            case 'x' -> c.jobName();
            case 'u' -> c.user();
            case 'N' -> c.firstNode();
            default -> null;
        };
    }

    private static String pad(long v, int width) {
        String s = Long.toString(v);
        if (s.length() >= width) {
            return s;
        }
        return "0".repeat(width - s.length()) + s;
    }

    /** The first host of a SLURM hostlist: {@code gpu[03-05,07],cpu1} gives {@code gpu03}; null for none. */
    public static String firstHost(String hostlist) {
        if (hostlist == null || hostlist.isBlank() || hostlist.startsWith("None") || hostlist.equals("(null)")) {
            return null;
        }
        String h = hostlist.strip();
        int bracket = h.indexOf('[');
        int comma = h.indexOf(',');
        if (bracket < 0 || (comma >= 0 && comma < bracket)) {
            return comma < 0 ? h : h.substring(0, comma);
        }
        String prefix = h.substring(0, bracket);
        int end = h.indexOf(']', bracket);
        String inside = end < 0 ? h.substring(bracket + 1) : h.substring(bracket + 1, end);
        String first = inside.split("[,-]", 2)[0];
        return prefix + first;
    }
}
