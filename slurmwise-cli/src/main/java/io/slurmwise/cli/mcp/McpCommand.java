package io.slurmwise.cli.mcp;

import io.slurmwise.cli.Cli;
import io.slurmwise.cli.SlurmwiseCommand;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import io.slurmwise.mcp.SlurmwiseTools;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code slurmwise mcp}: the read-only MCP server on stdin/stdout, for agents and IDEs. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serve slurmwise's read-only MCP tools (list_jobs, diagnose_job, read_job_log, suggest_patch,",
                "explain_pending, fleet_stats and more), the knowledge notes as resources and three prompts over",
                "stdio until the client closes stdin. `slurmwise-mcp` (beside `slurmwise`) runs this command:",
                "  {\"mcpServers\": {\"slurmwise\": {\"command\": \"slurmwise-mcp\"}}}"})
public final class McpCommand implements Callable<Integer> {

    @ParentCommand
    private SlurmwiseCommand root;

    @Override
    public Integer call() {
        Cli cli = root.cli();
        SlurmwiseMcpServer.serve(new SlurmwiseTools(cli.slurmwise(), cli.backendReason()), cli.slurmwise().taxonomy(),
                System.in, System.out);
        return 0;
    }
}
