package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What one or more fixers did: the script after them, the changes made (each with why), advice that is not a
 * script change, and warnings: advice that says the job would fail again as changed, which a patch lists before the
 * rest (the compact view shows the first). Immutable: each fix returns a new step, and {@link #then} chains them in
 * the notes' order.
 */
public record Step(BatchScript script, List<Patch.Change> changes, List<String> advice, List<String> warnings) {

    public Step {
        changes = List.copyOf(changes);
        advice = List.copyOf(new LinkedHashSet<>(advice));
        warnings = List.copyOf(new LinkedHashSet<>(warnings));
    }

    /** Nothing done yet (or nothing to do) to {@code script}. */
    public static Step none(BatchScript script) {
        return new Step(script, List.of(), List.of(), List.of());
    }

    /** This step, then the script replaced by {@code next} and the change said in words. */
    public Step change(BatchScript next, String what, String why) {
        List<Patch.Change> c = new ArrayList<>(changes);
        c.add(new Patch.Change(what, why, sets(script, next)));
        return new Step(next, c, advice, warnings);
    }

    /** The options {@code after} gives a value {@code before} did not have (the last occurrence is the one sbatch reads). */
    static java.util.Map<String, String> sets(BatchScript before, BatchScript after) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (BatchScript.Option o : after.options()) {
            String now = after.option(o.name()).map(BatchScript.Option::value).orElse(null);
            if (now == null || now.isBlank() || out.containsKey(o.name())) {
                continue;
            }
            String was = before.option(o.name()).map(BatchScript.Option::value).orElse(null);
            if (!now.equals(was)) {
                out.put(o.name(), now);
            }
        }
        return out;
    }

    /** This step with one more piece of advice (duplicates are kept once). */
    public Step advise(String text) {
        List<String> a = new ArrayList<>(advice);
        a.add(text);
        return new Step(script, changes, a, warnings);
    }

    /**
     * This step with a warning: the job as changed would still fail (1015's node failure came in epoch 22 of 90: its
     * rerun would reach the time limit, which the compact view hid behind the requeue's restart advice; an outside
     * audit).
     */
    public Step warn(String text) {
        List<String> w = new ArrayList<>(warnings);
        w.add(text);
        return new Step(script, changes, advice, w);
    }

    /** The warnings, then the advice: the order a patch lists them in. */
    public List<String> warningsThenAdvice() {
        List<String> all = new ArrayList<>(warnings);
        all.addAll(advice);
        return List.copyOf(new LinkedHashSet<>(all));
    }

    /** This step with the script replaced without a change of its own (an edit that a later change describes). */
    public Step edit(BatchScript next) {
        return new Step(next, changes, advice, warnings);
    }

    /** This step followed by {@code later}, which started from this step's script. */
    public Step then(Step later) {
        List<Patch.Change> c = new ArrayList<>(changes);
        c.addAll(later.changes);
        List<String> a = new ArrayList<>(advice);
        a.addAll(later.advice);
        List<String> w = new ArrayList<>(warnings);
        w.addAll(later.warnings);
        return new Step(later.script, c, a, w);
    }
}
