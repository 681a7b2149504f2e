import { conditionSchema, STATIC_SCHEMAS } from './schemas.ts';

/**
 * How `rules/local/<file>` combines with the shipped `rules/<file>`:
 * - `by-flag`: key by key (flag id), over the plugins' own defaults;
 * - `by-key`: key by key (e.g. one risk threshold);
 * - `by-rule-name`: rule by rule; a local rule with a shipped rule's `name` replaces it, others are added;
 * - `by-plugin-id`: settings merged per plugin, over the plugin's `defaultConfig`;
 * - `replace`: the local file replaces the shipped one whole (lists with no natural merge key).
 */
export type MergeMode = 'by-flag' | 'by-key' | 'by-rule-name' | 'by-plugin-id' | 'replace';

export interface RulesFile {
  /** Path under rules/. */
  file: string;
  /** The schema it is validated against: rules/schema/<schema>.json (emitted by `npm run rules:schemas`). */
  schema: string;
  merge: MergeMode;
  /** Part of `ruleset_hash`. */
  hashed: boolean;
  /** The shipped file must exist. */
  required: boolean;
}

/**
 * Every rules file the loader reads, its schema and merge mode: the loader (core/engine/rules/ruleset.ts through
 * rules-layers.ts) takes schema, `required` and merge mode from here and refuses to merge a file another way.
 */
export const RULES_FILES: readonly RulesFile[] = [
  { file: 'weights.json', schema: 'weights', merge: 'by-flag', hashed: true, required: false },
  { file: 'risk-levels.json', schema: 'risk-levels', merge: 'by-key', hashed: true, required: true },
  { file: 'decisions/content.json', schema: 'decision-rules', merge: 'by-rule-name', hashed: true, required: true },
  { file: 'decisions/action.json', schema: 'decision-rules', merge: 'by-rule-name', hashed: true, required: true },
  { file: 'decisions/tool-call.json', schema: 'decision-rules', merge: 'by-rule-name', hashed: true, required: true },
  { file: 'decisions/url-verdict.json', schema: 'decision-rules', merge: 'by-rule-name', hashed: true, required: true },
  {
    file: 'decisions/web-access.json',
    schema: 'web-access-rules',
    merge: 'by-rule-name',
    hashed: true,
    required: true,
  },
  { file: 'escalation.json', schema: 'escalation-rules', merge: 'by-rule-name', hashed: true, required: false },
  { file: 'brands.json', schema: 'brands', merge: 'replace', hashed: true, required: true },
  { file: 'hosting.json', schema: 'hosting', merge: 'replace', hashed: true, required: true },
  { file: 'tool-policy.json', schema: 'tool-policy', merge: 'replace', hashed: true, required: true },
  { file: 'composites.json', schema: 'composites', merge: 'replace', hashed: true, required: true },
  { file: 'categories.json', schema: 'categories', merge: 'replace', hashed: true, required: true },
  { file: 'adjustments.json', schema: 'adjustments', merge: 'replace', hashed: true, required: true },
  { file: 'agent-scoring.json', schema: 'agent-scoring', merge: 'replace', hashed: true, required: true },
  { file: 'scan-history.json', schema: 'scan-history', merge: 'replace', hashed: true, required: true },
  { file: 'detectors.json', schema: 'detectors', merge: 'by-plugin-id', hashed: true, required: false },
  { file: 'injection.json', schema: 'injection', merge: 'replace', hashed: true, required: true },
  {
    file: 'injection-patterns.json',
    schema: 'injection-patterns',
    merge: 'replace',
    hashed: true,
    required: true,
  },
  { file: 'plans.json', schema: 'plans', merge: 'replace', hashed: false, required: true },
];

/** A plugin's settings schema, for the `detectors` schema. */
export interface PluginSettings {
  id: string;
  configSchema?: Record<string, unknown>;
}

/** detectors.json: `{"<plugin id>": {…settings…}}`, each against the plugin's own configSchema. */
export function detectorsSchema(plugins: readonly PluginSettings[]): object {
  const properties: Record<string, unknown> = { $comment: { type: 'string' } };
  for (const p of [...plugins].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (p.configSchema) properties[p.id] = p.configSchema;
  }
  return { $id: 'detectors', type: 'object', additionalProperties: false, properties };
}

/**
 * A schema as published under rules/schema/: self-contained (the shared condition schema inlined under
 * `definitions`), draft-07 like the loader's ajv, and accepting the `$schema` key editors read (the loader drops
 * that key before validating, so it never reaches the ruleset or its hash).
 */
export function publishedSchema(name: string, schema: object): Record<string, unknown> {
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (k === '$id') continue;
        out[k] = k === '$ref' && x === 'condition' ? '#/definitions/condition' : rewrite(x);
      }
      return out;
    }
    return v;
  };
  const body = rewrite(schema) as Record<string, unknown>;
  const usesCondition = JSON.stringify(schema).includes('"$ref":"condition"');
  const properties = { $schema: { type: 'string' }, ...(body.properties as Record<string, unknown> | undefined) };
  const propertyNames = body.propertyNames as { pattern?: string } | undefined;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `Preflight rules: ${name}`,
    ...body,
    ...(propertyNames?.pattern
      ? { propertyNames: { pattern: propertyNames.pattern.replace('^(\\$comment|', '^(\\$comment|\\$schema|') } }
      : {}),
    properties,
    ...(usesCondition ? { definitions: { condition: rewrite(conditionSchema) } } : {}),
  };
}

/** Every published schema, by name. */
export function allPublishedSchemas(plugins: readonly PluginSettings[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(STATIC_SCHEMAS)) out[name] = publishedSchema(name, schema);
  out.detectors = publishedSchema('detectors', detectorsSchema(plugins));
  return out;
}

/** The bytes of rules/schema/<name>.json. */
export function schemaFileText(schema: object): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
