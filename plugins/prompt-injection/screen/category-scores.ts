// Category scores: each pattern counts at its strongest occurrence, or for up to `repeat` distinct phrases, within
// windows of tokens; a category whose score reaches 1 (or whose stacked cue families reach `cueRule`) fires.
import type { Meter } from '../matcher.ts';
import { CUE_RULE, FAMILY_CAPS } from './pattern-file.ts';
import type { Hit, PhraseEvidence } from './phrase-hits.ts';

const WINDOW = 160;

/** An address does not boost itself, nor persona and jailbreak evidence: a user greets the assistant by name in a
 * direct prompt ("Dear AI assistant, … for my novel"), and that greeting is no sign of an order planted in data. */
const NOT_BOOSTED_BY_ADDRESS: ReadonlySet<string> = new Set(['agent_address', 'role_hijack']);

/** The best score of each category over a set of segments' scores (the whole text's, for `explain`). */
export function bestScores(segmentScores: Iterable<Record<string, number>>): Record<string, number> {
  const best: Record<string, number> = {};
  for (const ofSegment of segmentScores) {
    for (const [cat, score] of Object.entries(ofSegment)) best[cat] = Math.max(best[cat] ?? 0, score);
  }
  return best;
}

/** A category fires at a score of 1 (with room for the rounding of fractional weights that add up to it). */
export const FIRING_SCORE = 0.999;

export function scoreCategories(
  evidence: PhraseEvidence,
  multiplier: readonly number[],
  meter?: Meter,
): { fired: Set<string>; segmentScores: Map<number, Record<string, number>> } {
  const { hits, addressedSeg, segTokens } = evidence;
  // Category score: each pattern counts at its strongest occurrence, or for up to `repeat` distinct phrases. Weak
  // evidence must sit close together: scores are taken over windows of two consecutive blocks of WINDOW tokens, so
  // a long page cannot add up scattered common phrases into a finding.
  const byWindow = new Map<string, Hit[]>();
  for (const h of hits) {
    const b = Math.floor(h.tok / WINDOW);
    for (const key of [`${h.segment}:${b}`, `${h.segment}:${b - 1}`]) {
      const list = byWindow.get(key) ?? [];
      list.push(h);
      byWindow.set(key, list);
    }
  }
  const fired = new Set<string>();
  const segmentScores = new Map<number, Record<string, number>>();
  for (const [key, list] of byWindow) {
    const segment = Number(key.slice(0, key.indexOf(':')));
    if (meter) meter.steps += list.length;
    const perPattern = new Map<
      string,
      { category: string; family: string | undefined; repeat: number; byPhrase: Map<string, number> }
    >();
    const families = new Map<string, Set<string>>();
    for (const h of list) {
      if (h.family && segTokens[h.segment]! >= CUE_RULE.minTokens) {
        const set = families.get(h.category) ?? new Set<string>();
        set.add(h.family);
        families.set(h.category, set);
      }
      const boost = NOT_BOOSTED_BY_ADDRESS.has(h.category)
        ? multiplier[h.segment]! / (addressedSeg[h.segment] ? 2 : 1)
        : multiplier[h.segment]!;
      let entry = perPattern.get(h.patternId);
      if (!entry) {
        entry = { category: h.category, family: h.family, repeat: h.repeat, byPhrase: new Map() };
        perPattern.set(h.patternId, entry);
      }
      const key = h.marker.toLowerCase();
      entry.byPhrase.set(key, Math.max(entry.byPhrase.get(key) ?? 0, h.weight * boost));
    }
    const score = new Map<string, number>();
    // Capped families add up on their own first: "how to make a bomb" and "create a computer virus" in one file of
    // attack prompts are two halves of one kind, not a harm and its wrapper.
    const capped = new Map<string, { category: string; sum: number }>();
    for (const entry of perPattern.values()) {
      const top = [...entry.byPhrase.values()].sort((a, b) => b - a).slice(0, entry.repeat);
      const sum = top.reduce((a, b) => a + b, 0);
      const cap = entry.family === undefined ? undefined : FAMILY_CAPS.get(entry.family);
      if (cap === undefined) score.set(entry.category, (score.get(entry.category) ?? 0) + sum);
      else {
        // A capped family's patterns share one category (pattern-file.ts checks it at load), so it is the key.
        const group = capped.get(entry.family!) ?? { category: entry.category, sum: 0 };
        group.sum = Math.min(cap, group.sum + sum);
        capped.set(entry.family!, group);
      }
    }
    for (const { category, sum } of capped.values()) score.set(category, (score.get(category) ?? 0) + sum);
    for (const [cat, set] of families) {
      if (set.size >= CUE_RULE.minFamilies) score.set(cat, Math.max(score.get(cat) ?? 0, 1));
    }
    let ofSegment = segmentScores.get(segment);
    if (!ofSegment) {
      ofSegment = {};
      segmentScores.set(segment, ofSegment);
    }
    for (const [cat, sum] of score) {
      if (sum >= FIRING_SCORE) fired.add(cat);
      ofSegment[cat] = Math.max(ofSegment[cat] ?? 0, sum);
    }
  }
  return { fired, segmentScores };
}
