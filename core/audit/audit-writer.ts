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

/**
 * Group commit: events that arrive while a write is in flight go into the next multi-row INSERT, so the database
 * sees one transaction per batch instead of one per request. `write` resolves only after the batch holding the
 * event has committed; callers answer their request after that, never before.
 */
export class AuditWriter {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly knex: Knex,
    private readonly maxConcurrentBatches = 2,
  ) {}

  write(event: AuditEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxConcurrentBatches) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      this.knex('audit_events')
        .insert(batch.map((p) => p.event))
        .then(
          () => {
            for (const p of batch) p.resolve();
          },
          (err: unknown) => {
            for (const p of batch) p.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}
