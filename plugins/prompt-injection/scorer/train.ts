/**
 * Trainer of the injection scorer: logistic regression (and a softmax category head) over the hashed features of
 * features.ts, by AdaGrad (per-bucket step sizes; a step costs only the sample's features), with early stopping. Reproducible by construction: a seeded PRNG orders the samples, every loop runs in a fixed
 * order, arithmetic is float64, and the weights file holds no timestamp, so the same records give the same bytes.
 *
 * Samples: a positive record is its whole normalised text. A benign record is its whole text (when short) and a few
 * of the windows the screen will score (windows.ts), so the model learns that a single benign sentence or chunk is
 * benign too: the screen takes the maximum over windows, and that is where false positives come from.
 *
 * Weights: every (source, label) group weighs its record count up to CAP and only √(n·CAP) beyond, so one big source
 * cannot dominate; the two classes then weigh the same in total.
 *
 * Long positives (an injection inside a page or an email) are represented by their best window from the second
 * round on (multiple-instance learning), so the carrier text is not learned as the attack.
 *
 * Hard negatives: the screen takes the best of hundreds of windows of a long page, so a few random windows per
 * benign record are not enough. After each round of epochs, every window of every benign training record is scored
 * with the current weights and the few that score highest join the benign samples (hard-negative mining); the next
 * round trains on them too.
 *
 * Model selection: for each L2 strength, every epoch is evaluated on the validation records with the screen's own
 * scoring (best window per segment); the kept model maximises the mean per-source recall at the threshold that
 * holds every benign source at ≤ `targetFp` flagged.
 */
import { normalize } from '../normalize.ts';
import { FEATURE_VERSION, forEachFeature, type Prepared, prepare } from './features.ts';
import { decodeModel, encodeModel, type ModelHeader, type ScorerModel, scoreSegment } from './model.ts';
import { forEachWindow, MAX_WINDOW, units } from './windows.ts';

export interface TrainRecord {
  text: string;
  label: 0 | 1;
  source: string;
  category?: string;
  lang?: string;
  kind?: string;
}

export interface TrainOptions {
  bits?: number;
  catBits?: number;
  seed?: number;
  epochs?: number;
  /** L2 strengths to try; the best on validation is kept. */
  lambdas?: number[];
  eta0?: number;
  /** Windows sampled per benign record. */
  windowsPerBenign?: number;
  /** Rounds of hard-negative mining (after each round's epochs, the best-scoring windows of benign records join). */
  rounds?: number;
  /** Highest-scoring windows kept per benign record and mining round, if above `hardMinP`. */
  hardPerBenign?: number;
  hardMinP?: number;
  /** Records per (source, label) group counted in full. */
  cap?: number;
  /** Largest share of benign records of any one source the approval threshold may flag. */
  targetFp?: number;
  /** Same for the block threshold. */
  targetBlockFp?: number;
  /** Training text cut (characters of normalised text). */
  maxChars?: number;
  /** Extra header fields (e.g. a digest of the data) recorded in the file. */
  provenance?: Record<string, unknown>;
  log?: (line: string) => void;
}

const DEFAULTS = {
  bits: 20,
  catBits: 16,
  seed: 1,
  epochs: 2,
  rounds: 6,
  hardPerBenign: 8,
  hardMinP: 0.05,
  lambdas: [0],
  eta0: 0.1,
  windowsPerBenign: 4,
  cap: 2000,
  targetFp: 0.005,
  targetBlockFp: 0.001,
  maxChars: 4000,
};

export interface Thresholds {
  /** Probability at or above which the screen asks for approval. */
  approval: number;
  /** Probability at or above which the screen blocks. */
  block: number;
}

export interface SourceRow {
  source: string;
  n: number;
  positives: number;
  benign: number;
  /** Positives at or above the approval threshold. */
  recall: number;
  /** Benign records at or above the approval / block threshold. */
  flagged: number;
  blocked: number;
}

export interface TrainResult {
  model: Buffer;
  thresholds: Thresholds;
  validation: SourceRow[];
  /** Probability of each validation record under the kept model (best window over its segments). */
  validationProbs: number[];
  chosen: { lambda: number; epoch: number; meanRecall: number };
}

/** mulberry32: a small seeded PRNG, enough for shuffling. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The text the scorer sees for a record: its normalised segments (visible, hidden, decoded), one per line. */
export function segmentsOf(text: string): string[] {
  return normalize(text).segments.map((s) => s.text);
}

interface Sample {
  p: Prepared;
  a: number;
  b: number;
  y: number;
  w: number;
  cat: number;
  /** For a positive longer than one window: its record, so later rounds can swap in the window that scores. */
  record?: number;
}

/** Probability of the best window over all segments: what the screen computes. */
export function recordProbability(model: ScorerModel, segments: string[]): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const s of segments) {
    const r = scoreSegment(model, s);
    if (r.best && r.best.z > best) best = r.best.z;
  }
  return best === Number.NEGATIVE_INFINITY ? 0 : 1 / (1 + Math.exp(-best));
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

function groupWeights(records: readonly TrainRecord[], cap: number): Float64Array {
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

function buildSamples(
  records: readonly TrainRecord[],
  weights: Float64Array,
  categories: Map<string, number>,
  o: typeof DEFAULTS,
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
function minePositiveWindow(model: ScorerModel, record: TrainRecord, template: Sample): Sample {
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
function mineHardNegatives(
  model: ScorerModel,
  records: readonly TrainRecord[],
  weights: Float64Array,
  o: typeof DEFAULTS,
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

interface State {
  w: Float64Array;
  /** AdaGrad: sum of squared gradients per bucket (and for the bias). */
  g2: Float64Array;
  bias: number;
  bias2: number;
  cw: Float64Array;
  cg2: Float64Array;
  cbias: Float64Array;
  cbias2: Float64Array;
}

function freshState(o: typeof DEFAULTS, C: number): State {
  return {
    w: new Float64Array(2 ** o.bits),
    g2: new Float64Array(2 ** o.bits),
    bias: 0,
    bias2: 0,
    cw: new Float64Array(2 ** o.catBits * C),
    cg2: new Float64Array(2 ** o.catBits * C),
    cbias: new Float64Array(C),
    cbias2: new Float64Array(C),
  };
}

const EPS = 1e-8;

/**
 * One pass of AdaGrad over the samples in `order`: each bucket's step shrinks with the gradient it has seen, so rare
 * n-grams (a typo, a language with few samples) still learn while common ones settle. L2 (`lambda`) acts on the
 * buckets a sample touches.
 */
function epoch(state: State, samples: Sample[], order: Int32Array, o: typeof DEFAULTS, lambda: number, C: number) {
  const catMask = 2 ** o.catBits - 1;
  let buf = new Int32Array(4096);
  let count = 0;
  const push = (k: number) => {
    if (count === buf.length) {
      const next = new Int32Array(buf.length * 2);
      next.set(buf);
      buf = next;
    }
    buf[count++] = k;
  };
  const logits = new Float64Array(C);
  const eta = o.eta0;
  for (let oi = 0; oi < order.length; oi++) {
    const s = samples[order[oi]!]!;
    count = 0;
    forEachFeature(s.p, s.a, s.b, o.bits, push);
    if (count === 0) continue;
    const v = 1 / Math.sqrt(count);
    let dot = 0;
    for (let j = 0; j < count; j++) dot += state.w[buf[j]!]!;
    const z = state.bias + dot * v;
    const g = (1 / (1 + Math.exp(-z)) - s.y) * s.w;
    for (let j = 0; j < count; j++) {
      const k = buf[j]!;
      const gk = g * v + lambda * state.w[k]!;
      state.g2[k]! += gk * gk;
      state.w[k]! -= (eta * gk) / Math.sqrt(state.g2[k]! + EPS);
    }
    state.bias2 += g * g;
    state.bias -= (eta * g) / Math.sqrt(state.bias2 + EPS);
    if (s.cat >= 0 && C > 1) {
      // Softmax head on positives with a named category.
      let max = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < C; c++) logits[c] = 0;
      for (let j = 0; j < count; j++) {
        const base = (buf[j]! & catMask) * C;
        for (let c = 0; c < C; c++) logits[c]! += state.cw[base + c]!;
      }
      for (let c = 0; c < C; c++) {
        logits[c] = state.cbias[c]! + logits[c]! * v;
        if (logits[c]! > max) max = logits[c]!;
      }
      let zsum = 0;
      for (let c = 0; c < C; c++) {
        logits[c] = Math.exp(logits[c]! - max);
        zsum += logits[c]!;
      }
      for (let c = 0; c < C; c++) {
        const gc = (logits[c]! / zsum - (c === s.cat ? 1 : 0)) * s.w;
        for (let j = 0; j < count; j++) {
          const k = (buf[j]! & catMask) * C + c;
          const gk = gc * v + lambda * state.cw[k]!;
          state.cg2[k]! += gk * gk;
          state.cw[k]! -= (eta * gk) / Math.sqrt(state.cg2[k]! + EPS);
        }
        state.cbias2[c]! += gc * gc;
        state.cbias[c]! -= (eta * gc) / Math.sqrt(state.cbias2[c]! + EPS);
      }
    }
  }
}

function snapshot(state: State, o: typeof DEFAULTS, categories: string[], training: Record<string, unknown>): Buffer {
  const header: ModelHeader = {
    format: 'preflight-injection-model',
    featureVersion: FEATURE_VERSION,
    bits: o.bits,
    catBits: o.catBits,
    categories,
    bias: state.bias,
    catBias: [...state.cbias],
    training,
  };
  return encodeModel(header, state.w, state.cw);
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
  const approval = pickThreshold(benign, targetFp);
  const block = Math.max(approval, pickThreshold(benign, targetBlockFp));
  const thresholds = { approval, block };
  const table = sourceTable(records, probs, thresholds);
  const withPositives = table.filter((r) => r.positives > 0);
  const meanRecall =
    withPositives.length === 0
      ? 0
      : withPositives.reduce((s, r) => s + r.recall / r.positives, 0) / withPositives.length;
  return { probs, thresholds, table, meanRecall };
}

export function train(
  trainRecords: readonly TrainRecord[],
  validationRecords: readonly TrainRecord[],
  options: TrainOptions = {},
): TrainResult {
  const o = { ...DEFAULTS, ...options } as typeof DEFAULTS & TrainOptions;
  const log = options.log ?? (() => {});
  const categoryNames = [
    ...new Set(trainRecords.filter((r) => r.label === 1 && r.category).map((r) => r.category!)),
  ].sort();
  const categories = new Map(categoryNames.map((c, i) => [c, i]));
  const C = categoryNames.length;
  const weights = groupWeights(trainRecords, o.cap);
  const samples = buildSamples(trainRecords, weights, categories, o, prng(o.seed));
  log(`samples: ${samples.length} from ${trainRecords.length} records; categories: ${categoryNames.join(', ')}`);
  const valSegments = validationRecords.map((r) => segmentsOf(r.text));

  let best:
    | { buf: Buffer; lambda: number; epoch: number; meanRecall: number; eval: ReturnType<typeof evaluate> }
    | undefined;
  for (const lambda of o.lambdas) {
    const state = freshState(o, C);
    const rng = prng(o.seed + 1);
    const pool = [...samples];
    let e = 0;
    for (let round = 1; round <= o.rounds; round++) {
      if (round > 1) {
        const current = decodeModel(snapshot(state, o, categoryNames, {}));
        let swapped = 0;
        for (let k = 0; k < pool.length; k++) {
          const sample = pool[k]!;
          if (sample.record === undefined) continue;
          pool[k] = minePositiveWindow(current, trainRecords[sample.record]!, sample);
          swapped++;
        }
        const hard = mineHardNegatives(current, trainRecords, weights, o);
        for (const h of hard) pool.push(h);
        log(
          `round ${round}: ${swapped} long positives now their best window; ${hard.length} hard benign windows mined`,
        );
      }
      const order = new Int32Array(pool.length);
      for (let k = 0; k < o.epochs; k++) {
        e++;
        for (let i = 0; i < order.length; i++) order[i] = i;
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(rng() * (i + 1));
          const x = order[i]!;
          order[i] = order[j]!;
          order[j] = x;
        }
        epoch(state, pool, order, o, lambda, C);
        const training = {
          ...o.provenance,
          lambda,
          epoch: e,
          round,
          seed: o.seed,
          eta0: o.eta0,
          samples: pool.length,
        };
        const buf = snapshot(state, o, categoryNames, training);
        const model = decodeModel(buf);
        const ev = evaluate(model, validationRecords, valSegments, o.targetFp, o.targetBlockFp);
        log(
          `lambda ${lambda} round ${round} epoch ${e}: approval ${ev.thresholds.approval} block ${ev.thresholds.block} mean recall ${(100 * ev.meanRecall).toFixed(2)} %`,
        );
        if (!best || ev.meanRecall > best.meanRecall)
          best = { buf, lambda, epoch: e, meanRecall: ev.meanRecall, eval: ev };
      }
    }
  }
  if (!best) throw new Error('no training ran');
  return {
    model: best.buf,
    thresholds: best.eval.thresholds,
    validation: best.eval.table,
    validationProbs: best.eval.probs,
    chosen: { lambda: best.lambda, epoch: best.epoch, meanRecall: best.meanRecall },
  };
}
