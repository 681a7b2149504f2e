// Model selection and thresholds: the probability of a record as the screen computes it, the threshold that holds
// every benign source at a flag rate, and the per-source table of a model on labelled records.
import { type ScorerModel, scoreSegment, sigmoid } from './model.ts';
import type { SourceRow, Thresholds, TrainRecord } from './train-options.ts';

/** Probability of the best window over all segments: what the screen computes. */
export function recordProbability(model: ScorerModel, segments: string[]): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const s of segments) {
    const r = scoreSegment(model, s);
    if (r.best && r.best.z > best) best = r.best.z;
  }
  return best === Number.NEGATIVE_INFINITY ? 0 : sigmoid(best);
}

/**
 * Smallest threshold (from the candidate scores) that holds every source's benign records at ≤ `target` flagged.
 * Returns a value just above the highest benign score that must stay below it.
 */
export function pickThreshold(benignBySource: Map<string, number[]>, target: number): number {
  let t = 0;
  for (const scores of benignBySource.values()) {
    const allowed = Math.floor(scores.length * target);
    const sorted = [...scores].sort((x, y) => y - x);
    // The (allowed+1)-th highest benign score must fall below the threshold.
    const must = sorted[allowed];
    if (must !== undefined && must >= t) t = must;
  }
  // Just above it, rounded up to 4 significant decimals so the rules file stays readable.
  return Math.min(0.9999, Math.ceil((t + 1e-6) * 10000) / 10000);
}

/**
 * Sources with fewer benign validation records than this are held to the flag rate together, not one by one: a
 * 0.5 % rate cannot be resolved in fewer than 200 records, so under the per-source rule each small source allowed
 * no flag at all and the threshold became the single highest score among a few thousand small-source records (one
 * look-alike moved it by 0.08 between two trainings).
 */
export const MIN_SOURCE_FOR_OWN_RATE = 200;

/** Groups benign scores for the threshold rule: large sources alone, all smaller ones pooled into one group. */
export function thresholdGroups(
  benignBySource: ReadonlyMap<string, number[]>,
  minRecords = MIN_SOURCE_FOR_OWN_RATE,
): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  const small: number[] = [];
  for (const [source, scores] of benignBySource) {
    if (scores.length >= minRecords) groups.set(source, scores);
    else small.push(...scores);
  }
  if (small.length > 0) groups.set('(sources under the minimum, pooled)', small);
  return groups;
}

export function sourceTable(
  records: readonly { source: string; label: 0 | 1 }[],
  probs: readonly number[],
  th: Thresholds,
): SourceRow[] {
  const rows = new Map<string, SourceRow>();
  records.forEach((r, i) => {
    const row = rows.get(r.source) ?? {
      source: r.source,
      n: 0,
      positives: 0,
      benign: 0,
      recall: 0,
      flagged: 0,
      blocked: 0,
    };
    row.n++;
    const p = probs[i]!;
    if (r.label === 1) {
      row.positives++;
      if (p >= th.approval) row.recall++;
    } else {
      row.benign++;
      if (p >= th.approval) row.flagged++;
      if (p >= th.block) row.blocked++;
    }
    rows.set(r.source, row);
  });
  return [...rows.values()].sort((x, y) => (x.source < y.source ? -1 : x.source > y.source ? 1 : 0));
}

export function formatTable(rows: readonly SourceRow[]): string {
  const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(2)} %`);
  const lines = [
    '| source | n | positives | recall | benign | flagged | blocked |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.source} | ${r.n} | ${r.positives} | ${pct(r.recall, r.positives)} | ${r.benign} | ${r.flagged} (${pct(r.flagged, r.benign)}) | ${r.blocked} (${pct(r.blocked, r.benign)}) |`,
    );
  }
  return lines.join('\n');
}

export function evaluate(
  model: ScorerModel,
  records: readonly TrainRecord[],
  segments: readonly string[][],
  targetFp: number,
  targetBlockFp: number,
) {
  const probs = segments.map((s) => recordProbability(model, s));
  const benign = new Map<string, number[]>();
  records.forEach((r, i) => {
    if (r.label === 0) {
      const list = benign.get(r.source) ?? [];
      list.push(probs[i]!);
      benign.set(r.source, list);
    }
  });
  const groups = thresholdGroups(benign);
  const approval = pickThreshold(groups, targetFp);
  const block = Math.max(approval, pickThreshold(groups, targetBlockFp));
  const thresholds = { approval, block };
  const table = sourceTable(records, probs, thresholds);
  const withPositives = table.filter((r) => r.positives > 0);
  const meanRecall =
    withPositives.length === 0
      ? 0
      : withPositives.reduce((s, r) => s + r.recall / r.positives, 0) / withPositives.length;
  return { probs, thresholds, table, meanRecall };
}
