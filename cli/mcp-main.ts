// `npx preflight mcp` without loading the rest of the CLI (the service's core, Chromium drivers, the database):
// a desktop agent launches this process and waits for it, so it starts with the MCP SDK and commander only.
import { Command } from 'commander';
import { registerMcpCommand } from './mcp-stdio.ts';

const program = new Command('preflight');
registerMcpCommand(program);
await program.parseAsync(process.argv);
