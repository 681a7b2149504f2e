import type { Knex } from 'knex';
import { STALE_RECOVERY_BUDGET } from './scan-jobs.ts';

/** A worker process that has not beaten its heart for this long is taken for dead. */
export const WORKER_DEAD_AFTER_SECONDS = 30;

/**
 * Jobs left `running` by a worker process that died (SIGKILL, power loss) stay locked in graphile-worker for hours.
 * This unlocks them so another worker picks them up now, at most STALE_RECOVERY_BUDGET times per job; past that
 * the job is dead_letter and its queue entry permanently failed, so it is never re-dispatched forever.
 */
export async function recoverStaleJobs(knex: Knex): Promise<{ requeued: number; deadLettered: number }> {
  return knex.transaction(async (trx) => {
    const stranded = await trx('scan_jobs as j')
      .leftJoin('worker_processes as w', 'w.id', 'j.worker_process_id')
      .where('j.status', 'running')
      .where((q) =>
        q
          .whereNull('w.id')
          .orWhere('w.last_seen', '<', trx.raw(`now() - interval '1 second' * ?`, [WORKER_DEAD_AFTER_SECONDS])),
      )
      // Lock only the job rows: two recoveries running at once must not both requeue the same job.
      .forUpdate('j')
      .select('j.id', 'j.stale_recoveries', 'j.worker_id', 'j.gw_job_id');
    let requeued = 0;
    let deadLettered = 0;
    for (const job of stranded) {
      if (job.stale_recoveries >= STALE_RECOVERY_BUDGET) {
        await trx('scan_jobs')
          .where({ id: job.id })
          .update({
            status: 'dead_letter',
            error: `stranded by a dead worker ${job.stale_recoveries + 1} times; not retried again`,
            finished_at: trx.fn.now(),
          });
        if (job.gw_job_id) {
          await trx.raw(
            `select graphile_worker.permanently_fail_jobs(array[?::bigint], 'stale recovery budget exhausted')`,
            [job.gw_job_id],
          );
        }
        deadLettered++;
      } else {
        await trx('scan_jobs')
          .where({ id: job.id })
          .update({
            status: 'queued',
            stale_recoveries: job.stale_recoveries + 1,
            error: 'worker died mid-run; requeued',
          });
        if (job.worker_id) await trx.raw('select graphile_worker.force_unlock_workers(array[?])', [job.worker_id]);
        requeued++;
      }
    }
    return { requeued, deadLettered };
  });
}

/**
 * Retention: full scan payloads are kept for the evidence window; after it, a scan row with a newer scan of the
 * same site in the same workspace is compacted to the lean history payload (score, risk, flags, host/target and
 * compact check summaries). Its screenshot goes; its evidence pack stays (it is the audit record).
 */
export async function compactOldScans(knex: Knex, evidenceWindowHours: number): Promise<number> {
  const rows = await knex('scans as s')
    .where('s.compacted', false)
    .where('s.created_at', '<', knex.raw(`now() - interval '1 hour' * ?`, [evidenceWindowHours]))
    .whereExists((q) =>
      q
        .select(knex.raw('1'))
        .from('scans as newer')
        .whereRaw('newer.domain = s.domain')
        .whereRaw('newer.workspace_id is not distinct from s.workspace_id')
        .whereRaw('newer.id > s.id'),
    )
    .select('s.id', 's.result')
    .limit(1000);
  for (const row of rows) {
    await knex.transaction(async (trx) => {
      await trx('scans')
        .where({ id: row.id })
        .update({ result: leanPayload(row.result), compacted: true });
      await trx('scan_screenshots').where({ scan_id: row.id }).delete();
    });
  }
  return rows.length;
}

/** What survives compaction. */
// biome-ignore lint/suspicious/noExplicitAny: stored results of any version are read defensively, field by field.
export function leanPayload(result: Record<string, any>): Record<string, unknown> {
  const d = result.detailed_results ?? {};
  return {
    scan_id: result.scan_id,
    domain: result.domain,
    target_url: result.target_url,
    score: result.score,
    risk_level: result.risk_level,
    flags: result.flags,
    score_breakdown: result.score_breakdown,
    scanned_at: result.scanned_at,
    ruleset_hash: result.ruleset_hash,
    evidencepack_id: result.tabs?.detection?.evidencepack?.id,
    checks: {
      whois_age_days: d.whois?.age_days,
      cert_age_days: d.ssl?.cert_age_days,
      hosting_provider: d.infrastructure?.hosting_provider,
      hosting_tenancy: d.infrastructure?.hosting_tenancy,
      final_url: d.visual?.data?.final_url,
    },
    compacted: true,
  };
}
