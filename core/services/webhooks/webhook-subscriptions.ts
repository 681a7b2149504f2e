import { NotifiedCache } from '../../platform/db/notified-cache.ts';
import type { EventType } from '../../platform/events/event-bus.ts';

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
 * the audit batch. Every insert, update or delete of an endpoint NOTIFYs `preflight_webhooks` with `workspace:<id>`
 * (migration *_webhook_change_notify); this process's own changes drop the entry at once (`invalidate` after the
 * write). See NotifiedCache for the discipline.
 */
export class WebhookSubscriptions extends NotifiedCache<readonly Subscription[]> {
  constructor(isLive: () => boolean, ttlMs = TTL_MS, now: () => number = Date.now) {
    super({
      isLive,
      ttlMs,
      now,
      maxEntries: MAX_WORKSPACES,
      named: (kind, id) => (kind === 'workspace' ? id : undefined),
    });
  }

  /** The workspace's enabled endpoints that want `type`: from memory when live and fresh, else from `load`. */
  async subscribersOf(
    workspaceId: string,
    type: EventType,
    load: (workspaceId: string) => Promise<Subscription[]>,
  ): Promise<Subscription[]> {
    const all = this.get(workspaceId) ?? (await this.fill(workspaceId, load));
    return all.filter((s) => s.event_types.includes(type));
  }

  private async fill(
    workspaceId: string,
    load: (workspaceId: string) => Promise<Subscription[]>,
  ): Promise<readonly Subscription[]> {
    const generation = this.begin();
    const subscriptions = Object.freeze(await load(workspaceId));
    this.put(workspaceId, subscriptions, generation);
    return subscriptions;
  }
}
