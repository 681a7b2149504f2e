// Splits on-CPU samples of the server process (`perf record -g -p PID` on node started with --perf-basic-prof
// --interpreted-frames-native-stack, then `perf script -F tid,sym`) into the phases of a request, for every thread:
// the main thread, the signing worker thread (Ed25519, core/engine/contract/batch-signer.ts), V8's GC helpers. Unlike the V8 profiler, perf samples only
// while a thread is on a CPU, so time spent descheduled on a shared machine is not counted as work.
// Usage: perf script -F tid,sym | node --import tsx bench/perf-phases.ts MAIN_TID [cpuUsPerRequest]
import { createInterface } from 'node:readline';
import { FALLBACK, JS_RULES } from './phases.ts';

const GC =
  /v8::internal::(Heap|Scavenger|Scavenge|MarkCompact|MinorMC|ConcurrentMarking|Sweeper|MemoryAllocator|IncrementalMarking|ArrayBufferSweeper|.*Marking|.*Evacuat|ScavengerCollector|GCTracer)|v8::internal::heap::|cppgc/;
const SIGN = /SignJob|EVP_|ed25519|ossl_|OPENSSL_|CRYPTO_|sha512|x25519|libcrypto/i;

interface Sample {
  tid: number;
  frames: string[];
}

function urlOf(sym: string): string | undefined {
  const m = /^JS:\S*\s*(?:\S+\s+)?((?:file|node):\S+)/.exec(sym) ?? /((?:file:\/\/|node:)\S+)/.exec(sym);
  return m?.[1];
}

function phaseOf(s: Sample, mainTid: number): string {
  const stack = s.frames;
  if (stack.some((f) => GC.test(f))) return 'GC';
  const transparent: string[] = [];
  for (const f of stack) {
    const url = urlOf(f);
    if (url) {
      const rule = JS_RULES.find(([re]) => re.test(url));
      if (rule && rule[1] !== null) return rule[1];
      transparent.push(url);
      continue;
    }
    if (SIGN.test(f))
      return s.tid === mainTid ? 'seal: canonical JSON, hashes, sign' : 'Ed25519 sign (off the main thread)';
    transparent.push(f);
  }
  for (const f of transparent) {
    const hit = FALLBACK.find(([re]) => re.test(f));
    if (hit) return hit[1];
  }
  if (s.tid !== mainTid) return 'other threads (pool, V8 platform)';
  if (stack.some((f) => /epoll_wait|uv__io_poll/.test(f)) && stack.length < 14) return 'event loop poll (kernel)';
  return 'node / V8 internals (other)';
}

async function main(): Promise<void> {
  const mainTid = Number(process.argv[2]);
  const cpuUsPerReq = Number(process.argv[3] ?? Number.NaN);
  const rl = createInterface({ input: process.stdin });
  const totals = new Map<string, { main: number; other: number }>();
  let current: Sample | undefined;
  let all = 0;
  let kernelLeaf = 0;
  const flush = () => {
    if (!current) return;
    const phase = phaseOf(current, mainTid);
    const t = totals.get(phase) ?? { main: 0, other: 0 };
    if (current.tid === mainTid) t.main++;
    else t.other++;
    totals.set(phase, t);
    all++;
    if (/^ffffffff/.test(current.frames[0] ?? '') || current.frames[0]?.includes('[kernel')) kernelLeaf++;
    current = undefined;
  };
  for await (const line of rl) {
    if (!line.trim()) {
      flush();
      continue;
    }
    if (!line.startsWith('\t')) {
      flush();
      const m = /(\d+)/.exec(line);
      current = { tid: Number(m?.[1]), frames: [] };
      continue;
    }
    // "    addr sym (dso)" — keep the address (kernel addresses mark kernel frames) and the symbol.
    current?.frames.push(line.trim());
  }
  flush();
  const rows = [...totals.entries()].sort((a, b) => b[1].main + b[1].other - (a[1].main + a[1].other));
  const mainAll = rows.reduce((n, [, t]) => n + t.main, 0);
  console.log(
    `${all} on-CPU samples, ${((mainAll / all) * 100).toFixed(1)} % on the main thread, ${((kernelLeaf / all) * 100).toFixed(1)} % with a kernel leaf\n`,
  );
  const perReq = (n: number) => (Number.isFinite(cpuUsPerReq) ? ((n / all) * cpuUsPerReq).toFixed(0) : '–');
  console.log('| phase | share of process CPU | CPU µs / req (main thread) | CPU µs / req (other threads) |');
  console.log('|---|---|---|---|');
  for (const [phase, t] of rows) {
    console.log(
      `| ${phase} | ${(((t.main + t.other) / all) * 100).toFixed(1)} % | ${perReq(t.main)} | ${perReq(t.other)} |`,
    );
  }
  if (Number.isFinite(cpuUsPerReq))
    console.log(`| **total** | 100 % | ${perReq(mainAll)} | ${perReq(all - mainAll)} |`);
}

void main();
