import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scans', (t) => {
    t.bigIncrements('id');
    // Null for anonymous callers (scanner endpoints allow them at a lower rate).
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.text('domain').notNullable();
    t.text('host').notNullable();
    t.text('target_url').notNullable();
    t.integer('score').notNullable();
    t.text('risk_level').notNullable();
    t.specificType('flags', 'text[]').notNullable();
    // The full result for the evidence window; retention later compacts it to the lean history payload.
    t.jsonb('result').notNullable();
    t.boolean('compacted').notNullable().defaultTo(false);
    t.uuid('evidence_pack_id');
    t.text('ruleset_hash').notNullable();
    t.text('actor');
    t.boolean('force_scan').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'domain', 'created_at']);
  });

  await knex.schema.createTable('evidence_packs', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.bigInteger('scan_id').references('scans.id').onDelete('CASCADE');
    t.text('sha256').notNullable();
    // Canonical JSON, byte for byte what was hashed and what GET /evidencepacks/<id> serves.
    t.text('canonical').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Fingerprints of every scanned host, for reused-infrastructure and campaign detection across our own history.
  await knex.schema.createTable('fingerprints_seen', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable().checkIn(['cert_sha256', 'favicon_hash', 'ip']);
    t.text('value').notNullable();
    t.text('host').notNullable();
    t.text('risk_level').notNullable();
    t.specificType('flags', 'text[]').notNullable();
    t.bigInteger('scan_id').references('scans.id').onDelete('SET NULL');
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['kind', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('fingerprints_seen');
  await knex.schema.dropTable('evidence_packs');
  await knex.schema.dropTable('scans');
}
