import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { type EmailInput, EmailProtector } from '../../core/services/email/email-protector.ts';
import { callContext } from '../call-context.ts';
import { badRequest } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { compileBody } from '../requests/validation.ts';

const header = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;

export const emailProtectBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    raw: { type: 'string', minLength: 1, description: 'The whole RFC 5322 message (headers and body).' },
    from: header(1000),
    reply_to: header(2000),
    return_path: header(1000),
    subject: { type: 'string', maxLength: 2000 },
    text: { type: 'string' },
    html: { type: 'string' },
    authentication_results: { type: 'string', maxLength: 10_000 },
    attachments: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['filename', 'content_type'],
        additionalProperties: false,
        properties: {
          filename: header(500),
          content_type: header(200),
          size: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
} as const;

const parseBody = compileBody<Record<string, unknown>>(emailProtectBodySchema);

/** POST /email/protect (any workspace key): a raw message or its parsed fields → verdict, flags, reasons. */
export function emailRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const protector = app.container.resolve(EmailProtector);
  const router = new Router({ prefix: '/email' });
  router.use(requireKey(knex, ['admin', 'agent']));

  router.post('/protect', jsonBody(app.config), async (ctx) => {
    const body = parseBody(ctx.request.body);
    const fields = Object.keys(body).filter((k) => k !== 'raw');
    if (body.raw !== undefined && fields.length > 0) {
      throw badRequest(`send either raw or parsed fields, not both (got raw and ${fields.join(', ')})`);
    }
    if (body.raw === undefined && body.from === undefined) {
      throw badRequest('raw (the RFC 5322 message) or from (with the other parsed fields) is required');
    }
    ctx.body = await protector.protect(body as unknown as EmailInput, callContext(ctx, 'POST /email/protect'));
  });
  return router;
}
