import { parse } from 'tldts';
import type { BrandEntry, HostingData } from '../rules/ruleset.ts';
import type { Target } from './target.ts';

/** Trusted brands from rules/brands.json, indexed for the lookups URL detectors make. */
export class BrandCatalog {
  private readonly byDomain = new Map<string, BrandEntry>();
  private readonly byOauthHost = new Map<string, BrandEntry>();
  private readonly byCountryLabel = new Map<string, BrandEntry>();

  constructor(readonly brands: readonly BrandEntry[]) {
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
}

export interface FreeHostingMatch {
  suffix: string;
  provider: string;
  /** The tenant's own label(s), e.g. `account-hold-renewal` for `account-hold-renewal.vercel.app`. */
  tenant: string;
  /** `tenant.suffix`: the identity scored for this destination. */
  tenantSite: string;
}

/** Hosting facts from rules/hosting.json. */
export class HostingCatalog {
  private readonly suspicious: Set<string>;

  constructor(readonly data: HostingData) {
    this.suspicious = new Set(data.suspicious_tlds);
  }

  freeHostingFor(target: Pick<Target, 'host'>): FreeHostingMatch | undefined {
    if (this.isPlatformHost(target.host)) return undefined;
    for (const { suffix, provider } of this.data.free_hosting) {
      if (target.host.endsWith(`.${suffix}`)) {
        const rest = target.host.slice(0, -suffix.length - 1);
        const tenant = rest.slice(rest.lastIndexOf('.') + 1);
        return { suffix, provider, tenant, tenantSite: `${tenant}.${suffix}` };
      }
    }
    return undefined;
  }

  /** The platform itself (`vercel.app`, `www.vercel.app`) rather than a tenant of it. */
  isPlatformHost(host: string): boolean {
    const bare = host.startsWith('www.') ? host.slice(4) : host;
    return this.data.free_hosting.some((f) => bare === f.suffix);
  }

  suspiciousTld(host: string): string | undefined {
    const tld = host.slice(host.lastIndexOf('.') + 1);
    return this.suspicious.has(tld) ? tld : undefined;
  }
}
