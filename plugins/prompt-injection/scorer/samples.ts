// Training samples: group weights per (source, label), whole records and sampled windows, the best window of a long
// positive (multiple-instance learning) and the hard benign windows mined after each round.
import { type Prepared, prepare } from './features.ts';
import { type ScorerModel, scoreSegment } from './model.ts';
import { type Options, segmentsOf, type TrainRecord } from './train-options.ts';
import { forEachWindow, MAX_WINDOW, units } from './windows.ts';

export interface Sample {
  p: Prepared;
  a: number;
  b: number;
  y: number;
  w: number;
  cat: number;
  /** For a positive longer than one window: its record, so later rounds can swap in the window that scores. */
  record?: number;
}

export function groupWeights(records: readonly TrainRecord[], cap: number): Float64Array {
  const counts = new Map<string, number>();
  for (const r of records)
    counts.set(`${r.source}\u0000${r.label}`, (counts.get(`${r.source}\u0000${r.label}`) ?? 0) + 1);
  const w = new Float64Array(records.length);
  const classTotal = [0, 0];
  records.forEach((r, i) => {
    const n = counts.get(`${r.source}\u0000${r.label}`)!;
    const total = n <= cap ? n : Math.sqrt(n * cap);
    w[i] = total / n;
    classTotal[r.label]! += w[i]!;
  });
  // Both classes weigh the same in total; the mean record weight is 1.
  const target = records.length / 2;
  records.forEach((r, i) => {
    w[i] = (w[i]! * target) / Math.max(classTotal[r.label]!, 1e-9);
  });
  return w;
}

export function buildSamples(
  records: readonly TrainRecord[],
  weights: Float64Array,
  categories: Map<string, number>,
  o: Options,
  rng: () => number,
): Sample[] {
  const samples: Sample[] = [];
  records.forEach((r, i) => {
    const text = segmentsOf(r.text).join('\n').slice(0, o.maxChars);
    if (text.length === 0) return;
    const p = prepare(text);
    const cat = r.label === 1 && r.category ? (categories.get(r.category) ?? -1) : -1;
    if (r.label === 1) {
      samples.push({
        p,
        a: 0,
        b: text.length,
        y: 1,
        w: weights[i]!,
        cat,
        ...(text.length > MAX_WINDOW ? { record: i } : {}),
      });
      return;
    }
    const spans: [number, number][] = [];
    const us = units(text);
    forEachWindow(text, us, (x, y) => {
      const a = us[x]!.start;
      const b = us[y]!.end;
      if (a !== 0 || b !== text.length) spans.push([a, b]);
    });
    // A fixed number of windows per record, drawn with the seeded PRNG (partial Fisher–Yates).
    const k = Math.min(o.windowsPerBenign, spans.length);
    for (let j = 0; j < k; j++) {
      const pick = j + Math.floor(rng() * (spans.length - j));
      [spans[j], spans[pick]] = [spans[pick]!, spans[j]!];
    }
    const whole = text.length <= 1500;
    const parts = k + (whole ? 1 : 0);
    if (whole) samples.push({ p, a: 0, b: text.length, y: 0, w: weights[i]! / parts, cat: -1 });
    for (let j = 0; j < k; j++) {
      samples.push({ p, a: spans[j]![0], b: spans[j]![1], y: 0, w: weights[i]! / parts, cat: -1 });
    }
  });
  return samples;
}

/**
 * A long positive is mostly carrier text (a page, an email) around a short injection; trained on whole, the model
 * learns the carrier (its language, its topic) as the attack. From the second round on, such a record is
 * represented by its best-scoring window under the current weights instead (multiple-instance learning).
 */
export function minePositiveWindow(model: ScorerModel, record: TrainRecord, template: Sample): Sample {
  let best: { text: string; start: number; end: number; z: number } | undefined;
  for (const seg of segmentsOf(record.text)) {
    const r = scoreSegment(model, seg).best;
    if (r && (!best || r.z > best.z)) best = { text: seg, start: r.start, end: r.end, z: r.z };
  }
  if (!best) return template;
  const text = best.text.slice(best.start, best.end);
  return { ...template, p: prepare(text), a: 0, b: text.length };
}

/** The best-scoring windows of every benign record under the current weights, as new benign samples. */
export function mineHardNegatives(
  model: ScorerModel,
  records: readonly TrainRecord[],
  weights: Float64Array,
  o: Options,
): Sample[] {
  const out: Sample[] = [];
  const minZ = Math.log(o.hardMinP / (1 - o.hardMinP));
  records.forEach((r, i) => {
    if (r.label !== 0) return;
    const found: { text: string; start: number; end: number; z: number }[] = [];
    for (const seg of segmentsOf(r.text)) {
      scoreSegment(model, seg, undefined, (w) => {
        if (w.z >= minZ) found.push({ text: seg, start: w.start, end: w.end, z: w.z });
      });
    }
    found.sort((x, y) => y.z - x.z || x.start - y.start);
    for (const f of found.slice(0, o.hardPerBenign)) {
      const text = f.text.slice(f.start, f.end);
      out.push({ p: prepare(text), a: 0, b: text.length, y: 0, w: weights[i]! * 0.5, cat: -1 });
    }
  });
  return out;
}
