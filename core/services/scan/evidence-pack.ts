import { randomUUID } from 'node:crypto';
import type { Finding } from '../../detector.ts';
import { canonicalJson, sha256Hex } from '../../engine/contract/canonical-json.ts';
import type { ScoreBreakdown } from '../../engine/scoring/score-breakdown.ts';
import type { FetchedHop } from '../../evidence/sources/http-fetcher.ts';
import type { ScanEvidence } from './evidence.ts';

export const EVIDENCE_PACK_SCHEMA = 'preflight.evidencepack.v1';
const EXCERPT = 2048;

export interface EvidencePack {
  schema: typeof EVIDENCE_PACK_SCHEMA;
  id: string;
  created_at: string;
  workspace_id: string | null;
  actor: string | null;
  request_id: string;
  ruleset_hash: string;
  scan: { domain: string; target_url: string; score: number; risk_level: string; flags: string[] };
  score_breakdown: ScoreBreakdown;
  findings: { flag: string; source: string; detail?: string; evidence?: Record<string, unknown> }[];
  /** Every source's raw facts, when it answered, and how long it took. */
  sources: Record<string, unknown>;
}

/** The pack and the sha256 of its canonical JSON: the bytes GET /evidencepacks/<id> serves. */
export interface SealedPack {
  pack: EvidencePack;
  canonical: string;
  sha256: string;
}

function hop(h: FetchedHop) {
  return {
    url: h.url,
    kind: h.kind,
    status: h.status,
    headers: h.headers,
    redirect: h.redirect,
    body_bytes: Buffer.byteLength(h.body),
    body_sha256: sha256Hex(h.body),
    body_truncated: h.body_truncated,
    body_excerpt: h.body.slice(0, EXCERPT),
  };
}

export function buildEvidencePack(args: {
  evidence: ScanEvidence;
  findings: (Finding & { source: string })[];
  breakdown: ScoreBreakdown;
  scan: EvidencePack['scan'];
  workspaceId: string | null;
  actor: string | null;
  requestId: string;
  rulesetHash: string;
  screenshotUrl?: string;
}): SealedPack {
  const { evidence: e } = args;
  const at = e.collected_at;
  const source = (name: string, facts: unknown) => ({
    collected_at: at,
    duration_ms: e.timings[name],
    ...(facts as object),
  });
  const pack: EvidencePack = {
    schema: EVIDENCE_PACK_SCHEMA,
    id: randomUUID(),
    created_at: new Date().toISOString(),
    workspace_id: args.workspaceId,
    actor: args.actor,
    request_id: args.requestId,
    ruleset_hash: args.rulesetHash,
    scan: args.scan,
    score_breakdown: args.breakdown,
    findings: args.findings.map(({ flag, source: from, detail, evidence }) => ({
      flag,
      source: from,
      detail,
      evidence,
    })),
    sources: {
      dns: source('dns', { report: e.dns, addresses: e.addresses }),
      rdap: source('rdap', e.rdap),
      tls: source('tls', e.tls),
      http: source('http', {
        requested_url: e.page.requested_url,
        final_url: e.page.final_url,
        stopped: e.page.stopped,
        error: e.page.error,
        hsts: e.page.hsts,
        favicon: e.page.favicon,
        hops: e.page.hops.map(hop),
      }),
      follow: source('follow', {
        status: e.follow.status,
        from_url: e.follow.from_url,
        plan: e.follow.plan,
        reason: e.follow.reason,
        final_url: e.follow.page?.final_url,
        stopped: e.follow.page?.stopped,
        error: e.follow.page?.error,
        hops: e.follow.page?.hops.map(hop),
      }),
      ct: source('ct', e.ct),
      history: source('history', e.history),
      hostintel: source('hostintel', e.hostIntel),
      browser: source('browser', {
        mode: e.browser.mode,
        degraded: e.browser.degraded,
        degraded_reason: e.browser.degraded_reason,
        final_url: e.browser.final_url,
        hops: e.browser.hops,
        behaviors: e.browser.behaviors,
        screenshot: e.browser.screenshot ? { sha256: e.browser.screenshot.sha256, url: args.screenshotUrl } : undefined,
        visible_text_excerpt: e.browser.visible_text?.slice(0, EXCERPT),
      }),
    },
  };
  // JSON round trip drops undefined fields, so the canonical form and the stored object agree.
  const normalised = JSON.parse(JSON.stringify(pack)) as EvidencePack;
  const canonical = canonicalJson(normalised);
  return { pack: normalised, canonical, sha256: sha256Hex(canonical) };
}
