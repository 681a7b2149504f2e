import { inject, injectable } from 'tsyringe';
import { AppConfig } from '../../config.ts';
import { canonicalJson, sha256Hex } from '../../engine/contract/canonical-json.ts';
import { Ruleset } from '../../engine/rules/ruleset.ts';
import type { Target } from '../../engine/url/target.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import {
  consumeAnonymousQuotaUpTo,
  consumeQuota,
  ForceScanDisabled,
  limitsFor,
  QuotaExhausted,
} from '../workspaces/quotas.ts';
import type { ScanEvidence } from './evidence.ts';
import { EvidenceCollector } from './evidence-collector.ts';
import { ScanRecorder } from './scan-recorder.ts';
import type { ScanCaller, ScanResult } from './scan-result.ts';

// The metered entry to scanning: the cache, the plan's quotas, then collection and recording (scan-recorder.ts).
export { NonPublicTarget, redirectTimeline } from './scan-recorder.ts';
export type { CampaignTagging, RedirectStep, ScanCaller, ScanResult } from './scan-result.ts';

@injectable()
export class ScanService {
  constructor(
    @inject(EvidenceCollector) private readonly collector: EvidenceCollector,
    @inject(ScanRecorder) private readonly recorder: ScanRecorder,
    @inject(Ruleset) private readonly ruleset: Ruleset,
    @inject(Knex) private readonly knex: Knex,
    @inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * A cached result for this workspace and target unless forced; otherwise a fresh scan, stored.
   * Metered by default: force scans need a plan that allows them (402) and spend their own daily quota, and every
   * fresh scan spends the daily scan quota (429 when used up); a cached answer costs nothing. `unmetered` is for
   * callers that settled the cost themselves: the operator's in-process CLI, and deep action checks (which spend
   * one scan unit per check, cached or not).
   */
  async scan(
    target: Target,
    options: { force_scan: boolean; browser?: boolean; unmetered?: boolean },
    caller: ScanCaller,
  ): Promise<ScanResult> {
    const limits = caller.workspaceId ? limitsFor(this.ruleset.plans, caller.plan) : this.ruleset.plans.anonymous;
    const forceQuota = limits.force_scan_quota_daily;
    if (!options.unmetered && options.force_scan && (forceQuota === null || forceQuota === undefined)) {
      throw new ForceScanDisabled(caller.plan ?? this.ruleset.plans.default_plan);
    }
    if (!options.force_scan) {
      const cached = await this.cached(target, caller.workspaceId);
      // Anonymous callers share one cache: the answer is theirs, not the earlier caller's (X-Actor, request id).
      if (cached) return caller.workspaceId ? cached : restampedFor(cached, caller);
    }
    if (!options.unmetered && caller.workspaceId) {
      if (options.force_scan) await consumeQuota(this.knex, caller.workspaceId, 'force_scan', forceQuota!);
      await consumeQuota(this.knex, caller.workspaceId, 'scan', limits.scan_quota_daily);
    } else if (!options.unmetered) {
      const granted = await this.knex.transaction((trx) =>
        consumeAnonymousQuotaUpTo(trx, caller.anonymousBucket ?? 'unknown', 'scan', limits.scan_quota_daily, 1),
      );
      if (granted === 0) throw new QuotaExhausted('scan', limits.scan_quota_daily);
    }
    const evidence = await this.collect(target, options);
    return this.record(evidence, options, caller);
  }

  collect(target: Target, options: { browser?: boolean; signal?: AbortSignal }): Promise<ScanEvidence> {
    return this.collector.collect(target, { browser: options.browser ?? true, signal: options.signal });
  }

  private async cached(target: Target, workspaceId: string | null): Promise<ScanResult | undefined> {
    const q = this.knex('scans')
      .where({ target_url: target.url.href, compacted: false })
      .where('created_at', '>', this.knex.raw(`now() - interval '1 second' * ?`, [this.config.scanCacheSeconds]))
      .orderBy('id', 'desc')
      .first('result');
    if (workspaceId) q.where({ workspace_id: workspaceId });
    else q.whereNull('workspace_id');
    const row = await q;
    return row ? { ...(row.result as ScanResult), cached: true } : undefined;
  }

  /** Detect, score and store a scan from gathered evidence (jobs look at the evidence first, then call this). */
  record(evidence: ScanEvidence, options: { force_scan: boolean }, caller: ScanCaller): Promise<ScanResult> {
    return this.recorder.record(evidence, options, caller);
  }
}

/**
 * A cached anonymous result as answered to `caller`: the evidence pack names this caller's actor and request id
 * (never the earlier anonymous caller's), and its sha256 is over the pack as answered. Anonymous packs are not
 * retrievable by id, so there is no stored copy for the answer to disagree with.
 */
function restampedFor(result: ScanResult, caller: ScanCaller): ScanResult {
  const { sha256: _stored, ...pack } = result.tabs.detection.evidencepack;
  const restamped = { ...pack, actor: caller.actor, request_id: caller.requestId };
  return {
    ...result,
    tabs: {
      ...result.tabs,
      detection: { evidencepack: { ...restamped, sha256: sha256Hex(canonicalJson(restamped)) } },
    },
  };
}
