import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Per-workspace counters per UTC day; incremented atomically with their limit in the same statement, so
  // several API processes share one quota.
  await knex.schema.createTable('quota_usage', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.date('day').notNullable();
    t.integer('used').notNullable().defaultTo(0);
    t.primary(['workspace_id', 'kind', 'day']);
  });

  await knex.schema.createTable('scan_screenshots', (t) => {
    t.uuid('id').primary();
    t.bigInteger('scan_id').references('scans.id').onDelete('CASCADE');
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.binary('png').notNullable();
    t.text('sha256').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_screenshots');
  await knex.schema.dropTable('quota_usage');
}
