// Who owns a destination, as far as the brand catalog knows. Every brand signal is suppressed on a brand's own
// property: a trusted brand's domain that mentions another brand (`amazon.com/apple-airpods`) is not a lure.

import { parse } from 'tldts';
import type { BrandEntry } from '../rules/ruleset.ts';
import type { BrandCatalog } from './catalogs.ts';
import type { Target } from './target.ts';

const oauthDomainCache = new WeakMap<BrandCatalog, Map<string, BrandEntry>>();

/**
 * Registrable domains of the brands' OAuth hosts (`googleapis.com`, `adobelogin.com`): infrastructure domains the
 * brand owns without listing them among its public `domains`.
 */
function oauthDomains(catalog: BrandCatalog): Map<string, BrandEntry> {
  let domains = oauthDomainCache.get(catalog);
  if (!domains) {
    domains = new Map();
    for (const brand of catalog.brands) {
      for (const host of brand.oauth_hosts) {
        const domain = parse(host, { allowPrivateDomains: false }).domain;
        if (domain) domains.set(domain, brand);
      }
    }
    oauthDomainCache.set(catalog, domains);
  }
  return domains;
}

/**
 * The brand that owns the site behind `target`, if any. A tenant of a multi-tenant suffix is its own site, so
 * `evil.web.core.windows.net` is not Microsoft's even though `windows.net` is: ownership must cover the site.
 */
export function brandOwning(target: Target, catalog: BrandCatalog): BrandEntry | undefined {
  if (target.isIp) return undefined;
  const owner = catalog.ownerOf(target.host);
  if (owner) {
    const ownedDomain = owner.domains.find((d) => target.host === d || target.host.endsWith(`.${d}`));
    // No listed domain matched: the catalog recognised a country-code variant, which covers the whole site.
    if (!ownedDomain && !target.privateSuffix) return owner;
    if (ownedDomain && ownedDomain.length >= target.site.length) return owner;
  }
  if (catalog.oauthProviderOf(target.host)) return catalog.oauthProviderOf(target.host);
  if (target.privateSuffix || !target.registrableDomain) return undefined;
  return oauthDomains(catalog).get(target.registrableDomain);
}

/**
 * Suffixes whose tenant names are account names (`microsoft.github.io` is Microsoft's GitHub organisation):
 * a tenant named exactly after a brand token is plausibly the brand's own account there.
 */
const ACCOUNT_NAMESPACE_SUFFIXES: ReadonlySet<string> = new Set(['github.io', 'gitlab.io']);

/** True when a tenant called exactly `token` on this platform is most likely the brand's own account. */
export function isBrandAccountTenant(target: Target, token: string): boolean {
  if (!target.privateSuffix || !ACCOUNT_NAMESPACE_SUFFIXES.has(target.privateSuffix)) return false;
  return target.site === `${token}.${target.privateSuffix}`;
}
