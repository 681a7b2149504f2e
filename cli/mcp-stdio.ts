// `npx preflight mcp`: an MCP server on stdin/stdout for desktop agents that launch their tools as processes. It
// forwards tools/list and tools/call to a running Preflight's POST /agent/mcp, so the tools, their schemas and the
// audit trail stay the service's own; this process holds no policy and no database.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Command, InvalidArgumentError } from 'commander';

export interface McpStdioOptions {
  url: string;
  key: string;
  actor?: string;
}

export async function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const endpoint = new URL('/agent/mcp', options.url);
  const headers: Record<string, string> = { Authorization: `Api-Key ${options.key}` };
  if (options.actor) headers['X-Actor'] = options.actor;

  const upstream = new Client({ name: 'preflight-mcp-stdio', version: '1.0.0' });
  await upstream.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  const info = upstream.getServerVersion();

  const server = new Server(
    { name: info?.name ?? 'preflight', version: info?.version ?? '0.0.0' },
    { capabilities: { tools: {} }, instructions: upstream.getInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
  server.onclose = () => {
    void upstream.close();
  };
  await server.connect(new StdioServerTransport());
}

/** `preflight mcp`: registered by the full CLI, and by cli/mcp-main.ts, which bin/preflight.js loads on its own. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'an MCP server on stdio for desktop agents, forwarding to a running Preflight (POST /agent/mcp); prefer the ' +
        'PREFLIGHT_URL and PREFLIGHT_API_KEY environment variables to flags, which other users can read in ps',
    )
    .option('--url <url>', 'the service (default PREFLIGHT_URL or http://127.0.0.1:8080)')
    .option('--key <key>', 'an API key (default PREFLIGHT_API_KEY)')
    .option('--actor <name>', 'X-Actor for the decisions (default PREFLIGHT_ACTOR)')
    .action(async (opts: { url?: string; key?: string; actor?: string }) => {
      const key = opts.key ?? process.env.PREFLIGHT_API_KEY;
      if (!key) throw new InvalidArgumentError('an API key is needed: --key or PREFLIGHT_API_KEY');
      const actor = opts.actor ?? process.env.PREFLIGHT_ACTOR;
      await runMcpStdio({
        url: opts.url ?? process.env.PREFLIGHT_URL ?? 'http://127.0.0.1:8080',
        key,
        ...(actor ? { actor } : {}),
      });
    });
}
