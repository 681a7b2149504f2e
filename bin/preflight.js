#!/usr/bin/env node
// The CLI is TypeScript run through tsx, like the service; this shim lets `npx preflight` work without a build.
import 'reflect-metadata';
import { register } from 'tsx/esm/api';

register();
// `preflight mcp` is launched by desktop agents, which wait for it: it loads only what it needs.
await import(process.argv[2] === 'mcp' ? '../cli/mcp-main.ts' : '../cli/index.ts');
