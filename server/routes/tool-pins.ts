import type { Context } from 'koa';
import type { PolicyPatch } from '../../core/services/agent-policy/workspace-policy.ts';
import { ToolPinMismatch, ToolPinNotFound, type ToolPinStore } from '../../core/services/tool-pins/tool-pin-store.ts';
import { principalOf } from '../call-context.ts';
import { HttpError } from '../errors.ts';

/**
 * `approve_tools` of PUT /agent/policy: an admin approves the newest definition seen of each named tool. An unknown
 * tool is a 404; hashes that do not name the newest definition are a 409 (the admin reviewed something else).
 */
export async function approveTools(ctx: Context, store: ToolPinStore, patch: PolicyPatch): Promise<void> {
  const principal = principalOf(ctx);
  const actor = ctx.state.actor as string | null;
  const by = `admin:${principal.keyPrefix}${actor ? ` (${actor})` : ''}`;
  for (const ref of patch.approve_tools ?? []) {
    try {
      await store.approve(principal.workspace.id, ref, by);
    } catch (err) {
      if (err instanceof ToolPinNotFound) throw new HttpError(404, 'not_found', err.message);
      if (err instanceof ToolPinMismatch) throw new HttpError(409, 'conflict', err.message);
      throw err;
    }
  }
}

/** GET/PUT /agent/policy answer with the workspace's tool pins as well. */
export async function withToolPins<T extends object>(ctx: Context, store: ToolPinStore, view: T) {
  return { ...view, tool_pins: await store.list(principalOf(ctx).workspace.id) };
}
