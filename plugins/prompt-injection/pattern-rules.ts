// The numbers that turn phrase hits into a verdict: category severities and per-pattern weights. They live in
// rules/injection-patterns.json (ruleset_hash covers them; the plugin gets them as deps.rules); patterns.json keeps
// only the phrase families, so adding a pattern of weight 1 touches patterns.json alone.
import shippedFile from '../../rules/injection-patterns.json' with { type: 'json' };

export interface PatternRules {
  /** Category → severity of its findings. */
  severities: Readonly<Record<string, 'high' | 'low'>>;
  /** Pattern id → evidence weight; a pattern not listed weighs 1. */
  weights: Readonly<Record<string, number>>;
}

/**
 * The shipped file, for callers of `screenText` outside the detector (tests, scripts, the bench): the detector
 * itself screens with the ruleset's copy, which a `rules/local/injection-patterns.json` may replace.
 */
export const SHIPPED_PATTERN_RULES: PatternRules = {
  severities: shippedFile.severities as Record<string, 'high' | 'low'>,
  weights: shippedFile.weights,
};

/**
 * Holds the rules against the pattern file: every category needs a severity (and only known ones may have one), every
 * weighted id must name a pattern, and weights may no longer sit in patterns.json. A mismatch is a configuration
 * error and fails loudly (at boot for the detector).
 */
export function checkPatternRules(
  rules: PatternRules,
  categories: readonly string[],
  patterns: readonly { id: string; weight?: unknown }[],
): void {
  const known = new Set(categories);
  for (const c of categories) {
    const s = rules.severities[c];
    if (s !== 'high' && s !== 'low') throw new Error(`rules/injection-patterns.json: category ${c} has no severity`);
  }
  for (const c of Object.keys(rules.severities)) {
    if (!known.has(c)) throw new Error(`rules/injection-patterns.json: severity for unknown category ${c}`);
  }
  const ids = new Set(patterns.map((p) => p.id));
  for (const [id, w] of Object.entries(rules.weights)) {
    if (!ids.has(id)) throw new Error(`rules/injection-patterns.json: weight for unknown pattern ${id}`);
    if (!(w > 0)) throw new Error(`rules/injection-patterns.json: pattern ${id}: weight must be > 0`);
  }
  for (const p of patterns) {
    if (p.weight !== undefined) {
      throw new Error(`patterns.json: ${p.id}: weights live in rules/injection-patterns.json (weights.${p.id})`);
    }
  }
}
