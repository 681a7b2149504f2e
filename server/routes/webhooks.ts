import Router from '@koa/router';
import type { Context } from 'koa';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { EVENT_TYPES, type EventType } from '../../core/platform/events/event-bus.ts';
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  WebhookService,
} from '../../core/services/webhooks/webhook-service.ts';
import { principalOf } from '../call-context.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { queryInt } from '../requests/query.ts';
import { compileBody } from '../requests/validation.ts';

const url = { type: 'string', minLength: 1, maxLength: 2048, pattern: '^https?://' } as const;
const eventTypes = { type: 'array', minItems: 1, maxItems: 20, items: { enum: [...EVENT_TYPES] } } as const;

export const createEndpointBodySchema = {
  type: 'object',
  required: ['url', 'event_types'],
  additionalProperties: false,
  properties: { url, event_types: eventTypes, description: { type: 'string', maxLength: 500 } },
} as const;

export const patchEndpointBodySchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    url,
    event_types: eventTypes,
    description: { anyOf: [{ type: 'string', maxLength: 500 }, { type: 'null' }] },
    enabled: { type: 'boolean' },
  },
} as const;

const parseCreate = compileBody<{ url: string; event_types: EventType[]; description?: string }>(
  createEndpointBodySchema,
);
const parsePatch = compileBody<{
  url?: string;
  event_types?: EventType[];
  description?: string | null;
  enabled?: boolean;
}>(patchEndpointBodySchema);

/** A URL the endpoint can be: http(s), no credentials in it (they would be logged and shown back). */
function checkUrl(raw: string | undefined): void {
  if (raw === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw badRequest('url must be an absolute http or https URL');
  }
  if (parsed.username || parsed.password)
    throw badRequest('url must not carry credentials; the signature authenticates');
}

const requireAdmin = (ctx: Context) => {
  if (principalOf(ctx).role !== 'admin') throw new HttpError(403, 'forbidden', 'Managing webhooks needs an admin key');
};

/** Signed webhooks: endpoints (admin keys manage them), the delivery log and redelivery (any workspace key). */
export function webhookRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const hooks = app.container.resolve(WebhookService);
  const router = new Router({ prefix: '/webhooks' });
  router.use(requireKey(knex, ['admin', 'agent']));
  const body = jsonBody(app.config);
  const ws = (ctx: Context) => principalOf(ctx).workspace.id;

  router.post('/endpoints', body, async (ctx) => {
    requireAdmin(ctx);
    const req = parseCreate(ctx.request.body);
    checkUrl(req.url);
    const endpoint = await hooks.createEndpoint(ws(ctx), req);
    ctx.status = 201;
    ctx.set('Location', `/webhooks/endpoints/${endpoint.id}`);
    ctx.body = endpoint;
  });

  router.get('/endpoints', async (ctx) => {
    ctx.body = { endpoints: await hooks.listEndpoints(ws(ctx)) };
  });

  router.get('/endpoints/:id', async (ctx) => {
    const endpoint = await hooks.getEndpoint(ws(ctx), ctx.params.id!);
    if (!endpoint) throw notFound('No such webhook endpoint in this workspace');
    ctx.body = endpoint;
  });

  router.patch('/endpoints/:id', body, async (ctx) => {
    requireAdmin(ctx);
    const patch = parsePatch(ctx.request.body);
    checkUrl(patch.url);
    const endpoint = await hooks.updateEndpoint(ws(ctx), ctx.params.id!, patch);
    if (!endpoint) throw notFound('No such webhook endpoint in this workspace');
    ctx.body = endpoint;
  });

  router.delete('/endpoints/:id', async (ctx) => {
    requireAdmin(ctx);
    if (!(await hooks.deleteEndpoint(ws(ctx), ctx.params.id!))) {
      throw notFound('No such webhook endpoint in this workspace');
    }
    ctx.status = 204;
  });

  router.get('/deliveries', async (ctx) => {
    const q = ctx.query;
    for (const k of Object.keys(q)) {
      if (!['limit', 'status', 'endpoint_id', 'event_type'].includes(k)) throw badRequest(`unsupported parameter ${k}`);
    }
    const limit = queryInt(ctx, 'limit', { min: 1, max: 200, fallback: 25 });
    let status: DeliveryStatus[] | undefined;
    if (q.status !== undefined) {
      if (typeof q.status !== 'string') throw badRequest('status must be given once');
      status = q.status.split(',') as DeliveryStatus[];
      if (!status.every((s) => DELIVERY_STATUSES.includes(s))) {
        throw badRequest(`status must be a comma-separated subset of ${DELIVERY_STATUSES.join(', ')}`);
      }
    }
    for (const k of ['endpoint_id', 'event_type'] as const) {
      if (q[k] !== undefined && typeof q[k] !== 'string') throw badRequest(`${k} must be given once`);
    }
    if (q.endpoint_id !== undefined && !/^[0-9a-f-]{36}$/i.test(q.endpoint_id as string)) {
      throw badRequest('endpoint_id must be a UUID');
    }
    ctx.body = await hooks.listDeliveries(ws(ctx), {
      limit,
      ...(status ? { status } : {}),
      ...(q.endpoint_id ? { endpoint_id: q.endpoint_id as string } : {}),
      ...(q.event_type ? { event_type: q.event_type as string } : {}),
    });
  });

  router.get('/deliveries/:id', async (ctx) => {
    const delivery = await hooks.getDelivery(ws(ctx), ctx.params.id!);
    if (!delivery) throw notFound('No such delivery in this workspace');
    ctx.body = delivery;
  });

  router.post('/deliveries/:id/redeliver', async (ctx) => {
    const delivery = await hooks.redeliver(ws(ctx), ctx.params.id!);
    if (!delivery) throw notFound('No such delivery in this workspace');
    if (delivery === 'in_flight') {
      throw new HttpError(409, 'conflict', 'The delivery is still pending or retrying; redeliver it once it finished');
    }
    ctx.status = 202;
    ctx.body = delivery;
  });
  return router;
}
