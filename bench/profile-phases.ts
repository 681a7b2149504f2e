// Splits a .cpuprofile (bench/profile.ts or `node --cpu-prof`) into the phases of a request. Each sample goes to
// the leaf-most frame that names a phase; frames that only carry work for someone else (V8 builtins, node
// internals, knex/pg, koa-compose) are transparent and count for their caller. A sample whose whole stack is
// transparent goes to its leaf-most library (the pg driver reading replies, node's HTTP parser…).
// Usage: node --import tsx bench/profile-phases.ts FILE.cpuprofile [requests]

import { readFileSync } from 'node:fs';
import { ROOT_DIR } from '../core/config.ts';
import { FALLBACK, JS_RULES as RULES } from './phases.ts';

/** Frames are named relative to the repository or node_modules, wherever the checkout lives. */
const REPO_PREFIX = new RegExp(`^.*(?:/node_modules/|${ROOT_DIR.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/)`);

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function phaseOf(nodeId: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
  let id: number | undefined = nodeId;
  const leaf = byId.get(nodeId)!.callFrame;
  if (leaf.functionName === '(garbage collector)') return 'GC';
  if (leaf.functionName === '(idle)') return 'idle';
  if (leaf.functionName === '(program)') return 'native / (program)';
  const transparent: string[] = [];
  while (id !== undefined) {
    const f = byId.get(id)!.callFrame;
    if (f.url) {
      const rule = RULES.find(([re]) => re.test(f.url));
      if (rule) {
        if (rule[1] !== null) return rule[1];
      }
      transparent.push(f.url);
    }
    id = parent.get(id);
  }
  for (const url of transparent) {
    const hit = FALLBACK.find(([re]) => re.test(url));
    if (hit) return hit[1];
  }
  return transparent.length ? 'node internals (other)' : `V8 builtin: ${leaf.functionName || '(anonymous)'}`;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-phases FILE.cpuprofile [requests]');
  const requests = Number(process.argv[3] ?? Number.NaN);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const detail = process.env.PHASE_DETAIL; // a phase name: also list its heaviest leaf frames
  const leaves = new Map<string, number>();
  const totals = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const phase = phaseOf(profile.samples[i]!, byId, parent);
    // timeDeltas[i] is the time since the previous sample: it belongs to this sample's interval.
    totals.set(phase, (totals.get(phase) ?? 0) + (profile.timeDeltas[i] ?? 0));
    if (detail && phase === detail) {
      const chain: string[] = [];
      for (
        let id: number | undefined = profile.samples[i]!;
        id !== undefined && chain.length < 6;
        id = parent.get(id)
      ) {
        const f = byId.get(id)!.callFrame;
        chain.push(`${f.functionName || '(anon)'}@${f.url.replace(REPO_PREFIX, '')}:${f.lineNumber + 1}`);
      }
      const k = chain.join(' < ');
      leaves.set(k, (leaves.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  }
  if (detail) {
    for (const [k, us] of [...leaves.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
      console.log(`${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
    }
    console.log('');
  }
  const idle = totals.get('idle') ?? 0;
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  const busy = all - idle;
  const rows = [...totals.entries()].filter(([k]) => k !== 'idle').sort((a, b) => b[1] - a[1]);
  console.log(`main thread: ${(all / 1e6).toFixed(2)} s sampled, ${((busy / all) * 100).toFixed(1)} % busy\n`);
  console.log(`| phase | share of busy main thread | µs / request |`);
  console.log('|---|---|---|');
  for (const [phase, us] of rows) {
    const perReq = Number.isFinite(requests) ? (us / requests).toFixed(0) : '–';
    console.log(`| ${phase} | ${((us / busy) * 100).toFixed(1)} % | ${perReq} |`);
  }
  if (Number.isFinite(requests)) console.log(`| **total busy** | 100 % | ${(busy / requests).toFixed(0)} |`);
}

main();
