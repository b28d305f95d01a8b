package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * {@code exec_permission}: a command of the batch script that bash could not execute ({@code slurm_script: line 15:
 * ./tools/decompose.sh: Permission denied}, exit 126) runs through its interpreter instead: {@code bash
 * ./tools/decompose.sh ...} needs only read permission, and works also where the file's filesystem is mounted
 * noexec. The job's own {@code ls -l} of the file, when its log has one, says which: no execute bit
 * ({@code -rw-r--r--}: {@code chmod u+x} once does too), or one (then the mount forbids it). 1030's patch said "no
 * mechanical change" while the line to change was named by number (an outside audit). Only a shell script
 * ({@code .sh}, {@code .bash}) is given to bash; for another file the advice names {@code chmod}.
 */
final class ExecPermissionFixer implements Fixer {

    private final Patterns patterns;

    ExecPermissionFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "exec_permission";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        List<String> where = new ArrayList<>(cx.evidenceLines());
        where.addAll(cx.logLines());
        Optional<DeniedPath> denied = DeniedPath.read(patterns, where, s);
        if (denied.isEmpty()) {
            return Step.none(s);
        }
        int index = denied.get().line();
        String command = denied.get().path();
        String file = command.startsWith("./") ? command.substring(2) : command;
        Optional<String> mode = mode(cx.logLines(), file);
        String seen = mode.map(m -> m.charAt(3) == 'x' || m.charAt(3) == 's'
                ? "its own `ls -l` shows " + m + ", executable, so its filesystem is mounted noexec"
                : "its own `ls -l` shows " + m + ", no execute permission").orElse("");
        // bash prints the same "<path>: Permission denied" when a redirection cannot open its file for writing:
        // the script's line writes into it, nothing was executed (DeniedPath; the fix list is ordered by the same reading)
        int redirect = denied.get().redirect();
        if (redirect >= 0) {
            java.nio.file.Path parent = java.nio.file.Path.of(file).getParent();
            return Step.none(s).advise("bash could not write " + command + ": line " + (redirect + 1) + " of the script"
                    + " (`" + s.lines().get(redirect).strip() + "`) sends output into it, and the job's user may not create"
                    + " or change it" + (parent == null ? "" : " in " + parent + "/") + " (`ls -ld " + (parent == null
                    ? "." : parent) + "` shows the owner and mode): write it under a directory you own, or ask the"
                    + " directory's owner for write access; no execute permission is missing.");
        }
        boolean shell = file.endsWith(".sh") || file.endsWith(".bash");
        if (index < 0 || index >= s.lines().size() || !shell) {
            return Step.none(s).advise("bash could not execute " + command + (seen.isEmpty() ? "" : " (" + seen + ")")
                    + ": make it executable (`chmod u+x " + file + "`) or run it through its interpreter.");
        }
        String line = s.lines().get(index);
        Matcher at = java.util.regex.Pattern.compile("(^|[\\s;&|(])" + java.util.regex.Pattern.quote(command)
                + "(?=\\s|$|;)").matcher(line);
        if (!at.find()) {
            return Step.none(s); // the line the message names is not the command: a script changed since
        }
        int start = at.start() + at.group(1).length();
        String changed = line.substring(0, start) + "bash " + line.substring(start);
        String why = "bash could not execute it (Permission denied" + (seen.isEmpty() ? "" : "; " + seen) + "); run"
                + " through bash it needs only read permission" + (mode.isPresent() && mode.get().charAt(3) != 'x'
                && mode.get().charAt(3) != 's' ? ", or make it executable once: `chmod u+x " + file + "`" : "");
        return Step.none(s).change(s.withLine(index, changed), line.strip() + " -> " + changed.strip(), why);
    }

    /**
     * The mode {@code ls -l} printed for {@code file} in the log ({@code -rw-r--r--}), if it did: the last listing
     * before bash's denial, when the log holds both (a later {@code chmod} and listing say nothing of that run).
     */
    Optional<String> mode(List<String> lines, String file) {
        String mode = null;
        for (String l : lines) {
            Optional<Matcher> denied = patterns.find("exec.denied", l);
            if (mode != null && denied.isPresent() && (denied.get().group(2).equals(file)
                    || denied.get().group(2).equals("./" + file))) {
                break;
            }
            Optional<Matcher> m = patterns.find("exec.ls", l);
            if (m.isPresent() && (m.get().group(2).equals(file) || m.get().group(2).equals("./" + file))) {
                mode = m.get().group(1);
            }
        }
        return Optional.ofNullable(mode);
    }
}
