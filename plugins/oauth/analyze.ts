// Puts the OAuth signals together into the `detailed_results.oauth_scope.data` shape of the scanner spec.

import type { BrandCatalog, Target } from '../../core/plugin-api.ts';
import { brandOwning } from '../../core/plugin-api.ts';
import { type AuthorizeFlow, readAuthorizeFlow } from '../_shared/oauth/authorize-flow.ts';
import { parseQuery } from '../_shared/oauth/params.ts';
import { type DecodedTarget, findEncodedAuthorizeTargets } from './encoded-payload.ts';
import { handoffTermsIn } from './handoff.ts';
import { authorizeFlowAnomalies, type FlowAnomaly } from './malformed-flow.ts';
import { mismatchedProviders, type ProviderHint, providerHints } from './provider-hints.ts';

export type RecommendedAction = 'allow' | 'approval_required' | 'block';

export interface OAuthAnalysis {
  authorize_flow: boolean;
  provider_hints: ProviderHint[];
  provider_mismatch: boolean;
  mismatched_providers: string[];
  redirect_host?: string;
  decoded_targets: DecodedTarget[];
  authorize_flow_anomalies: FlowAnomaly[];
  generic_auth_terms: string[];
  /** Scopes requested by the URL (`scope` parameter), split on spaces. */
  scopes: string[];
  recommended_action: RecommendedAction;
}

/** Decoded text is an authorize target when it holds an authorize URL or an authorize query string. */
function recognizeAuthorizeTarget(text: string): string | undefined {
  const urlStart = text.search(/https?:\/\//i);
  if (urlStart >= 0) {
    const candidate = text.slice(urlStart).split(/[\s"'<>]/, 1)[0] ?? '';
    try {
      const url = new URL(candidate);
      if (readAuthorizeFlow(url).isAuthorizeFlow) return url.hostname;
    } catch {
      // Not a URL after all; it may still be a bare query string.
    }
  }
  const names = new Set(parseQuery(text.replace(/^[?#&]/, '')).map((p) => p.name.trim().toLowerCase()));
  const hasClient = names.has('client_id');
  const hasRedirect = names.has('redirect_uri');
  const hasResponseType = names.has('response_type');
  return (hasClient && (hasRedirect || hasResponseType)) || (hasResponseType && hasRedirect) ? '' : undefined;
}

function redirectHost(flow: AuthorizeFlow): string | undefined {
  for (const uri of flow.redirectUris) {
    try {
      const host = new URL(uri).hostname;
      if (host) return host;
    } catch {
      // Reported as an anomaly by the malformed-flow check.
    }
  }
  return undefined;
}

function recommend(a: Omit<OAuthAnalysis, 'recommended_action'>): RecommendedAction {
  if (a.provider_mismatch || a.decoded_targets.length > 0) return 'block';
  if (a.authorize_flow_anomalies.length > 0 || a.generic_auth_terms.length > 0) return 'approval_required';
  return 'allow';
}

/** Everything the OAuth detector can tell from the URL and optional page text, without network I/O. */
export function analyzeOAuth(target: Target, catalog: BrandCatalog, pageText?: string): OAuthAnalysis {
  const flow = readAuthorizeFlow(target.url);
  const onProviderHost = brandOwning(target, catalog) !== undefined;
  const hints = flow.isAuthorizeFlow ? providerHints(target, flow, catalog) : [];
  const mismatched = flow.isAuthorizeFlow ? mismatchedProviders(target, hints, catalog) : [];
  const scopes = flow.scopes.flatMap((s) => s.split(/[\s+]/)).filter((s) => s.length > 0);
  const noExplicitScope = scopes.length === 0;
  const analysis = {
    authorize_flow: flow.isAuthorizeFlow,
    provider_hints: hints,
    provider_mismatch: mismatched.length > 0,
    mismatched_providers: [...new Set(mismatched.map((h) => h.brand))],
    redirect_host: redirectHost(flow),
    decoded_targets: findEncodedAuthorizeTargets(flow.params, recognizeAuthorizeTarget),
    authorize_flow_anomalies: authorizeFlowAnomalies(flow, onProviderHost),
    generic_auth_terms: pageText && !onProviderHost && noExplicitScope ? handoffTermsIn(pageText) : [],
    scopes,
  };
  return { ...analysis, recommended_action: recommend(analysis) };
}

/** True when the analysis found anything worth persisting under `oauth_scope`. */
export function hasOAuthEvidence(a: OAuthAnalysis): boolean {
  return a.authorize_flow || a.decoded_targets.length > 0 || a.generic_auth_terms.length > 0;
}
