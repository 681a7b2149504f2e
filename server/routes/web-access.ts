import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { INTENTS, type Intent } from '../../core/services/checks/action-check.ts';
import { WebAccessEvaluator } from '../../core/services/web-access/web-access-evaluator.ts';
import { callContext } from '../call-context.ts';
import { badRequest } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { compileBody } from '../requests/validation.ts';

interface WebAccessBody {
  url?: string;
  target?: string;
  intent?: Intent;
  page_text?: string;
}

export const webAccessBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    target: { type: 'string', minLength: 1, maxLength: 4096 },
    intent: { enum: [...INTENTS] },
    page_text: { type: 'string', maxLength: 1_000_000 },
  },
} as const;

const parseBody = compileBody<WebAccessBody>(webAccessBodySchema);

/** POST /web-access/evaluate (any workspace key): a person's browser or proxy asks before a page opens. */
export function webAccessRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const evaluator = app.container.resolve(WebAccessEvaluator);
  const router = new Router({ prefix: '/web-access' });
  router.use(requireKey(knex, ['admin', 'agent']));

  router.post('/evaluate', jsonBody(app.config), async (ctx) => {
    const body = parseBody(ctx.request.body);
    const url = body.url ?? body.target;
    if (url === undefined) throw badRequest('url is required: the address the person is opening (target is an alias)');
    parseTarget(url); // throws TargetError: a 400 through the error handler
    const input = {
      url,
      intent: body.intent ?? 'visit',
      ...(body.page_text !== undefined ? { page_text: body.page_text } : {}),
    };
    ctx.body = await evaluator.evaluate(input, callContext(ctx, 'POST /web-access/evaluate'));
  });
  return router;
}
