import type { InjectionToken } from 'tsyringe';
import type { BrandEntry, HostingData } from '../rules/ruleset.ts';
import type { Target } from './target.ts';

/** Trusted brands from rules/brands.json, indexed for the lookups URL detectors make. */
export class BrandCatalog {
  private readonly byDomain = new Map<string, BrandEntry>();
  private readonly byToken = new Map<string, BrandEntry>();
  private readonly byOauthHost = new Map<string, BrandEntry>();

  constructor(readonly brands: readonly BrandEntry[]) {
    for (const b of brands) {
      for (const d of b.domains) this.byDomain.set(d, b);
      for (const t of b.tokens) this.byToken.set(t, b);
      for (const h of b.oauth_hosts) this.byOauthHost.set(h, b);
    }
  }

  /** The brand that owns this host (the host is one of its domains or below one). */
  ownerOf(host: string): BrandEntry | undefined {
    for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) {
      const b = this.byDomain.get(h);
      if (b) return b;
    }
    return undefined;
  }

  byTokenExact(token: string): BrandEntry | undefined {
    return this.byToken.get(token);
  }

  oauthProviderOf(host: string): BrandEntry | undefined {
    return this.byOauthHost.get(host);
  }

  /** Brands whose tokens occur in `text` (lower-case; a token must be a whole alphanumeric run or its prefix). */
  tokensIn(text: string): { brand: BrandEntry; token: string }[] {
    const found = new Map<string, { brand: BrandEntry; token: string }>();
    for (const run of text.toLowerCase().split(/[^a-z0-9]+/)) {
      if (run.length < 3) continue;
      for (const [token, brand] of this.byToken) {
        if (!found.has(brand.id) && run.includes(token) && (run === token || token.length >= 5)) {
          found.set(brand.id, { brand, token });
        }
      }
    }
    return [...found.values()];
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
    for (const { suffix, provider } of this.data.free_hosting) {
      if (target.host.endsWith(`.${suffix}`)) {
        const rest = target.host.slice(0, -suffix.length - 1);
        const tenant = rest.slice(rest.lastIndexOf('.') + 1);
        return { suffix, provider, tenant, tenantSite: `${tenant}.${suffix}` };
      }
    }
    return undefined;
  }

  /** The platform itself (`vercel.app`, `www.vercel.app`…) rather than a tenant of it. */
  isPlatformHost(host: string): boolean {
    return this.data.free_hosting.some((f) => host === f.suffix);
  }

  suspiciousTld(host: string): string | undefined {
    const tld = host.slice(host.lastIndexOf('.') + 1);
    return this.suspicious.has(tld) ? tld : undefined;
  }
}
