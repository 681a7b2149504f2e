// Lure signals around a free-hosting tenant: what turns "someone's free site" into "someone's credential trap".

import type { BrandCatalog, FreeHostingMatch } from '../../core/plugin-api.ts';
import { brandOwning, isBrandAccountTenant, parseTarget, type Target } from '../../core/plugin-api.ts';
import { brandTokensIn } from '../_shared/brand-matching/brand-tokens.ts';
import { findImpersonation } from '../_shared/brand-matching/impersonation.ts';
import { lureWordsIn, normalizePageText } from '../_shared/brand-matching/lexicon.ts';
import { readAuthorizeFlow } from '../_shared/oauth/authorize-flow.ts';
import { type UrlParam, urlParams } from '../_shared/oauth/params.ts';

/** Only this much of the path is read: lure words sit near the start, and the input is attacker-sized. */
const MAX_PATH_CHARS = 2048;

/** Page wording of a credential form (login box, wallet seed prompt, card capture). */
const CREDENTIAL_FORM_PHRASES: readonly string[] = [
  'enter your password',
  'confirm your password',
  're-enter your password',
  'forgot password',
  'forgot your password',
  'keep me signed in',
  'stay signed in',
  'sign in to your account',
  'log in to your account',
  'login to your account',
  'verify your account',
  'confirm your identity',
  'email address and password',
  'email or phone',
  'seed phrase',
  'recovery phrase',
  'secret recovery',
  'private key',
  'card number',
  'security code',
];

/** Parameters that send the visitor on somewhere else after the page (`?next=`, `?redirect=`). */
const REDIRECT_PARAMS: ReadonlySet<string> = new Set([
  'redirect',
  'redirect_url',
  'redirect_to',
  'redirecturl',
  'url',
  'next',
  'return',
  'return_to',
  'returnurl',
  'continue',
  'goto',
  'dest',
  'destination',
  'target',
  'to',
]);

export interface LureSignals {
  /** Credential-lure words in the tenant name, its subdomains or the path. */
  lure_words: string[];
  /** The URL is an OAuth/OpenID authorize request. */
  authorize_flow: boolean;
  /** Credential-form wording found in page text the caller supplied. */
  credential_form_terms: string[];
  /** Redirect parameters pointing at a different site (`next=https://elsewhere.example/`). */
  offsite_redirects: { param: string; host: string }[];
  /** Scans only: the fetched page has a password input. */
  login_form?: boolean;
}

/** The labels left of the free-hosting suffix plus the path: the part of the URL the tenant chose. */
function tenantChosenText(target: Target, tenant: FreeHostingMatch): string {
  const tenantLabels = target.host.slice(0, -tenant.suffix.length - 1);
  return `${tenantLabels} ${target.url.pathname.slice(0, MAX_PATH_CHARS)}`;
}

function offsiteRedirects(params: readonly UrlParam[], target: Target): LureSignals['offsite_redirects'] {
  const found: LureSignals['offsite_redirects'] = [];
  for (const p of params) {
    if (!REDIRECT_PARAMS.has(p.name.toLowerCase()) || !/^https?:\/\//i.test(p.value)) continue;
    try {
      const next = parseTarget(p.value);
      if (next.site !== target.site) found.push({ param: p.name, host: next.host });
    } catch {
      // An unparseable value redirects nowhere.
    }
  }
  return found;
}

export function credentialFormTermsIn(pageText: string | undefined): string[] {
  if (!pageText) return [];
  const text = normalizePageText(pageText);
  return CREDENTIAL_FORM_PHRASES.filter((phrase) => text.includes(phrase));
}

export function lureSignals(target: Target, tenant: FreeHostingMatch, pageText?: string): LureSignals {
  return {
    lure_words: lureWordsIn(tenantChosenText(target, tenant)),
    authorize_flow: readAuthorizeFlow(target.url).isAuthorizeFlow,
    credential_form_terms: credentialFormTermsIn(pageText),
    offsite_redirects: offsiteRedirects(urlParams(target.url), target),
  };
}

export function hasLure(signals: LureSignals): boolean {
  return (
    signals.lure_words.length > 0 ||
    signals.authorize_flow ||
    signals.login_form === true ||
    signals.credential_form_terms.length > 0 ||
    signals.offsite_redirects.length > 0
  );
}

export interface BrandLure {
  brand: string;
  brand_name: string;
  /** Where the brand is named: the tenant's host labels or the path. */
  where: 'tenant' | 'path';
  matched: string;
}

/**
 * Trusted brands a free-hosting tenant dresses up as. In the tenant's own name a brand (or a look-alike of it) is
 * enough; a brand named only in the path needs a lure signal too, since blogs and docs mention brands all the time.
 */
export function brandLures(
  target: Target,
  catalog: BrandCatalog,
  signals: LureSignals,
  tenant?: FreeHostingMatch,
): BrandLure[] {
  // A brand's own host is the brand speaking, except on its path-based platforms (`sites.google.com/view/…`),
  // where the tenant's segment and what follows are anyone's.
  if (brandOwning(target, catalog) && tenant?.path_prefix === undefined) return [];
  const lures: BrandLure[] = findImpersonation(target, catalog)
    .filter((hit) => hit.technique !== 'brand_in_userinfo')
    .map((hit) => ({ brand: hit.brand, brand_name: hit.brand_name, where: 'tenant', matched: hit.matched }));
  if (!hasLure(signals)) return lures;
  for (const { brand, token } of brandTokensIn(target.url.pathname.slice(0, MAX_PATH_CHARS), catalog.brands)) {
    if (lures.some((l) => l.brand === brand.id) || isBrandAccountTenant(target, token)) continue;
    lures.push({ brand: brand.id, brand_name: brand.name, where: 'path', matched: token });
  }
  return lures;
}
