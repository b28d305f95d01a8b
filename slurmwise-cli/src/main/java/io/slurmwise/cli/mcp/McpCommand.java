package io.slurmwise.cli.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import io.slurmwise.mcp.SlurmwiseTools;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code slurmwise mcp}: the read-only MCP server on stdin/stdout, for agents and IDEs. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serve slurmwise's read-only MCP tools (list_jobs, diagnose_job, read_job_log, suggest_patch,",
                "explain_pending, fleet_stats and more), the knowledge notes as resources and three prompts over",
                "stdio until the client closes stdin. `bin/slurmwise-mcp` runs this command, for client configurations:",
                "  {\"mcpServers\": {\"slurmwise\": {\"command\": \"slurmwise-mcp\"}}}"})
public final class McpCommand implements Callable<Integer> {

    private final Cli cli;

    public McpCommand(Cli cli) {
        this.cli = cli;
    }

    @Override
    public Integer call() {
        Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
        SlurmwiseMcpServer.serve(new SlurmwiseTools(sw), sw.taxonomy(), System.in, System.out);
        return 0;
    }
}
