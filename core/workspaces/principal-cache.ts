import type { Knex } from 'knex';
import type { Principal } from './api-keys.ts';

/** What a key lookup found: enough to check the presented key and, when it checks out, the principal. */
export interface KeyRecord {
  keySha256: Buffer;
  revoked: boolean;
  principal: Principal;
}

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * Key prefix → key record, so an authenticated request does not read api_keys ⋈ workspaces every time.
 *
 * Entries are served only while the change listener is LISTENing (core/db/change-listener.ts): every update or
 * delete of a key or workspace NOTIFYs from inside its transaction (migration *_auth_change_notify), and the
 * notification drops the affected entries on every process. The TTL is a backstop, not the mechanism. A lookup
 * that was already under way when an invalidation arrived is not stored (generation check), so a read that raced
 * a revoke cannot put the pre-revoke row back.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { record: KeyRecord; expires: number }>();
  private generation = 0;
  readonly stats = { hits: 0, misses: 0, invalidations: 0, flushes: 0 };
  /** Told of every invalidation and flush once it has taken effect (metrics). */
  readonly observers: ((event: 'invalidation' | 'flush') => void)[] = [];

  constructor(
    private readonly isLive: () => boolean,
    private readonly ttlMs = TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(prefix: string): KeyRecord | undefined {
    if (!this.isLive()) return undefined;
    const entry = this.entries.get(prefix);
    if (entry && entry.expires > this.now()) {
      this.stats.hits++;
      return entry.record;
    }
    if (entry) this.entries.delete(prefix);
    this.stats.misses++;
    return undefined;
  }

  /** Call before reading the database; pass the result to `put`. */
  begin(): number {
    return this.generation;
  }

  put(prefix: string, record: KeyRecord, generation: number): void {
    if (generation !== this.generation || !this.isLive()) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(prefix, { record, expires: this.now() + this.ttlMs });
  }

  /** A NOTIFY payload: `key:<id>`, `workspace:<id>` or `flush` (anything unknown flushes too). */
  invalidate(payload: string): void {
    this.generation++;
    this.stats.invalidations++;
    const [kind, id] = payload.split(':', 2);
    if (kind === 'key' && id) {
      for (const [prefix, { record }] of this.entries) if (record.principal.keyId === id) this.entries.delete(prefix);
    } else if (kind === 'workspace' && id) {
      for (const [prefix, { record }] of this.entries) {
        if (record.principal.workspace?.id === id) this.entries.delete(prefix);
      }
    } else {
      this.entries.clear();
    }
    for (const observe of this.observers) observe('invalidation');
  }

  flush(): void {
    this.generation++;
    this.stats.flushes++;
    this.entries.clear();
    for (const observe of this.observers) observe('flush');
  }
}

// The cache travels with the app's knex instance, so every auth middleware built from that knex uses it without
// being handed it; a knex with no cache attached (CLI, unit tests) reads the database every time.
const attached = new WeakMap<Knex, PrincipalCache>();

export function attachPrincipalCache(knex: Knex, cache: PrincipalCache): void {
  attached.set(knex, cache);
}

export function principalCacheOf(knex: Knex): PrincipalCache | undefined {
  return attached.get(knex);
}

/**
 * A change this process just committed: dropped from its own cache at once, without waiting for the NOTIFY to
 * come back (which every other process relies on).
 */
export function changedLocally(knex: Knex, payload: string): void {
  attached.get(knex)?.invalidate(payload);
}
