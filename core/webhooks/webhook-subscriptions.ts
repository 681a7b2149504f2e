import type { EventType } from '../events/event-bus.ts';

/** An enabled endpoint as the event subscriber needs it: which event types it wants. */
export interface Subscription {
  id: string;
  event_types: readonly EventType[];
}

const TTL_MS = 10_000;
const MAX_WORKSPACES = 10_000;

/**
 * Workspace → its enabled webhook endpoints, so publishing an event (every blocked decision publishes one) does not
 * read webhook_endpoints each time: on the agent hot path that read was the one database round trip left besides
 * the audit batch.
 *
 * Same discipline as the key cache (core/workspaces/principal-cache.ts): entries are served only while the change
 * listener is LISTENing; every insert, update or delete of an endpoint NOTIFYs `preflight_webhooks` from inside its
 * transaction (migration *_webhook_change_notify), which drops that workspace's entry on every process once the
 * change commits; this process's own changes drop it at once (`invalidate` after the write). A lookup already under
 * way when an invalidation arrives is not stored (generation check). The TTL is a backstop, not the mechanism.
 */
export class WebhookSubscriptions {
  private readonly entries = new Map<string, { subscriptions: readonly Subscription[]; expires: number }>();
  private generation = 0;
  readonly stats = { hits: 0, misses: 0, invalidations: 0, flushes: 0 };
  /** Told of every invalidation and flush once it has taken effect (metrics). */

  constructor(
    private readonly isLive: () => boolean,
    private readonly ttlMs = TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The workspace's enabled endpoints that want `type`: from memory when live and fresh, else from `load`. */
  async subscribersOf(
    workspaceId: string,
    type: EventType,
    load: (workspaceId: string) => Promise<Subscription[]>,
  ): Promise<Subscription[]> {
    const all = this.get(workspaceId) ?? (await this.fill(workspaceId, load));
    return all.filter((s) => s.event_types.includes(type));
  }

  private get(workspaceId: string): readonly Subscription[] | undefined {
    if (!this.isLive()) return undefined;
    const entry = this.entries.get(workspaceId);
    if (entry && entry.expires > this.now()) {
      this.stats.hits++;
      return entry.subscriptions;
    }
    if (entry) this.entries.delete(workspaceId);
    this.stats.misses++;
    return undefined;
  }

  private async fill(
    workspaceId: string,
    load: (workspaceId: string) => Promise<Subscription[]>,
  ): Promise<readonly Subscription[]> {
    const generation = this.generation;
    const subscriptions = Object.freeze(await load(workspaceId));
    if (generation === this.generation && this.isLive()) {
      if (this.entries.size >= MAX_WORKSPACES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(workspaceId, { subscriptions, expires: this.now() + this.ttlMs });
    }
    return subscriptions;
  }

  /** A NOTIFY payload: `workspace:<id>` or `flush` (anything unknown flushes too). */
  invalidate(payload: string): void {
    this.generation++;
    this.stats.invalidations++;
    const [kind, id] = payload.split(':', 2);
    if (kind === 'workspace' && id) this.entries.delete(id);
    else this.entries.clear();
  }

  flush(): void {
    this.generation++;
    this.stats.flushes++;
    this.entries.clear();
  }
}
