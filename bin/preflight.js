#!/usr/bin/env node
// The CLI is TypeScript run through tsx, like the service; this shim lets `npx preflight` work without a build.
import 'reflect-metadata';
import { register } from 'tsx/esm/api';

register();
await import('../cli/index.ts');
