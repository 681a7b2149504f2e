// One autocannon run in its own process, so the load generator never shares the event loop (or the profile) of
// the server it measures. Options come as JSON in argv[2]; the result is printed as one JSON line.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** A fixed body (warm: every request the same). */
  body?: string;
  /** A fresh destination per request (cold action checks): `https://<coldPrefix>-<n>.cold-bench.example/`. */
  coldPrefix?: string;
  seconds: number;
  connections: number;
  /** Fixed offered load in requests per second across all connections (latency at a given load). */
  rate?: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function run(opts: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const result = await autocannon({
    url: opts.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    duration: opts.seconds,
    connections: opts.connections,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    ...(opts.coldPrefix
      ? {
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                body: JSON.stringify({ url: `https://${opts.coldPrefix}-${n++}.cold-bench.example/`, intent: 'pay' }),
              }),
            },
          ],
        }
      : { body: opts.body }),
  });
  return {
    requests: result.requests.total,
    requestsPerSec: result.requests.total / (result.duration || opts.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

run(JSON.parse(process.argv[2] ?? '{}') as LoadOptions).then(
  (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
