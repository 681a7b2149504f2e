import type { Knex } from 'knex';
import { NotifiedCache } from '../../platform/db/notified-cache.ts';
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
 * Key prefix → key record, so an authenticated request does not read api_keys ⋈ workspaces every time. Every update
 * or delete of a key or workspace NOTIFYs `key:<id>` or `workspace:<id>` (migration *_auth_change_notify); see
 * NotifiedCache for the discipline.
 */
export class PrincipalCache extends NotifiedCache<KeyRecord> {
  /** Told of every invalidation and flush once it has taken effect (metrics). */
  readonly observers: ((event: 'invalidation' | 'flush') => void)[] = [];

  constructor(isLive: () => boolean, ttlMs = TTL_MS, now: () => number = Date.now) {
    super({
      isLive,
      ttlMs,
      now,
      maxEntries: MAX_ENTRIES,
      named: (kind, id) =>
        kind === 'key'
          ? (_prefix, record) => record.principal.keyId === id
          : kind === 'workspace'
            ? (_prefix, record) => record.principal.workspace?.id === id
            : undefined,
    });
  }

  override invalidate(payload: string): void {
    super.invalidate(payload);
    for (const observe of this.observers) observe('invalidation');
  }

  override flush(): void {
    super.flush();
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
