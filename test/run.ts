// `npm test`: finds every *.test.ts, gives the run one PostgreSQL server (embedded unless DATABASE_URL is set),
// and runs the files with node's test runner. Each test file creates and drops its own database on that server.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../core/config.ts';
import { openEmbeddedDatabase } from '../core/platform/db/embedded-postgres.ts';

const SEARCHED = ['app', 'core', 'plugins', 'server', 'cli', 'lab', 'test'];

function findTests(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findTests(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(path.relative(ROOT_DIR, full));
  }
  return out;
}

const filter = process.argv.slice(2);
const files = SEARCHED.flatMap((d) => {
  try {
    return findTests(path.join(ROOT_DIR, d));
  } catch {
    return [];
  }
})
  .filter((f) => filter.length === 0 || filter.some((needle) => f.includes(needle)))
  .sort();

let stopEmbedded: (() => Promise<void>) | undefined;
let serverUrl = process.env.PREFLIGHT_TEST_DATABASE_URL || process.env.DATABASE_URL;
if (!serverUrl) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-test-pg-'));
  const embedded = await openEmbeddedDatabase(dir, { fast: true });
  serverUrl = embedded.url;
  stopEmbedded = async () => {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    'reflect-metadata',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${os.availableParallelism()}`,
    ...files,
  ],
  {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', PREFLIGHT_TEST_DATABASE_URL: serverUrl },
  },
);
const code: number = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await stopEmbedded?.();
process.exit(code);
