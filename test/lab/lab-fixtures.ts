import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteJson } from '../../lab/index.ts';

/** The shared evaluation sites (repo /work/main, shared folder /work/shared beside it). */
export const SHARED_SITES_DIR = fileURLToPath(new URL('../../../shared/eval/phishing/sites', import.meta.url));

export interface SiteSpec {
  site?: SiteJson;
  files?: Record<string, string | Buffer>;
}

/** Write a throwaway site folder in the DESIGN §7 format; returns its path and a cleanup. */
export async function writeSites(
  sites: Record<string, SiteSpec>,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'preflight-lab-'));
  for (const [hostname, spec] of Object.entries(sites)) {
    const siteDir = join(dir, hostname);
    await mkdir(siteDir, { recursive: true });
    if (spec.site) await writeFile(join(siteDir, 'site.json'), JSON.stringify(spec.site, null, 2));
    for (const [path, content] of Object.entries(spec.files ?? { 'index.html': `<h1>${hostname}</h1>` })) {
      const file = join(siteDir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function readSharedSites(): Promise<{ hostname: string; json: SiteJson; files: string[] }[]> {
  const names = (await readdir(SHARED_SITES_DIR)).sort();
  return Promise.all(
    names.map(async (hostname) => {
      let json: SiteJson = {};
      try {
        json = JSON.parse(await readFile(join(SHARED_SITES_DIR, hostname, 'site.json'), 'utf8')) as SiteJson;
      } catch {}
      return { hostname, json, files: await readdir(join(SHARED_SITES_DIR, hostname)) };
    }),
  );
}

/** A TCP server that accepts connections and never says a word: the worst kind of slow source. */
export async function startSilentTcpServer(): Promise<{
  endpoint: string;
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    endpoint: `127.0.0.1:${port}`,
    port,
    connections: () => count,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A UDP socket that reads DNS queries and never answers. */
export async function startSilentUdpServer(): Promise<{
  endpoint: string;
  queries: () => number;
  close: () => Promise<void>;
}> {
  const socket = dgram.createSocket('udp4');
  let count = 0;
  socket.on('message', () => count++);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    endpoint: `127.0.0.1:${socket.address().port}`,
    queries: () => count,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/**
 * A loopback port with nothing listening, TCP or UDP. Taken below the kernel's ephemeral range: a port released from
 * that range was handed to a parallel test's `listen(0)` a moment later, which then answered where a refusal was
 * expected. Each candidate is checked free for both protocols (bound, then released).
 */
export async function closedPort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = Math.max(1024, low - 10_000) + Math.floor(Math.random() * 9_000);
    if ((await bindsTcp(port)) && (await bindsUdp(port))) return port;
  }
  throw new Error('no free loopback port below the ephemeral range');
}

function ephemeralLow(): number {
  try {
    const low = Number.parseInt(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]!,
      10,
    );
    return Number.isFinite(low) && low > 11_024 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function bindsTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function bindsUdp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

export async function elapsed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}
