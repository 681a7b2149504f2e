// The stalled-upload attack of issue 11, measured: starts the service from a source tree (this one by default) on
// loopback with a fresh database, opens N keyless connections that each declare a large Content-Length, send most
// of it and stall, and prints the service's resident memory before, at its peak and how many sockets it answered.
// Loopback only, bounded in connections and time.
// Usage: PREFLIGHT_TEST_DATABASE_URL=postgres://… node --import tsx scripts/stalled-upload-rss.ts
//          [--tree DIR] [--path /agent/check-content] [--connections 200] [--seconds 20]
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { parseArgs } from 'node:util';
import knexFactory from 'knex';
import { ROOT_DIR } from '../core/config.ts';

const { values } = parseArgs({
  options: {
    tree: { type: 'string', default: ROOT_DIR },
    path: { type: 'string', default: '/agent/check-content' },
    connections: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
  },
});
const connections = Math.min(500, Number(values.connections));
const seconds = Math.min(120, Number(values.seconds));
const DECLARED = 1_900_000;
const SENT = 1_800_000;

const serverUrl = process.env.PREFLIGHT_TEST_DATABASE_URL;
if (!serverUrl)
  throw new Error('Set PREFLIGHT_TEST_DATABASE_URL to a PostgreSQL server the script may create a database on');
const name = `pf_rss_${randomBytes(5).toString('hex')}`;
const admin = knexFactory({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
await admin.raw(`create database ${name}`);
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${name}`;

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};

const child: ChildProcess = spawn(
  process.execPath,
  ['--import', 'tsx', '--import', 'reflect-metadata', 'server/main.ts'],
  {
    cwd: values.tree,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: dbUrl.toString(), PREFLIGHT_WORKER: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const port: number = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
    const m = /"port":(\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
});
const pid = child.pid as number;
await new Promise((r) => setTimeout(r, 2000));
const before = rssMb(pid);

let answered = 0;
let closedByServer = 0;
const sockets: net.Socket[] = [];
const chunk = Buffer.alloc(64 * 1024, 0x20);
for (let i = 0; i < connections; i++) {
  const s = net.connect(port, '127.0.0.1');
  sockets.push(s);
  let gotAnswer = false;
  s.on('data', () => {
    if (!gotAnswer) answered++;
    gotAnswer = true;
  });
  s.on('close', () => closedByServer++);
  s.on('error', () => {});
  s.write(
    `POST ${values.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED}\r\n\r\n{"content":"`,
  );
  // Send most of the declared body, in chunks, as long as the socket takes it; then stall.
  let sent = 0;
  const pump = () => {
    while (sent < SENT && !s.destroyed) {
      sent += chunk.length;
      if (!s.write(chunk)) return s.once('drain', pump);
    }
  };
  pump();
}

let peak = before;
const deadline = Date.now() + seconds * 1000;
while (Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 500));
  peak = Math.max(peak, rssMb(pid));
}
const held = sockets.filter((s) => !s.destroyed).length;
const closedBeforeEnd = closedByServer;
for (const s of sockets) s.destroy();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await admin.raw(`drop database if exists ${name} with (force)`);
await admin.destroy();
console.log(
  JSON.stringify({
    tree: values.tree,
    path: values.path,
    connections,
    seconds,
    rss_before_mb: Math.round(before),
    rss_peak_mb: Math.round(peak),
    answered,
    closed_by_server: closedBeforeEnd,
    still_open_at_end: held,
  }),
);
