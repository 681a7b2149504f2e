import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import {
  type PolicyPatch,
  policyPatchSchema,
  updatePolicy,
} from '../../core/services/agent-policy/workspace-policy.ts';
import { AgentChecks } from '../../core/services/checks/agent-checks.ts';
import { ToolPinStore } from '../../core/services/tool-pins/tool-pin-store.ts';
import { callContext, policyOf, principalOf, scanWorkspaceOf } from '../call-context.ts';
import { HttpError } from '../errors.ts';
import { requireAgentChecks, requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { parseCheckActionRequest } from '../requests/check-action.ts';
import { parseCheckContentRequest } from '../requests/check-content.ts';
import { parseGuardrailRequest } from '../requests/guardrail.ts';
import { compileBody } from '../requests/validation.ts';
import { handleMcp } from './mcp.ts';
import { approveTools, withToolPins } from './tool-pins.ts';

const parsePolicyPatch = compileBody<PolicyPatch>(policyPatchSchema);

export function agentRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const checks = app.container.resolve(AgentChecks);
  const pins = app.container.resolve(ToolPinStore);
  const router = new Router({ prefix: '/agent' });

  // The key is checked from the headers before any body is read (jsonBody runs per route, after this).
  router.use(requireKey(knex, ['admin', 'agent']), requireAgentChecks);
  const readBody = jsonBody(app.config);

  router.post('/check-content', readBody, async (ctx) => {
    const input = parseCheckContentRequest(ctx.request.body);
    ctx.body = await checks.content(input, callContext(ctx, 'POST /agent/check-content'));
  });

  router.post('/check-action', readBody, async (ctx) => {
    const input = parseCheckActionRequest(ctx.request.body);
    ctx.body = await checks.action(
      input,
      callContext(ctx, 'POST /agent/check-action'),
      policyOf(ctx),
      scanWorkspaceOf(ctx),
    );
  });

  router.post('/guardrail', readBody, async (ctx) => {
    const request = parseGuardrailRequest(ctx.request.body);
    ctx.body = await checks.guardrail(
      request,
      callContext(ctx, 'POST /agent/guardrail'),
      policyOf(ctx),
      scanWorkspaceOf(ctx),
    );
  });

  router.get('/policy', async (ctx) => {
    const principal = principalOf(ctx);
    ctx.body = await withToolPins(ctx, pins, checks.policyView(policyOf(ctx), principal.workspace));
  });

  router.put('/policy', readBody, async (ctx) => {
    const principal = principalOf(ctx);
    if (principal.role !== 'admin') throw new HttpError(403, 'forbidden', 'Changing the policy needs an admin key');
    const patch = parsePolicyPatch(ctx.request.body);
    await approveTools(ctx, pins, patch);
    const next = await updatePolicy(knex, principal.workspace.id, patch);
    ctx.body = await withToolPins(ctx, pins, checks.policyView(next, principal.workspace));
  });

  router.post('/mcp', jsonBody(app.config, { jsonRpc: true }), async (ctx) => {
    await handleMcp(ctx, checks);
  });

  return router;
}
