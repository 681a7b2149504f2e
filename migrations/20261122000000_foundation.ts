import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable().unique();
    t.text('plan').notNullable().defaultTo('free');
    t.boolean('agent_checks_enabled').notNullable().defaultTo(true);
    t.boolean('campaign_tagging_enabled').notNullable().defaultTo(false);
    // Tool policy, sanctioned connectors, high-impact tools: one document the policy endpoints read and write.
    t.jsonb('agent_policy').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    // Only the lookup prefix (shown in listings) and the sha256 of the whole key are kept.
    t.text('prefix').notNullable().unique();
    t.binary('key_sha256').notNullable();
    t.text('role').notNullable().checkIn(['admin', 'agent']);
    t.text('label');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
  });

  await knex.schema.createTable('signing_keys', (t) => {
    t.text('key_id').primary();
    t.text('algorithm').notNullable();
    t.text('public_key_pem').notNullable();
    t.text('private_key_pem').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('id');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('endpoint').notNullable();
    t.text('surface').notNullable();
    t.text('actor');
    t.text('request_id').notNullable();
    t.uuid('decision_id').notNullable();
    t.text('outcome').notNullable();
    t.specificType('flags', 'text[]').notNullable();
    t.text('prompt_preview').notNullable();
    t.text('prompt_sha256').notNullable();
    t.text('decision_sha256').notNullable();
    t.text('ruleset_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex.schema.dropTable('signing_keys');
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('workspaces');
}
