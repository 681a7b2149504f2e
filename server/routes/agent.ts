import Router from '@koa/router';
import type { Context } from 'koa';
import type { Preflight } from '../../core/app.ts';
import { AuditWriter } from '../../core/audit/audit-writer.ts';
import { ContentCheck } from '../../core/checks/content-check.ts';
import type { CallContext } from '../../core/checks/seal.ts';
import { Knex } from '../../core/db/knex-token.ts';
import type { Principal } from '../../core/workspaces/api-keys.ts';
import { requireAgentChecks, requireKey } from '../middleware/auth.ts';
import { parseCheckContentRequest } from '../requests/check-content.ts';

export function callContext(ctx: Context, endpoint: string): CallContext {
  const principal = ctx.state.principal as Principal;
  return {
    workspaceId: principal.workspace?.id ?? null,
    actor: ctx.state.actor as string | null,
    requestId: ctx.state.requestId as string,
    endpoint,
  };
}

export function agentRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const contentCheck = app.container.resolve(ContentCheck);
  const audit = app.container.resolve(AuditWriter);
  const router = new Router({ prefix: '/agent' });

  router.use(requireKey(knex, ['admin', 'agent']), requireAgentChecks);

  router.post('/check-content', async (ctx) => {
    const input = parseCheckContentRequest(ctx.request.body);
    const { response, audit: event } = await contentCheck.check(input, callContext(ctx, 'POST /agent/check-content'));
    // The audit row commits before the verdict leaves: no decision without its record.
    if (event) await audit.write(event);
    ctx.body = response;
  });

  return router;
}
