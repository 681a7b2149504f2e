/**
 * A cache kept honest by Postgres NOTIFY (the principal cache and the webhook subscriptions use it). Entries are
 * served only while the change listener is LISTENing (core/platform/db/change-listener.ts): writers NOTIFY from inside their
 * transaction and the notification drops the named entries on every process once the change commits. A lookup
 * already under way when an invalidation arrives is not stored (generation check: `begin` before reading, `put`
 * with what it returned), so a read that raced a change cannot put the old row back. The TTL is a backstop, not the
 * mechanism.
 */
export interface NotifiedCacheOptions<V> {
  /** Whether the listener is LISTENing now. */
  isLive: () => boolean;
  ttlMs: number;
  /** Past this, the oldest entry makes room. */
  maxEntries: number;
  now: () => number;
  /**
   * The entries a NOTIFY payload `<kind>:<id>` names: one key, or a test over the entries. Undefined: a payload
   * this cache does not understand, which drops everything (as `flush` does).
   */
  named(kind: string, id: string): string | ((key: string, value: V) => boolean) | undefined;
}

export class NotifiedCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private generation = 0;
  readonly stats = { hits: 0, misses: 0, invalidations: 0, flushes: 0 };

  constructor(private readonly options: NotifiedCacheOptions<V>) {}

  get(key: string): V | undefined {
    if (!this.options.isLive()) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.expires > this.options.now()) {
      this.stats.hits++;
      return entry.value;
    }
    if (entry) this.entries.delete(key);
    this.stats.misses++;
    return undefined;
  }

  /** Call before reading the database; pass the result to `put`. */
  begin(): number {
    return this.generation;
  }

  put(key: string, value: V, generation: number): void {
    if (generation !== this.generation || !this.options.isLive()) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: this.options.now() + this.options.ttlMs });
  }

  /** A NOTIFY payload: `<kind>:<id>` as `named` reads it, or `flush` (anything unknown flushes too). */
  invalidate(payload: string): void {
    this.generation++;
    this.stats.invalidations++;
    const [kind, id] = payload.split(':', 2);
    const which = kind !== undefined && id ? this.options.named(kind, id) : undefined;
    if (typeof which === 'string') this.entries.delete(which);
    else if (which) {
      for (const [key, { value }] of this.entries) if (which(key, value)) this.entries.delete(key);
    } else this.entries.clear();
  }

  flush(): void {
    this.generation++;
    this.stats.flushes++;
    this.entries.clear();
  }
}
