import type { Knex } from 'knex';

/**
 * Scan fingerprints belong to the workspace whose scan saw them ("own scan history only"): reused-fingerprint and
 * campaign detectors query only the scanning workspace's rows, and anonymous scans a bucket of their own (null).
 * Existing rows take the workspace of their scan; rows whose scan is gone cannot be attributed and are dropped
 * rather than left in the anonymous bucket.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('fingerprints_seen', (t) => {
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
  });
  await knex.raw(`
    update fingerprints_seen f set workspace_id = s.workspace_id from scans s where f.scan_id = s.id`);
  await knex('fingerprints_seen').whereNull('scan_id').delete();
  await knex.schema.alterTable('fingerprints_seen', (t) => {
    t.dropIndex(['kind', 'value']);
    t.index(['workspace_id', 'kind', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('fingerprints_seen', (t) => {
    t.dropIndex(['workspace_id', 'kind', 'value']);
    t.index(['kind', 'value']);
    t.dropColumn('workspace_id');
  });
}
