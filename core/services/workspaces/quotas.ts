import type { Knex } from 'knex';
import type { PlanLimits, Plans } from '../../engine/rules/ruleset.ts';

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

/**
 * Takes up to `wanted` units of one owner's daily counter in `table` and says how many it got (0 when used up). Runs
 * inside the caller's transaction and holds the counter row's lock until it commits, so concurrent callers on
 * several processes never overspend.
 */
async function grantUpTo(
  trx: Knex.Transaction,
  table: 'quota_usage' | 'anonymous_quota_usage',
  owner: Record<string, string>,
  kind: QuotaKind,
  limit: number,
  wanted: number,
): Promise<number> {
  if (limit <= 0 || wanted <= 0) return 0;
  const day = trx.raw(`(now() at time zone 'utc')::date`);
  await trx(table)
    .insert({ ...owner, kind, day, used: 0 })
    .onConflict([...Object.keys(owner), 'kind', 'day'])
    .ignore();
  const row = await trx(table)
    .where({ ...owner, kind })
    .where('day', day)
    .forUpdate()
    .first('used');
  const granted = Math.max(0, Math.min(wanted, limit - Number(row?.used ?? 0)));
  if (granted > 0)
    await trx(table)
      .where({ ...owner, kind })
      .where('day', day)
      .increment('used', granted);
  return granted;
}

/** The bulk path's version of consumeQuota: up to `wanted` units of a workspace's daily quota (see grantUpTo). */
export function consumeQuotaUpTo(
  trx: Knex.Transaction,
  workspaceId: string,
  kind: QuotaKind,
  limit: number,
  wanted: number,
): Promise<number> {
  return grantUpTo(trx, 'quota_usage', { workspace_id: workspaceId }, kind, limit, wanted);
}

/** Gives back units taken in the same transaction (the caller holds the row lock from consumeQuotaUpTo). */
export async function refundQuota(trx: Knex.Transaction, workspaceId: string, kind: QuotaKind, units: number) {
  await trx('quota_usage')
    .where({ workspace_id: workspaceId, kind })
    .where('day', trx.raw(`(now() at time zone 'utc')::date`))
    .decrement('used', units);
}

/**
 * Takes up to `wanted` units of an anonymous caller's daily quota (counted per client address bucket, like the
 * anonymous rate limit) and says how many it got (0 when used up). Holds the counter row's lock until the caller's
 * transaction commits, so concurrent anonymous requests on several processes never overspend. Rows of past days
 * are dropped by the worker's hourly retention (`purgePastAnonymousQuota`), not on this path.
 */
export async function consumeAnonymousQuotaUpTo(
  trx: Knex.Transaction,
  bucket: string,
  kind: QuotaKind,
  limit: number,
  wanted: number,
): Promise<number> {
  return grantUpTo(trx, 'anonymous_quota_usage', { bucket }, kind, limit, wanted);
}

/** Drops anonymous quota counters of past (UTC) days: they can never be consumed again. */
export async function purgePastAnonymousQuota(knex: Knex): Promise<number> {
  return knex('anonymous_quota_usage').where('day', '<', knex.raw(`(now() at time zone 'utc')::date`)).delete();
}
