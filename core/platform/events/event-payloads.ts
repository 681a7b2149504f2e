import type { AuditEvent } from '../../services/audit/audit-writer.ts';

/** `decision.blocked` data: what the audit event holds about the verdict, plus the response's risk level. */
export function blockedDecisionData(audit: AuditEvent, response: unknown): Record<string, unknown> {
  const risk = (response as { risk_level?: unknown })?.risk_level;
  return {
    decision_id: audit.decision_id,
    surface: audit.surface,
    endpoint: audit.endpoint,
    verdict: audit.outcome,
    flags: audit.flags,
    risk_level: typeof risk === 'string' ? risk : 'none',
    actor: audit.actor,
    request_id: audit.request_id,
    decision_sha256: audit.decision_sha256,
    ruleset_hash: audit.ruleset_hash,
  };
}
