// One bench case under load, profiled; autocannon runs in its own process.
//   node --import tsx --import reflect-metadata bench/profile.ts content|warm|cold|bare|floor [seconds]
// prints req/s, main-thread and process CPU µs per request and DB round trips per request, and by PROFILE_MODE:
// - (default) the V8 CPU profiler on the main thread (what `node --cpu-prof` records, started after the warm-up),
//   written to BENCH_PROFILE_DIR/<case>.cpuprofile; split it with bench/profile-phases.ts. It samples wall time:
//   on a shared machine a descheduled main thread shows as busy in whatever it was running.
// - `perf`: nothing in-process; bench/perf-profile.sh attaches Linux perf (on-CPU samples of every thread).
// - `heap`: V8's sampling heap profiler, written to BENCH_PROFILE_DIR/<case>.heapprofile (bytes allocated by stack).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { Knex } from '../core/platform/db/knex-token.ts';
import { AuditWriter } from '../core/services/audit/audit-writer.ts';
import { createHttpApp } from '../server/http-app.ts';
import { benchApp } from './bench-app.ts';
import { bareKoa, CONTENT_200, floorKoa, load } from './http-bench.ts';
import type { LoadOptions } from './load-child.ts';
import { listen } from './support.ts';

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'content';
  const seconds = Number(process.argv[3] ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const { app, key, stopDatabase } = await benchApp('preflight-profile-');
  const knex = app.container.resolve(Knex);
  const audit = app.container.resolve(AuditWriter);
  const url = await listen(createHttpApp(app));
  const bareUrl = await listen(bareKoa());
  const floorUrl = await listen(await floorKoa(app));
  const auth = { authorization: `Api-Key ${key}` };
  const opts = (prefix: string): Omit<LoadOptions, 'seconds' | 'connections'> => {
    switch (which) {
      case 'content':
        return { url: `${url}/agent/check-content`, headers: auth, body: JSON.stringify({ content: CONTENT_200 }) };
      case 'warm':
        return {
          url: `${url}/agent/check-action`,
          headers: auth,
          body: JSON.stringify({ url: 'https://checkout.example-shop.com/cart', intent: 'pay' }),
        };
      case 'bare':
        return { url: bareUrl, body: JSON.stringify({ content: CONTENT_200 }) };
      case 'floor':
        return { url: floorUrl, body: JSON.stringify({ content: CONTENT_200 }) };
      case 'cold':
        return { url: `${url}/agent/check-action`, headers: auth, coldPrefix: prefix };
      default:
        throw new Error(`unknown case ${which}`);
    }
  };
  await load({ ...opts('w'), seconds: 3, connections });

  let queries = 0;
  knex.on('query', () => {
    queries++;
  });
  // PROFILE_MODE=perf: no V8 profiler; an outside `perf record -p <pid>` samples on-CPU time of every thread
  // (the V8 profiler samples wall time on the main thread only, so a descheduled thread shows as busy).
  const perfMode = process.env.PROFILE_MODE === 'perf';
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 250) });
  if (perfMode) {
    process.stderr.write(`LOAD START ${process.pid}\n`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const a0 = { ...audit.stats };
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  // PROFILE_MODE=heap: V8's sampling heap profiler instead (bytes allocated, by stack), written as .heapprofile.
  const heapMode = process.env.PROFILE_MODE === 'heap';
  if (heapMode) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  } else if (!perfMode) await session.post('Profiler.start');
  // BENCH_RATE: a fixed offered rate (req/s) instead of as fast as the server answers (latency at a given load).
  const rate = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
  const r = await load({ ...opts('m'), seconds, connections, ...(rate ? { rate } : {}) });
  const profile = perfMode || heapMode ? undefined : (await session.post('Profiler.stop')).profile;
  if (heapMode) {
    const { profile: heap } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(
      path.join(process.env.BENCH_PROFILE_DIR ?? os.tmpdir(), `${which}.heapprofile`),
      JSON.stringify(heap),
    );
  }
  const busyMs = performance.eventLoopUtilization(elu0).active;
  const cpu = process.cpuUsage(cpu0);
  const batches = audit.stats.batches - a0.batches;
  const dir = process.env.BENCH_PROFILE_DIR ?? os.tmpdir();
  const file = path.join(dir, `${which}.cpuprofile`);
  if (profile) writeFileSync(file, JSON.stringify(profile));
  console.log(
    JSON.stringify({
      case: which,
      file,
      reqPerSec: Math.round(r.requestsPerSec),
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      requests: r.requests,
      non2xx: r.non2xx + r.errors,
      busyUsPerReq: Math.round((busyMs * 1000) / r.requests),
      cpuUsPerReq: Math.round((cpu.user + cpu.system) / r.requests),
      roundTripsPerReq: Number(((queries + batches) / r.requests).toFixed(3)),
      knexQueriesPerReq: Number((queries / r.requests).toFixed(3)),
      auditRowsPerBatch: batches ? Number(((audit.stats.rows - a0.rows) / batches).toFixed(1)) : 0,
    }),
  );
  session.disconnect();
  await app.close();
  await stopDatabase();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
