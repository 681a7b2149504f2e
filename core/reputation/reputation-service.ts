import { inject, injectable } from 'tsyringe';
import { Knex } from '../db/knex-token.ts';
import { HostingCatalog } from '../url/catalogs.ts';
import type { Target } from '../url/target.ts';
import { normalizedUrl } from './feed-entry.ts';

export interface FeedHit {
  kind: 'host' | 'url';
  value: string;
  category: string;
  source: string;
  first_seen: string;
  last_seen: string;
}

export interface Reputation {
  knownGood: boolean;
  /** Feed entries that name this destination. Empty when none do, or when the lookup did not finish. */
  feedHits: FeedHit[];
  /** False when the feed lookup failed or ran past its budget: the verdict then rests on the URL alone. */
  available: boolean;
  warning?: string;
}

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 50_000;
const KNOWN_GOOD_REFRESH_MS = 60_000;

/**
 * Threat-feed and known-good lookups for the fast action check. Known-good domains live in memory (a few thousand
 * rows, refreshed in the background); feed entries are read per site through a TTL cache, so the warm path does no
 * I/O and the cold path one indexed query under a deadline.
 */
@injectable()
export class ReputationService {
  private knownGood: Set<string> | undefined;
  private knownGoodLoadedAt = 0;
  private knownGoodLoading: Promise<void> | undefined;
  private readonly feedCache = new Map<string, { expires: number; rows: FeedHit[] }>();

  constructor(
    @inject(Knex) private readonly knex: Knex,
    @inject(HostingCatalog) private readonly hosting: HostingCatalog,
  ) {}

  /** Call after importing feeds or known-good domains in this process. */
  invalidate(): void {
    this.feedCache.clear();
    this.knownGoodLoadedAt = 0;
  }

  /**
   * Known-good means the destination's own site is on the list: a tenant of a shared platform never inherits the
   * platform's standing, and a bare IP is never known-good.
   */
  isKnownGood(target: Target): boolean | undefined {
    if (!this.knownGood) return undefined;
    if (target.isIp || !target.registrableDomain) return false;
    if (target.site !== target.registrableDomain || this.hosting.freeHostingFor(target)) return false;
    return this.knownGood.has(target.registrableDomain);
  }

  async lookup(target: Target, budgetMs: number): Promise<Reputation> {
    const deadline = new Promise<'timeout'>((resolve) => setTimeout(resolve, budgetMs, 'timeout').unref());
    const work = Promise.all([this.ensureKnownGood(), this.feedRows(target)]);
    work.catch(() => {}); // a late failure after the deadline has nobody to tell
    let outcome: Awaited<typeof work> | 'timeout';
    try {
      outcome = await Promise.race([work, deadline]);
    } catch {
      return {
        knownGood: this.isKnownGood(target) ?? false,
        feedHits: [],
        available: false,
        warning: 'reputation lookup failed; verdict rests on the URL alone',
      };
    }
    if (outcome === 'timeout') {
      return {
        knownGood: this.isKnownGood(target) ?? false,
        feedHits: [],
        available: false,
        warning: `reputation lookup exceeded its ${budgetMs} ms budget; verdict rests on the URL alone`,
      };
    }
    const [, rows] = outcome;
    const knownGood = this.isKnownGood(target) ?? false;
    // On a known-good site only an entry for this exact URL counts: one bad page does not condemn the site.
    const exact = normalizedUrl(target.url, target.host);
    const feedHits = knownGood ? rows.filter((r) => r.kind === 'url' && r.value === exact) : rows;
    return { knownGood, feedHits, available: true };
  }

  private ensureKnownGood(): Promise<void> {
    const stale = Date.now() - this.knownGoodLoadedAt > KNOWN_GOOD_REFRESH_MS;
    if (!stale) return Promise.resolve();
    this.knownGoodLoading ??= this.knex('known_good_domains')
      .pluck('domain')
      .then((domains: string[]) => {
        this.knownGood = new Set(domains);
        this.knownGoodLoadedAt = Date.now();
      })
      .finally(() => {
        this.knownGoodLoading = undefined;
      });
    // Serve a stale list while a refresh runs; wait only when there is no list yet.
    return this.knownGood ? Promise.resolve() : this.knownGoodLoading;
  }

  private async feedRows(target: Target): Promise<FeedHit[]> {
    const now = Date.now();
    const cached = this.feedCache.get(target.host);
    if (cached && cached.expires > now) return cached.rows;

    // The host and its parents, but never above the site: a feed entry for a platform does not reach its tenants.
    const hosts: string[] = [];
    for (let h = target.host; ; h = h.slice(h.indexOf('.') + 1)) {
      hosts.push(h);
      if (h === target.site || !h.includes('.') || target.isIp) break;
    }
    const rows: FeedHit[] = (
      await this.knex('threat_feed_entries')
        .whereIn('host', hosts)
        .select('kind', 'value', 'category', 'source', 'first_seen', 'last_seen')
        .limit(50)
    ).map((r) => ({
      ...r,
      first_seen: new Date(r.first_seen).toISOString(),
      last_seen: new Date(r.last_seen).toISOString(),
    }));
    if (this.feedCache.size >= CACHE_MAX) this.feedCache.delete(this.feedCache.keys().next().value as string);
    this.feedCache.set(target.host, { expires: now + CACHE_TTL_MS, rows });
    return rows;
  }
}
