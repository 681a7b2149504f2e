import { Engine, type RuleProperties } from 'json-rules-engine';
import type { DecisionRule, Verdict } from '../rules/ruleset.ts';
import { VERDICT_ORDER } from '../rules/ruleset.ts';
import { FactMemo } from './fact-memo.ts';

export interface MatchedRule<V extends string = Verdict> {
  name: string;
  verdict: V;
  reason: string;
}

export interface Decision<V extends string = Verdict> {
  verdict: V;
  /** The rule that set the verdict; absent when nothing matched and the default `allow` stands. */
  winner?: MatchedRule<V>;
  matched: MatchedRule<V>[];
}

/** A rule as the engine needs it; surfaces with their own verdict vocabulary (web access: allow|warn|block) too. */
export type EngineRule<V extends string = Verdict> = Omit<DecisionRule, 'event'> & {
  event: { type: 'verdict'; params: { verdict: V; reason: string } };
};

export type Facts = Record<string, string | number | boolean | readonly string[]>;

/**
 * json-rules-engine over one surface's rules, strictest verdict wins.
 *
 * Answers are memoised on the canonical fact set (FactMemo): rules are immutable for the lifetime of an engine, so
 * a memoised answer is the engine's answer; a test holds the two equal.
 */
export class DecisionEngine<V extends string = Verdict> {
  private readonly engine: Engine;
  private readonly order: Map<string, number>;
  private readonly memo = new FactMemo<Decision<V>>();

  /** `verdictOrder`: mildest first; the first entry is the default when nothing matches. */
  constructor(
    rules: readonly EngineRule<V>[],
    private readonly verdictOrder: readonly V[] = VERDICT_ORDER as unknown as readonly V[],
  ) {
    this.engine = new Engine(
      rules.map((r) => ({ ...r, conditions: r.conditions }) as unknown as RuleProperties),
      { allowUndefinedFacts: true },
    );
    this.order = new Map(rules.map((r, i) => [r.name, i]));
  }

  decide(facts: Facts): Promise<Decision<V>> {
    return this.memo.get(facts, () => this.evaluate(facts));
  }

  /** The engine itself, bypassing the memo. */
  async evaluate(facts: Facts): Promise<Decision<V>> {
    const { results } = await this.engine.run({ ...facts });
    const matched: MatchedRule<V>[] = results
      .map((r) => {
        const params = r.event?.params as { verdict: V; reason: string };
        return { name: String(r.name), verdict: params.verdict, reason: params.reason };
      })
      .sort((a, b) => (this.order.get(a.name) ?? 0) - (this.order.get(b.name) ?? 0));
    let winner: MatchedRule<V> | undefined;
    for (const m of matched) {
      if (!winner || this.verdictOrder.indexOf(m.verdict) > this.verdictOrder.indexOf(winner.verdict)) winner = m;
    }
    return { verdict: winner?.verdict ?? this.verdictOrder[0]!, winner, matched };
  }
}
