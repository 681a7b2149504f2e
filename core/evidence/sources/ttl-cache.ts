import { found, type Lookup } from './lookup.ts';

/** A small in-memory cache: entries expire after `ttlMs`, the oldest insertion goes first when full. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Serve a cached success or run the lookup; only successes are cached, so a source that was down a moment ago is
 * asked again on the next scan.
 */
export async function cachedLookup<T>(
  cache: TtlCache<T>,
  key: string,
  run: () => Promise<Lookup<T>>,
): Promise<Lookup<T>> {
  const hit = cache.get(key);
  if (hit !== undefined) return found(hit, true);
  const result = await run();
  if (result.ok) cache.set(key, result.value);
  return result;
}
