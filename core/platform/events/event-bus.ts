/** Workspace events other surfaces react to: the ticket bridge's escalation rules and the signed webhooks. */
export const EVENT_TYPES = ['scan.completed', 'scan.failed', 'decision.blocked', 'ticket.created'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface WorkspaceEvent {
  type: EventType;
  workspace_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export type EventHandler = (event: WorkspaceEvent) => Promise<void>;

/**
 * In-process fan-out. Publishers await their subscribers (a ticket opened by an escalation rule exists when the
 * scan's answer goes out; a webhook delivery is enqueued durably), but a failing subscriber never fails the
 * request that published: it is logged and the others still run.
 */
export class EventBus {
  private readonly handlers: EventHandler[] = [];

  subscribe(handler: EventHandler): void {
    this.handlers.push(handler);
  }

  async publish(type: EventType, workspaceId: string | null | undefined, data: Record<string, unknown>): Promise<void> {
    if (!workspaceId) return; // anonymous scans and in-process CLI checks belong to no workspace
    const event: WorkspaceEvent = { type, workspace_id: workspaceId, occurred_at: new Date().toISOString(), data };
    for (const handler of this.handlers) {
      try {
        await handler(event);
      } catch (err) {
        console.error(`event ${type}: subscriber failed:`, (err as Error)?.message ?? err);
      }
    }
  }
}
