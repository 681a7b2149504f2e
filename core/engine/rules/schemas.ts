import { injectionPatternRulesSchema, injectionRulesSchema } from './injection-rules.ts';

/** JSON Schemas of the files under rules/. Kept in code so the loader and `npm run lint:rules` share them. */

const verdict = { enum: ['allow', 'approval_required', 'block'] } as const;

const condition = {
  $id: 'condition',
  oneOf: [
    {
      type: 'object',
      required: ['all'],
      properties: { all: { type: 'array', items: { $ref: 'condition' } }, name: { type: 'string' } },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['any'],
      properties: { any: { type: 'array', items: { $ref: 'condition' } }, name: { type: 'string' } },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['not'],
      properties: { not: { $ref: 'condition' }, name: { type: 'string' } },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['fact', 'operator', 'value'],
      properties: {
        fact: { type: 'string', minLength: 1 },
        operator: {
          enum: [
            'equal',
            'notEqual',
            'lessThan',
            'lessThanInclusive',
            'greaterThan',
            'greaterThanInclusive',
            'in',
            'notIn',
            'contains',
            'doesNotContain',
          ],
        },
        value: {},
        path: { type: 'string' },
        params: { type: 'object' },
      },
      additionalProperties: false,
    },
  ],
} as const;

/**
 * A json-rules-engine rules file: `{rules: [{name, conditions, event: {type, params}}]}`. Decision rules and score
 * adjustments share the frame and differ in their event.
 */
function rulesFileSchema(id: string, event: { type: string; params: object }, extra: object = {}) {
  return {
    $id: id,
    type: 'object',
    required: ['rules'],
    additionalProperties: false,
    properties: {
      $comment: { type: 'string' },
      rules: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'conditions', 'event'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
            ...extra,
            conditions: { $ref: 'condition' },
            event: {
              type: 'object',
              required: ['type', 'params'],
              additionalProperties: false,
              properties: { type: { const: event.type }, params: event.params },
            },
          },
        },
      },
    },
  } as const;
}

export const decisionRulesSchema = rulesFileSchema(
  'decision-rules',
  {
    type: 'verdict',
    params: {
      type: 'object',
      required: ['verdict', 'reason'],
      additionalProperties: false,
      properties: { verdict, reason: { type: 'string', minLength: 1 } },
    },
  },
  { priority: { type: 'integer', minimum: 1 } },
);

export const weightsSchema = {
  $id: 'weights',
  type: 'object',
  propertyNames: { pattern: '^(\\$comment|[a-z_]+:[A-Za-z0-9_.<>-]+)$' },
  additionalProperties: { type: 'number', minimum: 0, maximum: 100 },
  properties: { $comment: { type: 'string' } },
} as const;

export const riskLevelsSchema = {
  $id: 'risk-levels',
  type: 'object',
  required: ['low', 'medium', 'high', 'critical'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    low: { type: 'number', const: 0 },
    medium: { type: 'number', minimum: 1, maximum: 100 },
    high: { type: 'number', minimum: 1, maximum: 100 },
    critical: { type: 'number', minimum: 1, maximum: 100 },
  },
} as const;

export const conditionSchema = condition;

const hostname = {
  type: 'string',
  pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$',
} as const;

export const brandsSchema = {
  $id: 'brands',
  type: 'object',
  required: ['brands'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    brands: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'domains', 'tokens', 'oauth_hosts'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9]+$' },
          name: { type: 'string', minLength: 1 },
          domains: { type: 'array', minItems: 1, items: hostname },
          tokens: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z0-9]{3,}$' } },
          oauth_hosts: { type: 'array', items: hostname },
          cctld_variants: { type: 'boolean' },
        },
      },
    },
  },
} as const;

export const hostingSchema = {
  $id: 'hosting',
  type: 'object',
  required: ['free_hosting', 'suspicious_tlds'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    free_hosting: {
      type: 'array',
      items: {
        type: 'object',
        required: ['suffix', 'provider'],
        additionalProperties: false,
        properties: {
          suffix: hostname,
          provider: { type: 'string', minLength: 1 },
          // Path-based platforms: `suffix` is the exact host and the tenant is the path segment after this prefix.
          path_prefix: { type: 'string', pattern: '^/([^/?#]+/)*$' },
        },
      },
    },
    suspicious_tlds: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9-]+$' } },
  },
} as const;

export const toolPolicySchema = {
  $id: 'tool-policy',
  type: 'object',
  required: ['high_impact_tools'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    high_impact_tools: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 } },
  },
} as const;

const flagName = { type: 'string', pattern: '^[a-z_]+:[A-Za-z0-9_.<>-]+$' } as const;

export const compositesSchema = {
  $id: 'composites',
  type: 'object',
  required: ['composites'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    composites: {
      type: 'array',
      items: {
        type: 'object',
        required: ['flag', 'all', 'detail'],
        additionalProperties: false,
        properties: {
          flag: flagName,
          all: { type: 'array', minItems: 1, items: flagName },
          any: { type: 'array', minItems: 1, items: flagName },
          detail: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const;

export const categoriesSchema = {
  $id: 'categories',
  type: 'object',
  required: ['categories'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    categories: {
      type: 'object',
      propertyNames: { pattern: '^[a-z_]+$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          cap: { type: 'number', minimum: 0, maximum: 100 },
          weak: { type: 'boolean' },
          lure: { type: 'boolean' },
          flags: { type: 'array', items: flagName },
        },
      },
    },
  },
} as const;

/**
 * rules/agent-scoring.json: how the one Scorer scores flags on the agent surfaces (content, action, tool call,
 * email). Each switch turns on a part of the scan's arithmetic there; the screen scores a high-severity finding
 * `screen.high` and a low-severity screen at most `screen.low_max`.
 */
export const agentScoringSchema = {
  $id: 'agent-scoring',
  type: 'object',
  required: ['category_caps', 'adjustments', 'prefix_weights', 'screen'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    category_caps: { type: 'boolean' },
    adjustments: { type: 'boolean' },
    prefix_weights: { type: 'boolean' },
    screen: {
      type: 'object',
      required: ['high', 'low_max'],
      additionalProperties: false,
      properties: {
        high: { type: 'number', minimum: 0, maximum: 100 },
        low_max: { type: 'number', minimum: 0, maximum: 100 },
      },
    },
  },
} as const;

export const adjustmentsSchema = rulesFileSchema('adjustments', {
  type: 'adjustment',
  params: {
    type: 'object',
    required: ['reason', 'detail'],
    additionalProperties: false,
    // Exactly one of cap (lower to at most) or minus (subtract); both can only lower a score.
    oneOf: [
      { required: ['cap'], properties: { cap: true } },
      { required: ['minus'], properties: { minus: true } },
    ],
    properties: {
      reason: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
      detail: { type: 'string', minLength: 1 },
      cap: { type: 'number', minimum: 0, maximum: 100 },
      minus: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
    },
  },
});

const planLimits = {
  type: 'object',
  required: ['scan_quota_daily', 'rate_limit_per_minute'],
  additionalProperties: false,
  properties: {
    scan_quota_daily: { type: 'integer', minimum: 0 },
    force_scan_quota_daily: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
    rate_limit_per_minute: { type: 'integer', minimum: 1 },
  },
} as const;

export const plansSchema = {
  $id: 'plans',
  type: 'object',
  required: ['default_plan', 'plans', 'anonymous'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    default_plan: { type: 'string' },
    plans: { type: 'object', minProperties: 1, additionalProperties: planLimits },
    anonymous: planLimits,
  },
} as const;

/** rules/scan-history.json: which earlier scans count as flagged when detectors ask the scan history. */
export const scanHistorySchema = {
  $id: 'scan-history',
  type: 'object',
  required: ['flagged_risk_levels'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    flagged_risk_levels: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['low', 'medium', 'high', 'critical'] },
    },
  },
} as const;

/**
 * rules/decisions/web-access.json: the web-access evaluate rules. A person is warned, not asked for approval, so
 * the verdicts are allow | warn | block, and each rule carries the coaching message shown to that person
 * (`{domain}` and `{category}` are filled in).
 */
export const webAccessRulesSchema = rulesFileSchema(
  'web-access-rules',
  {
    type: 'verdict',
    params: {
      type: 'object',
      required: ['verdict', 'reason', 'coaching_message'],
      additionalProperties: false,
      properties: {
        verdict: { enum: ['allow', 'warn', 'block'] },
        reason: { type: 'string', minLength: 1 },
        coaching_message: { type: 'string', minLength: 1, maxLength: 600 },
      },
    },
  },
  { priority: { type: 'integer', minimum: 1 } },
);

/** rules/escalation.json: rules over scan and decision events that open a ticket at their severity. */
export const escalationRulesSchema = rulesFileSchema('escalation-rules', {
  type: 'escalate',
  params: {
    type: 'object',
    required: ['severity', 'reason'],
    additionalProperties: false,
    properties: {
      severity: { enum: ['low', 'medium', 'high', 'critical'] },
      reason: { type: 'string', minLength: 1 },
    },
  },
});

/** The static schemas by published name (`detectors` is built from the plugins' configSchemas). */
export const STATIC_SCHEMAS: Readonly<Record<string, object>> = {
  weights: weightsSchema,
  'risk-levels': riskLevelsSchema,
  'decision-rules': decisionRulesSchema,
  'web-access-rules': webAccessRulesSchema,
  'escalation-rules': escalationRulesSchema,
  brands: brandsSchema,
  hosting: hostingSchema,
  'tool-policy': toolPolicySchema,
  composites: compositesSchema,
  categories: categoriesSchema,
  adjustments: adjustmentsSchema,
  'agent-scoring': agentScoringSchema,
  'scan-history': scanHistorySchema,
  injection: injectionRulesSchema,
  'injection-patterns': injectionPatternRulesSchema,
  plans: plansSchema,
};
