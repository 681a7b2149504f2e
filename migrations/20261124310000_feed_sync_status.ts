import type { Knex } from 'knex';

/** One row per configured feed: what its last `feeds sync` pull did (shown by `npx preflight feeds status`). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('feed_sync_status', (t) => {
    t.text('name').primary();
    t.text('url').notNullable();
    t.text('format').notNullable();
    // running | ok | not_modified | unchanged | error
    t.text('status').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.integer('duration_ms');
    t.integer('entries').notNullable().defaultTo(0);
    t.integer('inserted').notNullable().defaultTo(0);
    t.integer('updated').notNullable().defaultTo(0);
    t.integer('rejected').notNullable().defaultTo(0);
    t.bigInteger('bytes').notNullable().defaultTo(0);
    t.text('sha256');
    t.text('etag');
    t.text('last_modified');
    t.text('last_error');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.integer('runs').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('feed_sync_status');
}
