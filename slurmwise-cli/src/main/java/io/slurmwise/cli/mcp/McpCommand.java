package io.slurmwise.cli.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import io.slurmwise.mcp.SlurmwiseTools;
import io.slurmwise.mcp.stdio.StdioLimits;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code slurmwise mcp}: the read-only MCP server on stdin/stdout, for agents and IDEs. */
@Command(name = "mcp",
        header = "Serve the read-only MCP tools on stdio.", mixinStandardHelpOptions = true,
        description = {"Serve slurmwise's read-only MCP tools (list_jobs, diagnose_job, read_job_log, suggest_patch,",
                "explain_pending, fleet_stats and more), the knowledge notes as resources and three prompts over",
                "stdio until the client closes stdin. `bin/slurmwise-mcp` runs this command, for client configurations:",
                "  {\"mcpServers\": {\"slurmwise\": {\"command\": \"slurmwise-mcp\"}}}",
                "A call still running after SLURMWISE_MCP_CALL_TIMEOUT seconds (default 300) is answered with an error."})
public final class McpCommand implements Callable<Integer> {

    private final Cli cli;

    public McpCommand(Cli cli) {
        this.cli = cli;
    }

    @Override
    public Integer call() {
        // a bad SLURMWISE_MCP_CALL_TIMEOUT is a configuration error before anything is opened
        StdioLimits limits = StdioLimits.from(cli.settings());
        Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
        SlurmwiseMcpServer.serve(new SlurmwiseTools(sw), sw.taxonomy(), limits, System.in, System.out);
        return 0;
    }
}
