import { randomUUID } from 'node:crypto';
import type { JobHelpers } from 'graphile-worker';
import { inject, injectable } from 'tsyringe';
import { Knex } from '../../platform/db/knex-token.ts';
import type { EventType, WorkspaceEvent } from '../../platform/events/event-bus.ts';
import { newWebhookSecret, signWebhook } from './signing.ts';
import { type Subscription, WebhookSubscriptions } from './webhook-subscriptions.ts';
import { WebhookRefused, WebhookTransport } from './webhook-transport.ts';

/** Attempts per delivery job; graphile-worker waits exp(min(attempt, 10)) seconds between them (2.7 s … 50 min). */
export const WEBHOOK_MAX_ATTEMPTS = 8;
export const WEBHOOK_TASK = 'webhook_delivery';
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'dead_letter'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookEndpoint {
  id: string;
  url: string;
  event_types: EventType[];
  description: string | null;
  enabled: boolean;
  created_at: string;
}

export interface Attempt {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface Delivery {
  delivery_id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Per-workspace webhook endpoints, their deliveries and the graphile-worker task that sends them. */
@injectable()
export class WebhookService {
  constructor(
    @inject(Knex) private readonly knex: Knex,
    @inject(WebhookTransport) private readonly transport: WebhookTransport,
    @inject(WebhookSubscriptions) private readonly subscriptions: WebhookSubscriptions,
  ) {}

  async createEndpoint(
    workspaceId: string,
    req: { url: string; event_types: EventType[]; description?: string },
  ): Promise<WebhookEndpoint & { secret: string }> {
    const secret = newWebhookSecret();
    const [row] = await this.knex('webhook_endpoints')
      .insert({
        workspace_id: workspaceId,
        url: req.url,
        event_types: [...new Set(req.event_types)].sort(),
        secret,
        description: req.description ?? null,
      })
      .returning('*');
    this.changed(workspaceId);
    return { ...endpointView(row), secret };
  }

  async listEndpoints(workspaceId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.knex('webhook_endpoints').where({ workspace_id: workspaceId }).orderBy('created_at');
    return rows.map(endpointView);
  }

  async getEndpoint(workspaceId: string, id: string): Promise<WebhookEndpoint | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.knex('webhook_endpoints').where({ workspace_id: workspaceId, id }).first();
    return row && endpointView(row);
  }

  async updateEndpoint(
    workspaceId: string,
    id: string,
    patch: { url?: string; event_types?: EventType[]; description?: string | null; enabled?: boolean },
  ): Promise<WebhookEndpoint | undefined> {
    if (!UUID.test(id)) return undefined;
    const changes: Record<string, unknown> = { ...patch };
    if (patch.event_types) changes.event_types = [...new Set(patch.event_types)].sort();
    const [row] = await this.knex('webhook_endpoints')
      .where({ workspace_id: workspaceId, id })
      .update(changes)
      .returning('*');
    if (row) this.changed(workspaceId);
    return row && endpointView(row);
  }

  async deleteEndpoint(workspaceId: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const deleted = (await this.knex('webhook_endpoints').where({ workspace_id: workspaceId, id }).delete()) > 0;
    if (deleted) this.changed(workspaceId);
    return deleted;
  }

  /** A change this process just committed: dropped from its own cache at once (others hear the NOTIFY). */
  private changed(workspaceId: string): void {
    this.subscriptions.invalidate(`workspace:${workspaceId}`);
  }

  private async loadSubscriptions(workspaceId: string): Promise<Subscription[]> {
    return this.knex('webhook_endpoints')
      .where({ workspace_id: workspaceId, enabled: true })
      .orderBy('created_at')
      .orderBy('id')
      .select('id', 'event_types');
  }

  /**
   * The event subscriber: one delivery per enabled endpoint that wants this event type, rows and graphile-worker
   * jobs added in one transaction, so an event is either queued for every endpoint or for none.
   */
  async enqueue(event: WorkspaceEvent): Promise<void> {
    // From the subscription cache (webhook-subscriptions.ts) while it is live; a read of webhook_endpoints otherwise.
    const load = (ws: string) => this.loadSubscriptions(ws);
    const endpoints = await this.subscriptions.subscribersOf(event.workspace_id, event.type, load);
    if (endpoints.length === 0) return;
    const queued = await this.insertDeliveries(event, endpoints);
    if (queued < endpoints.length) {
      // The cache listed an endpoint deleted or disabled a moment ago (its NOTIFY still on the way): the insert
      // skipped it; read the workspace's endpoints again so the next event does not carry the stale entry.
      this.changed(event.workspace_id);
      await this.subscriptions.subscribersOf(event.workspace_id, event.type, load);
    }
  }

  /**
   * Queues one delivery per endpoint that still exists and is enabled: the rows are selected from webhook_endpoints
   * in the insert itself, so a stale cached list can never name an endpoint that is gone. Returns how many were queued.
   */
  private async insertDeliveries(event: WorkspaceEvent, endpoints: readonly Subscription[]): Promise<number> {
    const messageId = `msg_${randomUUID()}`;
    // Standard Webhooks payload shape: type, timestamp, data.
    const payload = JSON.stringify({ type: event.type, timestamp: event.occurred_at, data: event.data });
    return this.knex.transaction(async (trx) => {
      const result = await trx.raw<{ rows: { id: string }[] }>(
        `insert into webhook_deliveries (workspace_id, endpoint_id, message_id, event_type, payload, status)
         select e.workspace_id, e.id, ?, ?, ?, 'pending'
           from webhook_endpoints e
          where e.workspace_id = ? and e.enabled and e.id = any(?::uuid[])
          order by e.created_at, e.id
         returning id`,
        [messageId, event.type, payload, event.workspace_id, endpoints.map((e) => e.id)],
      );
      for (const row of result.rows) await addDeliveryJob(trx, row.id);
      return result.rows.length;
    });
  }

  async listDeliveries(
    workspaceId: string,
    filter: { endpoint_id?: string; status?: DeliveryStatus[]; event_type?: string; limit: number },
  ): Promise<{ deliveries: Delivery[]; meta: { limit: number; counts: Record<DeliveryStatus, number> } }> {
    let q = this.deliveries().where('d.workspace_id', workspaceId);
    if (filter.endpoint_id) q = q.where('d.endpoint_id', filter.endpoint_id);
    if (filter.status?.length) q = q.whereIn('d.status', filter.status);
    if (filter.event_type) q = q.where('d.event_type', filter.event_type);
    const rows = await q.orderBy('d.created_at', 'desc').orderBy('d.id').limit(filter.limit);
    const counted: { status: DeliveryStatus; n: string }[] = await this.knex('webhook_deliveries')
      .where({ workspace_id: workspaceId })
      .groupBy('status')
      .select('status', this.knex.raw('count(*) as n'));
    const counts = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
    for (const c of counted) counts[c.status] = Number(c.n);
    return { deliveries: rows.map(deliveryView), meta: { limit: filter.limit, counts } };
  }

  /** One delivery with its attempt log and the exact payload that was signed. */
  async getDelivery(
    workspaceId: string,
    id: string,
  ): Promise<(Delivery & { payload: unknown; attempt_log: Attempt[] }) | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.deliveries().where({ 'd.workspace_id': workspaceId, 'd.id': id }).first();
    return row && { ...deliveryView(row), payload: JSON.parse(row.payload), attempt_log: row.attempt_log };
  }

  /**
   * Sends the same message (same webhook-id) again, with a fresh attempt budget. Only a finished delivery
   * (delivered or dead_letter) can be redelivered: one still waiting for a retry would be sent twice.
   */
  async redeliver(workspaceId: string, id: string): Promise<Delivery | 'in_flight' | undefined> {
    if (!UUID.test(id)) return undefined;
    const outcome = await this.knex.transaction(async (trx) => {
      const row = await trx('webhook_deliveries').where({ workspace_id: workspaceId, id }).forUpdate().first('status');
      if (!row) return 'missing' as const;
      if (row.status === 'pending' || row.status === 'retrying') return 'in_flight' as const;
      await trx('webhook_deliveries').where({ id }).update({ status: 'pending', updated_at: trx.fn.now() });
      await addDeliveryJob(trx, id);
      return 'queued' as const;
    });
    if (outcome === 'missing') return undefined;
    if (outcome === 'in_flight') return outcome;
    return (await this.getDelivery(workspaceId, id))!;
  }

  /** The graphile-worker task: one attempt. Throwing hands the retry (with backoff) to graphile-worker. */
  task() {
    return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
      const id = String((payload as { delivery_id?: unknown })?.delivery_id);
      const row = await this.knex('webhook_deliveries as d')
        .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .where('d.id', id)
        .first('d.*', 'e.url', 'e.secret', 'e.enabled');
      if (!row || row.status === 'delivered') return;
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Preflight-Webhooks/1',
        'webhook-id': row.message_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(row.secret, row.message_id, timestamp, row.payload),
      };
      const started = performance.now();
      let statusCode: number | null = null;
      let error: string | null = null;
      let permanent = false;
      if (!row.enabled) {
        error = 'endpoint disabled';
        permanent = true;
      } else {
        try {
          statusCode = (await this.transport.post(row.url, headers, row.payload)).status;
          if (statusCode < 200 || statusCode >= 300) error = `receiver answered ${statusCode}`;
        } catch (err) {
          error = (err as Error)?.message ?? String(err);
          permanent = err instanceof WebhookRefused;
        }
      }
      const attempt: Attempt = {
        at: new Date().toISOString(),
        status_code: statusCode,
        error,
        duration_ms: Math.round(performance.now() - started),
      };
      const ok = error === null;
      const last = permanent || helpers.job.attempts >= helpers.job.max_attempts;
      const status: DeliveryStatus = ok ? 'delivered' : last ? 'dead_letter' : 'retrying';
      await this.knex('webhook_deliveries')
        .where({ id })
        .update({
          status,
          attempts: this.knex.raw('attempts + 1'),
          last_status_code: statusCode,
          last_error: error,
          attempt_log: this.knex.raw(`attempt_log || ?::jsonb`, [JSON.stringify([attempt])]),
          updated_at: this.knex.fn.now(),
          ...(ok ? { delivered_at: this.knex.fn.now() } : {}),
        });
      if (status === 'retrying') throw new Error(error ?? 'delivery failed');
    };
  }

  private deliveries() {
    return this.knex('webhook_deliveries as d')
      .leftJoin('graphile_worker._private_jobs as j', 'j.id', 'd.gw_job_id')
      .select('d.*', 'j.run_at as next_run_at');
  }
}

async function addDeliveryJob(trx: Knex, deliveryId: string): Promise<void> {
  await trx.raw(
    `update webhook_deliveries set gw_job_id = (
       select id from graphile_worker.add_job(?, json_build_object('delivery_id', ?::text), max_attempts => ?)
     ) where id = ?`,
    [WEBHOOK_TASK, deliveryId, WEBHOOK_MAX_ATTEMPTS, deliveryId],
  );
}

interface EndpointRow {
  id: string;
  url: string;
  event_types: EventType[];
  description: string | null;
  enabled: boolean;
  created_at: Date;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
  next_run_at?: Date | null;
}

function endpointView(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    event_types: r.event_types,
    description: r.description,
    enabled: r.enabled,
    created_at: new Date(r.created_at).toISOString(),
  };
}

function deliveryView(r: DeliveryRow): Delivery {
  const waiting = r.status === 'pending' || r.status === 'retrying';
  return {
    delivery_id: r.id,
    endpoint_id: r.endpoint_id,
    message_id: r.message_id,
    event_type: r.event_type,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    delivered_at: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
    next_attempt_at: waiting && r.next_run_at ? new Date(r.next_run_at).toISOString() : null,
  };
}
