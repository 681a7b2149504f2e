import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeModel, type ScorerModel } from './model.ts';

/** The weights file shipped with the plugin, written by `npm run train:injection`. */
export const MODEL_FILE = new URL('../model.bin', import.meta.url);

let shipped: { model: ScorerModel; sha256: string } | undefined;

/** The shipped model and the sha256 of its file (rules/injection.json names the model its thresholds belong to). */
export function shippedModel(): { model: ScorerModel; sha256: string } {
  if (!shipped) {
    const buf = readFileSync(MODEL_FILE);
    shipped = { model: decodeModel(buf), sha256: createHash('sha256').update(buf).digest('hex') };
  }
  return shipped;
}
