/**
 * The learned injection scorer: a logistic regression over hashed character and word n-grams (features.ts), with a
 * softmax category head, read from a small weights file. Scoring a segment is one pass over its characters that
 * writes prefix sums of the n-gram weights, after which every window (windows.ts) costs O(1): its sum is a
 * difference of prefix sums plus the few n-grams that cross its right edge.
 */
import type { Meter } from '../matcher.ts';
import {
  bigramBucket,
  CHAR_SEED,
  CJK_CLASS,
  CLASS,
  charBucket,
  charGramCount,
  FEATURE_VERSION,
  FNV_OFFSET,
  FNV_PRIME,
  FOLD,
  forEachFeature,
  GOLDEN,
  MAX_CHAR_GRAM,
  MIN_CHAR_GRAM,
  type Prepared,
  prepare,
  unigramBucket,
  WORD_CLASS,
} from './features.ts';
import { MAX_WINDOW, MIN_UNIT, type Span, separatorAt, UnitCollector, type UnitSpans } from './windows.ts';

export interface ModelHeader {
  format: 'preflight-injection-model';
  featureVersion: number;
  /** log2 of the number of buckets of the injection head. */
  bits: number;
  /** log2 of the number of buckets of each category's weights (the low bits of the same bucket index). */
  catBits: number;
  categories: string[];
  bias: number;
  catBias: number[];
  /** How the weights were made: data digest, hyper-parameters, epochs (no timestamps, so files are reproducible). */
  training: Record<string, unknown>;
}

export interface ScorerModel {
  header: ModelHeader;
  bits: number;
  /** 32 − bits: a bucket is the top `bits` bits of a 32-bit hash. */
  shift: number;
  catMask: number;
  bias: number;
  weights: Float32Array;
  /** Category weights, bucket-major: `catWeights[bucket * C + c]`. */
  catWeights: Float32Array;
  catBias: Float32Array;
}

const MAGIC = 'PFIM';

// ---- float16 (IEEE 754 half precision) -------------------------------------------------------------------------

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function toHalf(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  e = half >>> 10;
  return sign | half;
}

export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

// ---- file format: "PFIM", uint32 header length, header JSON, padding to 4, float16 weights -------------------

export function encodeModel(header: ModelHeader, weights: ArrayLike<number>, catWeights: ArrayLike<number>): Buffer {
  if (weights.length !== 2 ** header.bits) throw new Error('weights length does not match bits');
  if (catWeights.length !== 2 ** header.catBits * header.categories.length)
    throw new Error('category weights length does not match catBits × categories');
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headLen = 8 + json.length;
  const pad = (4 - (headLen % 4)) % 4;
  const out = Buffer.alloc(headLen + pad + 2 * (weights.length + catWeights.length));
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  let o = headLen + pad;
  for (let i = 0; i < weights.length; i++, o += 2) out.writeUInt16LE(toHalf(weights[i]!), o);
  for (let i = 0; i < catWeights.length; i++, o += 2) out.writeUInt16LE(toHalf(catWeights[i]!), o);
  return out;
}

export function decodeModel(buf: Buffer): ScorerModel {
  if (buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a preflight injection model file');
  const len = buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, 8 + len)) as ModelHeader;
  if (header.format !== 'preflight-injection-model') throw new Error('model file: unknown format');
  if (header.featureVersion !== FEATURE_VERSION) {
    throw new Error(`model file: features v${header.featureVersion}, code v${FEATURE_VERSION}; retrain`);
  }
  const headLen = 8 + len;
  const o = headLen + ((4 - (headLen % 4)) % 4);
  const size = 2 ** header.bits;
  const catSize = 2 ** header.catBits * header.categories.length;
  if (buf.length !== o + 2 * (size + catSize)) throw new Error('model file: truncated or padded');
  // One table of float16 → float32 for all 65536 codes makes decoding a lookup per weight; the halves are read
  // through an aligned copy (a Buffer may sit at any offset of a shared pool).
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) table[h] = fromHalf(h);
  const halves = new Uint16Array(buf.buffer.slice(buf.byteOffset + o, buf.byteOffset + o + 2 * (size + catSize)));
  const weights = new Float32Array(size);
  for (let i = 0; i < size; i++) weights[i] = table[halves[i]!]!;
  const catWeights = new Float32Array(catSize);
  for (let i = 0; i < catSize; i++) catWeights[i] = table[halves[size + i]!]!;
  return {
    header,
    bits: header.bits,
    shift: 32 - header.bits,
    catMask: 2 ** header.catBits - 1,
    bias: header.bias,
    weights,
    catWeights,
    catBias: Float32Array.from(header.catBias),
  };
}

// ---- scoring ---------------------------------------------------------------------------------------------------

export interface WindowScore extends Span {
  /** Logit of the injection head. */
  z: number;
}

export interface SegmentScore {
  /** The best window, or undefined for an empty segment. */
  best?: WindowScore;
  windows: number;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Reference score of the span [a, b): the features enumerated one by one (slow; for training and tests). */
export function referenceLogit(model: ScorerModel, p: Prepared, a: number, b: number): number {
  let sum = 0;
  const count = forEachFeature(p, a, b, model.bits, (k) => {
    sum += model.weights[k]!;
  });
  return count === 0 ? model.bias : model.bias + sum / Math.sqrt(count);
}

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

// Scratch arrays of the scorer, kept between calls while they stay small (SCRATCH_CHARS characters of segment): the
// arrays cost more to allocate than a short segment costs to score. A longer segment scores in arrays of its own.
const SCRATCH_CHARS = 1 << 16;
let scratchCodes = new Uint16Array(0);
let scratchPrefix = new Float64Array(0);
let scratchWords = { start: new Int32Array(0), end: new Int32Array(0), hash: new Int32Array(0) };
let scratchUnits: UnitSpans | undefined;
/** Set while a call uses the scratch arrays: an `onWindow` callback that scores again gets arrays of its own. */
let scratchBusy = false;

/**
 * Scores every window of a segment in time linear in its length and returns the best. `meter` counts elementary
 * steps (characters hashed, words, windows) for the linearity test.
 *
 * One pass over the text folds the characters (as prepare() does), finds the words with their hashes, and writes
 * prefix sums of the character n-gram weights (each n-gram is added when its last character has been folded, in the
 * order prepare() + the n-gram loop of the reference used, so every sum is bit for bit the same).
 */
export function scoreSegment(
  model: ScorerModel,
  text: string,
  meter?: Meter,
  onWindow?: (w: WindowScore) => void,
): SegmentScore {
  const n = text.length;
  if (n === 0) return { windows: 0 };
  const small = n <= SCRATCH_CHARS && !scratchBusy;
  if (small && scratchCodes.length < n) {
    const size = Math.min(SCRATCH_CHARS, Math.max(2 * scratchCodes.length, n, 1024));
    scratchCodes = new Uint16Array(size);
    scratchPrefix = new Float64Array(size + 1);
  }
  const codes = small ? scratchCodes : new Uint16Array(n);
  // prefix[s] = sum of the weights of every character n-gram (2–5) starting before s.
  const prefix = small ? scratchPrefix : new Float64Array(n + 1);
  let wordStart = small ? scratchWords.start : new Int32Array(0);
  let wordEnd = small ? scratchWords.end : new Int32Array(0);
  let wordHash = small ? scratchWords.hash : new Int32Array(0);
  if (wordStart.length < 64) {
    wordStart = new Int32Array(Math.max(64, n >>> 3));
    wordEnd = new Int32Array(wordStart.length);
    wordHash = new Int32Array(wordStart.length);
  }
  const w = model.weights;
  const shift = model.shift;
  const s2 = CHAR_SEED[2]!;
  const s3 = CHAR_SEED[3]!;
  const s4 = CHAR_SEED[4]!;
  const s5 = CHAR_SEED[5]!;
  let acc = 0;
  let words = 0;
  let h = FNV_OFFSET;
  // Quote markers at the start of a line fold to spaces (see prepare()).
  let lineStart = true;
  // The last five folded characters, c4 the newest.
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let c4 = 0;
  prefix[0] = 0;
  // A word's end and hash are written when it ends (wordOpen: a WORD run is in progress), not at every character.
  let wordOpen = false;
  // Lines and sentences (windows.ts), found in the same pass.
  const units = new UnitCollector(text, small ? scratchUnits : undefined);
  for (let i = 0; i < n; i++) {
    const raw = text.charCodeAt(i);
    let code: number;
    if (raw > 0x3e) {
      // Letters and most punctuation: not a line break, not a quote marker, not white space.
      lineStart = false;
      code = FOLD[raw]!;
      if (raw === 0x3f || raw >= 0x3002) {
        const kind = separatorAt(text, i, raw);
        if (kind !== 0) units.separator(i, kind);
      }
    } else if (raw === 0x0a) {
      lineStart = true;
      code = FOLD[raw]!;
      units.separator(i, 1);
    } else if (raw === 0x3e && lineStart) code = 0x20;
    else {
      if (raw !== 0x20 && raw !== 0x09 && raw !== 0x0d) lineStart = false;
      code = FOLD[raw]!;
      if (raw === 0x2e || raw === 0x21 || raw === 0x3b) {
        const kind = separatorAt(text, i, raw);
        if (kind !== 0) units.separator(i, kind);
      }
    }
    codes[i] = code;
    const k = CLASS[raw]!;
    if (k === WORD_CLASS) {
      if (!wordOpen) {
        if (words === wordStart.length) {
          wordStart = grown(wordStart);
          wordEnd = grown(wordEnd);
          wordHash = grown(wordHash);
        }
        wordStart[words] = i;
        h = FNV_OFFSET;
        wordOpen = true;
      }
      h = Math.imul(h ^ code, FNV_PRIME);
    } else {
      if (wordOpen) {
        wordEnd[words] = i;
        wordHash[words] = h;
        words++;
        wordOpen = false;
      }
      if (k === CJK_CLASS) {
        if (words === wordStart.length) {
          wordStart = grown(wordStart);
          wordEnd = grown(wordEnd);
          wordHash = grown(wordHash);
        }
        wordStart[words] = i;
        wordEnd[words] = i + 1;
        wordHash[words] = Math.imul(FNV_OFFSET ^ code, FNV_PRIME);
        words++;
      }
    }
    c0 = c1;
    c1 = c2;
    c2 = c3;
    c3 = c4;
    c4 = code;
    if (i >= MAX_CHAR_GRAM - 1) {
      // The n-grams starting at s = i − 4, all five lengths inside the text: four FNV steps, four table reads.
      const h1 = Math.imul(FNV_OFFSET ^ c0, FNV_PRIME);
      const h2 = Math.imul(h1 ^ c1, FNV_PRIME);
      const h3 = Math.imul(h2 ^ c2, FNV_PRIME);
      const h4 = Math.imul(h3 ^ c3, FNV_PRIME);
      const h5 = Math.imul(h4 ^ c4, FNV_PRIME);
      acc +=
        w[Math.imul(h2 ^ s2, GOLDEN) >>> shift]! +
        w[Math.imul(h3 ^ s3, GOLDEN) >>> shift]! +
        w[Math.imul(h4 ^ s4, GOLDEN) >>> shift]! +
        w[Math.imul(h5 ^ s5, GOLDEN) >>> shift]!;
      prefix[i - 3] = acc;
    }
  }
  if (wordOpen) {
    wordEnd[words] = n;
    wordHash[words] = h;
    words++;
  }
  // The last four starts: only the n-grams that fit.
  for (let s = Math.max(0, n - (MAX_CHAR_GRAM - 1)); s < n; s++) {
    let hs = Math.imul(FNV_OFFSET ^ codes[s]!, FNV_PRIME);
    for (let len = MIN_CHAR_GRAM; s + len <= n; len++) {
      hs = Math.imul(hs ^ codes[s + len - 1]!, FNV_PRIME);
      acc += w[charBucket(hs, len, shift)]!;
    }
    prefix[s + 1] = acc;
  }
  if (small) scratchWords = { start: wordStart, end: wordEnd, hash: wordHash };
  // wordPrefix[k] = sum of unigram weights of words before k and of bigram weights ending before k.
  const wordPrefix = new Float64Array(words + 1);
  const bigram = new Float64Array(words);
  acc = 0;
  for (let k = 0; k < words; k++) {
    const hk = wordHash[k]!;
    acc += w[unigramBucket(hk, shift)]!;
    if (k > 0) {
      const bg = w[bigramBucket(wordHash[k - 1]!, hk, shift)]!;
      bigram[k] = bg;
      acc += bg;
    }
    wordPrefix[k + 1] = acc;
  }
  if (meter) meter.steps += n + words;

  const us = units.finish();
  if (small) scratchUnits = us;
  const unitCount = us.count;
  const uStart = us.start;
  const uEnd = us.end;
  // Word ranges of each unit, found with two moving pointers (units and words are both in text order).
  const firstWord = new Int32Array(unitCount);
  const endWord = new Int32Array(unitCount);
  let kStart = 0;
  let kEnd = 0;
  for (let i = 0; i < unitCount; i++) {
    while (kStart < words && wordStart[kStart]! < uStart[i]!) kStart++;
    while (kEnd < words && wordEnd[kEnd]! <= uEnd[i]!) kEnd++;
    firstWord[i] = kStart;
    endWord[i] = kEnd;
    if (meter) meter.steps++;
  }
  const ctx: LogitContext = { model, codes, prefix, wordPrefix, bigram };
  let best: WindowScore | undefined;
  let windows = 0;
  if (small) scratchBusy = true;
  try {
    // The windows of forEachWindow(), in its order: each unit of at least MIN_UNIT characters, and from each unit the
    // longest run of units that fits in MAX_WINDOW characters.
    let j = 0;
    for (let i = 0; i < unitCount; i++) {
      if (j < i) j = i;
      while (j + 1 < unitCount && uEnd[j + 1]! - uStart[i]! <= MAX_WINDOW) j++;
      for (let pass = 0; pass < 2; pass++) {
        const last = pass === 0 ? i : j;
        if (pass === 0 ? !(uEnd[i]! - uStart[i]! >= MIN_UNIT || j === i) : !(j > i)) continue;
        const a = uStart[i]!;
        const b = uEnd[last]!;
        const k0 = firstWord[i]!;
        const k1 = Math.max(k0, endWord[last]!);
        const z = windowLogit(ctx, a, b, k0, k1);
        windows++;
        if (onWindow) onWindow({ start: a, end: b, z });
        if (!best || z > best.z) best = { start: a, end: b, z };
      }
    }
  } finally {
    if (small) scratchBusy = false;
  }
  if (meter) meter.steps += windows;
  return { best, windows };
}

interface LogitContext {
  model: ScorerModel;
  codes: Uint16Array;
  prefix: Float64Array;
  wordPrefix: Float64Array;
  bigram: Float64Array;
}

/** Logit of the window [a, b) holding words k0 … k1 − 1, from the prefix sums. */
function windowLogit(ctx: LogitContext, a: number, b: number, k0: number, k1: number): number {
  const { model, codes, prefix } = ctx;
  const w = model.weights;
  const shift = model.shift;
  // Character n-grams starting before b − 4 fit whatever their length; nearer the edge only the shorter ones.
  const full = b - (MAX_CHAR_GRAM - 1);
  let sum = full > a ? prefix[full]! - prefix[a]! : 0;
  for (let t = full > a ? full : a; t < b; t++) {
    let h = Math.imul(FNV_OFFSET ^ codes[t]!, FNV_PRIME);
    for (let len = MIN_CHAR_GRAM; t + len <= b; len++) {
      h = Math.imul(h ^ codes[t + len - 1]!, FNV_PRIME);
      sum += w[charBucket(h, len, shift)]!;
    }
  }
  let count = charGramCount(b - a);
  if (k1 > k0) {
    sum += ctx.wordPrefix[k1]! - ctx.wordPrefix[k0]! - (k0 > 0 ? ctx.bigram[k0]! : 0);
    count += 2 * (k1 - k0) - 1;
  }
  return count === 0 ? model.bias : model.bias + sum / Math.sqrt(count);
}

/** Category probabilities of one span (the window that scored), from the softmax head. */
export function categoryOf(model: ScorerModel, text: string, span: Span): { category: string; p: number } | undefined {
  const C = model.header.categories.length;
  if (C === 0) return undefined;
  const p = prepare(text.slice(span.start, span.end));
  const logits = new Float64Array(C);
  const cw = model.catWeights;
  const catMask = model.catMask;
  const count = forEachFeature(p, 0, p.codes.length, model.bits, (k) => {
    const base = (k & catMask) * C;
    for (let c = 0; c < C; c++) logits[c]! += cw[base + c]!;
  });
  const scale = count > 0 ? 1 / Math.sqrt(count) : 0;
  let bestC = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < C; c++) {
    logits[c] = model.catBias[c]! + logits[c]! * scale;
    if (logits[c]! > max) {
      max = logits[c]!;
      bestC = c;
    }
  }
  let z = 0;
  for (let c = 0; c < C; c++) z += Math.exp(logits[c]! - max);
  return { category: model.header.categories[bestC]!, p: 1 / z };
}
