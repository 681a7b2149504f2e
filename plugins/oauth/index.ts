import type { PluginModule, ScanEvidence } from '../../core/plugin-api.ts';
import {
  BrandCatalog,
  defineDetector,
  type Finding,
  htmlToText,
  parseTarget,
  type Target,
} from '../../core/plugin-api.ts';
import { analyzeOAuth, hasOAuthEvidence, type OAuthAnalysis } from './analyze.ts';
import weights from './weights.json' with { type: 'json' };

/** The page the scan ended on (browser first, then the plain fetch), when it parses as an http(s) URL. */
function landingTarget(evidence: ScanEvidence): Target | undefined {
  for (const url of [evidence.browser.degraded ? undefined : evidence.browser.final_url, evidence.page.final_url]) {
    if (!url || url === 'about:blank') continue;
    try {
      return parseTarget(url);
    } catch {}
  }
  return undefined;
}

function findingsOf(a: OAuthAnalysis, host: string): Finding[] {
  const findings: Finding[] = [];
  if (a.provider_mismatch) {
    findings.push({
      flag: 'oauth:provider_mismatch',
      detail: `Authorize flow names ${a.mismatched_providers.join(', ')} but runs on ${host}, which is not that provider's`,
      evidence: { provider_hints: a.provider_hints, mismatched_providers: a.mismatched_providers },
    });
  }
  if (a.decoded_targets.length > 0) {
    findings.push({
      flag: 'oauth:encoded_auth_payload',
      detail: `Encoded parameter ${a.decoded_targets[0]!.param} (${a.decoded_targets[0]!.encodings.join(' → ')}) hides an authorize target`,
      evidence: { decoded_targets: a.decoded_targets },
    });
  }
  if (a.authorize_flow_anomalies.length > 0) {
    findings.push({
      flag: 'oauth:malformed_authorize_flow',
      detail: `Authorize flow anomalies: ${a.authorize_flow_anomalies.join(', ')}`,
      evidence: { authorize_flow_anomalies: a.authorize_flow_anomalies, redirect_host: a.redirect_host },
    });
  }
  if (a.generic_auth_terms.length > 0) {
    findings.push({
      flag: 'oauth:generic_auth_handoff',
      detail: `Page asks to sign in or grant access ("${a.generic_auth_terms.join('", "')}") on ${host}, with no explicit scopes and no provider behind it`,
      evidence: { generic_auth_terms: a.generic_auth_terms },
    });
  }
  return findings;
}

const detector = defineDetector({
  meta: {
    id: 'oauth',
    version: '1.0.0',
    description:
      'OAuth / OpenID Connect authorize-flow abuse read from the URL (and page text when given): provider mismatch, encoded authorize payloads, malformed flows, fake consent handoffs.',
    surfaces: ['agent_action', 'scan'],
    // On agent_action detect() reads only the URL (and page text) with immutable catalogs: its output may be reused.
    deterministicOn: ['agent_action'],
    flags: {
      'oauth:provider_mismatch': {
        description: 'Authorize flow references a known provider brand on a different domain.',
      },
      'oauth:encoded_auth_payload': {
        description:
          'Nested authorize target hidden in an encoded payload (hex, standard base64, URL-safe base64 are decoded).',
      },
      'oauth:malformed_authorize_flow': {
        description: 'Broken callback or inconsistent response-mode pattern.',
      },
      'oauth:generic_auth_handoff': {
        description: 'Fake consent or login handoff without explicit scopes on a non-provider host.',
      },
    },
    timeoutMs: 1_000,
  },
  deps: { brands: BrandCatalog },
  create: ({ deps }) => ({
    detect(ctx) {
      if (!ctx.target) return { findings: [] };
      if (ctx.surface !== 'scan' || !ctx.evidence) {
        const analysis = analyzeOAuth(ctx.target, deps.brands, ctx.texts?.page_text);
        return {
          findings: findingsOf(analysis, ctx.target.host),
          data: hasOAuthEvidence(analysis) ? { ...analysis } : undefined,
        };
      }
      // A scan also reads where the target led: a look-alike often redirects into its fake authorize flow.
      const landed = landingTarget(ctx.evidence) ?? ctx.target;
      const pageText =
        ctx.evidence.browser.visible_text ??
        (ctx.evidence.page.final ? htmlToText(ctx.evidence.page.final.body) : undefined);
      const analysis = analyzeOAuth(landed, deps.brands, pageText);
      return {
        findings: findingsOf(analysis, landed.host),
        data: hasOAuthEvidence(analysis) ? { 'oauth_scope.data': { ...analysis, url: landed.url.href } } : undefined,
      };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights, provides: { scoredResult: 'oauth_scope' } };
