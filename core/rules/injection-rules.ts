import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { InjectionToken } from 'tsyringe';

/**
 * rules/injection.json: where the learned injection scorer's probability turns into a verdict. `approval_required`
 * and `block` are probabilities of the model's best window; they are chosen on the validation split by
 * `npm run train:injection` for the weights named by `model_sha256` (the screen refuses thresholds made for another
 * model). A `rules/local/injection.json` replaces the shipped file whole. Part of the ruleset hash.
 */
export interface InjectionRules {
  model_sha256: string;
  thresholds: { approval_required: number; block: number };
}

export const InjectionRules: InjectionToken<InjectionRules> = Symbol('InjectionRules');

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
        approval_required: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        block: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: true }).compile(injectionRulesSchema);

export interface InjectionRulesProblem {
  file: string;
  pointer: string;
  message: string;
}

/** Reads the injection thresholds (the local copy wins); problems are appended, as the ruleset loader does. */
export function loadInjectionRules(dir: string, problems: InjectionRulesProblem[]): InjectionRules | undefined {
  let file = path.join(dir, 'local', 'injection.json');
  if (!existsSync(file)) file = path.join(dir, 'injection.json');
  if (!existsSync(file)) {
    problems.push({ file, pointer: '', message: 'missing' });
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
    // `$schema` (rules/schema/injection.json) is for editors: dropped before validation, so it never reaches the hash.
    if (data && typeof data === 'object' && !Array.isArray(data)) delete (data as Record<string, unknown>).$schema;
  } catch (err) {
    problems.push({ file, pointer: '', message: (err as Error).message });
    return undefined;
  }
  if (!validate(data)) {
    for (const e of validate.errors ?? []) {
      problems.push({ file, pointer: e.instancePath || '/', message: e.message ?? 'invalid' });
    }
    return undefined;
  }
  const rules = data as InjectionRules & { $comment?: string };
  if (rules.thresholds.approval_required > rules.thresholds.block) {
    problems.push({ file, pointer: '/thresholds', message: 'approval_required must not exceed block' });
    return undefined;
  }
  return { model_sha256: rules.model_sha256, thresholds: { ...rules.thresholds } };
}
