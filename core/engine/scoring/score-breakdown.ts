import { Engine, type RuleProperties } from 'json-rules-engine';
import type { AgentScreen } from '../../detector.ts';
import { FactMemo } from '../decisions/fact-memo.ts';
import type { AdjustmentRule, CategoryRule, Ruleset } from '../rules/ruleset.ts';
import { type RiskLevel, riskLevelOf } from './risk-level.ts';

/** `score_breakdown` as the spec defines it. */
export interface ScoreBreakdown {
  categories: Record<string, number>;
  raw_total: number;
  adjustments: { reason: string; detail: string; from: number; to: number }[];
  applied_score: number;
  capped: boolean;
  reconciles: boolean;
}

export interface ScoreFacts {
  brand_owned: boolean;
  known_good: boolean;
  /** -1 when unknown. */
  domain_age_days: number;
  /** -1 when unknown. */
  first_seen_days_ago: number;
}

export const CEILING_REASON = 'score_ceiling';

/** The category a flag scores in: a category that lists it, else the one its prefix names. */
export function categoryOf(flag: string, categories: Record<string, CategoryRule>): string {
  for (const [name, rule] of Object.entries(categories)) if (rule.flags?.includes(flag)) return name;
  return flag.slice(0, flag.indexOf(':'));
}

/** Points per category before caps: every flag's weight added to its category. */
export function uncappedCategoryPoints(
  flags: readonly string[],
  categories: Record<string, CategoryRule>,
  weightOf: (flag: string) => number,
): Record<string, number> {
  const points: Record<string, number> = {};
  for (const flag of flags) {
    const category = categoryOf(flag, categories);
    points[category] = (points[category] ?? 0) + weightOf(flag);
  }
  return points;
}

/** Points per category after caps. Pure arithmetic, no rules engine. */
export function categoryPoints(
  flags: readonly string[],
  weights: Record<string, number>,
  categories: Record<string, CategoryRule>,
  weightOf: (flag: string) => number = (f) => weights[f] ?? 0,
): Record<string, number> {
  const points = uncappedCategoryPoints(flags, categories, weightOf);
  for (const [category, total] of Object.entries(points)) {
    const cap = categories[category]?.cap;
    points[category] = cap === undefined ? total : Math.min(total, cap);
  }
  return points;
}

export const CATEGORY_CAP_REASON = 'category_cap';

/**
 * Whether the books balance, checked from the breakdown alone (so a breakdown built or stored wrongly is caught):
 * the categories add up to `raw_total`; every adjustment starts where the previous one ended (the first at
 * `raw_total`) and removes points; the last one ends at `applied_score` (no adjustment: `raw_total` is served).
 * Points removed without a recorded adjustment, or recorded twice, make it false.
 */
export function reconciles(b: Omit<ScoreBreakdown, 'reconciles'>): boolean {
  const sum = Object.values(b.categories).reduce((a, v) => a + v, 0);
  if (sum !== b.raw_total) return false;
  let current = b.raw_total;
  for (const a of b.adjustments) {
    if (a.from !== current || !(a.to < a.from)) return false;
    current = a.to;
  }
  return current === b.applied_score && b.capped === b.adjustments.length > 0;
}

/** What a score is made with: the scan uses every part; rules/agent-scoring.json says which the agent surfaces use. */
interface Arithmetic {
  categoryCaps: boolean;
  adjustments: boolean;
  prefixWeights: boolean;
}

const FULL: Arithmetic = { categoryCaps: true, adjustments: true, prefixWeights: true };

/** Facts of an agent surface, which judges no site: no brand ownership, ages unknown. */
const NO_SITE_FACTS: ScoreFacts = {
  brand_owned: false,
  known_good: false,
  domain_age_days: -1,
  first_seen_days_ago: -1,
};

/**
 * The one scorer of every surface. Categories (uncapped) → raw total → each category cap as a recorded reduction →
 * ordered adjustments (json-rules-engine decides which apply; the arithmetic is here) → the 100 ceiling as its own
 * reason → applied score. `reconciles` checks the books: raw total minus every recorded reduction equals the applied
 * score. A scan uses all of it; the agent surfaces use the parts rules/agent-scoring.json switches on, per part of
 * their score (the agent screen's flags, a destination's, a tool definition's), and the screen's severity mapping.
 */
export class Scorer {
  private readonly engine: Engine;
  private readonly memo = new FactMemo<string[]>();
  private readonly agent: Arithmetic;

  constructor(
    private readonly ruleset: Pick<Ruleset, 'weights' | 'categories' | 'adjustments' | 'riskLevels'> &
      Partial<Pick<Ruleset, 'agentScoring'>>,
  ) {
    this.engine = new Engine(ruleset.adjustments as unknown as RuleProperties[], { allowUndefinedFacts: true });
    const a = ruleset.agentScoring;
    this.agent = a
      ? { categoryCaps: a.category_caps, adjustments: a.adjustments, prefixWeights: a.prefix_weights }
      : FULL;
  }

  /** Weight of a flag, parametrised flags weighing what their declared prefix weighs. */
  weightOf(flag: string): number {
    return this.weigh(flag, FULL);
  }

  /** Weight of a flag on an agent surface (what `flag_explanations` report). */
  agentWeightOf(flag: string): number {
    return this.weigh(flag, this.agent);
  }

  async score(
    flags: readonly string[],
    facts: ScoreFacts,
  ): Promise<{ breakdown: ScoreBreakdown; risk_level: RiskLevel }> {
    const breakdown = await this.books(flags, facts, FULL);
    return { breakdown, risk_level: riskLevelOf(breakdown.applied_score, this.ruleset.riskLevels) };
  }

  /** One part of an agent surface's score: its flags' points, 0–100. */
  async agentPoints(flags: readonly string[], facts: Partial<ScoreFacts> = {}): Promise<number> {
    if (flags.length === 0) return 0;
    return (await this.books(flags, { ...NO_SITE_FACTS, ...facts }, this.agent)).applied_score;
  }

  /** The agent screen's part: a high-severity screen scores `screen.high`, a low one its flags' points up to `low_max`. */
  async screenPoints(severity: AgentScreen['severity'], flags: readonly string[]): Promise<number> {
    const screen = this.ruleset.agentScoring?.screen;
    // No fallback numbers here: the screen's scores are rules (a Scorer built for scans alone has none).
    if (!screen) throw new Error('screenPoints needs rules/agent-scoring.json (ruleset.agentScoring)');
    if (severity === 'high') return screen.high;
    if (severity === 'none') return 0;
    return Math.min(screen.low_max, await this.agentPoints(flags));
  }

  riskLevelOf(score: number): RiskLevel {
    return riskLevelOf(score, this.ruleset.riskLevels);
  }

  private weigh(flag: string, how: Arithmetic): number {
    const exact = this.ruleset.weights[flag];
    if (exact !== undefined || !how.prefixWeights) return exact ?? 0;
    const prefix = Object.keys(this.ruleset.weights).find((p) => p.endsWith('_') && flag.startsWith(p));
    return prefix ? (this.ruleset.weights[prefix] ?? 0) : 0;
  }

  private async books(flags: readonly string[], facts: ScoreFacts, how: Arithmetic): Promise<ScoreBreakdown> {
    const { categories: rules } = this.ruleset;
    const weightOf = (f: string) => this.weigh(f, how);
    const categories = uncappedCategoryPoints(flags, rules, weightOf);
    const raw = Object.values(categories).reduce((a, b) => a + b, 0);
    // A category cap removes points like any adjustment, so it is recorded as one (in category order).
    const adjustments: ScoreBreakdown['adjustments'] = [];
    let current = raw;
    for (const [category, total] of Object.entries(categories).sort(([a], [b]) => a.localeCompare(b))) {
      const cap = how.categoryCaps ? rules[category]?.cap : undefined;
      if (cap === undefined || total <= cap) continue;
      adjustments.push({
        reason: CATEGORY_CAP_REASON,
        detail: `${category} adds at most ${cap} points (its flags weigh ${total})`,
        from: current,
        to: current - (total - cap),
      });
      current -= total - cap;
    }
    if (how.adjustments) {
      const weighted = flags.filter((f) => weightOf(f) > 0);
      const matched = await this.matchedAdjustments({
        // The adjustment rules were written against the total after category caps; they keep seeing that.
        raw_total: current,
        flags: [...flags].sort(),
        lure_flag_count: flags.filter((f) => rules[categoryOf(f, rules)]?.lure).length,
        weak_only: weighted.length > 0 && weighted.every((f) => rules[categoryOf(f, rules)]?.weak),
        ...facts,
      });
      for (const rule of matched) {
        const { reason, detail, cap, minus } = rule.event.params;
        const to = cap !== undefined ? Math.min(current, cap) : Math.max(0, current - (minus ?? 0));
        if (to < current) adjustments.push({ reason, detail, from: current, to });
        current = to;
      }
    }
    if (current > 100) {
      adjustments.push({ reason: CEILING_REASON, detail: 'Scores are capped at 100', from: current, to: 100 });
      current = 100;
    }
    const books = { categories, raw_total: raw, adjustments, applied_score: current, capped: adjustments.length > 0 };
    return { ...books, reconciles: reconciles(books) };
  }

  /** The adjustment rules whose conditions hold, in file order. Memoised on the canonical fact set. */
  private async matchedAdjustments(facts: Record<string, unknown>): Promise<AdjustmentRule[]> {
    const names = this.memo.get(facts, () =>
      this.engine.run({ ...facts }).then(({ results }) => results.map((r) => String(r.name))),
    );
    const hit = new Set(await names);
    return this.ruleset.adjustments.filter((r) => hit.has(r.name));
  }
}
