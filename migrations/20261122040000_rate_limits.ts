import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One row per bucket (route + caller) per fixed one-minute window. Requests bump the row with a single
  // upsert, so every API process on this database counts against the same number.
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.text('bucket').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['bucket', 'window_start']);
    // The purge deletes by age across all buckets; the primary key leads with bucket and cannot serve it.
    t.index(['window_start']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_counters');
}
