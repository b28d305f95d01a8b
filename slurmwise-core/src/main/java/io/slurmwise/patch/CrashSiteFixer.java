package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * {@code crash_site}: where a Python program crashed, from the frames Python's faulthandler printed for the crashing
 * thread (CPython's {@code Fatal Python error: Segmentation fault} then {@code Current thread 0x... (most recent call
 * first):} and one {@code File "...", line N in f} per frame, innermost first). The innermost frame is where the
 * crash was; when it is in an installed package, the first frame of the user's own code is the call that reached
 * it (1029: pysam's {@code AlignmentFile.pileup}, called from {@code allele_counts.py} line 74; an outside audit:
 * the panel quoted the signal and not where). Without them, a native stack the program printed (OpenFOAM's, gdb's)
 * names the first frame after the signal handler (1003's {@code Foam::LESModels::cubeRootVolDelta::calcDelta()}), and
 * so do glibc's {@code backtrace_symbols} frames that Open MPI's handler prints ({@code [ 2] lib.so(_ZN6Solver4stepEv+0x1c)
 * [0x...]}), their C++ names demangled ({@code Solver::step()}), and Intel Fortran's traceback rows ({@code solver
 * 0000000000401234  solver_mp_step_  123  solver.f90}).
 * No script change: advice that names the site, and for Python the package and the call.
 */
final class CrashSiteFixer implements Fixer {

    private final Patterns patterns;

    CrashSiteFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "crash_site";
    }

    /** One frame as faulthandler prints it. */
    record Frame(String file, int line, String function) {

        /** The installed package a frame's file belongs to ({@code site-packages/pysam/x.pyx}: pysam), if any. */
        Optional<String> pkg() {
            Matcher m = java.util.regex.Pattern.compile("/(?:site|dist)-packages/([A-Za-z0-9_.-]+)").matcher(file);
            if (!m.find()) {
                return Optional.empty();
            }
            return Optional.of(m.group(1).replaceFirst("\\.(py|so|pyx|pyd)$", "").replaceFirst("\\.cpython-.*$", ""));
        }

        /** Whether the frame is in Python's own library or an installed package, not in the user's code. */
        boolean installed() {
            return pkg().isPresent() || file.matches(".*/lib/python\\d[\\d.]*/[^/]+$") || file.startsWith("<");
        }

        /** The function's last two dotted names ({@code AlignmentFile.pileup} of a Cython module's qualified name). */
        String shortFunction() {
            String[] parts = function.split("\\.");
            return parts.length <= 2 ? function : parts[parts.length - 2] + "." + parts[parts.length - 1];
        }

        /** The file's name alone. */
        String fileName() {
            return file.substring(file.lastIndexOf('/') + 1);
        }

        /** The file's last two path parts, as a reader names it. */
        String shortFile() {
            String[] parts = file.split("/");
            return parts.length <= 2 ? file : parts[parts.length - 2] + "/" + parts[parts.length - 1];
        }
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        List<Frame> frames = crashingThread(cx.logLines());
        if (!frames.isEmpty()) {
            return Step.none(s).advise(advice(frames));
        }
        return nativeCrash(cx.logLines()).map(f -> Step.none(s).advise("Crashed in `" + f.function() + "`"
                + (f.file().startsWith("??") ? "" : " (" + f.file() + ")") + ", the first frame after the signal handler"
                + " in the stack the program printed: that is where to look; a build with `-g` and `gdb` on the core"
                + " file give its line and the values it had.")).orElse(Step.none(s));
    }

    /** A function as a stack names it: a symbol with its arguments ("calcDelta()", "solve (n=4)") or a bare symbol. */
    private static final java.util.regex.Pattern SYMBOL = java.util.regex.Pattern.compile(
            "[A-Za-z_~][\\w:.<>~,*& \\[\\]-]*?\\s?\\(.*\\)(?: const)?|[A-Za-z_][\\w:.<>~]*");

    /** Frames of a native stack that are the crash's reporting, not its site: handlers, printers, libc, unknown. */
    private static final java.util.regex.Pattern REPORTING = java.util.regex.Pattern.compile(
            "(?i)^\\?$|sigHandler|sigSegv|sigFpe|printStack|error::|__restore_rt|<signal handler called>|^(?:__)?raise\\b"
            + "|^(?:__)?abort\\b|^__GI_|^backtrace|^killpg|^__libc_start|^_start\\b|^opal_|^show_stackframe|^gsignal\\b");

    /**
     * The first frame of a native stack (OpenFOAM's, gdb's) after the frames that report the crash (the signal
     * handler, the stack printer, libc), when a log has one: 1003's {@code Foam::LESModels::cubeRootVolDelta::calcDelta()}.
     */
    Optional<Frame> nativeCrash(List<String> lines) {
        for (String l : lines) {
            Optional<Matcher> m = patterns.find("crash.native_frame", l);
            if (m.isEmpty()) {
                continue;
            }
            String function = m.get().group(2).strip();
            if (REPORTING.matcher(function).find() || !SYMBOL.matcher(function).matches()) {
                continue; // the crash's reporting, or words that are no function ("#3 loading data in /tmp")
            }
            // the frame number is 1 to 3 digits (crash.native_frame): it always parses
            return Optional.of(new Frame(m.get().group(3), Integer.parseInt(m.get().group(1)), function));
        }
        for (String l : lines) {
            Optional<Matcher> m = patterns.find("crash.symbols_frame", l);
            if (m.isEmpty()) {
                continue;
            }
            String function = demangle(m.get().group(3));
            if (REPORTING.matcher(function).find()) {
                continue;
            }
            String file = m.get().group(2);
            return Optional.of(new Frame(file.substring(file.lastIndexOf('/') + 1), Integer.parseInt(m.get().group(1)),
                    function));
        }
        return fortranCrash(lines);
    }

    /**
     * The first frame of Intel Fortran's traceback that names a routine of the program ({@code solver_mp_step_ at
     * solver.f90:123}), after its runtime's own ({@code for__signal_handl}) and the C library's; rows whose routine is
     * {@code Unknown} (a build without {@code -traceback}) name nothing.
     */
    private Optional<Frame> fortranCrash(List<String> lines) {
        int row = -1;
        for (String l : lines) {
            if (patterns.matches("crash.ifort_head", l)) {
                row = 0;
                continue;
            }
            if (row < 0) {
                continue;
            }
            Optional<Matcher> m = patterns.find("crash.ifort_frame", l);
            if (m.isEmpty()) {
                row = -1; // the traceback ended without a routine
                continue;
            }
            String routine = m.get().group(2);
            String line = m.get().group(3);
            String source = m.get().group(4);
            int n = row++;
            if (routine.equals("Unknown") || routine.startsWith("for__") || REPORTING.matcher(routine).find()) {
                continue;
            }
            String where = line.equals("Unknown") || source.equals("Unknown") ? m.get().group(1) : source + ":" + line;
            return Optional.of(new Frame(where, n, routine));
        }
        return Optional.empty();
    }

    /**
     * A C++ symbol in the Itanium ABI's mangling as a reader writes it, for the common shapes: a nested name
     * ({@code _ZN6Solver4stepEv}: {@code Solver::step()}, with {@code St} for {@code std}, a {@code K} const method,
     * constructors and destructors) or a plain one ({@code _Z5solvei}: {@code solve(...)}); arguments are shown as
     * {@code ()} for none and {@code (...)} otherwise. Anything else (templates, substitutions, a C name) is returned
     * as it is.
     */
    static String demangle(String symbol) {
        if (!symbol.startsWith("_Z")) {
            return symbol;
        }
        int i = 2;
        boolean nested = i < symbol.length() && symbol.charAt(i) == 'N';
        List<String> names = new ArrayList<>();
        boolean constMethod = false;
        boolean closed = !nested;
        if (nested) {
            i++;
            if (i < symbol.length() && symbol.charAt(i) == 'K') {
                constMethod = true;
                i++;
            }
        }
        if (symbol.startsWith("St", i)) {
            names.add("std");
            i += 2;
        }
        while (i < symbol.length()) {
            char c = symbol.charAt(i);
            if (Character.isDigit(c)) {
                int j = i;
                while (j < symbol.length() && Character.isDigit(symbol.charAt(j))) {
                    j++;
                }
                int len;
                try {
                    len = Integer.parseInt(symbol.substring(i, j));
                } catch (NumberFormatException e) {
                    return symbol;
                }
                if (len <= 0 || j + len > symbol.length()) {
                    return symbol;
                }
                names.add(symbol.substring(j, j + len));
                i = j + len;
                if (!nested) {
                    break;
                }
            } else if (nested && (c == 'C' || c == 'D') && i + 1 < symbol.length()
                    && Character.isDigit(symbol.charAt(i + 1)) && !names.isEmpty()) {
                String cls = names.get(names.size() - 1);
                names.add(c == 'C' ? cls : "~" + cls);
                i += 2;
            } else if (nested && c == 'E') {
                i++;
                closed = true;
                break;
            } else {
                return symbol; // a template, a substitution or an operator: not read here
            }
        }
        if (names.isEmpty() || !closed) {
            return symbol;
        }
        String rest = symbol.substring(i);
        String args = rest.isEmpty() || rest.equals("v") ? "()" : "(...)";
        return String.join("::", names) + args + (constMethod ? " const" : "");
    }

    /** What the frames (innermost first, at least one) say of the crash, and what to do. */
    static String advice(List<Frame> frames) {
        Frame inner = frames.get(0);
        Optional<Frame> caller = frames.stream().filter(f -> !f.installed()).findFirst();
        Optional<String> pkg = inner.pkg();
        StringBuilder sb = new StringBuilder("Crashed in ").append(pkg.map(p -> p + "'s ").orElse("")).append('`')
                .append(inner.shortFunction()).append("` (").append(inner.fileName()).append(':').append(inner.line())
                .append(')');
        if (caller.isPresent() && caller.get() != inner) {
            Frame c = caller.get();
            sb.append(", called from ").append(c.shortFile()).append(':').append(c.line()).append(" (`")
                    .append(c.function()).append("`)");
        }
        sb.append(", as Python's faulthandler shows");
        if (pkg.isPresent()) {
            sb.append(". The crash is in ").append(pkg.get()).append("'s compiled code: run that call alone on the same"
                    + " input to reproduce it, and reinstall or update ").append(pkg.get()).append(" in the job's"
                    + " environment (a build against other libraries than the node's crashes this way); if it persists,"
                    + " report the call and its input to ").append(pkg.get()).append('.');
        } else {
            sb.append(". Run that call alone on the same input to reproduce it under `gdb --args python ...`.");
        }
        return sb.toString();
    }

    /** The frames of the last crashing thread faulthandler printed, innermost first; empty without one. */
    List<Frame> crashingThread(List<String> lines) {
        int head = -1;
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (patterns.matches("crash.thread", lines.get(i))) {
                head = i;
                break;
            }
        }
        List<Frame> frames = new ArrayList<>();
        if (head < 0) {
            return frames;
        }
        for (int i = head + 1; i < lines.size(); i++) {
            Optional<Matcher> m = patterns.find("crash.frame", lines.get(i));
            if (m.isEmpty()) {
                break;
            }
            int line;
            try {
                line = Integer.parseInt(m.get().group(2));
            } catch (NumberFormatException e) {
                break;
            }
            frames.add(new Frame(m.get().group(1), line, m.get().group(3)));
        }
        return frames;
    }
}
