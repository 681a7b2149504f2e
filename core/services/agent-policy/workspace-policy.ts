import type { Knex } from 'knex';
import { changedLocally } from '../workspaces/principal-cache.ts';

export type ToolPolicyMode = 'open' | 'allowlist';

/** A workspace's guardrail settings, stored as one JSON document on the workspace row. */
export interface WorkspacePolicy {
  tool_policy: { mode: ToolPolicyMode; allowed_tools: string[]; denied_tools: string[] };
  /** Sanctioned connectors; `null` = connector governance off (every connector passes this layer). */
  connectors: string[] | null;
  /** Tool names or `*` patterns that need approval; `null` = the defaults from rules/tool-policy.json. */
  high_impact_tools: string[] | null;
}

export type PolicyPatch = Partial<{
  tool_policy: Partial<WorkspacePolicy['tool_policy']>;
  connectors: string[] | null;
  high_impact_tools: string[] | null;
  /** MCP tool pinning: approve the newest definition seen of each tool (core/services/tool-pins); not stored in the policy. */
  approve_tools: { tool: string; server?: string; description_sha256?: string; input_schema_sha256?: string }[];
}>;

export const DEFAULT_POLICY: WorkspacePolicy = {
  tool_policy: { mode: 'open', allowed_tools: [], denied_tools: [] },
  connectors: null,
  high_impact_tools: null,
};

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const names = { type: 'array', maxItems: 1000, items: name } as const;

/** Body of PUT /agent/policy: any subset of the settings. */
export const policyPatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    tool_policy: {
      type: 'object',
      additionalProperties: false,
      properties: { mode: { enum: ['open', 'allowlist'] }, allowed_tools: names, denied_tools: names },
    },
    connectors: { anyOf: [names, { type: 'null' }] },
    high_impact_tools: { anyOf: [names, { type: 'null' }] },
    approve_tools: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        required: ['tool'],
        additionalProperties: false,
        properties: {
          tool: name,
          server: { type: 'string', maxLength: 200 },
          description_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          input_schema_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
      },
    },
  },
} as const;

export function withDefaults(stored: unknown): WorkspacePolicy {
  const s = (stored ?? {}) as Partial<WorkspacePolicy>;
  return {
    tool_policy: { ...DEFAULT_POLICY.tool_policy, ...s.tool_policy },
    connectors: s.connectors ?? null,
    high_impact_tools: s.high_impact_tools ?? null,
  };
}

export function applyPatch(policy: WorkspacePolicy, patch: PolicyPatch): WorkspacePolicy {
  const uniq = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
  const tp = { ...policy.tool_policy, ...patch.tool_policy };
  return {
    tool_policy: { mode: tp.mode, allowed_tools: uniq(tp.allowed_tools), denied_tools: uniq(tp.denied_tools) },
    connectors: patch.connectors === undefined ? policy.connectors : patch.connectors && uniq(patch.connectors),
    high_impact_tools:
      patch.high_impact_tools === undefined
        ? policy.high_impact_tools
        : patch.high_impact_tools && uniq(patch.high_impact_tools),
  };
}

export async function readPolicy(knex: Knex, workspaceId: string): Promise<WorkspacePolicy> {
  const row = await knex('workspaces').where({ id: workspaceId }).first('agent_policy');
  return withDefaults(row?.agent_policy);
}

/** Read-modify-write under a row lock, so two concurrent admins do not lose each other's change. */
export async function updatePolicy(knex: Knex, workspaceId: string, patch: PolicyPatch): Promise<WorkspacePolicy> {
  const next = await knex.transaction(async (trx) => {
    const row = await trx('workspaces').where({ id: workspaceId }).forUpdate().first('agent_policy');
    const next = applyPatch(withDefaults(row?.agent_policy), patch);
    await trx('workspaces')
      .where({ id: workspaceId })
      .update({ agent_policy: JSON.stringify(next) });
    return next;
  });
  // This process applies its own change at once; other processes hear the NOTIFY the update sent.
  changedLocally(knex, `workspace:${workspaceId}`);
  return next;
}
