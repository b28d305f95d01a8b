package io.slurmwise.mcp.stdio;

import java.util.List;
import java.util.Set;

/**
 * What the server offers, so that the transport answers a request for anything else itself, naming what there is (the
 * SDK's own answers say only "Invalid prompt name" or "Resource not found"). An empty part is left to the server.
 *
 * <pre>{@code
 * new Offer(Set.of("get_job"), Set.of("diagnose_recent_failures"), List.of("slurmwise://taxonomy", "slurmwise://knowledge/"));
 * }</pre>
 *
 * @param tools     the tools' names
 * @param prompts   the prompts' names
 * @param resources the resources' URIs; one ending in {@code /} stands for every URI under it (a template's)
 */
public record Offer(Set<String> tools, Set<String> prompts, List<String> resources) {

    public Offer {
        tools = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(tools));
        prompts = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(prompts));
        resources = List.copyOf(resources);
    }

    /** Only tools are checked here. */
    public static Offer tools(Set<String> tools) {
        return new Offer(tools, Set.of(), List.of());
    }

    /**
     * Whether {@code uri} is one of the resources or one name under one that stands for many: one path segment, as the
     * SDK's template matches it ({@code slurmwise://knowledge/../../etc/passwd} got its bare "Resource not found").
     */
    boolean hasResource(String uri) {
        for (String r : resources) {
            if (r.endsWith("/") ? uri.startsWith(r) && uri.length() > r.length() && uri.indexOf('/', r.length()) < 0
                    : uri.equals(r)) {
                return true;
            }
        }
        return false;
    }

    /** The resources as a reader names them: {@code slurmwise://knowledge/<name>} for one that stands for many. */
    String describeResources() {
        return String.join(" and ", resources.stream().map(r -> r.endsWith("/") ? r + "<name>" : r).toList());
    }
}
