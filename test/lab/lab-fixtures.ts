import dgram from 'node:dgram';
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

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function elapsed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}
