import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { AppConfig } from '../../config.ts';
import { PluginCatalog } from '../../engine/pipeline/plugin-catalog.ts';
import { DetectorSet } from '../../engine/pipeline/run-detectors.ts';
import { Ruleset } from '../../engine/rules/ruleset.ts';
import { Scorer } from '../../engine/scoring/score-breakdown.ts';
import { brandOwning } from '../../engine/url/brand-ownership.ts';
import { BrandCatalog } from '../../engine/url/catalogs.ts';
import { checkAddress } from '../../evidence/net/address-policy.ts';
import { ReputationService } from '../../evidence/reputation/reputation-service.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import { EventBus } from '../../platform/events/event-bus.ts';
import { mergeAtPath } from './detailed-results.ts';
import { detectScan } from './detect-scan.ts';
import type { ScanEvidence } from './evidence.ts';
import { evidenceCoverage } from './evidence-coverage.ts';
import { buildEvidencePack } from './evidence-pack.ts';
import { PostgresScanHistory, withScanHistoryOf } from './scan-history.ts';
import type { CampaignTagging, RedirectStep, ScanCaller, ScanResult } from './scan-result.ts';

// Recording a scan: detection, scoring and the stored result (scans row, evidence pack, screenshot, history, the
// scan.completed event). What a scan costs the caller is ScanService's business, not this one's.

/** An anonymous scan of a target that is, or resolves to, a loopback, private or otherwise non-public address. */
export class NonPublicTarget extends Error {
  constructor(readonly host: string) {
    super(`${host} does not resolve to a public address; scanning it needs an API key`);
  }
}

/** Detects, scores and stores scans from gathered evidence; unmetered (ScanService meters). */
@injectable()
export class ScanRecorder {
  private readonly scorer: Scorer;

  constructor(
    @inject(DetectorSet) private readonly detectors: DetectorSet,
    @inject(Ruleset) private readonly ruleset: Ruleset,
    @inject(Knex) private readonly knex: Knex,
    @inject(PostgresScanHistory) private readonly history: PostgresScanHistory,
    @inject(BrandCatalog) private readonly brands: BrandCatalog,
    @inject(ReputationService) private readonly reputation: ReputationService,
    @inject(AppConfig) private readonly config: AppConfig,
    @inject(EventBus) private readonly events: EventBus,
    @inject(PluginCatalog) private readonly catalog: PluginCatalog,
  ) {
    this.scorer = new Scorer(ruleset);
  }

  /** Detect, score and store a scan from gathered evidence (jobs look at the evidence first, then call this). */
  async record(evidence: ScanEvidence, options: { force_scan: boolean }, caller: ScanCaller): Promise<ScanResult> {
    const { target } = evidence;
    // Anyone may scan anonymously: the service must not become a way to learn what names resolve to inside the
    // network it runs in. Outside lab mode (whose sites live on reserved test addresses), an anonymous scan of a
    // target that is or resolves to a non-public address is refused before anything about it is answered.
    if (caller.workspaceId === null && !this.config.labSitesDir) {
      const nonPublic = evidence.addresses.find((a) => !checkAddress(a).allowed);
      if (nonPublic !== undefined) throw new NonPublicTarget(target.host);
    }
    // Reused-fingerprint and campaign detectors read this caller's own scan history only (anonymous: its own bucket).
    const detection = await withScanHistoryOf(caller.workspaceId, () =>
      detectScan(this.detectors, this.ruleset.composites, evidence),
    );
    // Findings of the plugins gated by the campaign-tagging feature flag join the scan only when it is on.
    const gated = this.catalog.gatedBy('campaign_tagging');
    const isGated = (flag: string) => gated.has(this.catalog.ownerOf(flag) ?? '');
    const campaignRun = detection.runs.find((r) => r.provides?.featureFlag === 'campaign_tagging');
    const campaignFlags = uniqueSorted(detection.findings.map((f) => f.flag).filter(isGated));
    const merged = caller.campaignTaggingEnabled;
    const findings = merged ? detection.findings : detection.findings.filter((f) => !isGated(f.flag));
    const flags = uniqueSorted(findings.map((f) => f.flag));

    const reputation = await this.reputation.lookup(target, 800);
    const { breakdown, risk_level } = await this.scorer.score(flags, {
      brand_owned: brandOwning(target, this.brands) !== undefined,
      known_good: reputation.knownGood,
      domain_age_days: evidence.rdap.ok ? (evidence.rdap.value.age_days ?? -1) : -1,
      first_seen_days_ago:
        evidence.history.ok && evidence.history.value.length > 0 ? evidence.history.value[0]!.age_days : -1,
    });

    const screenshotId = evidence.browser.screenshot ? randomUUID() : undefined;
    const screenshotUrl = screenshotId ? `/screenshots/${screenshotId}.png` : undefined;
    const detailed = this.detailedResults(detection.runs, flags, evidence, screenshotUrl);
    const campaign_tagging: CampaignTagging = {
      feature_flag_enabled: merged,
      shadow_mode: !merged,
      degraded: Boolean(campaignRun?.skipped),
      suppressed_reason: merged ? null : 'feature_flag_disabled',
      autonomous_tags: campaignFlags,
    };
    const scan = {
      domain: target.host,
      target_url: target.url.href,
      score: breakdown.applied_score,
      risk_level,
      flags,
    };
    const { pack, canonical, sha256 } = buildEvidencePack({
      evidence,
      findings,
      breakdown,
      scan,
      workspaceId: caller.workspaceId,
      actor: caller.actor,
      requestId: caller.requestId,
      rulesetHash: this.ruleset.hash,
      screenshotUrl,
    });
    const result: Omit<ScanResult, 'scan_id'> = {
      ...scan,
      phishing_score: breakdown.applied_score,
      score_breakdown: breakdown,
      campaign_tagging_degraded: campaign_tagging.degraded,
      campaign_tagging,
      detailed_results: detailed,
      tabs: { detection: { evidencepack: { ...pack, sha256 } }, redirect_timeline: redirectTimeline(evidence) },
      ruleset_hash: this.ruleset.hash,
      scanned_at: pack.created_at,
      cached: false,
      evidence: evidenceCoverage(evidence),
    };

    const scanId = await this.knex.transaction(async (trx) => {
      const [row] = await trx('scans')
        .insert({
          workspace_id: caller.workspaceId,
          domain: scan.domain,
          host: target.host,
          target_url: scan.target_url,
          score: scan.score,
          risk_level,
          flags,
          result: {},
          evidence_pack_id: pack.id,
          ruleset_hash: this.ruleset.hash,
          actor: caller.actor,
          force_scan: options.force_scan,
        })
        .returning('id');
      const id = Number(row.id);
      await trx('scans')
        .where({ id })
        .update({ result: { scan_id: id, ...result } });
      await trx('evidence_packs').insert({
        id: pack.id,
        workspace_id: caller.workspaceId,
        scan_id: id,
        sha256,
        canonical,
      });
      if (screenshotId && evidence.browser.screenshot) {
        await trx('scan_screenshots').insert({
          id: screenshotId,
          scan_id: id,
          workspace_id: caller.workspaceId,
          png: evidence.browser.screenshot.png,
          sha256: evidence.browser.screenshot.sha256,
        });
      }
      return id;
    });
    this.reputation.forgetPriorScan(caller.workspaceId, target.host);
    await this.history.record(
      { host: target.host, risk_level, flags, scan_id: scanId, workspace_id: caller.workspaceId },
      {
        cert_sha256: evidence.tls.ok ? evidence.tls.value.fingerprint_sha256 : undefined,
        favicon_hash: evidence.page.favicon ? String(evidence.page.favicon.hash) : undefined,
        ip: evidence.addresses[0],
      },
    );
    await this.events.publish('scan.completed', caller.workspaceId, {
      scan_id: scanId,
      domain: scan.domain,
      target_url: scan.target_url,
      score: scan.score,
      risk_level,
      flags,
      evidence_pack: { id: pack.id, sha256 },
      actor: caller.actor,
      request_id: caller.requestId,
      scanned_at: result.scanned_at,
    });
    return { scan_id: scanId, ...result };
  }

  private detailedResults(
    runs: Awaited<ReturnType<DetectorSet['run']>>,
    flags: string[],
    evidence: ScanEvidence,
    screenshotUrl: string | undefined,
  ): Record<string, unknown> {
    const tree: Record<string, unknown> = {};
    for (const run of runs) {
      for (const [path, value] of Object.entries(run.output?.data ?? {})) {
        if (path.includes('.') || isResultRoot(path)) mergeAtPath(tree, path, value);
      }
    }
    // <path>.{flags,score} (e.g. oauth_scope): the detector reports what it saw; weights are scoring's business.
    for (const run of runs) {
      const root = run.provides?.scoredResult;
      if (!root || !tree[root]) continue;
      const own = flags.filter((f) => this.catalog.ownerOf(f) === run.pluginId);
      mergeAtPath(tree, `${root}.flags`, own);
      mergeAtPath(
        tree,
        `${root}.score`,
        own.reduce((sum, f) => sum + this.scorer.weightOf(f), 0),
      );
    }
    const b = evidence.browser;
    mergeAtPath(tree, 'visual.data', {
      mode: b.mode,
      degraded: b.degraded,
      ...(b.degraded_reason ? { degraded_reason: b.degraded_reason } : {}),
      final_url: b.final_url,
      ...(screenshotUrl ? { screenshot_url: screenshotUrl } : {}),
      replay_steps: b.hops.map((h, i) => ({ step: i + 1, ...h })),
      policy: { isolated_context: true, ssrf_guard: true, downloads: 'blocked' },
      runtime: { duration_ms: b.duration_ms },
    });
    return tree;
  }
}

const RESULT_ROOTS = new Set([
  'whois',
  'ssl',
  'infrastructure',
  'content',
  'visual',
  'brand',
  'geolocation',
  'campaign',
  'oauth_scope',
]);
function isResultRoot(key: string): boolean {
  return RESULT_ROOTS.has(key);
}

function uniqueSorted(xs: string[]): string[] {
  return [...new Set(xs)].sort();
}

/** The browser's hops when it ran, else the plain fetch's: each step with how it happened. */
export function redirectTimeline(evidence: ScanEvidence): RedirectStep[] {
  if (!evidence.browser.degraded && evidence.browser.hops.length > 0) {
    return evidence.browser.hops.map((h, i) => ({
      step: i + 1,
      url: h.url,
      kind: h.kind,
      status: h.status,
      source: 'browser',
    }));
  }
  return evidence.page.hops.map((h, i) => ({
    step: i + 1,
    url: h.url,
    kind: h.kind,
    status: h.status,
    source: 'fetch',
  }));
}
