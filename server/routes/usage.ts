import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Ruleset } from '../../core/engine/rules/ruleset.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { MAX_USAGE_DAYS, usageReport } from '../../core/services/usage/usage-report.ts';
import { principalOf } from '../call-context.ts';
import { badRequest } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { queryInt } from '../requests/query.ts';

/** GET /usage?days=N: the caller's workspace only (any key of it). */
export function usageRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const ruleset = app.container.resolve(Ruleset);
  const router = new Router();

  router.get('/usage', requireKey(knex, ['admin', 'agent']), async (ctx) => {
    for (const key of Object.keys(ctx.query)) if (key !== 'days') throw badRequest(`unsupported parameter ${key}`);
    const days = queryInt(ctx, 'days', { min: 1, max: MAX_USAGE_DAYS, fallback: 1 });
    const { workspace } = principalOf(ctx);
    ctx.body = await usageReport(knex, ruleset.plans, workspace, { days });
  });

  return router;
}
