import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import {
  TICKET_SEVERITIES,
  TICKET_STATUSES,
  TicketService,
  type TicketSeverity,
  type TicketSource,
  TicketSourceNotFound,
  TicketSourceNotReady,
  type TicketStatus,
} from '../../core/services/tickets/ticket-service.ts';
import { principalOf } from '../call-context.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { queryInt } from '../requests/query.ts';
import { compileBody } from '../requests/validation.ts';

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;

interface OpenBody {
  scan_id?: number;
  job_id?: number;
  decision_id?: string;
  title?: string;
  severity?: TicketSeverity;
  note?: string;
  assignee?: string;
  external_ref?: string;
}

export const openTicketBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scan_id: { type: 'integer', minimum: 1, description: 'A stored scan (the scan_id of POST /v1/scan).' },
    job_id: { type: 'integer', minimum: 1, description: 'A finished scan job (the scan_id of POST /scan_async).' },
    decision_id: { type: 'string', format: 'uuid', description: 'A signed decision (decision.id of a check).' },
    title: text(300),
    severity: { enum: [...TICKET_SEVERITIES] },
    note: text(4000),
    assignee: text(200),
    external_ref: text(500),
  },
} as const;

export const patchTicketBodySchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    status: { enum: [...TICKET_STATUSES] },
    note: text(4000),
    assignee: { anyOf: [text(200), { type: 'null' }] },
    external_ref: { anyOf: [text(500), { type: 'null' }] },
  },
} as const;

const parseOpen = compileBody<OpenBody>(openTicketBodySchema);
const parsePatch = compileBody<{
  status?: TicketStatus;
  note?: string;
  assignee?: string | null;
  external_ref?: string | null;
}>(patchTicketBodySchema);

function listOf<T extends string>(raw: unknown, allowed: readonly T[], name: string): T[] | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest(`${name} must be given once`);
  const values = raw.split(',').map((s) => s.trim());
  for (const v of values) {
    if (!allowed.includes(v as T))
      throw badRequest(`${name} must be a comma-separated subset of ${allowed.join(', ')}`);
  }
  return values as T[];
}

/** The ticket bridge: case-management tickets from scans and decisions, in the caller's workspace only. */
export function ticketRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const tickets = app.container.resolve(TicketService);
  const router = new Router({ prefix: '/ticketbridge/tickets' });
  router.use(requireKey(knex, ['admin', 'agent']));
  const body = jsonBody(app.config);
  const who = (ctx: Parameters<Parameters<Router['get']>[1]>[0]) => {
    const actor = ctx.state.actor as string | null;
    return `api:${principalOf(ctx).keyPrefix}${actor ? ` (${actor})` : ''}`;
  };

  router.post('/', body, async (ctx) => {
    const req = parseOpen(ctx.request.body);
    const given = [req.scan_id, req.job_id, req.decision_id].filter((x) => x !== undefined).length;
    if (given !== 1) throw badRequest('give exactly one of scan_id, job_id or decision_id');
    const source: TicketSource =
      req.scan_id !== undefined
        ? { scan_id: req.scan_id }
        : req.job_id !== undefined
          ? { job_id: req.job_id }
          : { decision_id: req.decision_id! };
    try {
      const { ticket, created } = await tickets.open(principalOf(ctx).workspace.id, {
        source,
        ...(req.title !== undefined ? { title: req.title } : {}),
        ...(req.severity !== undefined ? { severity: req.severity } : {}),
        ...(req.note !== undefined ? { note: req.note } : {}),
        ...(req.assignee !== undefined ? { assignee: req.assignee } : {}),
        ...(req.external_ref !== undefined ? { external_ref: req.external_ref } : {}),
        actor: ctx.state.actor as string | null,
        opened_by: who(ctx),
      });
      ctx.status = created ? 201 : 200;
      ctx.set('Location', `/ticketbridge/tickets/${ticket.ticket_id}`);
      ctx.body = { ...ticket, created };
    } catch (err) {
      if (err instanceof TicketSourceNotFound) throw notFound(err.message);
      if (err instanceof TicketSourceNotReady) throw new HttpError(409, 'conflict', err.message);
      throw err;
    }
  });

  router.get('/', async (ctx) => {
    const q = ctx.query;
    const limit = queryInt(ctx, 'limit', { min: 1, max: 200, fallback: 25 });
    for (const k of Object.keys(q)) {
      if (!['limit', 'status', 'severity'].includes(k)) throw badRequest(`unsupported parameter ${k}`);
    }
    const status = listOf(q.status, TICKET_STATUSES, 'status');
    const severity = listOf(q.severity, TICKET_SEVERITIES, 'severity');
    ctx.body = await tickets.list(principalOf(ctx).workspace.id, {
      limit,
      ...(status ? { status } : {}),
      ...(severity ? { severity } : {}),
    });
  });

  router.get('/:id', async (ctx) => {
    const ticket = await tickets.get(principalOf(ctx).workspace.id, ctx.params.id!);
    if (!ticket) throw notFound('No such ticket in this workspace');
    ctx.body = ticket;
  });

  router.patch('/:id', body, async (ctx) => {
    const patch = parsePatch(ctx.request.body);
    const ticket = await tickets.update(principalOf(ctx).workspace.id, ctx.params.id!, patch, who(ctx));
    if (!ticket) throw notFound('No such ticket in this workspace');
    ctx.body = ticket;
  });
  return router;
}
