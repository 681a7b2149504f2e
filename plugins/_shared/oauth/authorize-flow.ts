// The shape of an OAuth 2.0 / OpenID Connect authorization request, read from the URL alone.
import { paramValues, type UrlParam, urlParams } from './params.ts';

/** Paths are matched on a bounded prefix; no authorize endpoint needs more. */
const MAX_PATH_CHARS = 2048;

/**
 * Authorize endpoints that are unambiguous on their own. Each pattern is anchored on literal segments and has no
 * nested quantifier, so matching stays linear on hostile paths.
 */
const AUTHORIZE_PATHS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'oauth2_authorize', pattern: /\/oauth2?\/(?:v[0-9.]{1,4}\/)?authori[sz]e(?:\/|$)/ },
  { name: 'google_o_oauth2_auth', pattern: /\/o\/oauth2\/(?:v[0-9]\/)?auth(?:\/|$)/ },
  { name: 'login_oauth', pattern: /\/login\/oauth(?:\/authori[sz]e)?\/?$/ },
  { name: 'openid_connect_auth', pattern: /\/protocol\/openid-connect\/auth(?:\/|$)/ },
  { name: 'connect_authorize', pattern: /\/connect\/authori[sz]e(?:\/|$)/ },
  { name: 'dialog_oauth', pattern: /\/dialog\/oauth(?:\/|$)/ },
];

/** A bare `/authorize` segment is an authorize endpoint only when `client_id` or `response_type` comes with it. */
const GENERIC_AUTHORIZE_PATH = /\/authori[sz]e(?:\/|$)/;

/**
 * Paths only one provider uses; the same path on another host imitates that provider even when no brand name
 * appears (`/common/oauth2/v2.0/authorize` is Microsoft's, `/o/oauth2/auth` Google's).
 */
const PROVIDER_PATHS: readonly { brand: string; pattern: RegExp }[] = [
  { brand: 'microsoft', pattern: /\/(?:common|organizations|consumers|[0-9a-f-]{36})\/oauth2\/(?:v2\.0\/)?authorize/ },
  { brand: 'google', pattern: /\/o\/oauth2\// },
  { brand: 'github', pattern: /\/login\/oauth\/authorize/ },
  { brand: 'facebook', pattern: /\/dialog\/oauth/ },
];

export interface AuthorizeFlow {
  /** True when the URL is an authorization request by path or by parameters. */
  isAuthorizeFlow: boolean;
  /** Name of the authorize-path shape matched, if any. */
  pathShape?: string;
  /** Provider whose distinctive authorize path this is, if any (a brand id). */
  providerPath?: string;
  clientIds: string[];
  redirectUris: string[];
  responseTypes: string[];
  responseModes: string[];
  scopes: string[];
  params: UrlParam[];
}

function lowerPath(url: URL): string {
  return url.pathname.slice(0, MAX_PATH_CHARS).toLowerCase();
}

/** Reads the authorization-request facts of `url`. */
export function readAuthorizeFlow(url: URL): AuthorizeFlow {
  const path = lowerPath(url);
  const params = urlParams(url);
  const clientIds = paramValues(params, 'client_id');
  const redirectUris = paramValues(params, 'redirect_uri');
  const responseTypes = paramValues(params, 'response_type');
  // A `redirect_uri` alone is every app's post-login return address, not an OAuth request.
  const hasOauthParams = clientIds.length + responseTypes.length > 0;
  const strongShape = AUTHORIZE_PATHS.find((p) => p.pattern.test(path))?.name;
  const pathShape = strongShape ?? (hasOauthParams && GENERIC_AUTHORIZE_PATH.test(path) ? 'authorize' : undefined);
  const byParams =
    (clientIds.length > 0 && redirectUris.length + responseTypes.length > 0) ||
    (responseTypes.length > 0 && redirectUris.length > 0);
  return {
    isAuthorizeFlow: pathShape !== undefined || byParams,
    pathShape,
    providerPath: PROVIDER_PATHS.find((p) => p.pattern.test(path))?.brand,
    clientIds,
    redirectUris,
    responseTypes,
    responseModes: paramValues(params, 'response_mode'),
    scopes: paramValues(params, 'scope'),
    params,
  };
}
