import { parse } from 'tldts';
import type { BrandEntry, HostingData } from '../rules/ruleset.ts';
import {
  isListedFrontPage,
  isPopularSite,
  machineNamed,
  onBrandCdn,
  type PopularityData,
  shippedPopularity,
  underRestrictedSuffix,
} from './popularity.ts';
import type { Target } from './target.ts';

/** Trusted brands from rules/brands.json, indexed for the lookups URL detectors make. */
export class BrandCatalog {
  private readonly byDomain = new Map<string, BrandEntry>();
  private readonly byOauthHost = new Map<string, BrandEntry>();
  private readonly byCountryLabel = new Map<string, BrandEntry>();

  /** `popularity` defaults to the shipped list (data/known-good/); tests may pass their own. */
  constructor(
    readonly brands: readonly BrandEntry[],
    readonly popularity: PopularityData = shippedPopularity(),
  ) {
    for (const b of brands) {
      for (const d of b.domains) this.byDomain.set(d, b);
      for (const h of b.oauth_hosts) this.byOauthHost.set(h, b);
      if (b.cctld_variants) this.byCountryLabel.set(b.domains[0]!.split('.')[0]!, b);
    }
  }

  /**
   * The brand that owns this host: the host is one of its domains or below one, or (for brands marked
   * `cctld_variants`) its main label under a country-code suffix such as `google.de` or `amazon.co.uk`.
   */
  ownerOf(host: string): BrandEntry | undefined {
    for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) {
      const b = this.byDomain.get(h);
      if (b) return b;
    }
    const { domainWithoutSuffix, publicSuffix } = parse(host, { allowPrivateDomains: false });
    if (domainWithoutSuffix && publicSuffix && /^(?:(?:com|co|org|net)\.)?[a-z]{2}$/.test(publicSuffix)) {
      return this.byCountryLabel.get(domainWithoutSuffix);
    }
    return undefined;
  }

  oauthProviderOf(host: string): BrandEntry | undefined {
    return this.byOauthHost.get(host);
  }

  /**
   * A popular site's own host, or a host on an enterprise CDN: brand words there name the site's or the brand's
   * own machinery (`googlevideo.com`, `officecdn-microsoft-com.akamaized.net`), never a look-alike. A tenant of a
   * shared platform is not covered (`paypal-login.vercel.app` stays a lure).
   */
  isEstablishedHost(target: Target): boolean {
    return this.isPopularHost(target) || underRestrictedSuffix(target, this.popularity);
  }

  /** A popular site's own host or an enterprise CDN host (not merely a restricted suffix, whose sites get hacked). */
  isPopularHost(target: Target): boolean {
    return isPopularSite(target, this.popularity) || onBrandCdn(target, this.popularity);
  }

  /** The front page of a listed domain, shared platforms and shorteners included (`https://netlify.app/`). */
  isListedFrontPage(target: Target): boolean {
    return isListedFrontPage(target, this.popularity);
  }

  /** The platform named this host (`d1ayctixdv89j1.cloudfront.net`): no person chose its words. */
  isMachineNamed(target: Target): boolean {
    return machineNamed(target, this.popularity);
  }
}

export interface FreeHostingMatch {
  suffix: string;
  provider: string;
  /** The tenant's own label(s), e.g. `account-hold-renewal` for `account-hold-renewal.vercel.app`. */
  tenant: string;
  /** `tenant.suffix`: the identity scored for this destination (`host/prefix/tenant` on path-based platforms). */
  tenantSite: string;
  /** Set on path-based platforms (`sites.google.com/view/<tenant>`): the path before the tenant's segment. */
  path_prefix?: string;
}

/** Hosting facts from rules/hosting.json. */
export class HostingCatalog {
  private readonly suspicious: Set<string>;
  /** Host-suffix platforms by suffix, each with its position in the list (the first listed match wins). */
  private readonly bySuffix = new Map<string, { index: number; suffix: string; provider: string }>();
  /** Path-based platforms (`sites.google.com/view/`) by their exact host, in list order. */
  private readonly byPathHost = new Map<string, { suffix: string; provider: string; path_prefix: string }[]>();

  constructor(readonly data: HostingData) {
    this.suspicious = new Set(data.suspicious_tlds);
    data.free_hosting.forEach(({ suffix, provider, path_prefix }, index) => {
      if (path_prefix === undefined) {
        if (!this.bySuffix.has(suffix)) this.bySuffix.set(suffix, { index, suffix, provider });
      } else {
        const list = this.byPathHost.get(suffix) ?? [];
        list.push({ suffix, provider, path_prefix });
        this.byPathHost.set(suffix, list);
      }
    });
  }

  /**
   * The free-hosting tenant behind a host (and, for path-based platforms such as Google Sites or IPFS gateways,
   * the URL's first path segment after the platform's prefix).
   *
   * Lookups walk the host's own suffixes through two maps instead of scanning the list (this runs several times
   * per action check); among several matching suffixes the one listed first wins, as in a scan of the list.
   */
  freeHostingFor(target: Pick<Target, 'host'> & { url?: URL }): FreeHostingMatch | undefined {
    if (target.url) {
      for (const { suffix, provider, path_prefix } of this.byPathHost.get(target.host) ?? []) {
        const match = pathTenant(target.url, suffix, path_prefix);
        if (match) return { suffix, provider, ...match };
      }
    }
    if (this.isPlatformHost(target.host)) return undefined;
    let best: { index: number; suffix: string; provider: string } | undefined;
    // Every proper suffix of the host that starts after a dot: `a.b.vercel.app` → `b.vercel.app`, `vercel.app`, `app`.
    for (let dot = target.host.indexOf('.'); dot !== -1; dot = target.host.indexOf('.', dot + 1)) {
      const hit = this.bySuffix.get(target.host.slice(dot + 1));
      if (hit && (!best || hit.index < best.index)) best = hit;
    }
    if (!best) return undefined;
    const { suffix, provider } = best;
    const rest = target.host.slice(0, -suffix.length - 1);
    const tenant = rest.slice(rest.lastIndexOf('.') + 1);
    return { suffix, provider, tenant, tenantSite: `${tenant}.${suffix}` };
  }

  /** The platform itself (`vercel.app`, `www.vercel.app`) rather than a tenant of it. */
  isPlatformHost(host: string): boolean {
    return this.bySuffix.has(host.startsWith('www.') ? host.slice(4) : host);
  }

  suspiciousTld(host: string): string | undefined {
    const tld = host.slice(host.lastIndexOf('.') + 1);
    return this.suspicious.has(tld) ? tld : undefined;
  }
}

/** Tenant segment names are short identifiers; anything longer is not a site name a reader sees. */
const MAX_PATH_TENANT = 128;

function pathTenant(url: URL, host: string, prefix: string) {
  if (!url.pathname.startsWith(prefix)) return undefined;
  const tenant = url.pathname.slice(prefix.length).split('/')[0]?.slice(0, MAX_PATH_TENANT).toLowerCase();
  if (!tenant) return undefined;
  return { tenant, tenantSite: `${host}${prefix}${tenant}`, path_prefix: prefix };
}
