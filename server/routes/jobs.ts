import Router from '@koa/router';
import type { Context } from 'koa';
import type { Preflight } from '../../app/index.ts';
import { Ruleset } from '../../core/engine/rules/ruleset.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import {
  type CreatedJob,
  enqueueScanJobs,
  JOB_STATUSES,
  type JobReader,
  type JobStatus,
  jobView,
  listJobs,
  type NewJob,
  readJob,
} from '../../core/services/jobs/scan-jobs.ts';
import type { Principal } from '../../core/services/workspaces/api-keys.ts';
import {
  consumeAnonymousQuotaUpTo,
  consumeQuotaUpTo,
  ForceScanDisabled,
  limitsFor,
  QuotaExhausted,
  refundQuota,
} from '../../core/services/workspaces/quotas.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { optionalKey, requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { clientBucketAddress, routeLimiter } from '../middleware/rate-limit.ts';
import { queryInt, queryOnce } from '../requests/query.ts';
import { parseScanRequest, scanTargetOf } from '../requests/scan.ts';
import { compileBody } from '../requests/validation.ts';

export const bulkBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { domains: { type: 'array' }, force_scan: { type: 'boolean' } },
} as const;
const parseBulk = compileBody<{ domains?: unknown[]; force_scan?: boolean }>(bulkBodySchema);

function principal(ctx: Context): Principal | undefined {
  return ctx.state.principal as Principal | undefined;
}

/** A job is read by its workspace's keys, or anonymously with the token its creation returned. */
function readerOf(ctx: Context): JobReader {
  const p = principal(ctx);
  if (p?.workspace) return { workspaceId: p.workspace.id };
  const token = ctx.get('X-Scan-Token');
  if (!token)
    throw new HttpError(401, 'unauthorized', 'Send an API key, or the X-Scan-Token returned with an anonymous job');
  return { accessToken: token };
}

function jobId(ctx: Context): number {
  const raw = ctx.params.id ?? '';
  if (!/^[0-9]{1,18}$/.test(raw)) throw notFound('No such job');
  return Number(raw);
}

export function jobRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const ruleset = app.container.resolve(Ruleset);
  const limit = app.config.bulkScanLimit;
  const router = new Router();
  const maybeKey = optionalKey(knex);
  const limited = routeLimiter(app);
  // Read after the key check and the rate limit: an anonymous or refused caller never makes us buffer a body.
  const readBody = jsonBody(app.config);

  /**
   * Quotas are spent when a job is accepted, not when it runs: a caller learns at once (402/429) and a queue
   * backlog can never overspend a plan. Cached answers (bulk, no force) spend nothing.
   */
  async function admit(
    trx: import('knex').Knex.Transaction,
    ctx: Context,
    targets: { domain: string; targetUrl: string }[],
    forceScan: boolean,
    useCache: boolean,
  ): Promise<{ jobs: NewJob[]; refused: { input: string; error: string }[] }> {
    const p = principal(ctx)?.workspace;
    const limits = p ? limitsFor(ruleset.plans, p.plan) : ruleset.plans.anonymous;
    if (forceScan && (limits.force_scan_quota_daily === null || limits.force_scan_quota_daily === undefined)) {
      throw new ForceScanDisabled(p?.plan ?? 'anonymous');
    }
    const base = (t: { domain: string; targetUrl: string }): NewJob => ({
      workspaceId: p?.id ?? null,
      domain: t.domain,
      targetUrl: t.targetUrl,
      forceScan,
      actor: ctx.state.actor as string | null,
    });
    if (!p) {
      // Anonymous callers have a daily scan quota of their own, counted per client address like their rate limit.
      const granted = await consumeAnonymousQuotaUpTo(
        trx,
        clientBucketAddress(ctx.ip),
        'scan',
        limits.scan_quota_daily,
        targets.length,
      );
      return {
        jobs: targets.slice(0, granted).map(base),
        refused: targets.slice(granted).map((t) => ({ input: t.domain, error: 'quota_exceeded' })),
      };
    }

    // One lookup for every target's freshest cached scan in the workspace.
    const cachedRows =
      forceScan || !useCache
        ? []
        : await knex('scans')
            .where({ workspace_id: p.id, compacted: false })
            .whereIn(
              'target_url',
              targets.map((t) => t.targetUrl),
            )
            .where('created_at', '>', knex.raw(`now() - interval '1 second' * ?`, [app.config.scanCacheSeconds]))
            .distinctOn('target_url')
            .orderBy([{ column: 'target_url' }, { column: 'id', order: 'desc' }])
            .select('id', 'target_url', 'domain', 'score', 'risk_level', 'flags');
    const cached = new Map(cachedRows.map((r) => [r.target_url as string, r]));
    const fresh = targets.filter((t) => !cached.has(t.targetUrl));

    // Quota for all fresh scans in one go: the first `granted` are admitted, the rest refused. A force scan needs a
    // unit of both quotas; what one grants beyond the other is handed back, in the same transaction.
    let granted = fresh.length;
    if (forceScan) granted = await consumeQuotaUpTo(trx, p.id, 'force_scan', limits.force_scan_quota_daily!, granted);
    const scanGranted = await consumeQuotaUpTo(trx, p.id, 'scan', limits.scan_quota_daily, granted);
    if (forceScan && scanGranted < granted) await refundQuota(trx, p.id, 'force_scan', granted - scanGranted);
    granted = scanGranted;
    const admitted = new Set(fresh.slice(0, granted).map((t) => t.targetUrl));
    const jobs: NewJob[] = [];
    const refused: { input: string; error: string }[] = [];
    for (const t of targets) {
      const hit = cached.get(t.targetUrl);
      if (hit) {
        jobs.push({
          ...base(t),
          cached: {
            scanId: Number(hit.id),
            result: { domain: hit.domain, score: hit.score, risk_level: hit.risk_level, flags: hit.flags },
          },
        });
      } else if (admitted.has(t.targetUrl)) jobs.push(base(t));
      else refused.push({ input: t.domain, error: 'quota_exceeded' });
    }
    return { jobs, refused };
  }

  router.post('/scan_async', maybeKey, limited('scan_async'), readBody, async (ctx) => {
    const { target, force_scan } = parseScanRequest(ctx.request.body);
    const created = await knex.transaction(async (trx) => {
      const { jobs, refused } = await admit(
        trx,
        ctx,
        [{ domain: target.host, targetUrl: target.url.href }],
        force_scan,
        false, // a single async scan always runs: the caller asked for a job, not a cache lookup
      );
      if (refused.length > 0) {
        const plan = principal(ctx)?.workspace?.plan;
        const limits = plan ? limitsFor(ruleset.plans, plan) : ruleset.plans.anonymous;
        throw new QuotaExhausted('scan', limits.scan_quota_daily);
      }
      return enqueueScanJobs(trx, jobs);
    });
    const job = created[0] as CreatedJob;
    ctx.status = 202;
    ctx.body = {
      scan_id: job.scan_id,
      status: 'queued',
      ...(job.access_token ? { access_token: job.access_token } : {}),
    };
  });

  router.post('/scan/bulk', maybeKey, limited('scan_bulk'), readBody, async (ctx) => {
    const body = parseBulk(ctx.request.body);
    if (!body.domains || body.domains.length === 0)
      throw badRequest('domains is required: a non-empty array of domains');
    const errors: { input: unknown; error: string }[] = [];
    const targets: { domain: string; targetUrl: string }[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    for (const [i, input] of body.domains.entries()) {
      if (i >= limit) {
        errors.push({ input, error: `over_bulk_limit: at most ${limit} domains per call` });
        continue;
      }
      if (typeof input !== 'string' || input.trim() === '') {
        errors.push({ input, error: 'invalid_domain: expected a non-empty string' });
        continue;
      }
      let target: ReturnType<typeof scanTargetOf>;
      try {
        target = scanTargetOf(input);
      } catch (err) {
        errors.push({ input, error: `invalid_domain: ${(err as Error).message.replace(/^invalid domain: /, '')}` });
        continue;
      }
      if (seen.has(target.url.href)) {
        duplicates++;
        errors.push({ input, error: 'duplicate_in_request' });
        continue;
      }
      seen.add(target.url.href);
      targets.push({ domain: target.host, targetUrl: target.url.href });
    }
    const created = await knex.transaction(async (trx) => {
      const { jobs, refused } = await admit(trx, ctx, targets, body.force_scan ?? false, true);
      errors.push(...refused);
      return enqueueScanJobs(trx, jobs);
    });
    ctx.status = 202;
    ctx.body = {
      jobs: created,
      errors,
      summary: { accepted: created.length, rejected: errors.length, duplicates, limit },
    };
  });

  router.get('/scan/jobs', requireKey(knex, ['admin', 'agent']), limited('job_list'), async (ctx) => {
    const q = ctx.query;
    const one = (name: string) => queryOnce(ctx, name);
    const lim = queryInt(ctx, 'limit', { min: 1, max: 200, fallback: 25 });
    const rawStatus = one('status');
    let statuses: JobStatus[] | undefined;
    if (rawStatus !== undefined) {
      statuses = rawStatus.split(',').map((s) => s.trim()) as JobStatus[];
      const bad = statuses.filter((s) => !(JOB_STATUSES as readonly string[]).includes(s));
      if (bad.length > 0) throw badRequest(`status must be a comma-separated subset of ${JOB_STATUSES.join(', ')}`);
    }
    const rawForce = one('force_scan');
    if (rawForce !== undefined && rawForce !== 'true' && rawForce !== 'false') {
      throw badRequest('force_scan must be true or false');
    }
    const rawDomain = one('domain');
    const domain = rawDomain === undefined ? undefined : scanTargetOf(rawDomain).host;
    for (const key of Object.keys(q)) {
      if (!['limit', 'status', 'domain', 'force_scan'].includes(key)) throw badRequest(`unsupported parameter ${key}`);
    }
    ctx.body = await listJobs(knex, (principal(ctx) as Principal).workspace!.id, {
      limit: lim,
      statuses,
      domain,
      forceScan: rawForce === undefined ? undefined : rawForce === 'true',
    });
  });

  const readOne = async (ctx: Context) => {
    const row = await readJob(knex, jobId(ctx), readerOf(ctx));
    if (!row) throw notFound('No such job');
    ctx.body = jobView(row);
  };
  router.get('/scan/jobs/:id', maybeKey, limited('job_read'), readOne);
  // Both paths read the same record and share one budget, so alternating them gains nothing.
  router.get('/scan_status/:id', maybeKey, limited('job_read'), readOne);

  return router;
}
