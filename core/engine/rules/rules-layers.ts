import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { RULES_FILES, type RulesFile } from './rules-files.ts';
import type { RulesProblem } from './ruleset.ts';
import { conditionSchema, STATIC_SCHEMAS } from './schemas.ts';

// Reading one row of RULES_FILES: the shipped file and its rules/local/ override, each validated against the row's
// schema, combined by the row's merge mode. What a file means (unknown flags, facts, thresholds) is the loader's.

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addSchema(conditionSchema);
// One validator per published schema name (the `schema` column of RULES_FILES); injection.json has its own loader.
const validators: Record<string, ValidateFunction> = Object.fromEntries(
  Object.entries(STATIC_SCHEMAS)
    .filter(([name]) => name !== 'injection')
    .map(([name, schema]) => [name, ajv.compile(schema)]),
);

export function rulesFile(file: string): RulesFile {
  const entry = RULES_FILES.find((f) => f.file === file);
  if (!entry) throw new Error(`${file} is not in RULES_FILES`);
  return entry;
}

function readJson(full: string, problems: RulesProblem[]): unknown {
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

export function schemaProblems(file: string, errors: ErrorObject[] | null | undefined): RulesProblem[] {
  return (errors ?? []).map((e) => ({
    file,
    pointer: e.instancePath || '/',
    message: `${e.message ?? 'invalid'}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  }));
}

export interface Layer {
  /** Full path of the file this layer came from. */
  file: string;
  data: unknown;
}

/**
 * `<dir>/<file>` and, when present, `<dir>/local/<file>` (per-deployment overrides, git-ignored), parsed. A file that
 * does not parse is a problem and comes back with `data` undefined.
 */
export function layers(dir: string, entry: RulesFile, problems: RulesProblem[]): Layer[] {
  const out: Layer[] = [];
  for (const base of [dir, path.join(dir, 'local')]) {
    const file = path.join(base, entry.file);
    if (!existsSync(file)) {
      if (entry.required && base === dir) problems.push({ file, pointer: '', message: 'missing' });
      continue;
    }
    out.push({ file, data: readJson(file, problems) });
  }
  return out;
}

/**
 * The layers that parse and pass the row's schema, in order (shipped first); the others are problems. Lazy, so a
 * merge's own checks of one layer report before the next layer's schema problems.
 */
function* validLayers(dir: string, entry: RulesFile, problems: RulesProblem[]): Generator<Layer> {
  const validate = validators[entry.schema];
  if (!validate) throw new Error(`${entry.file}: no static schema ${entry.schema}`);
  for (const layer of layers(dir, entry, problems)) {
    if (layer.data === undefined) continue;
    if (validate(layer.data)) yield layer;
    else problems.push(...schemaProblems(layer.file, validate.errors));
  }
}

/** `replace`: the last valid layer whole (a local copy replaces the shipped one). */
export function replaced<T>(dir: string, file: string, problems: RulesProblem[]): T | undefined {
  let out: T | undefined;
  for (const layer of validLayers(dir, mode(file, 'replace'), problems)) out = layer.data as T;
  return out;
}

/** `by-key`: the valid layers' keys, later over earlier. */
export function mergedByKey<T extends object>(dir: string, file: string, problems: RulesProblem[]): T | undefined {
  const entry = mode(file, 'by-key');
  let out: T | undefined;
  for (const layer of validLayers(dir, entry, problems)) out = { ...out, ...(layer.data as T) };
  return out;
}

/**
 * `by-flag`: the valid layers' entries (`$comment` aside), later over earlier; `accept` vets each one against the
 * catalog (an unknown flag is its problem) and a refused entry is left out.
 */
export function mergedByFlag(
  dir: string,
  file: string,
  problems: RulesProblem[],
  accept: (flag: string, layerFile: string) => boolean,
): Record<string, unknown> {
  const entry = mode(file, 'by-flag');
  const out: Record<string, unknown> = {};
  for (const layer of validLayers(dir, entry, problems)) {
    for (const [flag, value] of Object.entries(layer.data as Record<string, unknown>)) {
      if (flag === '$comment') continue;
      if (accept(flag, layer.file)) out[flag] = value;
    }
  }
  return out;
}

/**
 * `by-rule-name`: every valid layer's `rules`, a later rule replacing an earlier one of the same name; `check` sees
 * each rule with the file and JSON pointer it came from.
 */
export function mergedByRuleName<R extends { name: string }>(
  dir: string,
  file: string,
  problems: RulesProblem[],
  check: (rule: R, layerFile: string, pointer: string) => void,
): R[] {
  const entry = mode(file, 'by-rule-name');
  const byName = new Map<string, R>();
  for (const layer of validLayers(dir, entry, problems)) {
    for (const [i, rule] of (layer.data as { rules: R[] }).rules.entries()) {
      check(rule, layer.file, `/rules/${i}`);
      byName.set(rule.name, rule);
    }
  }
  return [...byName.values()];
}

function mode(file: string, merge: RulesFile['merge']): RulesFile {
  const entry = rulesFile(file);
  // The table says how a file merges; a loader reading it another way would make the README's promise false.
  if (entry.merge !== merge) throw new Error(`${file} merges ${entry.merge} in RULES_FILES, not ${merge}`);
  return entry;
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
