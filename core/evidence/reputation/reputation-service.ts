import { inject, injectable } from 'tsyringe';
import { HostingCatalog } from '../../engine/url/catalogs.ts';
import type { Target } from '../../engine/url/target.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import { normalizedUrl } from './feed-entry.ts';

export interface FeedHit {
  kind: 'host' | 'url';
  value: string;
  category: string;
  source: string;
  first_seen: string;
  last_seen: string;
}

/** The newest scan of this host in the caller's workspace (last 30 days), when there is one. */
export interface PriorScan {
  scan_id: number;
  score: number;
  risk_level: string;
  scanned_at: string;
}

export interface Reputation {
  knownGood: boolean;
  priorScan?: PriorScan;
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
  private readonly scanCache = new Map<string, { expires: number; scan: PriorScan | undefined }>();

  constructor(
    @inject(Knex) private readonly knex: Knex,
    @inject(HostingCatalog) private readonly hosting: HostingCatalog,
  ) {}

  /** Call after importing feeds or known-good domains in this process. */
  invalidate(): void {
    this.feedCache.clear();
    this.scanCache.clear();
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

  async lookup(target: Target, budgetMs: number, workspaceId?: string | null): Promise<Reputation> {
    const deadline = new Promise<'timeout'>((resolve) => setTimeout(resolve, budgetMs, 'timeout').unref());
    const work = Promise.all([this.ensureKnownGood(), this.feedRows(target), this.priorScan(target, workspaceId)]);
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
    const [, rows, priorScan] = outcome;
    const knownGood = this.isKnownGood(target) ?? false;
    // On a known-good site only an entry for this exact URL counts: one bad page does not condemn the site.
    const exact = normalizedUrl(target.url, target.host);
    const feedHits = knownGood ? rows.filter((r) => r.kind === 'url' && r.value === exact) : rows;
    return { knownGood, feedHits, available: true, ...(priorScan ? { priorScan } : {}) };
  }

  /** A scan just recorded replaces what this process cached for the host. */
  forgetPriorScan(workspaceId: string | null, host: string): void {
    if (workspaceId) this.scanCache.delete(`${workspaceId}|${host}`);
  }

  /** Earlier scan results are workspace-scoped like every scan read; anonymous checks have none. */
  private async priorScan(target: Target, workspaceId: string | null | undefined): Promise<PriorScan | undefined> {
    if (!workspaceId) return undefined;
    const key = `${workspaceId}|${target.host}`;
    const now = Date.now();
    const cached = this.scanCache.get(key);
    if (cached && cached.expires > now) return cached.scan;
    const row = await this.knex('scans')
      .where({ workspace_id: workspaceId, domain: target.host })
      .where('created_at', '>', this.knex.raw(`now() - interval '30 days'`))
      .orderBy('id', 'desc')
      .first('id', 'score', 'risk_level', 'created_at');
    const scan = row
      ? {
          scan_id: Number(row.id),
          score: row.score,
          risk_level: row.risk_level,
          scanned_at: new Date(row.created_at).toISOString(),
        }
      : undefined;
    if (this.scanCache.size >= CACHE_MAX) this.scanCache.delete(this.scanCache.keys().next().value as string);
    this.scanCache.set(key, { expires: now + CACHE_TTL_MS, scan });
    return scan;
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
