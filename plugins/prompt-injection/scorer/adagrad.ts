// The optimiser: logistic regression and the softmax category head, one AdaGrad epoch at a time, and the snapshot of
// its state as a weights file.
import { FEATURE_VERSION, forEachFeature } from './features.ts';
import { encodeModel, type ModelHeader, sigmoid } from './model.ts';
import type { Sample } from './samples.ts';
import type { Options } from './train-options.ts';

export interface State {
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

export function freshState(o: Options, C: number): State {
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
export function epoch(state: State, samples: Sample[], order: Int32Array, o: Options, lambda: number, C: number) {
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
    const g = (sigmoid(z) - s.y) * s.w;
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

export function snapshot(state: State, o: Options, categories: string[], training: Record<string, unknown>): Buffer {
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
