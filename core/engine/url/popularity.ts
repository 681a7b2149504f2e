// Popular registrable domains and brand CDN suffixes (data/known-good/): what the URL detectors need to know so
// that a brand word on a popular site's own machines (`googlevideo.com`, `*.akamaized.net`) is not read as a lure.
// The list is static data shipped with the project, read once per process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'tldts';
import { ROOT_DIR } from '../../config.ts';
import type { Target } from './target.ts';

const DATA_DIR = path.join(ROOT_DIR, 'data', 'known-good');

export interface PopularityData {
  /** Registrable domains of popular sites, minus shared platforms, shorteners, lockers and marketplaces. */
  domains: ReadonlySet<string>;
  /**
   * Suffixes of enterprise CDNs whose hostnames are set up by the brands themselves under contract
   * (`officecdn-microsoft-com.akamaized.net`): a brand word there names the customer's own delivery config.
   */
  brandCdnSuffixes: readonly string[];
  /** Cloud and CDN suffixes whose hostnames the platform assigns (`d1ayctixdv89j1.cloudfront.net`). */
  machineNamedSuffixes?: readonly string[];
  /** Public suffixes open only to governments or accredited institutions (`gov`, `edu`, `gov.uk`). */
  restrictedSuffixes?: readonly string[];
  /** Every registrable domain of the top list, the shared platforms and shorteners left out of `domains` included. */
  listedDomains?: ReadonlySet<string>;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(DATA_DIR, file), 'utf8')) as T;
}

/** The names excluded.json lists in any category: they never count as popular (anyone can publish there). */
function excludedDomains(): Set<string> {
  const excluded = readJson<Record<string, unknown>>('excluded.json');
  return new Set(Object.values(excluded).flatMap((v) => (Array.isArray(v) ? (v as string[]) : [])));
}

export function loadPopularity(): PopularityData {
  const excluded = excludedDomains();
  const domains = new Set<string>();
  const listedDomains = new Set<string>();
  const topSites = readJson<{ domains: { domain: string }[] }>('top-sites.json');
  for (const { domain } of topSites.domains) {
    const registrable = parse(domain, { allowPrivateDomains: false }).domain;
    if (!registrable) continue;
    listedDomains.add(registrable);
    if (!excluded.has(registrable)) domains.add(registrable);
  }
  const cdn = readJson<{
    brand_cdn_suffixes: string[];
    machine_named_suffixes: string[];
    restricted_registration_suffixes: string[];
  }>('brand-cdn.json');
  return {
    domains,
    listedDomains,
    brandCdnSuffixes: cdn.brand_cdn_suffixes,
    machineNamedSuffixes: cdn.machine_named_suffixes,
    restrictedSuffixes: cdn.restricted_registration_suffixes,
  };
}

let shipped: PopularityData | undefined;

/** The shipped popularity data (cached: the files do not change while the process runs). */
export function shippedPopularity(): PopularityData {
  shipped ??= loadPopularity();
  return shipped;
}

/**
 * True when the destination is a popular site's own host: its registrable domain is popular and the host is not a
 * tenant of a multi-tenant suffix (a tenant never inherits the platform's standing).
 */
export function isPopularSite(target: Target, data: PopularityData): boolean {
  if (target.isIp || !target.registrableDomain || target.site !== target.registrableDomain) return false;
  return data.domains.has(target.registrableDomain);
}

/**
 * True for the front page (path `/`, no query) of a listed domain's own host, `www.` or bare: `netlify.app/`,
 * `tinyurl.com/`. A shared platform or shortener is left out of `domains` because anyone publishes under it, but its
 * operator's own front page is not somebody's upload: tenants (`x.netlify.app`) and paths (`tinyurl.com/abc`) are.
 */
export function isListedFrontPage(target: Target, data: PopularityData): boolean {
  if (target.isIp || !target.registrableDomain || !data.listedDomains?.has(target.registrableDomain)) return false;
  const bare = target.host.startsWith('www.') ? target.host.slice(4) : target.host;
  if (bare !== target.registrableDomain) return false;
  return (target.url.pathname === '/' || target.url.pathname === '') && target.url.search === '';
}

/** True when the host sits on an enterprise CDN suffix where brands name their own delivery hosts. */
export function onBrandCdn(target: Target, data: PopularityData): boolean {
  return data.brandCdnSuffixes.some((s) => target.host.endsWith(`.${s}`));
}

/** True when the registrable domain sits under a suffix only governments or accredited institutions can register. */
export function underRestrictedSuffix(target: Target, data: PopularityData): boolean {
  if (target.isIp || !target.registrableDomain) return false;
  const suffix = target.registrableDomain.slice(target.registrableDomain.indexOf('.') + 1);
  return (data.restrictedSuffixes ?? []).includes(suffix);
}

/** True when the platform, not a person, named this host (cloud instance, CDN distribution, app id). */
export function machineNamed(target: Target, data: PopularityData): boolean {
  return (data.machineNamedSuffixes ?? []).some((s) => target.host.endsWith(`.${s}`));
}
