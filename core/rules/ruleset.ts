import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import canonicalize from 'canonicalize';
import type { InjectionToken } from 'tsyringe';
import { CANONICAL_MAX_DEPTH, JsonTooDeep, nestsDeeperThan } from '../limits/json-depth.ts';
import type { PluginCatalog } from '../pipeline/plugin-catalog.ts';
import { type InjectionRules, loadInjectionRules } from './injection-rules.ts';
import { STATIC_SCHEMAS } from './rules-files.ts';
import { conditionSchema } from './schemas.ts';

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
  /** Thresholds of the learned injection scorer (rules/injection.json). */
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

type FactKind = 'flags' | 'string' | 'boolean' | 'number';

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

const DECISION_FILES: Record<DecisionSurface, string> = {
  content: 'decisions/content.json',
  action: 'decisions/action.json',
  tool_call: 'decisions/tool-call.json',
  url_verdict: 'decisions/url-verdict.json',
};

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addSchema(conditionSchema);
// One validator per published schema name (the `schema` column of RULES_FILES); injection.json has its own loader.
const validators: Record<string, ValidateFunction> = Object.fromEntries(
  Object.entries(STATIC_SCHEMAS)
    .filter(([name]) => name !== 'injection')
    .map(([name, schema]) => [name, ajv.compile(schema)]),
);

function readJson(dir: string, file: string, problems: RulesProblem[]): unknown {
  const full = path.join(dir, file);
  try {
    const data = JSON.parse(readFileSync(full, 'utf8'));
    // `$schema` (rules/schema/*.json) is for editors: dropped before validation, so it never reaches the hash.
    if (data && typeof data === 'object' && !Array.isArray(data)) delete data.$schema;
    return data;
  } catch (err) {
    problems.push({ file: full, pointer: '', message: (err as Error).message });
    return undefined;
  }
}

function schemaProblems(file: string, errors: ErrorObject[] | null | undefined): RulesProblem[] {
  return (errors ?? []).map((e) => ({
    file,
    pointer: e.instancePath || '/',
    message: `${e.message ?? 'invalid'}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  }));
}

/** Reads `<dir>/<file>` and, when present, `<dir>/local/<file>` (per-deployment overrides, git-ignored). */
function layers(dir: string, file: string, required: boolean, problems: RulesProblem[]): unknown[] {
  const out: unknown[] = [];
  for (const base of [dir, path.join(dir, 'local')]) {
    if (!existsSync(path.join(base, file))) {
      if (required && base === dir) problems.push({ file: path.join(base, file), pointer: '', message: 'missing' });
      continue;
    }
    out.push({ base, data: readJson(base, file, problems) });
  }
  return out;
}

function validated<T>(
  kind: string,
  base: string,
  file: string,
  data: unknown,
  problems: RulesProblem[],
): T | undefined {
  const validate = validators[kind]!;
  if (data === undefined) return undefined;
  if (!validate(data)) {
    problems.push(...schemaProblems(path.join(base, file), validate.errors));
    return undefined;
  }
  return data as T;
}

/**
 * rules/detectors.json (and rules/local/detectors.json): `{"<plugin id>": {…settings…}}` merged over each plugin's
 * defaultConfig and checked against its configSchema, so a typo in a threshold stops the boot instead of being
 * silently ignored.
 */
function detectorConfigs(dir: string, catalog: PluginCatalog, problems: RulesProblem[]) {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const layer of layers(dir, 'detectors.json', false, problems) as { base: string; data: unknown }[]) {
    const file = path.join(layer.base, 'detectors.json');
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

// Plugin schemas are written by plugin authors: compiled leniently about unknown keywords, strictly about data.
const pluginAjv = new Ajv({ allErrors: true, strict: false });

function lastLayer<T>(kind: string, dir: string, file: string, problems: RulesProblem[]): [T | undefined] {
  let out: T | undefined;
  for (const layer of layers(dir, file, true, problems) as { base: string; data: unknown }[]) {
    out = validated<T>(kind, layer.base, file, layer.data, problems) ?? out;
  }
  return [out];
}

function* conditionLeaves(
  c: RuleCondition,
  pointer: string,
): Generator<[Extract<RuleCondition, { fact: string }>, string]> {
  if ('all' in c) for (const [i, x] of c.all.entries()) yield* conditionLeaves(x, `${pointer}/all/${i}`);
  else if ('any' in c) for (const [i, x] of c.any.entries()) yield* conditionLeaves(x, `${pointer}/any/${i}`);
  else if ('not' in c) yield* conditionLeaves(c.not, `${pointer}/not`);
  else yield [c, pointer];
}

export function loadRuleset(dir: string, catalog: PluginCatalog): Ruleset {
  const problems: RulesProblem[] = [];

  // Weights: plugin defaults, then rules/weights.json, then rules/local/weights.json, by flag id.
  const weights: Record<string, number> = catalog.defaultWeights();
  for (const layer of layers(dir, 'weights.json', false, problems) as { base: string; data: unknown }[]) {
    const file = path.join(layer.base, 'weights.json');
    const data = validated<Record<string, unknown>>('weights', layer.base, 'weights.json', layer.data, problems);
    for (const [flag, points] of Object.entries(data ?? {})) {
      if (flag === '$comment') continue;
      if (!catalog.flags.has(flag)) {
        problems.push({ file, pointer: `/${escapePointer(flag)}`, message: `unknown flag ${flag}` });
        continue;
      }
      weights[flag] = points as number;
    }
  }
  for (const flag of catalog.flags.keys()) {
    if (weights[flag] === undefined) {
      problems.push({ file: 'weights', pointer: `/${escapePointer(flag)}`, message: `flag ${flag} has no weight` });
    }
  }

  let riskLevels: RiskLevels | undefined;
  for (const layer of layers(dir, 'risk-levels.json', true, problems) as { base: string; data: unknown }[]) {
    const data = validated<RiskLevels>('risk-levels', layer.base, 'risk-levels.json', layer.data, problems);
    if (data) riskLevels = { ...riskLevels, ...data };
  }
  if (riskLevels && !(riskLevels.medium < riskLevels.high && riskLevels.high < riskLevels.critical)) {
    problems.push({
      file: path.join(dir, 'risk-levels.json'),
      pointer: '/',
      message: 'thresholds must rise: low < medium < high < critical',
    });
  }

  const decisions = {} as Record<DecisionSurface, DecisionRule[]>;
  for (const surface of Object.keys(DECISION_FILES) as DecisionSurface[]) {
    const file = DECISION_FILES[surface];
    const byName = new Map<string, DecisionRule>();
    for (const layer of layers(dir, file, true, problems) as { base: string; data: unknown }[]) {
      const data = validated<{ rules: DecisionRule[] }>('decision-rules', layer.base, file, layer.data, problems);
      for (const [i, rule] of (data?.rules ?? []).entries()) {
        checkRuleFacts(surface, rule, path.join(layer.base, file), `/rules/${i}`, catalog, problems);
        byName.set(rule.name, rule); // a local rule with the same name replaces the shipped one
      }
    }
    decisions[surface] = [...byName.values()];
  }
  const webAccessByName = new Map<string, WebAccessRule>();
  for (const layer of layers(dir, 'decisions/web-access.json', true, problems) as { base: string; data: unknown }[]) {
    const file = 'decisions/web-access.json';
    const data = validated<{ rules: WebAccessRule[] }>('web-access-rules', layer.base, file, layer.data, problems);
    for (const [i, rule] of (data?.rules ?? []).entries()) {
      checkFacts(WEB_ACCESS_FACTS, rule.conditions, path.join(layer.base, file), `/rules/${i}`, catalog, problems);
      webAccessByName.set(rule.name, rule);
    }
  }
  const escalationByName = new Map<string, EscalationRule>();
  for (const layer of layers(dir, 'escalation.json', false, problems) as { base: string; data: unknown }[]) {
    const data = validated<{ rules: EscalationRule[] }>(
      'escalation-rules',
      layer.base,
      'escalation.json',
      layer.data,
      problems,
    );
    for (const [i, rule] of (data?.rules ?? []).entries()) {
      checkFacts(
        ESCALATION_FACTS,
        rule.conditions,
        path.join(layer.base, 'escalation.json'),
        `/rules/${i}`,
        catalog,
        problems,
      );
      escalationByName.set(rule.name, rule);
    }
  }

  // Data files: a local copy replaces the shipped one whole (lists have no natural merge key).
  const [brands] = lastLayer<{ brands: BrandEntry[] }>('brands', dir, 'brands.json', problems);
  const [hosting] = lastLayer<HostingData>('hosting', dir, 'hosting.json', problems);
  const [toolPolicy] = lastLayer<{ high_impact_tools: string[] }>('tool-policy', dir, 'tool-policy.json', problems);

  const [composites] = lastLayer<{ composites: CompositeRule[] }>('composites', dir, 'composites.json', problems);
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

  const [categories] = lastLayer<{ categories: Record<string, CategoryRule> }>(
    'categories',
    dir,
    'categories.json',
    problems,
  );
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
  const [adjustments] = lastLayer<{ rules: AdjustmentRule[] }>('adjustments', dir, 'adjustments.json', problems);
  for (const [i, rule] of (adjustments?.rules ?? []).entries()) {
    checkFacts(ADJUSTMENT_FACTS, rule.conditions, path.join(dir, 'adjustments.json'), `/rules/${i}`, catalog, problems);
  }

  const [agentScoring] = lastLayer<AgentScoring>('agent-scoring', dir, 'agent-scoring.json', problems);

  const detectors = detectorConfigs(dir, catalog, problems);
  const injection = loadInjectionRules(dir, problems);
  const [scanHistory] = lastLayer<{ flagged_risk_levels: string[] }>(
    'scan-history',
    dir,
    'scan-history.json',
    problems,
  );
  const [plans] = lastLayer<Plans>('plans', dir, 'plans.json', problems);
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
    webAccess: [...webAccessByName.values()],
    escalation: [...escalationByName.values()],
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
  // plans.json is kept out of the hash: a quota is not a verdict rule.
  return { ...body, plans, hash: sha256Hex(canonicalJson(body)) };
}

function checkRuleFacts(
  surface: DecisionSurface,
  rule: DecisionRule,
  file: string,
  pointer: string,
  catalog: PluginCatalog,
  problems: RulesProblem[],
): void {
  checkFacts(DECISION_FACTS[surface], rule.conditions, file, pointer, catalog, problems);
}

function checkFacts(
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

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** RFC 8785 canonical JSON. */
export function canonicalJson(value: unknown): string {
  // canonicalize recurses: a value nested thousands deep would overflow the stack, so it is refused first.
  if (nestsDeeperThan(value, CANONICAL_MAX_DEPTH)) throw new JsonTooDeep(CANONICAL_MAX_DEPTH);
  const out = canonicalize(value);
  if (out === undefined) throw new Error('value cannot be canonicalised');
  return out;
}

/** No lone surrogate (String.prototype.isWellFormed: node 20 has it, the TypeScript lib here predates it). */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * canonicalJson of a flat record (values: string, finite number, boolean, null or a list of strings), built in one
 * pass without the general canonicaliser's recursion and depth check: the hot paths' fact sets and memo keys are
 * such records. Byte for byte what canonicalJson gives (RFC 8785 sorts keys by UTF-16 code units, as sort() does,
 * and writes these values as JSON.stringify does); any other shape, or a string canonicalJson refuses (a lone
 * surrogate), takes canonicalJson itself.
 */
export function flatCanonicalJson(value: unknown): string {
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return canonicalJson(value);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue; // JSON (and the canonicaliser) leave undefined properties out
    let json: string;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return canonicalJson(value);
      json = JSON.stringify(v);
    } else if (typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))) {
      json = JSON.stringify(v);
    } else if (Array.isArray(v) && v.every((x) => typeof x === 'string' && wellFormed(x))) {
      json = JSON.stringify(v);
    } else {
      return canonicalJson(value);
    }
    if (!wellFormed(k)) return canonicalJson(value);
    out += `${first ? '' : ','}${JSON.stringify(k)}:${json}`;
    first = false;
  }
  return `${out}}`;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
