// The foreign-task probe: a measurement set, never training data. Real benign documents of one split (pages, docs,
// recipes, e-mails) with one unrelated task on a line of its own, planted at the start, in the middle or at the end,
// where the task is an ordinary prompt someone typed to an assistant (of the same split). Nothing in the text says
// "ignore" or names the reader: only the line's place in the document tells it apart, which is what the screen's
// structural foreign-task test has to see. Written beside the build as probe-foreign-task.<split>.jsonl, for
// `preflight replay`; the scorer is never trained on it and thresholds are never chosen on it.
import type { DataRecord, PlacedRecord as Placed, Split } from './record.ts';
import { Rng } from './rng.ts';

/** Documents an agent reads (plain text, English): the carriers. */
const CARRIER_SOURCES = new Set([
  'article_pages',
  'email_agent_inbox',
  'email_fixtures',
  'email_reply_fixtures',
  'nodejs_site',
  'react_docs_en',
  'recipes',
  'web_pages',
]);

/** Ordinary prompts to an assistant, one line each: the planted tasks. */
const TASK_SOURCES = new Set(['self_instruct', 'fuzzyai_benign_prompts', 'xstest_safe_prompts']);

const PROBE_POSITIONS = ['start', 'middle', 'end'] as const;
const PER_POSITION = 300;
const MAX_CARRIER = 1500;

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A one-line prompt of 5 to 30 words that ends as a sentence or a question. */
function isTaskLine(r: Placed): boolean {
  const t = r.text.trim();
  const n = words(t);
  return !t.includes('\n') && n >= 5 && n <= 30 && /[.?]$/.test(t);
}

/** The carrier's first lines up to MAX_CARRIER characters; at least three lines and 40 words of prose. */
function carrierText(r: Placed): string | undefined {
  const lines: string[] = [];
  let size = 0;
  for (const line of r.text.split('\n')) {
    if (size + line.length > MAX_CARRIER && lines.length > 0) break;
    lines.push(line);
    size += line.length + 1;
  }
  const text = lines.join('\n').trim();
  const nonBlank = lines.filter((l) => l.trim()).length;
  return nonBlank >= 3 && words(text) >= 40 ? text : undefined;
}

function plant(carrier: string, task: string, position: (typeof PROBE_POSITIONS)[number]): string {
  if (position === 'start') return `${task}\n\n${carrier}`;
  if (position === 'end') return `${carrier}\n\n${task}`;
  const lines = carrier.split('\n');
  const at = Math.max(1, Math.floor(lines.length / 2));
  return [...lines.slice(0, at), task, ...lines.slice(at)].join('\n');
}

/** The probe records of one split: PER_POSITION per position, carriers and tasks drawn with a fixed seed. */
export function foreignTaskProbe(records: readonly Placed[], split: Split): DataRecord[] {
  const carriers: { text: string; rec: Placed }[] = [];
  for (const r of records) {
    if (r.split !== split || r.label !== 0 || r.lang !== 'en' || r.kind !== 'content') continue;
    if (!CARRIER_SOURCES.has(r.source)) continue;
    const text = carrierText(r);
    if (text) carriers.push({ text, rec: r });
  }
  const tasks = records.filter(
    (r) => r.split === split && r.label === 0 && r.lang === 'en' && TASK_SOURCES.has(r.source) && isTaskLine(r),
  );
  if (carriers.length === 0 || tasks.length === 0) return [];
  const out: DataRecord[] = [];
  for (const position of PROBE_POSITIONS) {
    const rng = new Rng(`foreign-task-probe:${split}:${position}`);
    for (let i = 0; i < PER_POSITION; i++) {
      const carrier = rng.pick(carriers);
      const task = rng.pick(tasks).text.trim();
      out.push({
        text: plant(carrier.text, task, position),
        label: 1,
        source: `probe_foreign_task_${position}`,
        lang: 'en',
        kind: 'content',
        category: 'task_injection',
        group: carrier.rec.source,
      });
    }
  }
  return out;
}
