// Choosing the corroboration pair of rules/injection.json on the validation split: below the approval threshold, a
// model window from `model_p` up, together with pattern evidence of at least `pattern_score` in the same segment,
// asks for approval. The trainer screens every validation record once and hands the result here.
import { corroborates } from '../screen/learned-layer.ts';

/** One validation record as the screen saw it without corroboration. */
export interface CorroborationRecord {
  label: 0 | 1;
  /** The screen already has a finding (pattern or model): corroboration cannot change its verdict. */
  flagged: boolean;
  /** Per segment: the model's best-window probability and the strongest corroborating pattern score. */
  windows: readonly { p: number; score: number }[];
}

export interface CorroborationPick {
  model_p: number;
  pattern_score: number;
  /** Validation records the pair adds, by label. */
  attacks: number;
  benign: number;
}

/** The recall the issue asks for; with the benign flag target it sets what one false flag costs (below). */
export const RECALL_TARGET = 0.95;

/**
 * Pattern scores tried. At least half of a firing score: the pattern file's weak cues (weights around 0.25–0.34)
 * are by its own design never evidence alone, so the pair never rests on one of them.
 */
export const PATTERN_SCORES = [0.5, 0.75] as const;

/** Model probabilities tried: from 0.3 in steps of 0.05 to just under the approval threshold. */
export function modelSteps(approval: number): number[] {
  const steps: number[] = [];
  for (let k = 30; k / 100 < approval; k += 5) steps.push(k / 100);
  return steps;
}

/**
 * The pair that gains most on validation, where gain = added recall − cost × added benign flag rate and
 * cost = (1 − RECALL_TARGET) / targetFp: a point of benign flag rate weighs as much as the same share of the two
 * budgets (with 95 % and 0.5 %, ten points of recall). Undefined when no pair gains. An equal gain goes to the higher
 * pattern score, then the higher model probability: the pair that leans least on weak evidence.
 */
export function pickCorroboration(
  records: readonly CorroborationRecord[],
  approval: number,
  targetFp: number,
): CorroborationPick | undefined {
  const positives = records.filter((r) => r.label === 1).length;
  const benign = records.length - positives;
  if (positives === 0 || benign === 0) return undefined;
  const cost = (1 - RECALL_TARGET) / targetFp;
  const open = records.filter((r) => !r.flagged);
  let best: (CorroborationPick & { gain: number }) | undefined;
  for (const pattern_score of PATTERN_SCORES) {
    for (const model_p of modelSteps(approval)) {
      let attacks = 0;
      let flaggedBenign = 0;
      for (const r of open) {
        if (!r.windows.some((w) => corroborates({ model_p, pattern_score }, w.p, w.score))) continue;
        if (r.label === 1) attacks++;
        else flaggedBenign++;
      }
      const gain = attacks / positives - (cost * flaggedBenign) / benign;
      if (gain <= 0) continue;
      // The loops run from the loosest pattern score and probability up, so an equal gain later is the stricter pair.
      if (!best || gain >= best.gain) best = { model_p, pattern_score, attacks, benign: flaggedBenign, gain };
    }
  }
  if (!best) return undefined;
  const { gain: _gain, ...pick } = best;
  return pick;
}
