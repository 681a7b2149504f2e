import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import { createPreflight } from '../app/index.ts';
import { loadConfig } from '../core/config.ts';
import { Ruleset } from '../core/engine/rules/ruleset.ts';
import { DEFAULT_POLICY } from '../core/services/agent-policy/workspace-policy.ts';
import { AgentChecks } from '../core/services/checks/agent-checks.ts';
import { parseCheckActionRequest } from '../server/requests/check-action.ts';
import { parseCheckContentRequest } from '../server/requests/check-content.ts';

/** Extra breakdowns `--by` can ask for, besides the per-source table that is always printed. */
export const REPLAY_DIMENSIONS = ['lang', 'kind'] as const;
export type ReplayDimension = (typeof REPLAY_DIMENSIONS)[number];

export interface ReplayOptions {
  /** Rules folder to judge under; default the configured one (PREFLIGHT_RULES_DIR or rules/). */
  rulesDir?: string;
  json: boolean;
  by: ReplayDimension[];
  /** Write one JSON line per judged record here (line, source, label, verdict, flags, findings): for error analysis. */
  verdictsFile?: string;
}

type Label = 0 | 1;
type Verdict = 'allow' | 'approval_required' | 'block';

/** One labelled corpus line: a text for the content screen, or a URL for the fast action check. */
interface ReplayRecord {
  type: 'text' | 'url';
  input: string;
  /** A page URL sent along with a text record (check-content's `url`), when the record has both. */
  url?: string;
  label: Label;
  source: string;
  lang: string;
  kind: string;
}

interface Tally {
  n: number;
  flagged: number;
  blocked: number;
  errors: number;
}

export interface RateRow {
  label: Label;
  n: number;
  flagged: number;
  blocked: number;
  /** Records the check refused (e.g. an unparsable URL); not counted in `n`. */
  errors: number;
  /** Recall for positives, false-positive rate for negatives; null when n is 0. */
  metric: 'recall' | 'fpr';
  rate: number | null;
}

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  recall: number | null;
  fpr: number | null;
  precision: number | null;
}

export interface ReplayReport {
  corpus: string;
  /** `text` (content screen), `url` (fast check-action, intent visit) or `mixed`. */
  type: 'text' | 'url' | 'mixed' | 'empty';
  rules_dir: string;
  ruleset_hash: string;
  /** What counts as flagged. */
  flagged_when: string;
  records: number;
  /** Lines that were not a usable record (bad JSON, no text/url, unknown label), with the first few reasons. */
  skipped: { count: number; first: { line: number; reason: string }[] };
  /** Records whose check threw (counted per row in `errors`, not in `n`), with the first few messages. */
  errors: { count: number; first: { line: number; reason: string }[] };
  decisions: Record<Verdict, number>;
  sources: (RateRow & { source: string })[];
  by: Partial<Record<ReplayDimension, (RateRow & { value: string })[]>>;
  confusion: { overall: Confusion; by_source: Record<string, Confusion> };
  seconds: number;
}

const POSITIVE = new Set(['1', 'true', 'injection', 'phishing', 'malicious', 'malware', 'attack', 'positive']);
const NEGATIVE = new Set(['0', 'false', 'benign', 'clean', 'legitimate', 'safe', 'negative']);

function labelOf(value: unknown): Label | undefined {
  const key = String(value).trim().toLowerCase();
  if (POSITIVE.has(key)) return 1;
  if (NEGATIVE.has(key)) return 0;
  return undefined;
}

/** Reads one corpus line: a record, or the reason it cannot be replayed. Text wins when a line has both fields. */
export function parseRecord(line: string): ReplayRecord | string {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'not a JSON object';
  const label = labelOf(raw.label);
  if (label === undefined) return `unknown label ${JSON.stringify(raw.label)}`;
  const source = typeof raw.source === 'string' && raw.source ? raw.source : '(none)';
  const lang = typeof raw.lang === 'string' && raw.lang ? raw.lang : '-';
  const text = typeof raw.text === 'string' ? raw.text : typeof raw.content === 'string' ? raw.content : undefined;
  const url = typeof raw.url === 'string' ? raw.url : undefined;
  if (text !== undefined) {
    const kind = typeof raw.kind === 'string' && raw.kind ? raw.kind : '-';
    return { type: 'text', input: text, ...(url ? { url } : {}), label, source, lang, kind };
  }
  if (url !== undefined) return { type: 'url', input: url, label, source, lang, kind: 'url' };
  return 'neither text nor url';
}

const emptyTally = (): Tally => ({ n: 0, flagged: 0, blocked: 0, errors: 0 });
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

function rateRow(label: Label, t: Tally): RateRow {
  return { label, ...t, metric: label === 1 ? 'recall' : 'fpr', rate: ratio(t.flagged, t.n) };
}

function confusionOf(pos: Tally, neg: Tally): Confusion {
  const tp = pos.flagged;
  const fn = pos.n - pos.flagged;
  const fp = neg.flagged;
  const tn = neg.n - neg.flagged;
  return { tp, fp, tn, fn, recall: ratio(tp, tp + fn), fpr: ratio(fp, fp + tn), precision: ratio(tp, tp + fp) };
}

/** Counts a file's lines for the progress bar (a byte scan, much cheaper than the checks). */
async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file)) {
    const buf = chunk as Buffer;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  }
  return n;
}

/**
 * `preflight replay CORPUS.jsonl`: every record through the in-process check the API would run (text: the content
 * screen; url: the fast action check with intent visit), under one rules folder, then per-source rates and
 * confusion matrices. No server, no audit; reputation comes from whatever feeds the configured database holds.
 */
export async function runReplay(corpus: string, opts: ReplayOptions): Promise<ReplayReport> {
  const started = Date.now();
  const base = loadConfig();
  const config = opts.rulesDir ? { ...base, rulesDir: opts.rulesDir } : base;
  const app = await createPreflight(config);
  const checks = app.container.resolve(AgentChecks);
  const ruleset = app.container.resolve(Ruleset);

  // key -> [negatives, positives]
  const bySource = new Map<string, [Tally, Tally]>();
  const byDim = new Map<ReplayDimension, Map<string, [Tally, Tally]>>(opts.by.map((d) => [d, new Map()]));
  const decisions: Record<Verdict, number> = { allow: 0, approval_required: 0, block: 0 };
  const skipped: ReplayReport['skipped'] = { count: 0, first: [] };
  const errors: ReplayReport['errors'] = { count: 0, first: [] };
  const types = new Set<'text' | 'url'>();
  const cell = (m: Map<string, [Tally, Tally]>, key: string, label: Label) => {
    let pair = m.get(key);
    if (!pair) {
      pair = [emptyTally(), emptyTally()];
      m.set(key, pair);
    }
    return pair[label];
  };

  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { format: 'replay [{bar}] {value}/{total} | {eta_formatted} left', stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(await countLines(corpus), 0);

  let lineNo = 0;
  let records = 0;
  let verdictsFd: number | undefined;
  try {
    // Opened before the first check, so a path that cannot be written stops the replay at once.
    if (opts.verdictsFile) verdictsFd = openSync(opts.verdictsFile, 'w');
    const lines = createInterface({ input: createReadStream(corpus), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      lineNo++;
      bar?.increment();
      if (line.trim() === '') continue;
      const rec = parseRecord(line);
      if (typeof rec === 'string') {
        skipped.count++;
        if (skipped.first.length < 10) skipped.first.push({ line: lineNo, reason: rec });
        continue;
      }
      records++;
      types.add(rec.type);
      const call = { workspaceId: null, actor: 'cli', requestId: `replay-${lineNo}`, endpoint: 'cli replay' };
      const tallies = [
        cell(bySource, rec.source, rec.label),
        ...opts.by.map((d) => cell(byDim.get(d)!, rec[d], rec.label)),
      ];
      let verdict: Verdict;
      let answered: { flags?: unknown; findings?: unknown };
      try {
        const answer =
          rec.type === 'text'
            ? await checks.content(
                parseCheckContentRequest({ content: rec.input, ...(rec.url ? { url: rec.url } : {}) }),
                call,
              )
            : await checks.action(parseCheckActionRequest({ url: rec.input, intent: 'visit' }), call, DEFAULT_POLICY);
        verdict = answer.agent_decision as Verdict;
        answered = answer as { flags?: unknown; findings?: unknown };
      } catch (err) {
        for (const t of tallies) t.errors++;
        errors.count++;
        if (errors.first.length < 10)
          errors.first.push({ line: lineNo, reason: `check failed: ${(err as Error).message ?? err}` });
        continue;
      }
      if (verdictsFd !== undefined) {
        const { flags, findings } = answered;
        const out = { line: lineNo, source: rec.source, label: rec.label, verdict, flags, findings };
        writeSync(verdictsFd, `${JSON.stringify(out)}\n`);
      }
      decisions[verdict]++;
      for (const t of tallies) {
        t.n++;
        if (verdict !== 'allow') t.flagged++;
        if (verdict === 'block') t.blocked++;
      }
    }
  } finally {
    bar?.stop();
    if (verdictsFd !== undefined) closeSync(verdictsFd);
    await app.close();
  }

  const rows = <K extends string>(m: Map<string, [Tally, Tally]>, key: K) =>
    [...m.entries()]
      .flatMap(([value, [neg, pos]]) =>
        [pos, neg].flatMap((t, i) =>
          t.n + t.errors > 0 ? [{ [key]: value, ...rateRow(i === 0 ? 1 : 0, t) } as RateRow & Record<K, string>] : [],
        ),
      )
      .sort((a, b) => b.label - a.label || a[key].localeCompare(b[key]));

  const total: [Tally, Tally] = [emptyTally(), emptyTally()];
  const bySourceConfusion: Record<string, Confusion> = {};
  for (const [source, [neg, pos]] of [...bySource.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    bySourceConfusion[source] = confusionOf(pos, neg);
    for (const i of [0, 1] as const) {
      total[i].n += [neg, pos][i]!.n;
      total[i].flagged += [neg, pos][i]!.flagged;
    }
  }
  const by: ReplayReport['by'] = {};
  for (const d of opts.by) by[d] = rows(byDim.get(d)!, 'value');

  return {
    corpus,
    type: types.size === 0 ? 'empty' : types.size > 1 ? 'mixed' : [...types][0]!,
    rules_dir: config.rulesDir,
    ruleset_hash: ruleset.hash,
    flagged_when: 'agent_decision != "allow"',
    records,
    skipped,
    errors,
    decisions,
    sources: rows(bySource, 'source'),
    by,
    confusion: { overall: confusionOf(total[1], total[0]), by_source: bySourceConfusion },
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

const pct = (r: number | null) => (r === null ? '-' : `${(r * 100).toFixed(1)}%`);

function table(head: string[], body: string[][], rightFrom: number): string {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c >= rightFrom ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

const rateCells = (r: RateRow) => [
  String(r.label),
  String(r.n),
  String(r.flagged),
  String(r.blocked),
  `${r.metric} ${pct(r.rate)}`,
  String(r.errors),
];

/** The human-readable report: per-source rates, the asked-for breakdowns, confusion matrices. */
export function formatReplay(report: ReplayReport): string {
  const out: string[] = [];
  out.push(
    `replay ${report.corpus}: ${report.records} ${report.type} records in ${report.seconds}s, rules ${report.rules_dir} (ruleset_hash ${report.ruleset_hash})`,
    `flagged = ${report.flagged_when}; decisions: ${Object.entries(report.decisions)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}${report.skipped.count ? `; ${report.skipped.count} line(s) skipped` : ''}${report.errors.count ? `; ${report.errors.count} check error(s)` : ''}`,
    '',
  );
  const rateHead = ['label', 'n', 'flagged', 'blocked', 'rate', 'errors'];
  out.push(
    table(
      ['source', ...rateHead],
      report.sources.map((r) => [r.source, ...rateCells(r)]),
      2,
    ),
    '',
  );
  for (const [dim, rows] of Object.entries(report.by)) {
    out.push(
      table(
        [dim, ...rateHead],
        rows.map((r) => [r.value, ...rateCells(r)]),
        2,
      ),
      '',
    );
  }
  const confusionRow = (name: string, c: Confusion) => [
    name,
    String(c.tp),
    String(c.fp),
    String(c.tn),
    String(c.fn),
    pct(c.recall),
    pct(c.fpr),
    pct(c.precision),
  ];
  out.push(
    table(
      ['confusion', 'TP', 'FP', 'TN', 'FN', 'recall', 'FPR', 'precision'],
      [
        ...Object.entries(report.confusion.by_source).map(([s, c]) => confusionRow(s, c)),
        confusionRow('(overall)', report.confusion.overall),
      ],
      1,
    ),
  );
  for (const s of [...report.skipped.first, ...report.errors.first]) out.push(`line ${s.line}: ${s.reason}`);
  return `${out.join('\n')}\n`;
}
