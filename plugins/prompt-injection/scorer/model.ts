/**
 * The learned injection scorer: a logistic regression over hashed character and word n-grams (features.ts), with a
 * softmax category head, read from a small weights file. Scoring a segment's windows is in score-segment.ts.
 */
import { FEATURE_VERSION, forEachFeature, type Prepared, prepare } from './features.ts';
import type { Span } from './windows.ts';

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

export { scoreSegment } from './score-segment.ts';

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
