package io.slurmwise.mcp;

import io.slurmwise.Slurmwise;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The read-only tools slurmwise offers to agents, as plain functions from arguments to a {@link ToolAnswer} (JSON
 * plus a short text). The MCP server and the in-process chat agent call the same functions. Bad arguments throw
 * {@link IllegalArgumentException} with a message the model can act on; an argument over its schema's
 * {@code maxLength} is one ({@link ArgumentLimits}). No tool takes a file path: logs are found
 * from the job's record and read only when they belong to the job's user.
 *
 * <pre>{@code
 * SlurmwiseTools tools = new SlurmwiseTools(slurmwise, "backend mock");
 * ToolAnswer a = tools.handlers().get("list_jobs").apply(Map.of("states", "FAILED", "limit", 3));
 * }</pre>
 */
public final class SlurmwiseTools {

    private final Map<String, Function<Map<String, Object>, ToolAnswer>> handlers = new LinkedHashMap<>();

    /** The tools over a facade; its backend reason goes into every answer's footer. */
    public SlurmwiseTools(Slurmwise slurmwise) {
        this(slurmwise, slurmwise.backendReason());
    }

    public SlurmwiseTools(Slurmwise slurmwise, String backendReason) {
        JobTools jobs = new JobTools(slurmwise, backendReason);
        DiagnosisTools diagnosis = new DiagnosisTools(slurmwise, backendReason, jobs);
        KnowledgeTools knowledge = new KnowledgeTools(slurmwise);
        ClusterTools cluster = new ClusterTools(slurmwise, backendReason);
        handlers.put("list_jobs", jobs::listJobs);
        handlers.put("get_job", jobs::getJob);
        handlers.put("diagnose_job", diagnosis::diagnoseJob);
        handlers.put("read_job_log", jobs::readJobLog);
        handlers.put("explain_pending", diagnosis::explainPending);
        handlers.put("suggest_patch", diagnosis::suggestPatch);
        handlers.put("classify_log", diagnosis::classifyLog);
        handlers.put("search_knowledge", knowledge::searchKnowledge);
        handlers.put("failure_kinds", knowledge::failureKinds);
        handlers.put("partition_limits", cluster::partitionLimits);
        handlers.put("job_efficiency", jobs::jobEfficiency);
        handlers.put("fleet_stats", cluster::fleetStats);
        if (!handlers.keySet().equals(new java.util.LinkedHashSet<>(ToolDefinition.NAMES))) {
            throw new IllegalStateException("tool handlers " + handlers.keySet() + " and definitions "
                    + ToolDefinition.NAMES + " differ");
        }
        // every argument is held to its schema's size before a handler sees it (MCP and the chat agent alike)
        for (ToolDefinition def : ToolDefinition.all()) {
            ArgumentLimits limits = ArgumentLimits.of(def);
            Function<Map<String, Object>, ToolAnswer> h = handlers.get(def.name());
            handlers.put(def.name(), args -> {
                limits.check(args);
                return h.apply(args);
            });
        }
    }

    /** Tool name -> handler, in the order they are listed ({@link ToolDefinition#NAMES}). */
    public Map<String, Function<Map<String, Object>, ToolAnswer>> handlers() {
        return handlers;
    }

    /** Runs one tool; {@link IllegalArgumentException} for an unknown name or bad arguments. */
    public ToolAnswer call(String name, Map<String, Object> args) {
        Function<Map<String, Object>, ToolAnswer> h = handlers.get(name);
        if (h == null) {
            throw new IllegalArgumentException("there is no tool '" + name + "'; the tools are "
                    + String.join(", ", handlers.keySet()));
        }
        return h.apply(args == null ? Map.of() : args);
    }

    /**
     * A tool's JSON answer bounded as the MCP server bounds it ({@link Bounded#json}): every string cut to
     * {@link Bounded#MAX_FIELD_CHARS} and the whole within the answer's budget, so that what a model reads in process
     * is what it would read over MCP (a 5 MB explanation, a record of 160 KB of fields, is not handed to it whole).
     */
    public Map<String, Object> boundedJson(String name, Map<String, Object> args) {
        return Bounded.json(call(name, args));
    }
}
