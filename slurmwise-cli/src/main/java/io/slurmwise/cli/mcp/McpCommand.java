package io.slurmwise.cli.mcp;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import io.slurmwise.mcp.SlurmwiseTools;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code slurmwise mcp}: the read-only MCP server on stdin/stdout, for agents and IDEs. */
@Command(name = "mcp",
        header = "Serve the read-only MCP tools on stdio.", mixinStandardHelpOptions = true,
        description = {"Serve the read-only MCP tools (diagnose_job, list_jobs, classify_log, failure_kinds, fleet_stats)",
                "over stdio until the client closes stdin. Example client configuration:",
                "  {\"command\": \"/path/to/slurmwise\", \"args\": [\"mcp\"]}"})
public final class McpCommand implements Callable<Integer> {

    private final Cli cli;

    public McpCommand(Cli cli) {
        this.cli = cli;
    }

    @Override
    public Integer call() {
        SlurmwiseMcpServer.serve(new SlurmwiseTools(cli.slurmwise(Cli.Answers.FULL)), System.in, System.out);
        return 0;
    }
}
