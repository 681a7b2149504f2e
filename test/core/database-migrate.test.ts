// Opening a fresh database from several processes at once (replicas starting together, replay runs in parallel):
// knex alone lets each racer create its own lock row and then refuses every later migration for good.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../core/platform/db/database.ts';
import { createTestDatabase } from '../support/database.ts';

const firstOf = <T>(list: T[]): T => {
  const head = list[0];
  if (head === undefined) throw new Error('no database opened');
  return head;
};

describe('database migrations', () => {
  let url: string;
  let drop: () => Promise<void>;
  before(async () => {
    ({ url, drop } = await createTestDatabase());
  });
  after(async () => drop());

  it('four opens racing on a fresh database all succeed, one applies the schema, and later opens still work', async () => {
    const opens = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ databaseUrl: url, dataDir: '' })));
    try {
      const appliedCounts = opens.map((db) => db.applied.length).sort((a, b) => a - b);
      const last = appliedCounts[3];
      assert.deepEqual(appliedCounts.slice(0, 3), [0, 0, 0]);
      assert.ok(last !== undefined && last > 0, 'one open applied the migrations');
      const locks = await firstOf(opens).knex('knex_migrations_lock').select('is_locked');
      assert.deepEqual(locks, [{ is_locked: 0 }]);
    } finally {
      await Promise.all(opens.map((db) => db.close()));
    }
    const again = await openDatabase({ databaseUrl: url, dataDir: '' });
    try {
      assert.deepEqual(again.applied, []);
      assert.ok(await again.knex.schema.hasTable('workspaces'));
    } finally {
      await again.close();
    }
  });
});
