import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function listen(app: { callback(): RequestListener }): Promise<string> {
  const server = createServer(app.callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function load(
  url: string,
  opts: {
    body: string | (() => string);
    headers?: Record<string, string>;
    seconds: number;
    connections: number;
  },
): Promise<LoadResult> {
  const { body } = opts;
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    duration: opts.seconds,
    connections: opts.connections,
    // A body factory makes every request different (cold caches); a string repeats one request (warm).
    ...(typeof body === 'string' ? { body } : { requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }] }),
  });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function fmt(n: number, digits = 1): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
