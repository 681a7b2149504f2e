import type { RiskLevel } from '../../engine/scoring/risk-level.ts';
import type { ScoreBreakdown } from '../../engine/scoring/score-breakdown.ts';
import type { EvidenceCoverage } from './evidence-coverage.ts';
import type { EvidencePack } from './evidence-pack.ts';

export interface ScanCaller {
  workspaceId: string | null;
  /** The workspace's plan, for its quotas (rules/plans.json); anonymous callers use the anonymous limits. */
  plan?: string;
  campaignTaggingEnabled: boolean;
  actor: string | null;
  requestId: string;
  /** Anonymous callers: the client address bucket their daily scan quota is counted in. */
  anonymousBucket?: string;
}

export interface CampaignTagging {
  feature_flag_enabled: boolean;
  shadow_mode: boolean;
  degraded: boolean;
  suppressed_reason: string | null;
  autonomous_tags: string[];
}

export interface RedirectStep {
  step: number;
  url: string;
  kind: 'initial' | 'http' | 'meta' | 'js';
  status?: number;
  source: 'browser' | 'fetch';
}

/** The scan result as POST /v1/scan answers it (spec fields, plus scan_id, scanned_at, cached, ruleset_hash). */
export interface ScanResult {
  scan_id: number;
  domain: string;
  target_url: string;
  score: number;
  phishing_score: number;
  risk_level: RiskLevel;
  flags: string[];
  score_breakdown: ScoreBreakdown;
  campaign_tagging_degraded: boolean;
  campaign_tagging: CampaignTagging;
  detailed_results: Record<string, unknown>;
  tabs: { detection: { evidencepack: EvidencePack & { sha256: string } }; redirect_timeline: RedirectStep[] };
  ruleset_hash: string;
  scanned_at: string;
  cached: boolean;
  /**
   * Whether the scan saw anything: `degraded: true` when DNS, HTTP and TLS all failed, so the score rests on no
   * evidence and a `low` risk level is not a clean bill (reasons name each failed source).
   */
  evidence: EvidenceCoverage;
}
