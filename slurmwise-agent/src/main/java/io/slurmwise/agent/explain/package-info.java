/**
 * The {@code llm} explainer: an OpenAI-compatible model words the rules' finding (never re-decides it), with the
 * template as its fallback; provided to the composition root by {@link io.slurmwise.agent.explain.LlmExplainerProvider}.
 */
package io.slurmwise.agent.explain;
