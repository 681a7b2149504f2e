import { Engine, type RuleProperties } from 'json-rules-engine';
import { canonicalJson, type DecisionRule, VERDICT_ORDER, type Verdict } from '../rules/ruleset.ts';

export interface MatchedRule {
  name: string;
  verdict: Verdict;
  reason: string;
}

export interface Decision {
  verdict: Verdict;
  /** The rule that set the verdict; absent when nothing matched and the default `allow` stands. */
  winner?: MatchedRule;
  matched: MatchedRule[];
}

export type Facts = Record<string, string | number | boolean | readonly string[]>;

const MEMO_LIMIT = 10_000;

/**
 * json-rules-engine over one surface's rules, strictest verdict wins.
 *
 * The engine is slow per call (hundreds of evaluations per second for a few dozen rules), and the fact sets of a
 * surface are few and repeat, so answers are memoised on the canonical fact set. Rules are immutable for the
 * lifetime of an engine, so a memoised answer is the engine's answer; a test holds the two equal.
 */
export class DecisionEngine {
  private readonly engine: Engine;
  private readonly order: Map<string, number>;
  private readonly memo = new Map<string, Promise<Decision>>();

  constructor(rules: readonly DecisionRule[]) {
    this.engine = new Engine(
      rules.map((r) => ({ ...r, conditions: r.conditions }) as unknown as RuleProperties),
      { allowUndefinedFacts: true },
    );
    this.order = new Map(rules.map((r, i) => [r.name, i]));
  }

  decide(facts: Facts): Promise<Decision> {
    const key = canonicalJson(facts);
    const hit = this.memo.get(key);
    if (hit) return hit;
    const pending = this.evaluate(facts);
    if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(key, pending);
    pending.catch(() => this.memo.delete(key));
    return pending;
  }

  /** The engine itself, bypassing the memo. */
  async evaluate(facts: Facts): Promise<Decision> {
    const { results } = await this.engine.run({ ...facts });
    const matched: MatchedRule[] = results
      .map((r) => {
        const params = r.event?.params as { verdict: Verdict; reason: string };
        return { name: String(r.name), verdict: params.verdict, reason: params.reason };
      })
      .sort((a, b) => (this.order.get(a.name) ?? 0) - (this.order.get(b.name) ?? 0));
    let winner: MatchedRule | undefined;
    for (const m of matched) {
      if (!winner || VERDICT_ORDER.indexOf(m.verdict) > VERDICT_ORDER.indexOf(winner.verdict)) winner = m;
    }
    return { verdict: winner?.verdict ?? 'allow', winner, matched };
  }
}
