import Router from '@koa/router';
import { type PolicyPatch, policyPatchSchema, updatePolicy } from '../../core/agent-policy/workspace-policy.ts';
import type { Preflight } from '../../core/app.ts';
import { AgentChecks } from '../../core/checks/agent-checks.ts';
import { Knex } from '../../core/db/knex-token.ts';
import { callContext, policyOf, principalOf, scanWorkspaceOf } from '../call-context.ts';
import { HttpError } from '../errors.ts';
import { requireAgentChecks, requireKey } from '../middleware/auth.ts';
import { parseCheckActionRequest } from '../requests/check-action.ts';
import { parseCheckContentRequest } from '../requests/check-content.ts';
import { parseGuardrailRequest } from '../requests/guardrail.ts';
import { compileBody } from '../requests/validation.ts';
import { handleMcp } from './mcp.ts';

const parsePolicyPatch = compileBody<PolicyPatch>(policyPatchSchema);

export function agentRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const checks = app.container.resolve(AgentChecks);
  const router = new Router({ prefix: '/agent' });

  router.use(requireKey(knex, ['admin', 'agent']), requireAgentChecks);

  router.post('/check-content', async (ctx) => {
    const input = parseCheckContentRequest(ctx.request.body);
    ctx.body = await checks.content(input, callContext(ctx, 'POST /agent/check-content'));
  });

  router.post('/check-action', async (ctx) => {
    const input = parseCheckActionRequest(ctx.request.body);
    ctx.body = await checks.action(
      input,
      callContext(ctx, 'POST /agent/check-action'),
      policyOf(ctx),
      scanWorkspaceOf(ctx),
    );
  });

  router.post('/guardrail', async (ctx) => {
    const request = parseGuardrailRequest(ctx.request.body);
    ctx.body = await checks.guardrail(
      request,
      callContext(ctx, 'POST /agent/guardrail'),
      policyOf(ctx),
      scanWorkspaceOf(ctx),
    );
  });

  router.get('/policy', (ctx) => {
    const principal = principalOf(ctx);
    ctx.body = checks.policyView(policyOf(ctx), principal.workspace);
  });

  router.put('/policy', async (ctx) => {
    const principal = principalOf(ctx);
    if (principal.role !== 'admin') throw new HttpError(403, 'forbidden', 'Changing the policy needs an admin key');
    const patch = parsePolicyPatch(ctx.request.body);
    const next = await updatePolicy(knex, principal.workspace.id, patch);
    ctx.body = checks.policyView(next, principal.workspace);
  });

  router.post('/mcp', async (ctx) => {
    await handleMcp(ctx, checks);
  });

  return router;
}
