package io.slurmwise.backend.real;

import io.slurmwise.job.JobId;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one place that decides what the real backend may execute. {@link CommandRunner} calls {@link #check} before
 * it looks a program up, so nothing outside this list can run:
 *
 * <pre>
 * sacct    [-P] [--delimiter=US] [-n] [-X] [-a] [--batch-script] [-j IDS] [-S TIME] [-E TIME] [-s STATES] [-u USER] [-r PARTITION] [-o FIELDS]
 * scontrol show job ID | show partition [NAME] | show node [NAME] | show reservation | write batch_script ID -
 * sinfo    [-h] [-o FORMAT] [-p PARTITION]
 * squeue   [-h] [-o FORMAT] [-j IDS] [-t STATES] [-u USER] [-p PARTITION]
 * sacctmgr -n -P show qos format=Name,MaxWall,Preempt     (exactly these two: sacctmgr also adds and deletes)
 * sacctmgr -n -P show assoc where user=USER format=Account,User,Partition,QOS
 * sshare   -n -P -A ACCOUNT -o Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins
 * any of them: --version
 * </pre>
 * (US is the ASCII unit separator, U+001F, the only control character any argument may hold.)
 *
 * Every option value is checked against the shape slurmwise itself builds (job ids parse as {@link JobId}, times
 * are ISO timestamps, names cannot start with a dash), so no value can smuggle in another option. The rules are
 * code, not a resource file, on purpose: a security boundary should not be replaceable from the classpath.
 *
 * <pre>{@code
 * Allowlist.check(SlurmTool.SCONTROL, List.of("show", "job", "1001"));          // fine
 * Allowlist.check(SlurmTool.SCONTROL, List.of("update", "JobId=1001", "..."));  // ForbiddenCommandException
 * }</pre>
 */
public final class Allowlist {

    private static final int MAX_ARG_LENGTH = 16_384;
    private static final int MAX_JOB_IDS = 1_000;

    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}");
    private static final Pattern STATES = Pattern.compile("[A-Z_]{1,24}(,[A-Z_]{1,24}){0,40}");
    // user, partition and node names: never a leading dash, so never an option
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.@+-]{0,127}");
    private static final Pattern SACCT_FIELDS = Pattern.compile("[A-Za-z]{1,40}(,[A-Za-z]{1,40}){0,120}");
    // sinfo/squeue format strings: %-directives, field widths and '|' separators only
    private static final Pattern FORMAT = Pattern.compile("[%|.A-Za-z0-9]{1,400}");

    private enum Value { JOB_IDS, TIME, STATES, NAME, SACCT_FIELDS, FORMAT }

    // --delimiter only with the one value the backend uses (the ASCII unit separator)
    private static final Set<String> SACCT_FLAGS = Set.of("-P", "-n", "-X", "-a", "--batch-script",
            SlurmCommands.DELIMITER);
    private static final Map<String, Value> SACCT_OPTIONS = Map.of("-j", Value.JOB_IDS, "-S", Value.TIME,
            "-E", Value.TIME, "-s", Value.STATES, "-u", Value.NAME, "-r", Value.NAME, "-o", Value.SACCT_FIELDS);
    private static final Set<String> SINFO_FLAGS = Set.of("-h");
    private static final Map<String, Value> SINFO_OPTIONS = Map.of("-o", Value.FORMAT, "-p", Value.NAME);
    private static final Set<String> SQUEUE_FLAGS = Set.of("-h");
    private static final Map<String, Value> SQUEUE_OPTIONS = Map.of("-o", Value.FORMAT, "-j", Value.JOB_IDS,
            "-t", Value.STATES, "-u", Value.NAME, "-p", Value.NAME);

    /** The only sacctmgr command allowed: the QOSes and their MaxWall, no header, '|' between columns. */
    static final List<String> SACCTMGR_QOS = List.of("-n", "-P", "show", "qos", "format=" + io.slurmwise.job.Qos.FORMAT);

    /** sacctmgr's second read: a user's associations and the QOSes each may use, no header, '|' between columns. */
    static List<String> sacctmgrAssociations(String user) {
        return List.of("-n", "-P", "show", "assoc", "where", "user=" + user, "format=" + io.slurmwise.job.Association.FORMAT);
    }

    /** sshare's one read: an account's allocation and use, no header, '|' between columns (the account comes last). */
    static List<String> sshareUsage(String account) {
        return List.of("-n", "-P", "-o", io.slurmwise.job.AccountUsage.FORMAT, "-A", account);
    }

    private Allowlist() {
    }

    /** Whether {@code tool args...} may run; {@link #check} says why not. */
    public static boolean allows(SlurmTool tool, List<String> args) {
        try {
            check(tool, args);
            return true;
        } catch (ForbiddenCommandException e) {
            return false;
        }
    }

    /**
     * Accepts exactly the read-only invocations listed in the class comment.
     *
     * @throws ForbiddenCommandException naming the refused command and the rule it broke
     */
    public static void check(SlurmTool tool, List<String> args) {
        if (tool == null || args == null) {
            throw new ForbiddenCommandException(String.valueOf(tool), List.of(), "no program or no arguments given");
        }
        for (String a : args) {
            if (a == null || a.isEmpty() || a.length() > MAX_ARG_LENGTH) {
                throw forbidden(tool, args, "an empty, null or oversized argument");
            }
            // the one exception is the exact sacct delimiter option, whose value is the ASCII unit separator
            for (int i = 0; i < a.length() && !(tool == SlurmTool.SACCT && a.equals(SlurmCommands.DELIMITER)); i++) {
                if (Character.isISOControl(a.charAt(i))) {
                    throw forbidden(tool, args, "a control character in an argument");
                }
            }
        }
        if (args.equals(List.of("--version"))) {
            return;
        }
        switch (tool) {
            case SACCT -> {
                Set<String> seen = options(tool, args, SACCT_FLAGS, SACCT_OPTIONS);
                if (seen.contains("--batch-script") && !seen.contains("-j")) {
                    throw forbidden(tool, args, "--batch-script only together with -j");
                }
            }
            case SCONTROL -> scontrol(args);
            case SINFO -> options(tool, args, SINFO_FLAGS, SINFO_OPTIONS);
            case SQUEUE -> options(tool, args, SQUEUE_FLAGS, SQUEUE_OPTIONS);
            case SSHARE -> {
                // sshare only reads, but one form is all the backend needs: the account is a name, never an option
                if (args.size() != 6 || !args.subList(0, 5).equals(sshareUsage("x").subList(0, 5))) {
                    throw forbidden(tool, args, "sshare may only run `sshare " + String.join(" ",
                            sshareUsage("ACCOUNT")) + "`");
                }
                value(tool, args, Value.NAME, args.get(5));
            }
            case SACCTMGR -> {
                // the two reads the backend makes; sacctmgr's other commands change the accounting database
                if (args.equals(SACCTMGR_QOS)) {
                    return;
                }
                List<String> assoc = sacctmgrAssociations("USER");
                if (args.size() != assoc.size() || !args.subList(0, 5).equals(assoc.subList(0, 5))
                        || !args.get(6).equals(assoc.get(6)) || !args.get(5).startsWith("user=")) {
                    throw forbidden(tool, args, "sacctmgr may only run `sacctmgr " + String.join(" ", SACCTMGR_QOS)
                            + "` or `sacctmgr " + String.join(" ", assoc) + "`");
                }
                // the user is a name, never a list, a pattern or another condition
                value(tool, args, Value.NAME, args.get(5).substring("user=".length()));
            }
        }
    }

    private static void scontrol(List<String> args) {
        SlurmTool t = SlurmTool.SCONTROL;
        int n = args.size();
        if (n >= 2 && args.get(0).equals("show")) {
            String what = args.get(1);
            if (what.equals("job") && n == 3) {
                jobIds(t, args, args.get(2), 1);
                return;
            }
            if (what.equals("reservation") && n == 2) {
                return;
            }
            if ((what.equals("partition") || what.equals("node")) && (n == 2 || n == 3)) {
                if (n == 3) {
                    value(t, args, Value.NAME, args.get(2));
                }
                return;
            }
        }
        // write batch_script to "-" (stdout) only: any other target would write a file
        if (n == 4 && args.get(0).equals("write") && args.get(1).equals("batch_script") && args.get(3).equals("-")) {
            jobIds(t, args, args.get(2), 1);
            return;
        }
        throw forbidden(t, args, "scontrol may only 'show job ID', 'show partition [NAME]', 'show node [NAME]',"
                + " 'show reservation' or 'write batch_script ID -'");
    }

    private static Set<String> options(SlurmTool tool, List<String> args, Set<String> flags, Map<String, Value> valued) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!seen.add(a)) {
                throw forbidden(tool, args, "option " + a + " given twice");
            }
            if (flags.contains(a)) {
                continue;
            }
            Value v = valued.get(a);
            if (v == null) {
                throw forbidden(tool, args, "'" + a + "' is not an allowed " + tool.executable() + " option");
            }
            if (i + 1 >= args.size()) {
                throw forbidden(tool, args, a + " needs a value");
            }
            value(tool, args, v, args.get(++i));
        }
        return seen;
    }

    private static void value(SlurmTool tool, List<String> args, Value kind, String v) {
        boolean ok = switch (kind) {
            case JOB_IDS -> {
                jobIds(tool, args, v, MAX_JOB_IDS);
                yield true;
            }
            case TIME -> TIME.matcher(v).matches();
            case STATES -> STATES.matcher(v).matches();
            case NAME -> NAME.matcher(v).matches();
            case SACCT_FIELDS -> SACCT_FIELDS.matcher(v).matches();
            case FORMAT -> FORMAT.matcher(v).matches();
        };
        if (!ok) {
            throw forbidden(tool, args, "'" + v + "' is not a valid " + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
        }
    }

    private static void jobIds(SlurmTool tool, List<String> args, String v, int max) {
        String[] ids = v.split(",", -1);
        if (ids.length > max) {
            throw forbidden(tool, args, "more than " + max + " job ids in one call");
        }
        for (String id : ids) {
            // a JobId that parses is digits, _ [ ] , % - + . and a step name: never an option or a path
            if (JobId.tryParse(id).filter(j -> j.toString().equals(id)).isEmpty()) {
                throw forbidden(tool, args, "'" + id + "' is not a job id");
            }
        }
    }

    private static ForbiddenCommandException forbidden(SlurmTool tool, List<String> args, String why) {
        return new ForbiddenCommandException(tool.executable(), args, why);
    }
}
