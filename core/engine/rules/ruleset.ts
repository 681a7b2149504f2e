import path from 'node:path';
import { Ajv } from 'ajv';
import type { InjectionToken } from 'tsyringe';
import { canonicalJson, sha256Hex } from '../contract/canonical-json.ts';
import type { PluginCatalog } from '../pipeline/plugin-catalog.ts';
import { type InjectionRules, loadInjectionRules } from './injection-rules.ts';
import { ADJUSTMENT_FACTS, checkFacts, DECISION_FACTS, ESCALATION_FACTS, WEB_ACCESS_FACTS } from './rule-facts.ts';
import {
  escapePointer,
  layers,
  mergedByFlag,
  mergedByKey,
  mergedByRuleName,
  replaced,
  rulesFile,
  schemaProblems,
} from './rules-layers.ts';

// Moved to contract/ and rule-facts.ts; re-exported for the modules that still import them from here.
export { canonicalJson, flatCanonicalJson, sha256Hex } from '../contract/canonical-json.ts';
export {
  ADJUSTMENT_FACTS,
  DECISION_FACTS,
  type DecisionFacts,
  ESCALATION_FACTS,
  type FactKind,
  WEB_ACCESS_FACTS,
} from './rule-facts.ts';

export type Verdict = 'allow' | 'approval_required' | 'block';
export const VERDICT_ORDER: readonly Verdict[] = ['allow', 'approval_required', 'block'];

export type RuleCondition =
  | { all: RuleCondition[] }
  | { any: RuleCondition[] }
  | { not: RuleCondition }
  | { fact: string; operator: string; value: unknown; path?: string };

export interface DecisionRule {
  name: string;
  priority?: number;
  conditions: RuleCondition;
  event: { type: 'verdict'; params: { verdict: Verdict; reason: string } };
}

/** A web-access rule (rules/decisions/web-access.json): a person's verdict and what to tell them. */
export type WebAccessVerdict = 'allow' | 'warn' | 'block';
export const WEB_ACCESS_ORDER: readonly WebAccessVerdict[] = ['allow', 'warn', 'block'];
export interface WebAccessRule {
  name: string;
  priority?: number;
  conditions: RuleCondition;
  event: { type: 'verdict'; params: { verdict: WebAccessVerdict; reason: string; coaching_message: string } };
}

/** A ticket-bridge escalation rule (rules/escalation.json): opens a ticket at `severity` when it matches. */
export interface EscalationRule {
  name: string;
  priority?: number;
  conditions: RuleCondition;
  event: { type: 'escalate'; params: { severity: 'low' | 'medium' | 'high' | 'critical'; reason: string } };
}

export interface RiskLevels {
  low: number;
  medium: number;
  high: number;
  critical: number;
}

export type DecisionSurface = 'content' | 'action' | 'tool_call' | 'url_verdict';

export interface BrandEntry {
  id: string;
  name: string;
  domains: string[];
  tokens: string[];
  oauth_hosts: string[];
  cctld_variants?: boolean;
}

/** A flag raised when all of `all` and at least one of `any` (if given) fired. */
export interface CompositeRule {
  flag: string;
  all: string[];
  any?: string[];
  detail: string;
}

export interface CategoryRule {
  cap?: number;
  weak?: boolean;
  lure?: boolean;
  flags?: string[];
}

/** rules/agent-scoring.json: which parts of the scan's arithmetic the agent surfaces score with. */
export interface AgentScoring {
  category_caps: boolean;
  adjustments: boolean;
  prefix_weights: boolean;
  screen: { high: number; low_max: number };
}

export interface AdjustmentRule {
  name: string;
  conditions: RuleCondition;
  event: { type: 'adjustment'; params: { reason: string; detail: string; cap?: number; minus?: number } };
}

export interface PlanLimits {
  scan_quota_daily: number;
  /** null: the plan disables force scans. */
  force_scan_quota_daily?: number | null;
  rate_limit_per_minute: number;
}

export interface Plans {
  default_plan: string;
  plans: Record<string, PlanLimits>;
  anonymous: PlanLimits;
}

export interface HostingData {
  free_hosting: { suffix: string; provider: string; path_prefix?: string }[];
  suspicious_tlds: string[];
}

export interface Ruleset {
  weights: Record<string, number>;
  riskLevels: RiskLevels;
  decisions: Record<DecisionSurface, DecisionRule[]>;
  /** rules/decisions/web-access.json, merged by rule name like the other decision files. */
  webAccess: WebAccessRule[];
  /** rules/escalation.json (optional), merged by rule name. */
  escalation: EscalationRule[];
  brands: BrandEntry[];
  hosting: HostingData;
  toolPolicy: { high_impact_tools: string[] };
  composites: CompositeRule[];
  categories: Record<string, CategoryRule>;
  adjustments: AdjustmentRule[];
  agentScoring: AgentScoring;
  /** rules/plans.json: quotas, not verdict rules, so outside `hash` (a quota change re-signs no verdict). */
  plans: Plans;
  /** rules/scan-history.json: the risk levels that make an earlier scan count as flagged. */
  scanHistory: { flagged_risk_levels: string[] };
  /** Per-deployment detector settings (rules/detectors.json, optional), validated against each plugin's schema. */
  detectors: Record<string, Record<string, unknown>>;
  /**
   * The injection screen's rules: the learned scorer's thresholds (rules/injection.json) and the pattern layer's
   * severities and weights (rules/injection-patterns.json).
   */
  injection: InjectionRules;
  /** sha256 of the canonical JSON of everything above but `plans`: names the rules behind every verdict. */
  hash: string;
}

export const Ruleset: InjectionToken<Ruleset> = Symbol('Ruleset');

export interface RulesProblem {
  file: string;
  pointer: string;
  message: string;
}

export class RulesError extends Error {
  constructor(readonly problems: RulesProblem[]) {
    super(`invalid rules:\n${problems.map((p) => `  ${p.file}#${p.pointer}: ${p.message}`).join('\n')}`);
  }
}

const DECISION_FILES: Record<DecisionSurface, string> = {
  content: 'decisions/content.json',
  action: 'decisions/action.json',
  tool_call: 'decisions/tool-call.json',
  url_verdict: 'decisions/url-verdict.json',
};

// Plugin schemas are written by plugin authors: compiled leniently about unknown keywords, strictly about data.
const pluginAjv = new Ajv({ allErrors: true, strict: false });

/**
 * rules/detectors.json (and rules/local/detectors.json): `{"<plugin id>": {…settings…}}` merged over each plugin's
 * defaultConfig and checked against its configSchema, so a typo in a threshold stops the boot instead of being
 * silently ignored.
 */
function detectorConfigs(dir: string, catalog: PluginCatalog, problems: RulesProblem[]) {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const layer of layers(dir, rulesFile('detectors.json'), problems)) {
    const file = layer.file;
    if (layer.data === undefined) continue;
    if (layer.data === null || typeof layer.data !== 'object' || Array.isArray(layer.data)) {
      problems.push({ file, pointer: '/', message: 'must be an object keyed by plugin id' });
      continue;
    }
    for (const [id, settings] of Object.entries(layer.data as Record<string, unknown>)) {
      if (id === '$comment') continue;
      const plugin = catalog.modules.find((m) => m.detector.meta.id === id);
      if (!plugin) {
        problems.push({ file, pointer: `/${escapePointer(id)}`, message: `unknown plugin ${id}` });
        continue;
      }
      merged[id] = { ...merged[id], ...(settings as Record<string, unknown>) };
    }
  }
  for (const { detector } of catalog.modules) {
    const { id, configSchema, defaultConfig } = detector.meta;
    if (!configSchema) {
      if (merged[id])
        problems.push({ file: 'detectors.json', pointer: `/${id}`, message: `plugin ${id} takes no settings` });
      continue;
    }
    const validate = pluginAjv.compile(configSchema);
    const config = { ...(defaultConfig as object), ...merged[id] };
    if (!validate(config)) {
      for (const p of schemaProblems('detectors.json', validate.errors)) {
        problems.push({ ...p, pointer: `/${id}${p.pointer === '/' ? '' : p.pointer}` });
      }
    }
  }
  return merged;
}

/**
 * Reads every file of RULES_FILES, each by its schema and merge mode (rules-layers.ts), then checks what the
 * schemas cannot: flags and facts the plugins declare, thresholds that rise, a default plan that exists.
 */
export function loadRuleset(dir: string, catalog: PluginCatalog): Ruleset {
  const problems: RulesProblem[] = [];

  // Weights: plugin defaults, then rules/weights.json, then rules/local/weights.json, by flag id.
  const weights: Record<string, number> = catalog.defaultWeights();
  const weightsSet = mergedByFlag(dir, 'weights.json', problems, (flag, file) => {
    if (catalog.flags.has(flag)) return true;
    problems.push({ file, pointer: `/${escapePointer(flag)}`, message: `unknown flag ${flag}` });
    return false;
  });
  Object.assign(weights, weightsSet);
  for (const flag of catalog.flags.keys()) {
    if (weights[flag] === undefined) {
      problems.push({ file: 'weights', pointer: `/${escapePointer(flag)}`, message: `flag ${flag} has no weight` });
    }
  }

  const riskLevels = mergedByKey<RiskLevels>(dir, 'risk-levels.json', problems);
  if (riskLevels && !(riskLevels.medium < riskLevels.high && riskLevels.high < riskLevels.critical)) {
    problems.push({
      file: path.join(dir, 'risk-levels.json'),
      pointer: '/',
      message: 'thresholds must rise: low < medium < high < critical',
    });
  }

  const decisions = {} as Record<DecisionSurface, DecisionRule[]>;
  for (const surface of Object.keys(DECISION_FILES) as DecisionSurface[]) {
    decisions[surface] = mergedByRuleName<DecisionRule>(dir, DECISION_FILES[surface], problems, (rule, file, at) =>
      checkFacts(DECISION_FACTS[surface], rule.conditions, file, at, catalog, problems),
    );
  }
  const webAccess = mergedByRuleName<WebAccessRule>(dir, 'decisions/web-access.json', problems, (rule, file, at) =>
    checkFacts(WEB_ACCESS_FACTS, rule.conditions, file, at, catalog, problems),
  );
  const escalation = mergedByRuleName<EscalationRule>(dir, 'escalation.json', problems, (rule, file, at) =>
    checkFacts(ESCALATION_FACTS, rule.conditions, file, at, catalog, problems),
  );

  // Data files: a local copy replaces the shipped one whole (lists have no natural merge key).
  const brands = replaced<{ brands: BrandEntry[] }>(dir, 'brands.json', problems);
  const hosting = replaced<HostingData>(dir, 'hosting.json', problems);
  const toolPolicy = replaced<{ high_impact_tools: string[] }>(dir, 'tool-policy.json', problems);

  const composites = replaced<{ composites: CompositeRule[] }>(dir, 'composites.json', problems);
  for (const [i, c] of (composites?.composites ?? []).entries()) {
    const file = path.join(dir, 'composites.json');
    const declared = catalog.declarationOf(c.flag);
    if (!declared?.composite) {
      problems.push({
        file,
        pointer: `/composites/${i}/flag`,
        message: `${c.flag} is not declared as a composite flag by any plugin`,
      });
    }
    for (const [j, part] of [...c.all, ...(c.any ?? [])].entries()) {
      if (!catalog.declarationOf(part)) {
        problems.push({
          file,
          pointer: `/composites/${i}/${j < c.all.length ? `all/${j}` : `any/${j - c.all.length}`}`,
          message: `unknown flag ${part}`,
        });
      }
    }
  }
  for (const declared of catalog.flags.values()) {
    if (declared.composite && !composites?.composites.some((c) => c.flag === declared.flag)) {
      problems.push({
        file: path.join(dir, 'composites.json'),
        pointer: '/composites',
        message: `composite flag ${declared.flag} has no rule`,
      });
    }
  }

  const categories = replaced<{ categories: Record<string, CategoryRule> }>(dir, 'categories.json', problems);
  for (const [name, rule] of Object.entries(categories?.categories ?? {})) {
    for (const [i, flag] of (rule.flags ?? []).entries()) {
      if (!catalog.declarationOf(flag)) {
        problems.push({
          file: path.join(dir, 'categories.json'),
          pointer: `/categories/${name}/flags/${i}`,
          message: `unknown flag ${flag}`,
        });
      }
    }
  }
  const adjustments = replaced<{ rules: AdjustmentRule[] }>(dir, 'adjustments.json', problems);
  for (const [i, rule] of (adjustments?.rules ?? []).entries()) {
    checkFacts(ADJUSTMENT_FACTS, rule.conditions, path.join(dir, 'adjustments.json'), `/rules/${i}`, catalog, problems);
  }

  const agentScoring = replaced<AgentScoring>(dir, 'agent-scoring.json', problems);

  const detectors = detectorConfigs(dir, catalog, problems);
  const injection = loadInjectionRules(dir, problems);
  const scanHistory = replaced<{ flagged_risk_levels: string[] }>(dir, 'scan-history.json', problems);
  const plans = replaced<Plans>(dir, 'plans.json', problems);
  if (plans && !plans.plans[plans.default_plan]) {
    problems.push({
      file: path.join(dir, 'plans.json'),
      pointer: '/default_plan',
      message: `no plan named ${plans.default_plan}`,
    });
  }

  if (
    problems.length > 0 ||
    !riskLevels ||
    !brands ||
    !hosting ||
    !toolPolicy ||
    !composites ||
    !categories ||
    !adjustments ||
    !agentScoring ||
    !plans ||
    !scanHistory ||
    !injection
  ) {
    throw new RulesError(problems);
  }
  const body = {
    weights: sortKeys(weights),
    riskLevels,
    decisions,
    webAccess,
    escalation,
    brands: brands.brands,
    hosting,
    toolPolicy: { high_impact_tools: toolPolicy.high_impact_tools },
    composites: composites.composites,
    categories: categories.categories,
    adjustments: adjustments.rules,
    agentScoring,
    scanHistory: { flagged_risk_levels: scanHistory.flagged_risk_levels },
    detectors,
    injection,
  };
  // plans.json is kept out of the hash (RULES_FILES marks it unhashed): a quota is not a verdict rule.
  return { ...body, plans, hash: sha256Hex(canonicalJson(body)) };
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
