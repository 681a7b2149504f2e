import { Engine, type RuleProperties } from 'json-rules-engine';
import { FactMemo } from '../../engine/decisions/fact-memo.ts';
import type { EscalationRule } from '../../engine/rules/ruleset.ts';
import type { EventBus, WorkspaceEvent } from '../../platform/events/event-bus.ts';
import { TICKET_SEVERITIES, type TicketService } from './ticket-service.ts';

/**
 * rules/escalation.json: json-rules-engine rules over scan and decision events; a matching rule opens a ticket at
 * its severity (the most severe matching rule names it). Facts: `event` (scan.completed, scan.failed,
 * decision.blocked), `risk_level`, `score`, `verdict`, `surface`, `flags`.
 */
export function subscribeEscalation(bus: EventBus, tickets: TicketService, rules: readonly EscalationRule[]): void {
  if (rules.length === 0) return;
  const engine = new Engine(rules as unknown as RuleProperties[], { allowUndefinedFacts: true });
  // The facts are the engine's whole input and the rules are fixed for the app's lifetime, so the winner is
  // memoised per fact set (every blocked decision publishes an event; most share a handful of fact sets).
  const memo = new FactMemo<Escalation | undefined>();
  const escalationOf = async (facts: Record<string, unknown>): Promise<Escalation | undefined> => {
    const { results } = await engine.run(facts);
    if (results.length === 0) return undefined;
    const hits = results.map((r) => ({
      name: String(r.name),
      ...(r.event?.params as { severity: (typeof TICKET_SEVERITIES)[number]; reason: string }),
    }));
    hits.sort((a, b) => TICKET_SEVERITIES.indexOf(b.severity) - TICKET_SEVERITIES.indexOf(a.severity));
    return hits[0]!;
  };
  bus.subscribe(async (event) => {
    const source = sourceOf(event);
    if (!source) return;
    const facts = factsOf(event);
    const winner = await memo.get(facts, () => escalationOf(facts));
    if (!winner) return;
    await tickets.open(event.workspace_id, {
      source,
      severity: winner.severity,
      note: `${winner.name}: ${winner.reason}`,
      actor: (event.data.actor as string | null) ?? null,
      opened_by: `escalation:${winner.name}`,
    });
  });
}

interface Escalation {
  name: string;
  severity: (typeof TICKET_SEVERITIES)[number];
  reason: string;
}

function sourceOf(event: WorkspaceEvent) {
  if (event.type === 'scan.completed' && typeof event.data.scan_id === 'number') {
    return { scan_id: event.data.scan_id };
  }
  if (event.type === 'decision.blocked' && typeof event.data.decision_id === 'string') {
    return { decision_id: event.data.decision_id };
  }
  return undefined;
}

function factsOf(event: WorkspaceEvent): Record<string, unknown> {
  const d = event.data;
  return {
    event: event.type,
    risk_level: d.risk_level ?? 'none',
    score: typeof d.score === 'number' ? d.score : 0,
    verdict: d.verdict ?? 'none',
    surface: d.surface ?? 'scan',
    flags: Array.isArray(d.flags) ? d.flags : [],
  };
}
