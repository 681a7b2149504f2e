// Authorization requests that no well-behaved client sends: broken callbacks and response types delivered in a
// way the OAuth 2.0 Multiple Response Type Encoding Practices forbid or that leaks the credential.
import type { AuthorizeFlow } from '../_shared/oauth/authorize-flow.ts';

export type FlowAnomaly =
  | 'redirect_uri_dangerous_scheme'
  | 'redirect_uri_not_absolute'
  | 'redirect_uri_userinfo'
  | 'missing_client_id'
  | 'duplicate_parameter'
  | 'unknown_response_type'
  | 'token_in_query_response_mode'
  | 'code_in_fragment_response_mode';

/** Schemes that run or embed content instead of returning to a client. */
const DANGEROUS_SCHEMES: ReadonlySet<string> = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

const RESPONSE_TYPE_VALUES: ReadonlySet<string> = new Set(['code', 'token', 'id_token', 'none']);

/** RFC 8252 out-of-band redirect for installed apps: not a URL, but legitimate. */
const OUT_OF_BAND_REDIRECT = 'urn:ietf:wg:oauth:2.0:oob';

const SINGLE_VALUED = ['client_id', 'redirect_uri', 'response_type', 'response_mode'] as const;

function redirectAnomalies(redirectUri: string): FlowAnomaly[] {
  const value = redirectUri.trim();
  if (value.startsWith(OUT_OF_BAND_REDIRECT)) return [];
  // `//evil.example/cb` and `/cb` are resolved against whatever page the provider decides: not a callback.
  if (value.startsWith('/') || value.startsWith('\\')) return ['redirect_uri_not_absolute'];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ['redirect_uri_not_absolute'];
  }
  if (DANGEROUS_SCHEMES.has(url.protocol)) return ['redirect_uri_dangerous_scheme'];
  // Private-use schemes (`com.example.app:/cb`) are RFC 8252 native-app callbacks; only web ones carry userinfo.
  if ((url.protocol === 'http:' || url.protocol === 'https:') && (url.username || url.password)) {
    return ['redirect_uri_userinfo'];
  }
  return [];
}

function responseModeAnomalies(flow: AuthorizeFlow, onProviderHost: boolean): FlowAnomaly[] {
  const types = flow.responseTypes.flatMap((t) => t.split(/[\s+]/)).filter((t) => t.length > 0);
  const modes = new Set(flow.responseModes.map((m) => m.toLowerCase()));
  const anomalies: FlowAnomaly[] = [];
  if (types.some((t) => !RESPONSE_TYPE_VALUES.has(t))) anomalies.push('unknown_response_type');
  // Tokens in the query string end up in server logs and Referer headers; the specs forbid it.
  if (modes.has('query') && types.some((t) => t === 'token' || t === 'id_token')) {
    anomalies.push('token_in_query_response_mode');
  }
  // Providers allow code in the fragment for SPAs (MSAL does it), so this only counts off a provider's own host.
  if (!onProviderHost && modes.has('fragment') && types.length === 1 && types[0] === 'code') {
    anomalies.push('code_in_fragment_response_mode');
  }
  return anomalies;
}

/** Anomalies of an authorize flow; empty for anything that is not one. */
export function authorizeFlowAnomalies(flow: AuthorizeFlow, onProviderHost: boolean): FlowAnomaly[] {
  if (!flow.isAuthorizeFlow) return [];
  const anomalies = new Set<FlowAnomaly>();
  for (const uri of flow.redirectUris) for (const a of redirectAnomalies(uri)) anomalies.add(a);
  if (flow.clientIds.length === 0 && flow.redirectUris.length > 0) anomalies.add('missing_client_id');
  for (const name of SINGLE_VALUED) {
    const values = new Set(flow.params.filter((p) => p.name.toLowerCase() === name).map((p) => p.value));
    if (values.size > 1) anomalies.add('duplicate_parameter');
  }
  for (const a of responseModeAnomalies(flow, onProviderHost)) anomalies.add(a);
  return [...anomalies];
}
