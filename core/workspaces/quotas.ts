import type { Knex } from 'knex';
import type { PlanLimits, Plans } from '../rules/ruleset.ts';

export type QuotaKind = 'scan' | 'force_scan';

export class QuotaExhausted extends Error {
  constructor(
    readonly kind: QuotaKind,
    readonly limit: number,
  ) {
    super(`the daily ${kind === 'scan' ? 'scan' : 'force-scan'} quota of ${limit} is used up; it resets at 00:00 UTC`);
  }
}

export function limitsFor(plans: Plans, plan: string | undefined): PlanLimits {
  return plans.plans[plan ?? plans.default_plan] ?? plans.plans[plans.default_plan]!;
}

/**
 * Takes one unit of a workspace's daily quota, or throws QuotaExhausted. The check and the increment are one
 * statement, so concurrent requests on several API processes can never overspend.
 */
export async function consumeQuota(
  knex: Knex,
  workspaceId: string,
  kind: QuotaKind,
  limit: number,
): Promise<{ used: number; limit: number }> {
  if (limit <= 0) throw new QuotaExhausted(kind, limit);
  const rows = await knex.raw<{ rows: { used: number }[] }>(
    `insert into quota_usage (workspace_id, kind, day, used)
     values (?, ?, (now() at time zone 'utc')::date, 1)
     on conflict (workspace_id, kind, day) do update set used = quota_usage.used + 1
     where quota_usage.used < ?
     returning used`,
    [workspaceId, kind, limit],
  );
  const used = rows.rows[0]?.used;
  if (used === undefined) throw new QuotaExhausted(kind, limit);
  return { used, limit };
}

export class ForceScanDisabled extends Error {
  constructor(readonly plan: string) {
    super(`force scans are disabled on the ${plan} plan`);
  }
}
