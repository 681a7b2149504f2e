// Usage per workspace, surface and UTC day. Agent checks are metered by their audit events (one durable row per
// decision already exists, so metering adds no write to the hot path); scans by the scans they ran; quotas by the
// counters that enforce them. Fast checks are counted but never limited (spec); scans and deep checks spend the
// plan's daily scan quota.
import type { Knex } from 'knex';
import type { Plans } from '../../engine/rules/ruleset.ts';
import { limitsFor } from '../workspaces/quotas.ts';

export const MAX_USAGE_DAYS = 92;

export interface UsageDay {
  day: string;
  /** Decisions per surface (agent_content, agent_action, agent_tool_call, web_access, …), all outcomes. */
  checks: Record<string, number>;
  /** Decisions per outcome, all surfaces. */
  outcomes: Record<string, number>;
  /** Scans run for the workspace (cache answers excluded). */
  scans: number;
  /** Units spent of each daily quota that day. */
  quota: { scan: number; force_scan: number };
}

export interface UsageReport {
  workspace: string;
  plan: string;
  period: { from: string; to: string; days: number };
  limits: { scan_quota_daily: number; force_scan_quota_daily: number | null };
  today: { scan_quota_used: number; scan_quota_remaining: number };
  totals: { checks: Record<string, number>; scans: number; quota: { scan: number; force_scan: number } };
  days: UsageDay[];
}

function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The UTC days from `from` to `to` inclusive, newest first. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${to}T00:00:00Z`); t >= Date.parse(`${from}T00:00:00Z`); t -= 86_400_000) {
    out.push(utcDay(new Date(t)));
  }
  return out;
}

export async function usageReport(
  knex: Knex,
  plans: Plans,
  workspace: { id: string; name: string; plan: string },
  period: { days: number; now?: Date },
): Promise<UsageReport> {
  const now = period.now ?? new Date();
  const to = utcDay(now);
  const from = utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - (period.days - 1) * 86_400_000));
  const start = `${from}T00:00:00Z`;

  const [checks, scans, quota] = await Promise.all([
    knex('audit_events')
      .where('workspace_id', workspace.id)
      .andWhere('created_at', '>=', start)
      .select(knex.raw(`to_char(created_at at time zone 'utc', 'YYYY-MM-DD') as day`), 'surface', 'outcome')
      .count<{ day: string; surface: string; outcome: string; count: string }[]>('* as count')
      .groupByRaw('1, 2, 3'),
    knex('scans')
      .where('workspace_id', workspace.id)
      .andWhere('created_at', '>=', start)
      .select(knex.raw(`to_char(created_at at time zone 'utc', 'YYYY-MM-DD') as day`))
      .count<{ day: string; count: string }[]>('* as count')
      .groupByRaw('1'),
    knex('quota_usage')
      .where('workspace_id', workspace.id)
      .andWhere('day', '>=', from)
      .select(knex.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'kind', 'used') as Promise<
      { day: string; kind: string; used: number }[]
    >,
  ]);

  const byDay = new Map<string, UsageDay>(
    daysBetween(from, to).map((day) => [
      day,
      { day, checks: {}, outcomes: {}, scans: 0, quota: { scan: 0, force_scan: 0 } },
    ]),
  );
  for (const row of checks) {
    const d = byDay.get(row.day);
    if (!d) continue;
    d.checks[row.surface] = (d.checks[row.surface] ?? 0) + Number(row.count);
    d.outcomes[row.outcome] = (d.outcomes[row.outcome] ?? 0) + Number(row.count);
  }
  for (const row of scans) {
    const d = byDay.get(row.day);
    if (d) d.scans = Number(row.count);
  }
  for (const row of quota) {
    const d = byDay.get(row.day);
    if (d && (row.kind === 'scan' || row.kind === 'force_scan')) d.quota[row.kind] = Number(row.used);
  }

  const days = [...byDay.values()];
  const totals: UsageReport['totals'] = { checks: {}, scans: 0, quota: { scan: 0, force_scan: 0 } };
  for (const d of days) {
    for (const [surface, n] of Object.entries(d.checks)) totals.checks[surface] = (totals.checks[surface] ?? 0) + n;
    totals.scans += d.scans;
    totals.quota.scan += d.quota.scan;
    totals.quota.force_scan += d.quota.force_scan;
  }
  const limits = limitsFor(plans, workspace.plan);
  const usedToday = byDay.get(to)?.quota.scan ?? 0;
  return {
    workspace: workspace.name,
    plan: workspace.plan,
    period: { from, to, days: period.days },
    limits: {
      scan_quota_daily: limits.scan_quota_daily,
      force_scan_quota_daily: limits.force_scan_quota_daily ?? null,
    },
    today: { scan_quota_used: usedToday, scan_quota_remaining: Math.max(0, limits.scan_quota_daily - usedToday) },
    totals,
    days,
  };
}
