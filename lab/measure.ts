import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { createSources } from '../core/evidence/sources/index.ts';
import { startLab } from './index.ts';

/**
 * Lab start-up time and per-client latency against it (uncached; median and max over every site).
 * Run: node --import tsx lab/measure.ts [SITES_DIR]
 */
const sitesDir = process.argv[2] ?? fileURLToPath(new URL('../../shared/eval/phishing/sites', import.meta.url));

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `median ${median.toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (n=${sorted.length})`;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const starts: number[] = [];
const keys: number[] = [];
const certs: number[] = [];
for (let i = 0; i < 5; i++) {
  const lab = await startLab({ sitesDir });
  starts.push(lab.startupMs);
  keys.push(lab.startupPhasesMs.keysAndSites);
  certs.push(lab.startupPhasesMs.certificates);
  await lab.close();
}
console.log(`lab start-up (${sitesDir}): ${summary(starts)}`);
console.log(`  of which sites + CA keys: ${summary(keys)}; site certificates: ${summary(certs)}`);

const lab = await startLab({ sitesDir });
const sources = createSources(lab.sourcesConfig({ cacheTtlMs: 0 }));
const hosts = lab.sites.map((site) => site.hostname);
const named = lab.sites.filter((site) => !site.ipLiteral).map((site) => site.hostname);
const clients: [string, (host: string) => Promise<unknown>, string[]][] = [
  ['dns (6 types)', (h) => sources.dns.resolveAll(h), named],
  ['rdap', (h) => sources.rdap.lookupDomain(h), named],
  ['tls', (h) => sources.tls.inspect(h), hosts],
  ['http (all hops + favicon)', (h) => sources.http.fetchPage(`https://${h}/`), hosts],
  ['ct', (h) => sources.ct.search(h), hosts],
  ['history', (h) => sources.history.captures(h), hosts],
  ['hostintel', (h) => sources.hostIntel.lookup(lab.sites.find((s) => s.hostname === h)!.ip), hosts],
];
for (const [name, run, targets] of clients) {
  await run(targets[0]!); // warm-up: first TLS session, JIT
  const samples: number[] = [];
  for (const host of targets) samples.push(await timed(() => run(host)));
  console.log(`${name.padEnd(26)} ${summary(samples)}`);
}
await sources.close();
await lab.close();
