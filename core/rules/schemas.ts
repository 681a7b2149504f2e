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

export const decisionRulesSchema = {
  $id: 'decision-rules',
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
          priority: { type: 'integer', minimum: 1 },
          conditions: { $ref: 'condition' },
          event: {
            type: 'object',
            required: ['type', 'params'],
            additionalProperties: false,
            properties: {
              type: { const: 'verdict' },
              params: {
                type: 'object',
                required: ['verdict', 'reason'],
                additionalProperties: false,
                properties: { verdict, reason: { type: 'string', minLength: 1 } },
              },
            },
          },
        },
      },
    },
  },
} as const;

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
