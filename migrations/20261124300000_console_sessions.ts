import type { Knex } from 'knex';

// Browser sessions of the web console: a session stands for the admin key that opened it, so revoking that key
// (or the session's expiry) ends it. Only the sha256 of the session token is stored.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('console_sessions', (t) => {
    t.uuid('id').primary();
    t.specificType('token_sha256', 'bytea').notNullable().unique();
    t.uuid('key_id').notNullable().references('api_keys.id').onDelete('CASCADE');
    t.text('csrf_token').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('console_sessions');
}
