import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { InjectionToken } from 'tsyringe';

/**
 * rules/injection.json: where the learned injection scorer's probability turns into a verdict. `approval_required`
 * and `block` are probabilities of the model's best window; they are chosen on the validation split by
 * `npm run train:injection` for the weights named by `model_sha256` (the screen refuses thresholds made for another
 * model). `corroboration` (optional, chosen by the same run): a window the model scores from `model_p` up to
 * `approval_required` asks for approval when pattern evidence of at least `pattern_score` stands in the same segment.
 * `hidden_text` (optional, set by hand): weak phrases in hidden text count double only where the model scores the
 * hidden segment at least `model_p`.
 * rules/injection-patterns.json: the severity of each screen category and the evidence weight of each phrase
 * pattern (by pattern id; the phrases themselves stay in the plugin's patterns.json). A `rules/local/` copy of either
 * file replaces the shipped one whole. Both are part of the ruleset hash (the ruleset carries this object).
 */
export interface InjectionRules {
  model_sha256: string;
  thresholds: { approval_required: number; block: number };
  /** Two weaker signals that agree: model probability and pattern score (rules/injection.json `corroboration`). */
  corroboration?: { model_p: number; pattern_score: number };
  /** The model's agreement that lets hidden text count its weak phrases double (rules/injection.json `hidden_text`). */
  hidden_text?: { model_p: number };
  /** Category → severity of its findings (`high` blocks, `low` asks for approval). */
  severities: Record<string, 'high' | 'low'>;
  /** Pattern id → evidence weight; a pattern not listed weighs 1. */
  weights: Record<string, number>;
}

export const InjectionRules: InjectionToken<InjectionRules> = Symbol('InjectionRules');

/** A probability of the model's best window (a threshold). */
const PROBABILITY = { type: 'number', exclusiveMinimum: 0, maximum: 1 } as const;

export const injectionRulesSchema = {
  $id: 'injection',
  type: 'object',
  required: ['model_sha256', 'thresholds'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    model_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    thresholds: {
      type: 'object',
      required: ['approval_required', 'block'],
      additionalProperties: false,
      properties: {
        approval_required: PROBABILITY,
        block: PROBABILITY,
      },
    },
    corroboration: {
      type: 'object',
      required: ['model_p', 'pattern_score'],
      additionalProperties: false,
      properties: {
        model_p: PROBABILITY,
        // A pattern score of 1 fires a finding on its own: corroboration is for evidence below that.
        pattern_score: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      },
    },
    hidden_text: {
      type: 'object',
      required: ['model_p'],
      additionalProperties: false,
      properties: { model_p: PROBABILITY },
    },
  },
} as const;

export const injectionPatternRulesSchema = {
  $id: 'injection-patterns',
  type: 'object',
  required: ['severities', 'weights'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    severities: {
      type: 'object',
      propertyNames: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
      additionalProperties: { enum: ['high', 'low'] },
    },
    weights: {
      type: 'object',
      propertyNames: { type: 'string', minLength: 1 },
      additionalProperties: { type: 'number', exclusiveMinimum: 0 },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(injectionRulesSchema);
const validatePatterns = ajv.compile(injectionPatternRulesSchema);

export interface InjectionRulesProblem {
  file: string;
  pointer: string;
  message: string;
}

/** Reads `<dir>/local/<name>` if present, else `<dir>/<name>`, without `$schema`; undefined (and a problem) if unreadable. */
function readReplaced(
  dir: string,
  name: string,
  problems: InjectionRulesProblem[],
): { file: string; data: unknown } | undefined {
  let file = path.join(dir, 'local', name);
  if (!existsSync(file)) file = path.join(dir, name);
  if (!existsSync(file)) {
    problems.push({ file, pointer: '', message: 'missing' });
    return undefined;
  }
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    // `$schema` (rules/schema/*.json) is for editors: dropped before validation, so it never reaches the hash.
    if (data && typeof data === 'object' && !Array.isArray(data)) delete (data as Record<string, unknown>).$schema;
    return { file, data };
  } catch (err) {
    problems.push({ file, pointer: '', message: (err as Error).message });
    return undefined;
  }
}

/**
 * Reads the injection thresholds and the category severities and pattern weights (the local copy of each file wins);
 * problems are appended, as the ruleset loader does.
 */
export function loadInjectionRules(dir: string, problems: InjectionRulesProblem[]): InjectionRules | undefined {
  const thresholdsFile = readReplaced(dir, 'injection.json', problems);
  const patternsFile = readReplaced(dir, 'injection-patterns.json', problems);
  if (!thresholdsFile || !patternsFile) return undefined;
  let ok = true;
  for (const [{ file, data }, check] of [
    [thresholdsFile, validate],
    [patternsFile, validatePatterns],
  ] as const) {
    if (!check(data)) {
      for (const e of check.errors ?? []) {
        problems.push({ file, pointer: e.instancePath || '/', message: e.message ?? 'invalid' });
      }
      ok = false;
    }
  }
  if (!ok) return undefined;
  const rules = thresholdsFile.data as Pick<
    InjectionRules,
    'model_sha256' | 'thresholds' | 'corroboration' | 'hidden_text'
  >;
  if (rules.thresholds.approval_required > rules.thresholds.block) {
    problems.push({
      file: thresholdsFile.file,
      pointer: '/thresholds',
      message: 'approval_required must not exceed block',
    });
    return undefined;
  }
  if (rules.corroboration && rules.corroboration.model_p >= rules.thresholds.approval_required) {
    problems.push({
      file: thresholdsFile.file,
      pointer: '/corroboration/model_p',
      message: 'model_p must be below thresholds.approval_required (the model alone already asks for approval there)',
    });
    return undefined;
  }
  const patterns = patternsFile.data as Pick<InjectionRules, 'severities' | 'weights'>;
  return {
    model_sha256: rules.model_sha256,
    thresholds: { ...rules.thresholds },
    ...(rules.corroboration ? { corroboration: { ...rules.corroboration } } : {}),
    ...(rules.hidden_text ? { hidden_text: { ...rules.hidden_text } } : {}),
    severities: { ...patterns.severities },
    weights: { ...patterns.weights },
  };
}
