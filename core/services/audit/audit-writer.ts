import type { Knex } from 'knex';

/** One durable record per guardrail decision. Never holds the raw prompt. */
export interface AuditEvent {
  workspace_id: string;
  endpoint: string;
  surface: string;
  actor: string | null;
  request_id: string;
  decision_id: string;
  outcome: string;
  flags: string[];
  prompt_preview: string;
  prompt_sha256: string;
  decision_sha256: string;
  ruleset_hash: string;
}

interface Pending {
  event: AuditEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 500;

/** The pg client knex's pool hands out: only what the writer uses. */
interface PgConnection {
  query(q: { name: string; text: string; values: unknown[] }): Promise<unknown>;
}

/**
 * One statement per batch, whatever its size: the columns travel as 12 arrays and unnest turns them back into
 * rows, so the statement text never changes and is prepared once per connection (named). Flags are a list per row,
 * which a Postgres array of arrays cannot hold when lengths differ, so each travels as a JSON array.
 */
const INSERT_BATCH = {
  name: 'preflight_audit_insert_batch_v1',
  text: `insert into audit_events (workspace_id, endpoint, surface, actor, request_id, decision_id, outcome, flags,
           prompt_preview, prompt_sha256, decision_sha256, ruleset_hash)
         select w, e, s, a, r, d, o, array(select jsonb_array_elements_text(f)), p, ps, ds, rh
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::text[], $8::jsonb[],
                     $9::text[], $10::text[], $11::text[], $12::text[]) as t(w, e, s, a, r, d, o, f, p, ps, ds, rh)`,
};

function columnsOf(batch: Pending[]): unknown[][] {
  const cols: unknown[][] = Array.from({ length: 12 }, () => new Array(batch.length));
  for (let i = 0; i < batch.length; i++) {
    const e = batch[i]!.event;
    cols[0]![i] = e.workspace_id;
    cols[1]![i] = e.endpoint;
    cols[2]![i] = e.surface;
    cols[3]![i] = e.actor;
    cols[4]![i] = e.request_id;
    cols[5]![i] = e.decision_id;
    cols[6]![i] = e.outcome;
    cols[7]![i] = JSON.stringify(e.flags);
    cols[8]![i] = e.prompt_preview;
    cols[9]![i] = e.prompt_sha256;
    cols[10]![i] = e.decision_sha256;
    cols[11]![i] = e.ruleset_hash;
  }
  return cols;
}

/**
 * Group commit: events wait for the end of the current event-loop turn, then everything waiting goes into one
 * INSERT (its own transaction: a single statement commits atomically); events arriving while a write is in flight
 * go into the next one. `write` resolves only after the batch holding the event has committed; callers answer
 * their request after that, never before.
 */
export class AuditWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Batches and rows committed since start (the bench reports rows per batch). */
  readonly stats = { batches: 0, rows: 0, largestBatch: 0 };
  /** Told the size of every committed batch (metrics); must not throw. */
  readonly batchObservers: ((rows: number) => void)[] = [];

  constructor(
    private readonly knex: Knex,
    private readonly maxConcurrentBatches = 2,
  ) {}

  write(event: AuditEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxConcurrentBatches) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      this.insert(batch).then(
        () => {
          this.stats.batches++;
          this.stats.rows += batch.length;
          this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
          for (const observe of this.batchObservers) observe(batch.length);
          for (const p of batch) p.resolve();
        },
        (err: unknown) => {
          for (const p of batch) p.reject(err);
        },
      );
    }
  }

  private async insert(batch: Pending[]): Promise<void> {
    const client = this.knex.client;
    try {
      const connection = (await client.acquireConnection()) as PgConnection;
      try {
        await connection.query({ ...INSERT_BATCH, values: columnsOf(batch) });
      } finally {
        await client.releaseConnection(connection);
      }
    } finally {
      this.inFlight--;
      this.pump();
    }
  }
}
