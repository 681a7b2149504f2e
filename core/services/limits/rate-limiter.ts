import type { Knex } from 'knex';

/** Fixed windows: plans state their limits per minute. */
export const WINDOW_SECONDS = 60;
/** Windows older than this are purged; the current window and the one before are always kept. */
const RETAIN_SECONDS = 2 * WINDOW_SECONDS;

export interface RateLimitResult {
  allowed: boolean;
  /** Requests left in the current window after this one (0 once refused). */
  remaining: number;
  limit: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
}

export interface RateLimiterOptions {
  /**
   * The clock that places a request in its window. Unset, the database's now() is used, so API processes whose
   * clocks drift still agree on where a minute starts. Tests inject a clock instead of sleeping.
   */
  now?: () => Date;
  /**
   * Share of hits that also purge expired windows in the background (default 0.01). 0 turns it off, for callers
   * that schedule purgeExpired() themselves.
   */
  purgeProbability?: number;
  random?: () => number;
  /** A failed background purge must not fail the request that happened to trigger it. */
  onPurgeError?: (err: unknown) => void;
}

/**
 * Fixed one-minute window counters in PostgreSQL. Each hit is one upsert that increments and returns the count,
 * so any number of API processes on the same database share each limit exactly.
 */
export class RateLimiter {
  private readonly now: (() => Date) | undefined;
  private readonly purgeProbability: number;
  private readonly random: () => number;
  private readonly onPurgeError: (err: unknown) => void;
  private purging: Promise<void> | undefined;

  constructor(
    private readonly knex: Knex,
    opts: RateLimiterOptions = {},
  ) {
    this.now = opts.now;
    this.purgeProbability = opts.purgeProbability ?? 0.01;
    this.random = opts.random ?? Math.random;
    this.onPurgeError =
      opts.onPurgeError ??
      ((err) => process.stderr.write(`rate limiter: purging old windows failed: ${String(err)}\n`));
  }

  async hit(bucket: string, limit: number): Promise<RateLimitResult> {
    if (!Number.isInteger(limit) || limit < 0)
      throw new RangeError(`rate limit must be a whole number >= 0, got ${limit}`);
    const at = this.now?.() ?? null;
    // Refused requests are counted too: the count only decides allowed/refused, and always writing keeps this to
    // one statement that also yields the window's end for Retry-After.
    const { rows } = await this.knex.raw<{ rows: { count: number; reset_seconds: number }[] }>(
      `insert into rate_limit_counters as c (bucket, window_start, count)
       values (?, to_timestamp(floor(extract(epoch from coalesce(?::timestamptz, now())) / ?) * ?), 1)
       on conflict (bucket, window_start) do update set count = c.count + 1
       returning c.count,
         extract(epoch from c.window_start + make_interval(secs => ?) - coalesce(?::timestamptz, now()))::float8
           as reset_seconds`,
      [bucket, at, WINDOW_SECONDS, WINDOW_SECONDS, WINDOW_SECONDS, at],
    );
    const row = rows[0]!;
    this.maybePurge();
    return {
      allowed: row.count <= limit,
      remaining: Math.max(0, limit - row.count),
      limit,
      resetSeconds: Math.min(WINDOW_SECONDS, Math.max(1, Math.ceil(row.reset_seconds))),
    };
  }

  /** Deletes windows that can no longer count; returns how many rows went. Safe to run from every process. */
  async purgeExpired(): Promise<number> {
    const at = this.now?.() ?? null;
    return this.knex('rate_limit_counters')
      .where(
        'window_start',
        '<',
        this.knex.raw('coalesce(?::timestamptz, now()) - make_interval(secs => ?)', [at, RETAIN_SECONDS]),
      )
      .del();
  }

  /** Resolves once a background purge (if any) has finished: for shutdown and tests. */
  async idle(): Promise<void> {
    await this.purging;
  }

  private maybePurge(): void {
    // One purge per process at a time: a burst of hits must not pile up deletes on the pool.
    if (this.purging || this.purgeProbability <= 0 || this.random() >= this.purgeProbability) return;
    this.purging = this.purgeExpired()
      .then(
        () => undefined,
        (err: unknown) => this.onPurgeError(err),
      )
      .finally(() => {
        this.purging = undefined;
      });
  }
}
