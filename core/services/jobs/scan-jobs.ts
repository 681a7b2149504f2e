import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'dead_letter'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** graphile-worker's attempts with bounded exponential backoff (e^attempt seconds: ~3 s, 7 s, 20 s, 55 s). */
export const MAX_ATTEMPTS = 5;
/** Times a job stranded by a dead worker is put back before it is given up as dead_letter. */
export const STALE_RECOVERY_BUDGET = 2;

export interface JobSummary {
  domain: string;
  score: number;
  risk_level: string;
  flags: string[];
}

export interface NewJob {
  workspaceId: string | null;
  domain: string;
  targetUrl: string;
  forceScan: boolean;
  actor: string | null;
  /** A job answered from a cached scan is created done, without queueing (bulk `queued: false`). */
  cached?: { scanId: number; result: JobSummary };
}

export interface CreatedJob {
  scan_id: number;
  domain: string;
  status: JobStatus;
  queued: boolean;
  /** Anonymous jobs only: present it as X-Scan-Token to read the job back. Shown once. */
  access_token?: string;
}

export function tokenSha256(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Inserts the job rows and queues them with graphile-worker in the caller's transaction: a job row exists if and
 * only if its queue entry does.
 */
export async function enqueueScanJobs(trx: Knex.Transaction, jobs: NewJob[]): Promise<CreatedJob[]> {
  if (jobs.length === 0) return [];
  const tokens = jobs.map((job) => (job.workspaceId ? undefined : randomBytes(24).toString('base64url')));
  // One multi-row insert. PostgreSQL returns the rows of INSERT … VALUES … RETURNING in VALUES order (bulk-create
  // in the usual ORMs relies on the same), so ids[i] belongs to jobs[i].
  const rows: { id: string }[] = await trx('scan_jobs')
    .insert(
      jobs.map((job, i) => ({
        workspace_id: job.workspaceId,
        access_token_sha256: tokens[i] ? tokenSha256(tokens[i]!) : null,
        domain: job.domain,
        target_url: job.targetUrl,
        force_scan: job.forceScan,
        actor: job.actor,
        status: job.cached ? 'done' : 'queued',
        ...(job.cached
          ? {
              result_scan_id: job.cached.scanId,
              result: job.cached.result,
              finished_at: trx.fn.now(),
              run_duration_ms: 0,
            }
          : {}),
      })),
    )
    .returning('id');
  const ids = rows.map((r) => Number(r.id));

  const queuedIds = ids.filter((_, i) => !jobs[i]!.cached);
  if (queuedIds.length > 0) {
    // One add_jobs call for the whole batch, in the same transaction as the rows.
    await trx.raw(
      `with added as (
         select id, (payload->>'job_id')::bigint as job_id
         from graphile_worker.add_jobs(array(
           select row('scan', json_build_object('job_id', x), null, null, ?, null, null, null)::graphile_worker.job_spec
           from unnest(?::bigint[]) as x
         ))
       )
       update scan_jobs set gw_job_id = added.id from added where scan_jobs.id = added.job_id`,
      [MAX_ATTEMPTS, queuedIds],
    );
  }
  return jobs.map((job, i) => ({
    scan_id: ids[i]!,
    domain: job.domain,
    status: job.cached ? 'done' : 'queued',
    queued: !job.cached,
    ...(tokens[i] ? { access_token: tokens[i] } : {}),
  }));
}

/** Who may read a job: its workspace, or the anonymous holder of its token. A foreign id reads as missing. */
export type JobReader = { workspaceId: string } | { accessToken: string };

export async function readJob(knex: Knex, id: number, reader: JobReader) {
  const q = knex('scan_jobs').where({ id });
  if ('workspaceId' in reader) q.where({ workspace_id: reader.workspaceId });
  else q.whereNull('workspace_id').where({ access_token_sha256: tokenSha256(reader.accessToken) });
  return q.first();
}

/** A scan_jobs row as the views read it. */
export interface ScanJobRow {
  id: string | number;
  status: JobStatus;
  result: JobSummary | null;
  error: string | null;
  domain: string;
  force_scan: boolean;
  queued_at: Date | string;
  run_duration_ms: number | null;
}

/** The single-job view (spec: scan_id, status, and result on success or error on failure). */
export function jobView(row: ScanJobRow) {
  return {
    scan_id: Number(row.id),
    status: row.status as JobStatus,
    ...(row.status === 'done' && row.result ? { result: row.result } : {}),
    ...(row.status === 'failed' || row.status === 'dead_letter' ? { error: row.error ?? '' } : {}),
  };
}

/** The list view: adds domain, force_scan, queued_at, run_duration_ms; the result omits its domain. */
export function jobListItem(row: ScanJobRow) {
  const view = jobView(row);
  const { domain: _omitted, ...result } = (view.result ?? {}) as Partial<JobSummary>;
  return {
    scan_id: view.scan_id,
    domain: row.domain,
    status: view.status,
    force_scan: row.force_scan,
    queued_at: new Date(row.queued_at).toISOString(),
    run_duration_ms: row.run_duration_ms === null ? null : Number(row.run_duration_ms),
    ...(view.result ? { result } : {}),
    ...('error' in view ? { error: view.error } : {}),
  };
}

export interface JobFilters {
  limit: number;
  statuses?: JobStatus[];
  domain?: string;
  forceScan?: boolean;
}

export async function listJobs(knex: Knex, workspaceId: string, f: JobFilters) {
  const filtered = () => {
    const q = knex('scan_jobs').where({ workspace_id: workspaceId });
    if (f.statuses) q.whereIn('status', f.statuses);
    if (f.domain) q.where({ domain: f.domain });
    if (f.forceScan !== undefined) q.where({ force_scan: f.forceScan });
    return q;
  };
  const [rows, counted] = await Promise.all([
    filtered().orderBy('id', 'desc').limit(f.limit).select(),
    filtered().groupBy('status').select('status').count('* as n'),
  ]);
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
  for (const c of counted) counts[c.status as JobStatus] = Number(c.n);
  return { jobs: rows.map(jobListItem), meta: { limit: f.limit, counts } };
}
