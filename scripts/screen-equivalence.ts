/**
 * Equivalence check for changes that must not move a verdict (speed work on the injection screen): runs the whole
 * screen (patterns + the shipped learned scorer configured as the plugin configures it from rules/injection.json) over
 * labelled JSONL corpora and writes, record by record, the severity, the findings, the pattern layer's category
 * scores and hits, and the scorer's best window per segment (probability and marker). Numbers go through
 * JSON.stringify, which round-trips a double exactly, so "equal" below means equal to the last bit.
 *
 *   node --import tsx scripts/screen-equivalence.ts dump OUT.jsonl CORPUS.jsonl...
 *   node --import tsx scripts/screen-equivalence.ts compare BASELINE.jsonl CORPUS.jsonl...
 *
 * `compare` recomputes with the current code and prints every record that differs (exit 1 if any).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../core/config.ts';
import { loadInjectionRules } from '../core/engine/rules/injection-rules.ts';
import { shippedModel } from '../plugins/prompt-injection/scorer/shipped.ts';
import { learnedScreen, type ScreenOptions, screenText } from '../plugins/prompt-injection/screen.ts';

interface Entry {
  corpus: string;
  line: number;
  textSha: string;
  out: string;
}

function run(corpora: string[]): { entries: Entry[]; ms: number; bytes: number } {
  const rules = loadInjectionRules(path.join(ROOT_DIR, 'rules'), []);
  if (!rules) throw new Error('rules/injection.json is missing or invalid');
  const learned = learnedScreen(shippedModel().model, rules);
  const entries: Entry[] = [];
  let ms = 0;
  let bytes = 0;
  for (const corpus of corpora) {
    const lines = readFileSync(corpus, 'utf8').split('\n');
    lines.forEach((l, i) => {
      if (l.trim().length === 0) return;
      const text = (JSON.parse(l) as { text: string }).text;
      const explain: NonNullable<ScreenOptions['explain']> = {};
      const t0 = process.cpuUsage();
      const res = screenText(text, { learned, explain });
      const used = process.cpuUsage(t0);
      ms += (used.user + used.system) / 1000;
      bytes += text.length;
      entries.push({
        corpus: path.basename(corpus),
        line: i + 1,
        textSha: createHash('sha256').update(text).digest('hex').slice(0, 16),
        out: JSON.stringify({
          severity: res.severity,
          findings: res.findings,
          scores: explain.scores,
          hits: explain.hits,
          model: explain.model,
        }),
      });
    });
  }
  return { entries, ms, bytes };
}

const [mode, file, ...corpora] = process.argv.slice(2);
if ((mode !== 'dump' && mode !== 'compare') || !file || corpora.length === 0) {
  console.error('usage: screen-equivalence.ts dump|compare FILE CORPUS.jsonl...');
  process.exit(2);
}
const { entries, ms, bytes } = run(corpora);
const timing = `${entries.length} records, ${(bytes / 2 ** 20).toFixed(1)} MB, screen ${ms.toFixed(0)} ms CPU`;
if (mode === 'dump') {
  writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
  console.log(`dumped ${timing} to ${file}`);
} else {
  const base = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Entry);
  const key = (e: Entry) => `${e.corpus}:${e.line}`;
  const byKey = new Map(base.map((e) => [key(e), e]));
  let differ = 0;
  let missing = 0;
  const flips = { severity: 0, findings: 0, model: 0, patterns: 0 };
  for (const e of entries) {
    const b = byKey.get(key(e));
    if (!b || b.textSha !== e.textSha) {
      missing++;
      continue;
    }
    if (b.out === e.out) continue;
    differ++;
    const x = JSON.parse(b.out);
    const y = JSON.parse(e.out);
    if (x.severity !== y.severity) flips.severity++;
    if (JSON.stringify(x.findings) !== JSON.stringify(y.findings)) flips.findings++;
    if (JSON.stringify(x.model) !== JSON.stringify(y.model)) flips.model++;
    if (JSON.stringify([x.scores, x.hits]) !== JSON.stringify([y.scores, y.hits])) flips.patterns++;
    if (differ <= 10) console.log(`DIFF ${key(e)}\n  before ${b.out.slice(0, 600)}\n  after  ${e.out.slice(0, 600)}`);
  }
  const severities = new Map<string, number>();
  for (const e of entries) {
    const s = (JSON.parse(e.out) as { severity: string }).severity;
    severities.set(s, (severities.get(s) ?? 0) + 1);
  }
  console.log(`compared ${timing} with ${file} (${base.length} records)`);
  console.log(`severities now: ${JSON.stringify(Object.fromEntries(severities))}`);
  console.log(
    `identical: ${entries.length - differ - missing}, different: ${differ} (severity ${flips.severity}, findings ${flips.findings}, scorer windows ${flips.model}, pattern scores/hits ${flips.patterns}), not in baseline: ${missing}`,
  );
  if (differ > 0 || missing > 0) process.exit(1);
}
