/**
 * Per-source recall / false-positive table of the prompt-injection screen on a labelled JSONL corpus.
 * Usage: node --import tsx scripts/eval-injection.ts [path] [--misses SOURCE] [--hits SOURCE]
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenText } from '../plugins/prompt-injection/screen.ts';

interface Row {
  text: string;
  label: number;
  source: string;
  kind: string;
}

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const showMisses = opt('--misses');
const showHits = opt('--hits');
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const path = args[0] ?? resolve(repoRoot, '../shared/eval/injection/dev.jsonl');
const rows: Row[] = readFileSync(path, 'utf8')
  .split('\n')
  .filter((l) => l.trim().length > 0)
  .map((l) => JSON.parse(l) as Row);

interface Stat {
  flagged: number;
  total: number;
  high: number;
  ms: number;
}
const stats = new Map<string, Stat>();
const bump = (key: string, flagged: boolean, high: boolean, ms: number) => {
  const s = stats.get(key) ?? { flagged: 0, total: 0, high: 0, ms: 0 };
  s.total++;
  if (flagged) s.flagged++;
  if (high) s.high++;
  s.ms += ms;
  stats.set(key, s);
};

const t0 = performance.now();
for (const row of rows) {
  const start = performance.now();
  const explain: { scores?: Record<string, number>; hits?: string[] } = {};
  const res = screenText(row.text, { explain });
  const ms = performance.now() - start;
  const flagged = res.severity !== 'none';
  bump(`${row.source}\t${row.label}\t*`, flagged, res.severity === 'high', ms);
  bump(`${row.source}\t${row.label}\t${row.kind}`, flagged, res.severity === 'high', ms);
  const show = (flagged && showHits === row.source) || (!flagged && showMisses === row.source);
  if (show) {
    console.log('----', row.source, row.kind, res.severity);
    console.log(row.text.length > 700 ? `${row.text.slice(0, 700)}…` : row.text);
    for (const f of res.findings)
      console.log(`  -> ${f.category} [${f.severity}]${f.hidden ? ' hidden' : ''}: ${f.marker}`);
    if (!flagged) {
      console.log(`  scores ${JSON.stringify(explain.scores)}`);
      for (const h of explain.hits ?? []) console.log(`  ~ ${h}`);
    }
  }
}
const total = performance.now() - t0;

const kindsPerSource = new Map<string, number>();
for (const key of stats.keys()) {
  const [src, , kind] = key.split('\t');
  if (kind !== '*') kindsPerSource.set(src!, (kindsPerSource.get(src!) ?? 0) + 1);
}
console.log(`corpus: ${path} (${rows.length} rows, ${total.toFixed(0)} ms)`);
console.log(`${'source'.padEnd(28)} ${'kind'.padEnd(8)} label metric   value   flagged/n  high  ms/row`);
for (const key of [...stats.keys()].sort()) {
  const [src, label, kind] = key.split('\t');
  if (kind !== '*' && (kindsPerSource.get(src!) ?? 0) < 2) continue;
  const s = stats.get(key)!;
  const metric = label === '1' ? 'recall' : 'FPR';
  const value = `${((100 * s.flagged) / s.total).toFixed(1)}%`;
  console.log(
    `${src!.padEnd(28)} ${(kind === '*' ? 'all' : kind!).padEnd(8)} ${label!.padEnd(5)} ${metric.padEnd(8)} ${value.padStart(6)}  ${`${s.flagged}/${s.total}`.padStart(9)}  ${String(s.high).padStart(4)}  ${(s.ms / s.total).toFixed(3)}`,
  );
}
