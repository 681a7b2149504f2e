import type { Knex } from 'knex';

/**
 * MCP tool pinning: per workspace, the hashes of each (server, tool)'s description and input schema as first seen
 * (trust on first use) or as an admin last approved them, and the newest differing definition awaiting approval.
 * Descriptions are kept only as hashes and a short redacted preview of the pending one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tool_pins', (t) => {
    t.bigIncrements('id');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    // '' when the call names no MCP server / connector.
    t.text('server').notNullable();
    t.text('tool').notNullable();
    t.text('description_sha256').notNullable();
    t.text('input_schema_sha256').notNullable();
    // 'first_sight' (trust on first use) or the approving admin ('admin:<key prefix>', with X-Actor when sent).
    t.text('approved_by').notNullable();
    t.timestamp('approved_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('pending_description_sha256');
    t.text('pending_input_schema_sha256');
    t.text('pending_description_preview');
    t.timestamp('pending_seen_at', { useTz: true });
    t.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'server', 'tool']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tool_pins');
}
