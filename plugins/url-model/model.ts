// The trained weights (model.json, written by scripts/train-url.ts) and inference: a sum of hashed feature
// weights through a sigmoid. Linear in the URL's length, no I/O after the first load.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Target } from '../../core/plugin-api.ts';
import { ROOT_DIR } from '../../core/plugin-api.ts';
import { hashFeatures, type UrlFeatureContext, urlFeatures } from './features.ts';

export interface UrlModel {
  bits: number;
  weights: Float64Array;
}

interface ModelFile {
  bits: number;
  scale: number;
  /** Little-endian int16 per bucket; weight = value × scale. */
  weights_int16_base64: string;
}

export function modelFrom(file: ModelFile): UrlModel {
  const bytes = Buffer.from(file.weights_int16_base64, 'base64');
  if (bytes.length !== 2 << file.bits) throw new Error(`url model: expected ${2 << file.bits} weight bytes`);
  const weights = new Float64Array(1 << file.bits);
  for (let i = 0; i < weights.length; i++) weights[i] = bytes.readInt16LE(2 * i) * file.scale;
  return { bits: file.bits, weights };
}

/** A model from plain weights (tests train tiny ones inline). */
export function modelOfWeights(bits: number, weights: Float64Array): UrlModel {
  return { bits, weights };
}

let shipped: UrlModel | undefined;

/** The shipped model (plugins/url-model/model.json), read once per process. */
export function shippedModel(): UrlModel {
  shipped ??= modelFrom(
    JSON.parse(readFileSync(path.join(ROOT_DIR, 'plugins', 'url-model', 'model.json'), 'utf8')) as ModelFile,
  );
  return shipped;
}

export interface UrlScore {
  /** Phishing likelihood in [0, 1]. */
  score: number;
  /** The features that pushed the score up most, for the evidence line. */
  top_features: string[];
}

export function scoreUrl(target: Target, ctx: UrlFeatureContext, model: UrlModel): UrlScore {
  const names = urlFeatures(target, ctx);
  const mask = (1 << model.bits) - 1;
  let z = 0;
  for (const i of hashFeatures(names, model.bits)) z += model.weights[i]!;
  const contributions = [...new Set(names)]
    .map((n) => ({ n, w: model.weights[hashFeatures([n], model.bits)[0]! & mask]! }))
    .filter((c) => c.w > 0 && c.n !== 'bias')
    .sort((a, b) => b.w - a.w)
    .slice(0, 5)
    .map((c) => c.n);
  return { score: 1 / (1 + Math.exp(-z)), top_features: contributions };
}
