import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { listPublicKeys } from '../../core/services/signing/signing-keys.ts';
import { HttpError } from '../errors.ts';

/** Routes without auth: liveness, readiness, and the public keys verifiers need. */
export function publicRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    try {
      await knex.raw('select 1');
    } catch {
      throw new HttpError(503, 'not_ready', 'Database is not reachable');
    }
    ctx.body = { status: 'ready' };
  });

  router.get('/agent/decision-keys', async (ctx) => {
    ctx.body = { keys: await listPublicKeys(knex) };
  });

  return router;
}
