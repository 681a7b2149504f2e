import type { PluginCatalog } from '../pipeline/plugin-catalog.ts';
import type { DecisionSurface, RuleCondition, RulesProblem } from './ruleset.ts';

// The facts each kind of rules file may name, and the check that a rule names only those (and only known flags).

/** The facts adjustment rules may read (rules/adjustments.json). */
export const ADJUSTMENT_FACTS: Record<string, 'flags' | 'string' | 'boolean' | 'number'> = {
  raw_total: 'number',
  flags: 'flags',
  lure_flag_count: 'number',
  weak_only: 'boolean',
  brand_owned: 'boolean',
  known_good: 'boolean',
  domain_age_days: 'number',
  first_seen_days_ago: 'number',
};

export type FactKind = 'flags' | 'string' | 'boolean' | 'number';

/**
 * The facts each decision surface offers its rules: the one list. The loader refuses a rule naming another fact,
 * and `DecisionFacts<surface>` makes the checks hand the engine exactly these (a missing or extra fact is a type
 * error), so the list, the rules and the code cannot drift apart.
 */
export const DECISION_FACTS = {
  content: { severity: 'string', injection_detected: 'boolean', flags: 'flags', categories: 'string', score: 'number' },
  action: {
    intent: 'string',
    high_impact_intent: 'boolean',
    known_good: 'boolean',
    destination_malicious: 'boolean',
    destination_category: 'string',
    destination_risk_level: 'string',
    destination_score: 'number',
    reputation_available: 'boolean',
    injection_severity: 'string',
    connector_status: 'string',
    risk_score: 'number',
    risk_level: 'string',
    deep_scan_ran: 'boolean',
    deep_malicious: 'boolean',
    deep_risk_level: 'string',
    flags: 'flags',
  },
  url_verdict: {
    destination_malicious: 'boolean',
    destination_category: 'string',
    destination_risk_level: 'string',
    destination_score: 'number',
    known_good: 'boolean',
    flags: 'flags',
  },
  tool_call: {
    tool_policy_decision: 'string',
    tool_policy_reason: 'string',
    connector_status: 'string',
    injection_severity: 'string',
    high_impact_tool: 'boolean',
    flags: 'flags',
  },
} as const satisfies Record<DecisionSurface, Record<string, FactKind>>;

type FactValue<K> = K extends 'flags'
  ? readonly string[]
  : K extends 'number'
    ? number
    : K extends 'boolean'
      ? boolean
      : string | readonly string[];

/** The fact set a surface's checks hand its decision engine. */
export type DecisionFacts<S extends DecisionSurface> = {
  [F in keyof (typeof DECISION_FACTS)[S]]: FactValue<(typeof DECISION_FACTS)[S][F]>;
};

/** The facts web-access rules may read (POST /web-access/evaluate). */
export const WEB_ACCESS_FACTS: Record<string, 'flags' | 'string' | 'boolean' | 'number'> = {
  intent: 'string',
  high_impact_intent: 'boolean',
  url_category: 'string',
  known_good: 'boolean',
  listed_in_feed: 'boolean',
  destination_risk_level: 'string',
  risk_score: 'number',
  risk_level: 'string',
  injection_severity: 'string',
  agent_decision: 'string',
  flags: 'flags',
};

/** The facts escalation rules may read (rules/escalation.json). */
export const ESCALATION_FACTS: Record<string, 'flags' | 'string' | 'boolean' | 'number'> = {
  event: 'string',
  risk_level: 'string',
  score: 'number',
  verdict: 'string',
  surface: 'string',
  flags: 'flags',
};

function* conditionLeaves(
  c: RuleCondition,
  pointer: string,
): Generator<[Extract<RuleCondition, { fact: string }>, string]> {
  if ('all' in c) for (const [i, x] of c.all.entries()) yield* conditionLeaves(x, `${pointer}/all/${i}`);
  else if ('any' in c) for (const [i, x] of c.any.entries()) yield* conditionLeaves(x, `${pointer}/any/${i}`);
  else if ('not' in c) yield* conditionLeaves(c.not, `${pointer}/not`);
  else yield [c, pointer];
}

export function checkFacts(
  facts: Record<string, 'flags' | 'string' | 'boolean' | 'number'>,
  conditions: RuleCondition,
  file: string,
  pointer: string,
  catalog: PluginCatalog,
  problems: RulesProblem[],
): void {
  for (const [leaf, leafPointer] of conditionLeaves(conditions, `${pointer}/conditions`)) {
    const kind = facts[leaf.fact];
    if (!kind) {
      problems.push({
        file,
        pointer: `${leafPointer}/fact`,
        message: `unknown fact ${leaf.fact} (known: ${Object.keys(facts).join(', ')})`,
      });
      continue;
    }
    if (kind === 'flags') {
      const named = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
      for (const flag of named) {
        if (typeof flag !== 'string' || !catalog.declarationOf(flag)) {
          problems.push({ file, pointer: `${leafPointer}/value`, message: `unknown flag ${JSON.stringify(flag)}` });
        }
      }
    }
  }
}
