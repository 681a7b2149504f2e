import type { Context } from 'koa';
import { type WorkspacePolicy, withDefaults } from '../core/services/agent-policy/workspace-policy.ts';
import type { CallContext } from '../core/services/checks/seal.ts';
import type { Principal } from '../core/services/workspaces/api-keys.ts';

/** What the auth middleware established about the caller of an /agent route. */
export function principalOf(ctx: Context): Principal & { workspace: NonNullable<Principal['workspace']> } {
  return ctx.state.principal as Principal & { workspace: NonNullable<Principal['workspace']> };
}

export function callContext(ctx: Context, endpoint: string): CallContext {
  return {
    workspaceId: principalOf(ctx).workspace.id,
    actor: ctx.state.actor as string | null,
    requestId: ctx.state.requestId as string,
    endpoint,
  };
}

export function policyOf(ctx: Context): WorkspacePolicy {
  return withDefaults(principalOf(ctx).workspace.agentPolicy);
}

/** The workspace facts a deep check (a full scan) needs: plan for quotas, campaign tagging. */
export function scanWorkspaceOf(ctx: Context): { plan: string; campaignTaggingEnabled: boolean } {
  const { workspace } = principalOf(ctx);
  return { plan: workspace.plan, campaignTaggingEnabled: workspace.campaignTaggingEnabled };
}
