import type { JobHelpers } from 'graphile-worker';
import type { Knex } from 'knex';
import { parseTarget } from '../../engine/url/target.ts';
import type { EventBus } from '../../platform/events/event-bus.ts';
import type { ScanEvidence } from '../scan/evidence.ts';
import type { ScanService } from '../scan/scan-service.ts';
import type { JobSummary } from './scan-jobs.ts';

/** A fault that retrying cannot fix: the job ends `failed` with this reason and is not retried. */
export class PermanentScanFailure extends Error {}

/**
 * Whether a scan's evidence is worth recording. A name that does not exist is permanent; a site that exists but
 * could not be reached (timeouts, refused connections) is transient and worth retrying.
 */
export function judgeEvidence(evidence: ScanEvidence): void {
  const { dns, page, target } = evidence;
  const nxdomain = !target.isIp && Object.values(dns.failures).includes('not_found') && evidence.addresses.length === 0;
  if (nxdomain) throw new PermanentScanFailure(`nxdomain: ${target.host} does not exist`);
  const blocked = page.error?.reason === 'blocked';
  if (blocked) throw new PermanentScanFailure(`refused: ${page.error?.detail ?? 'the destination is not allowed'}`);
  if (
    page.error &&
    (page.error.reason === 'timeout' || page.error.reason === 'unreachable') &&
    page.hops.length === 0
  ) {
    throw new Error(`${page.error.reason}: ${page.error.detail ?? target.host}`);
  }
}

export interface ScanTaskDeps {
  knex: Knex;
  scans: ScanService;
  processId: string;
  browser: boolean;
  /** `scan.failed` for workspace jobs that end failed or dead_letter (webhooks, escalation). */
  events?: EventBus;
}

/**
 * The graphile-worker task. States: queued → running → done | failed; a transient fault goes back to queued and
 * is retried by graphile-worker with backoff, and on the last attempt becomes dead_letter. Every attempt reads its
 * job afresh and writes only through fresh pool connections, so nothing of a failed attempt carries over.
 */
export function scanTask(deps: ScanTaskDeps) {
  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const jobId = Number((payload as { job_id?: unknown })?.job_id);
    const { knex } = deps;
    const claimed = await knex('scan_jobs')
      .where({ id: jobId })
      .whereIn('status', ['queued', 'running'])
      .update({
        status: 'running',
        attempts: helpers.job.attempts,
        worker_id: helpers.job.locked_by,
        worker_process_id: deps.processId,
        started_at: knex.fn.now(),
      })
      .returning(['id', 'workspace_id', 'target_url', 'force_scan', 'actor']);
    const job = claimed[0];
    if (!job) return; // finished or given up meanwhile: nothing to do

    const started = performance.now();
    const finish = (fields: Record<string, unknown>) =>
      knex('scan_jobs')
        .where({ id: jobId })
        .update({ ...fields, finished_at: knex.fn.now(), run_duration_ms: Math.round(performance.now() - started) });
    try {
      const workspace = job.workspace_id
        ? await knex('workspaces').where({ id: job.workspace_id }).first('plan', 'campaign_tagging_enabled')
        : undefined;
      const target = parseTarget(job.target_url);
      const evidence = await deps.scans.collect(target, { browser: deps.browser });
      judgeEvidence(evidence);
      const result = await deps.scans.record(
        evidence,
        { force_scan: job.force_scan },
        {
          workspaceId: job.workspace_id,
          plan: workspace?.plan,
          campaignTaggingEnabled: workspace?.campaign_tagging_enabled ?? false,
          actor: job.actor,
          requestId: `job-${jobId}`,
        },
      );
      const summary: JobSummary = {
        domain: result.domain,
        score: result.score,
        risk_level: result.risk_level,
        flags: result.flags,
      };
      await finish({ status: 'done', result: summary, result_scan_id: result.scan_id, error: null });
    } catch (err) {
      const reason = (err as Error)?.message ?? String(err);
      if (err instanceof PermanentScanFailure) {
        await finish({ status: 'failed', error: reason });
        await deps.events?.publish('scan.failed', job.workspace_id, failedData(jobId, job, 'failed', reason));
        return;
      }
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        const error = `gave up after ${helpers.job.attempts} attempts: ${reason}`;
        await finish({ status: 'dead_letter', error });
        await deps.events?.publish('scan.failed', job.workspace_id, failedData(jobId, job, 'dead_letter', error));
        return;
      }
      await knex('scan_jobs').where({ id: jobId }).update({ status: 'queued', error: reason });
      throw err; // graphile-worker schedules the retry
    }
  };
}

function failedData(jobId: number, job: { target_url: string; actor: string | null }, status: string, error: string) {
  return { scan_id: jobId, target_url: job.target_url, status, error, actor: job.actor };
}
